"""Snapshots of every screen (pytest-textual-snapshot): clock frozen, ids stable, animations and
cursor blink off. Regenerate after an intended change with ``pytest tests/test_tui_snapshots.py
--snapshot-update`` and look at the SVGs before committing them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from test_tui_support import (  # the *_fixture names are pytest fixtures
    FakeEditor,
    frozen_clock_fixture,  # noqa: F401
    make_app,
    settle,
    snapshot_demo_fixture,  # noqa: F401
    stable_ids_fixture,  # noqa: F401
    tui_config,
)
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, TextArea

from core.crypto import KdfParams
from core.demo import DemoHome
from core.paths import HomePaths
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
