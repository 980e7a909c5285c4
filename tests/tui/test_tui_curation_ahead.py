"""Curation made ready ahead: after Home shows, the curation screen judges the scopes read only, so
its first switch shows the candidates at once; the scan that records a run (the weekly review) is
made when, and only when, the person opens the screen, and it sees what changed in the meantime."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from textual.pilot import Pilot

from core.curate.runs import read_runs
from core.demo.build import DemoHome
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    make_app,
    press,
    settle,
)
from tests.helpers.tui_curation import HIGH, MEDIUM, SCOPE, cid, row_keys, scope_root, text_of
from tui_app.screens.curation import CurationScreen
from tui_app.screens.home import HomeScreen
from tui_app.screens.session import Session
from tui_app.views import curation_data
from tui_app.widgets.dialogs import ErrorDialog

SIZE = (100, 30)


def written(demo: DemoHome) -> dict[str, bytes]:
    """Every file curation writes (runs, candidates, calibration, decisions), by name."""
    folder = demo.paths.curation
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def rows_of(screen: CurationScreen) -> list[str]:
    return [str(row.key.value) for row in screen.query_one("#curation-table").ordered_rows]  # type: ignore[attr-defined]


def tier_rows(keys: list[str], tier: str) -> list[str]:
    """The row keys under the heading of ``tier`` (every tier shown)."""
    start = keys.index(f"tier:{tier}") + 1
    rest = keys[start:]
    end = next((i for i, key in enumerate(rest) if key.startswith("tier:")), len(rest))
    return rest[:end]


def hold_read_ahead(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, threading.Event]:
    """Make Curation's read ahead wait, once started (the first event), until the second is set."""
    started, release = threading.Event(), threading.Event()
    real = curation_data.judge_ahead

    def slow(session: Session) -> curation_data.CandidateList | None:
        started.set()
        release.wait(10)
        return real(session)

    monkeypatch.setattr(curation_data, "judge_ahead", slow)
    return started, release


async def until_set(pilot: Pilot[object], event: threading.Event) -> None:
    for _ in range(500):
        if event.is_set():
            break
        await pilot.pause(0.01)


async def test_the_first_switch_shows_the_candidates_read_ahead_and_scans_once(demo: DemoHome) -> None:
    before = written(demo)
    runs_before = len(read_runs(demo.paths))
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        ready = app.ready_screens["curation"]
        assert isinstance(ready, CurationScreen) and not ready.is_current
        keys = rows_of(ready)  # filled before it was ever shown
        assert set(tier_rows(keys, "high")) == {cid(rel) for rel in HIGH}
        assert set(tier_rows(keys, "medium")) == {cid(rel) for rel in MEDIUM}
        scopes = str(ready.query_one("#curation-scopes").render())
        assert "rubric v1 · not scanned yet (read now) · scanning…" in scopes  # never said to be a scan
        assert written(demo) == before  # no run, no candidates file, no calibration behind the back

        await press(pilot, "f7")
        assert app.screen is ready
        assert row_keys(app, "curation-table") == keys
        assert "rubric v1 · scanned now" in text_of(app, "#curation-scopes")
        new = read_runs(demo.paths)[runs_before:]
        assert [(run["scope"], run["kind"]) for run in new] == [(SCOPE, "scan")]  # one scan, on opening


async def test_a_run_is_recorded_when_and_only_when_curation_is_opened(demo: DemoHome) -> None:
    runs_before = len(read_runs(demo.paths))
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "f3", "f4", "f5", "f6", "f8", "f2", "ctrl+r")  # every other section
        assert isinstance(app.screen, HomeScreen)
        assert "Curation review overdue" in text_of(app, "#home-notices")
        assert len(read_runs(demo.paths)) == runs_before
        await press(pilot, "f7")
        assert len(read_runs(demo.paths)) == runs_before + 1
        await press(pilot, "f2", "ctrl+r")
        assert "Curation review overdue" not in text_of(app, "#home-notices")


