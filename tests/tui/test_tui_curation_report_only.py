"""Report-only runs, as the curation screen says them: the high tier's heading and each high
candidate say that the scope's first apply runs only report and how many are left (not "moves
automatically"), and a dry run that moves nothing says why in its title, as `reverie curate apply`
does, and y records one such run (moving nothing). With no report-only run left, the heading says the
tier moves by itself again."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from textual.widgets import Button, DataTable, Static

from core.config import load_config, save_config
from core.curate.runs import apply_runs, read_runs
from core.demo.build import DemoHome
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    make_app,
    press,
)
from tests.helpers.tui_curation import HIGH, cid, highlight, records, scope_root, text_of
from tui_app.screens.curation import CurationScreen
from tui_app.screens.curation_candidate import CandidateScreen
from tui_app.screens.curation_dialogs import MovePlanDialog
from tui_app.screens.curation_format import report_only_note, tier_meaning

SIZE = (100, 30)


def heading(app: object, tier: str) -> str:
    table = app.screen.query_one("#curation-table", DataTable)  # type: ignore[attr-defined]
    return str(table.get_row(f"tier:{tier}")[3])


def test_tier_meaning_counts_the_report_only_runs_left() -> None:
    assert tier_meaning("high") == "moves automatically"
    assert tier_meaning("high", 2) == "report-only, 2 runs left"
    assert tier_meaning("high", 1) == "report-only, 1 run left"
    assert len(tier_meaning("high", 9)) <= 24  # the Signals column it shows in
    assert tier_meaning("medium", 2) == "waits for your approval"
    assert "curation.report_only_runs" in report_only_note(1)


async def test_the_screen_says_high_records_are_only_reported_and_why(demo: DemoHome) -> None:
    runs = load_config(demo.paths.config).curation.report_only_runs
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "f7")
        assert isinstance(app.screen, CurationScreen)
        left = app.screen.shown.report_only_left["reverie-memory"]  # type: ignore[union-attr]
        assert 0 < left <= runs
        assert heading(app, "high") == tier_meaning("high", left)
        highlight(app, "curation-table", cid(HIGH[0]))
        detail = text_of(app, "#curation-detail-text")
        assert "moves automatically" not in detail
        assert "not yet: this scope's first apply runs only report" in detail
        await press(pilot, "enter")
        assert isinstance(app.screen, CandidateScreen)
        assert "only report" in str(app.screen.query_one("#candidate-meta", Static).render())
        await press(pilot, "escape", "m")
        dialog = app.screen
        assert isinstance(dialog, MovePlanDialog) and dialog.count == 0
        title = str(dialog.query_one(".dialog-title").render())
        assert title == f"Nothing moves yet: {len(HIGH)} high-tier records held by report-only runs"
        assert "curation.report_only_runs" in str(dialog.query_one("#move-plan-lines", Static).render())


async def test_y_records_a_report_only_run_until_none_is_left(demo: DemoHome, frozen_clock: datetime,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from core import clock

    day = [0]
    monkeypatch.setattr(clock, "utc_now", lambda: frozen_clock + timedelta(days=day[0]))  # one run a day
    root = scope_root(demo)
    before = records(root)
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "f7")
        screen = app.screen
        assert isinstance(screen, CurationScreen)
        left = screen.shown.report_only_left["reverie-memory"]  # type: ignore[union-attr]
        runs = apply_runs(read_runs(demo.paths), "reverie-memory")
        for step in range(left):
            await press(pilot, "m")
            dialog = app.screen
            assert isinstance(dialog, MovePlanDialog) and dialog.can_record_run
            assert [button.id for button in dialog.query(Button)] == ["yes", "no"]
            assert "nothing moves now" in str(dialog.query_one(".dialog-warning", Static).render())
            await press(pilot, "y")
            assert app.screen is screen
            assert apply_runs(read_runs(demo.paths), "reverie-memory") == runs + step + 1
            if step == 0:  # the same day again: today's run is recorded, there is nothing to record
                await press(pilot, "m")
                again = app.screen
                assert isinstance(again, MovePlanDialog) and not again.can_record_run
                assert [button.id for button in again.query(Button)] == ["no"]
                assert "today's report-only run is recorded" in str(again.query_one(".dialog-title").render())
                await press(pilot, "y", "n")
                assert app.screen is screen
                assert apply_runs(read_runs(demo.paths), "reverie-memory") == runs + 1
            day[0] += 1
            assert records(root) == before  # nothing moved
            now_left = left - step - 1
            assert heading(app, "high") == tier_meaning("high", now_left)
        await press(pilot, "m")  # none left: the dry run now moves the high tier
        assert isinstance(app.screen, MovePlanDialog) and app.screen.count > 0
        await press(pilot, "n")
    assert records(root) == before


async def test_with_no_report_only_run_left_the_high_tier_moves_automatically(demo: DemoHome) -> None:
    config = load_config(demo.paths.config)
    config.curation.report_only_runs = 0
    save_config(demo.paths.config, config)
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "f7")
        assert heading(app, "high") == "moves automatically"
        highlight(app, "curation-table", cid(HIGH[0]))
        assert "not yet" not in text_of(app, "#curation-detail-text")
        await press(pilot, "m")
        dialog = app.screen
        assert isinstance(dialog, MovePlanDialog) and dialog.count > 0
        assert str(dialog.query_one(".dialog-title").render()).startswith("Move ")
        await press(pilot, "n")
