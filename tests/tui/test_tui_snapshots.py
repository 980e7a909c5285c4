"""Snapshots of every screen (pytest-textual-snapshot): clock frozen, ids stable, animations and
cursor blink off. Regenerate after an intended change with ``pytest tests/test_tui_snapshots.py
--snapshot-update`` and look at the SVGs before committing them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import DataTable, Input, TextArea

from core.demo.build import DemoHome
from core.paths import HomePaths
from core.vault.crypto import KdfParams
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures
    FakeEditor,
    frozen_clock_fixture,  # noqa: F401
    make_app,
    settle,
    snapshot_demo_fixture,  # noqa: F401
    stable_ids_fixture,  # noqa: F401
    tui_config,
)
from tui_app.app import ReverieApp

Snap = Callable[..., bool]
WIDE, NARROW = (100, 30), (80, 24)


def keys(
    *pressed: str, then: Callable[[Pilot[Any]], Awaitable[None]] | None = None
) -> Callable[[Pilot[Any]], Awaitable[None]]:
    """Press ``pressed`` one at a time, letting every worker finish after each; then run ``then``."""

    async def run(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        for key in pressed:
            await pilot.press(key)
            await settle(pilot)
        if then is not None:
            await then(pilot)
            await settle(pilot)
        pilot.app.clear_notifications()
        await pilot.pause()

    return run


def at_draft(draft_id: str, *after: str, show: str = "0") -> Callable[[Pilot[Any]], Awaitable[None]]:
    async def go(pilot: Pilot[Any]) -> None:
        table = pilot.app.screen.query_one("#queue-table", DataTable)
        table.move_cursor(row=table.get_row_index(draft_id))
        for key in ("enter", *after):
            await pilot.press(key)
            await settle(pilot)

    return keys("f3", show, then=go)


def test_home(snap_compare: Snap, snapshot_demo: DemoHome) -> None:
    assert snap_compare(make_app(snapshot_demo), terminal_size=WIDE, run_before=keys())


def test_home_80x24(snap_compare: Snap, snapshot_demo: DemoHome) -> None:
    assert snap_compare(make_app(snapshot_demo), terminal_size=NARROW, run_before=keys())


def test_review_queue(snap_compare: Snap, snapshot_demo: DemoHome) -> None:
    assert snap_compare(make_app(snapshot_demo), terminal_size=WIDE, run_before=keys("f3", "0"))


def test_draft_review(snap_compare: Snap, snapshot_demo: DemoHome) -> None:
    assert snap_compare(make_app(snapshot_demo), terminal_size=WIDE, run_before=at_draft("draft_demo_fts5"))


def test_draft_review_80x24(snap_compare: Snap, snapshot_demo: DemoHome) -> None:
    assert snap_compare(make_app(snapshot_demo), terminal_size=NARROW, run_before=at_draft("draft_demo_jeju"))


def test_accept_confirmation(snap_compare: Snap, snapshot_demo: DemoHome) -> None:
    assert snap_compare(make_app(snapshot_demo), terminal_size=WIDE, run_before=at_draft("draft_demo_jeju", "a"))


def test_edit_then_accept(snap_compare: Snap, snapshot_demo: DemoHome) -> None:
    assert snap_compare(make_app(snapshot_demo), terminal_size=WIDE, run_before=at_draft("draft_demo_jeju", "e"))


def test_finalize_confirmation(snap_compare: Snap, snapshot_demo: DemoHome) -> None:
    run = at_draft("draft_demo_book", "f", show="2")
    assert snap_compare(make_app(snapshot_demo), terminal_size=WIDE, run_before=run)


def test_capture(snap_compare: Snap, snapshot_demo: DemoHome) -> None:
    async def write(pilot: Pilot[Any]) -> None:
        pilot.app.screen.query_one(
            TextArea
        ).text = "Booked the ryokan in Hakuba for 14-16 February; Kate pays the train."
        pilot.app.screen.query_one(Input).value = "travel, friends"

    app = make_app(snapshot_demo, editor=FakeEditor())
    assert snap_compare(app, terminal_size=WIDE, run_before=keys("f3", "n", then=write))


def test_memories(snap_compare: Snap, snapshot_demo: DemoHome) -> None:
    assert snap_compare(make_app(snapshot_demo), terminal_size=WIDE, run_before=keys("f4"))


def test_memory_provenance(snap_compare: Snap, snapshot_demo: DemoHome) -> None:
    async def open_ski(pilot: Pilot[Any]) -> None:
        table = pilot.app.screen.query_one("#memories-table", DataTable)
        table.move_cursor(row=table.get_row_index("mem_draft_demo_ski"))
        await pilot.press("enter")

    assert snap_compare(make_app(snapshot_demo), terminal_size=WIDE, run_before=keys("f4", then=open_ski))


def test_unlock_after_a_wrong_passphrase(snap_compare: Snap, snapshot_demo: DemoHome) -> None:
    app = make_app(snapshot_demo, locked=True)
    assert snap_compare(app, terminal_size=WIDE, run_before=keys(*"guess", "enter"))


def test_create_vault(snap_compare: Snap, snapshot_demo: DemoHome, tmp_path: Path) -> None:
    app = ReverieApp(HomePaths.at(tmp_path / "new-home"), tui_config(), None, kdf=KdfParams.for_tests())
    assert snap_compare(app, terminal_size=WIDE, run_before=keys(*"long enough", "enter"))


# --- curation, cold storage, calibration ------------------------------------------------------------


def curation_home(tmp_path: Path, monkeypatch: Any) -> DemoHome:
    """The snapshot demo home, with cold-storage move ids that do not depend on chance (they show on
    the cold-storage screen)."""
    from core import clock
    from core.demo.build import build_demo_home

    monkeypatch.setattr("core.curate.cold.move.new_move_id", lambda now: f"m-{now:%Y%m%dT%H%M%S}-000000000001")
    monkeypatch.setenv("HOME", str(tmp_path))
    return build_demo_home(tmp_path / "demo", now=clock.utc_now(), timezone="UTC")


def test_curation(snap_compare: Snap, frozen_clock: Any, stable_ids: None, tmp_path: Path, monkeypatch: Any) -> None:
    app = make_app(curation_home(tmp_path, monkeypatch))
    assert snap_compare(app, terminal_size=WIDE, run_before=keys("f7"))


def test_curation_80x24(
    snap_compare: Snap, frozen_clock: Any, stable_ids: None, tmp_path: Path, monkeypatch: Any
) -> None:
    app = make_app(curation_home(tmp_path, monkeypatch))
    assert snap_compare(app, terminal_size=NARROW, run_before=keys("f7"))


def test_move_confirmation(
    snap_compare: Snap, frozen_clock: Any, stable_ids: None, tmp_path: Path, monkeypatch: Any
) -> None:
    from core.curate import engine

    demo = curation_home(tmp_path, monkeypatch)
    engine.decide_candidate(demo.paths, "reverie-memory:reference_conference_cfp.md", "approved", now=frozen_clock)
    assert snap_compare(make_app(demo), terminal_size=WIDE, run_before=keys("f7", "m"))


def test_curation_full_text(
    snap_compare: Snap, frozen_clock: Any, stable_ids: None, tmp_path: Path, monkeypatch: Any
) -> None:
    app = make_app(curation_home(tmp_path, monkeypatch))
    assert snap_compare(app, terminal_size=NARROW, run_before=keys("f7", "enter"))


def test_calibration(snap_compare: Snap, frozen_clock: Any, stable_ids: None, tmp_path: Path, monkeypatch: Any) -> None:
    app = make_app(curation_home(tmp_path, monkeypatch))
    assert snap_compare(app, terminal_size=WIDE, run_before=keys("f7", "c"))


def test_calibration_80x24(
    snap_compare: Snap, frozen_clock: Any, stable_ids: None, tmp_path: Path, monkeypatch: Any
) -> None:
    app = make_app(curation_home(tmp_path, monkeypatch))
    assert snap_compare(app, terminal_size=NARROW, run_before=keys("f7", "c"))


def test_cold_storage(
    snap_compare: Snap, frozen_clock: Any, stable_ids: None, tmp_path: Path, monkeypatch: Any
) -> None:
    app = make_app(curation_home(tmp_path, monkeypatch))
    assert snap_compare(app, terminal_size=WIDE, run_before=keys("f8"))


def test_restore_confirmation(
    snap_compare: Snap, frozen_clock: Any, stable_ids: None, tmp_path: Path, monkeypatch: Any
) -> None:
    app = make_app(curation_home(tmp_path, monkeypatch))
    assert snap_compare(app, terminal_size=WIDE, run_before=keys("f8", "r"))


def test_restore_refused(
    snap_compare: Snap, frozen_clock: Any, stable_ids: None, tmp_path: Path, monkeypatch: Any
) -> None:
    demo = curation_home(tmp_path, monkeypatch)
    memory = demo.paths.root / "claude" / "projects" / "-home-me-code-reverie" / "memory"
    (memory / "reference_meetup_talk.md").write_text("A new note written since the move.\n", encoding="utf-8")
    assert snap_compare(make_app(demo), terminal_size=WIDE, run_before=keys("f8", "r", "y"))


def test_move_confirmation_80x24(
    snap_compare: Snap, frozen_clock: Any, stable_ids: None, tmp_path: Path, monkeypatch: Any
) -> None:
    from core.curate import engine

    demo = curation_home(tmp_path, monkeypatch)
    engine.decide_candidate(demo.paths, "reverie-memory:reference_conference_cfp.md", "approved", now=frozen_clock)
    assert snap_compare(make_app(demo), terminal_size=NARROW, run_before=keys("f7", "m", "down", "down"))


# --- search, the session view, topics --------------------------------------------------------------


def query(text: str, *after: str) -> Callable[[Pilot[Any]], Awaitable[None]]:
    """The search section with ``text`` in the query field, Enter, Down (to the results), then ``after``."""

    async def enter(pilot: Pilot[Any]) -> None:
        pilot.app.screen.query_one("#search-query", Input).value = text
        for key in ("enter", "down", *after):
            await pilot.press(key)
            await settle(pilot)

    return keys("f5", then=enter)


def at_result(text: str, starting: str, *after: str) -> Callable[[Pilot[Any]], Awaitable[None]]:
    """``query(text)``, the cursor on the result whose text starts with ``starting``, then ``after``."""

    async def go(pilot: Pilot[Any]) -> None:
        await query(text)(pilot)
        screen = pilot.app.screen
        rows = [item.text for item in screen.results]  # type: ignore[attr-defined]
        screen.query_one("#search-results", DataTable).move_cursor(
            row=next(i for i, t in enumerate(rows) if t.startswith(starting))
        )
        for key in after:
            await pilot.press(key)
            await settle(pilot)
        for _ in range(50):  # the session view scrolls to the hit once it is laid out
            if getattr(pilot.app.screen, "placed", True):
                break
            await pilot.pause(0.02)

    return go


def test_search(snap_compare: Snap, snapshot_demo: DemoHome) -> None:
    run = at_result("what did we decide last Tuesday night", "OK. Decided")
    assert snap_compare(make_app(snapshot_demo), terminal_size=WIDE, run_before=run)


def test_search_80x24(snap_compare: Snap, snapshot_demo: DemoHome) -> None:
    run = query("지난주 화요일 밤에 뭐 결정했지")
    assert snap_compare(make_app(snapshot_demo), terminal_size=NARROW, run_before=run)


def test_search_no_time_words(snap_compare: Snap, snapshot_demo: DemoHome) -> None:
    assert snap_compare(make_app(snapshot_demo), terminal_size=WIDE, run_before=query("Kate skiing"))


def test_search_filters(snap_compare: Snap, snapshot_demo: DemoHome) -> None:
    run = at_result("Kate", "Kate just texted", "s")
    assert snap_compare(make_app(snapshot_demo), terminal_size=WIDE, run_before=run)


def test_session_view(snap_compare: Snap, snapshot_demo: DemoHome) -> None:
    run = at_result("what did we decide last Tuesday night", "OK. Decided", "enter")
    assert snap_compare(make_app(snapshot_demo), terminal_size=WIDE, run_before=run)


def test_session_view_80x24(snap_compare: Snap, snapshot_demo: DemoHome) -> None:
    run = at_result("先週の火曜日の夜に何を決めた", "いいね", "enter")
    assert snap_compare(make_app(snapshot_demo), terminal_size=NARROW, run_before=run)


def test_topics(snap_compare: Snap, snapshot_demo: DemoHome) -> None:
    assert snap_compare(make_app(snapshot_demo), terminal_size=WIDE, run_before=keys("f6"))


def test_topics_mark_80x24(snap_compare: Snap, snapshot_demo: DemoHome) -> None:
    async def write(pilot: Pilot[Any]) -> None:
        pilot.app.screen.query_one(Input).value = "검색 화면 끝; next: curation review on Sunday"

    assert snap_compare(make_app(snapshot_demo), terminal_size=NARROW, run_before=keys("f6", "m", then=write))