async def test_a_change_in_a_scope_after_reading_ahead_is_seen_on_opening(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        ready = app.ready_screens["curation"]
        assert cid("launch_checklist.md") in tier_rows(rows_of(ready), "high")
        root: Path = scope_root(demo)
        (root / "launch_checklist.md").write_text("Rewritten today.\n", encoding="utf-8")  # new: not old
        (root / "project_v1_launch.md").unlink()  # gone (a test may lose a record; Reverie never does)
        await press(pilot, "f7")
        keys = row_keys(app, "curation-table")
        assert cid("launch_checklist.md") not in tier_rows(keys, "high")
        assert cid("project_v1_launch.md") not in keys
        assert set(tier_rows(keys, "high")) == {cid(rel) for rel in HIGH} - {
            cid("launch_checklist.md"),
            cid("project_v1_launch.md"),
        }
        assert "scanned now" in text_of(app, "#curation-scopes")


async def test_opened_while_still_reading_ahead_it_scans_and_drops_the_late_read(
    demo: DemoHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    started, release = hold_read_ahead(monkeypatch)
    runs_before = len(read_runs(demo.paths))
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await until_set(pilot, started)
        assert started.is_set()
        await pilot.press("f7")  # the read ahead is still under way
        assert isinstance(app.screen, CurationScreen)
        release.set()  # the read ahead ends after the scan began: what it found is not shown
        await settle(pilot)
        assert "rubric v1 · scanned now" in text_of(app, "#curation-scopes")
        assert set(tier_rows(row_keys(app, "curation-table"), "high")) == {cid(rel) for rel in HIGH}
        assert len(read_runs(demo.paths)) == runs_before + 1


async def test_a_read_ahead_that_fails_is_said_once_by_the_scan_on_opening(
    demo: DemoHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    (demo.paths.curation / "decisions.json").write_text("{not json", encoding="utf-8")
    started, release = hold_read_ahead(monkeypatch)  # the read will fail: decisions.json is unreadable
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await until_set(pilot, started)
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("f7")  # opened while the read ahead is under way; the scan fails and says so
        release.set()  # then the read fails too, on a screen now shown
        for _ in range(500):  # not settle(): waiting on a worker that fails raises in the test
            await pilot.pause(0.01)
            if not any(worker.is_running for worker in app.workers):
                break
        await pilot.pause(0.05)
        assert [type(screen) for screen in app.screen_stack] == [CurationScreen, ErrorDialog]  # said once
        assert "decisions.json: unreadable" in text_of(app, ".dialog-body")


async def until_no_worker_runs(pilot: Pilot[object]) -> None:
    """Not settle(): waiting on a worker that fails raises in the test."""
    for _ in range(500):
        await pilot.pause(0.01)
        if not any(worker.is_running for worker in pilot.app.workers):
            break
    await pilot.pause(0.05)


async def test_closing_the_error_of_a_failed_load_does_not_load_again_and_reopen_it(demo: DemoHome) -> None:
    """Closing the dialog shows the screen again; before, that showing loaded again, failed the same way
    and opened the same dialog, forever. The person retries with the screen's own key (Scan)."""
    (demo.paths.curation / "decisions.json").write_text("{not json", encoding="utf-8")
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("f7")
        await until_no_worker_runs(pilot)
        assert [type(screen) for screen in app.screen_stack] == [CurationScreen, ErrorDialog]
        await pilot.press("escape")
        await until_no_worker_runs(pilot)
        assert [type(screen) for screen in app.screen_stack] == [CurationScreen]
        said = text_of(app, "#curation-scopes")  # the screen keeps saying why it shows nothing, and the key
        assert "Not scanned" in said and "decisions.json: unreadable" in said and "s scans again" in said
        await pilot.press("s")  # asked for: the scan runs again and says why it failed
        await until_no_worker_runs(pilot)
        assert [type(screen) for screen in app.screen_stack] == [CurationScreen, ErrorDialog]
        (demo.paths.curation / "decisions.json").unlink()
        await pilot.press("escape", "f2")
        await until_no_worker_runs(pilot)
        await pilot.press("f7")  # shown again after another section: it loads as before, and now succeeds
        await until_no_worker_runs(pilot)
        assert [type(screen) for screen in app.screen_stack] == [CurationScreen]
        assert "scanned now" in text_of(app, "#curation-scopes")
