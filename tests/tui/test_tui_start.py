"""What the app does before its first frame, and what a first switch to a section costs: the
stylesheet is parsed once (not again for each new mode), a widget is restyled only when its rules
or its path changed, and the vault, verification and curation code is not imported to draw the
first screen. Speed itself is measured by
``tests/bench/bench_tui_start.py``, never by a timed test."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from textual.css.stylesheet import Stylesheet
from textual.widgets import DataTable, Static

from core.demo.build import DemoHome
from core.vault.store import MemoryStore
from tests.helpers.tui import demo_fixture, frozen_clock_fixture, make_app, press, settle, tui_config  # noqa: F401
from tui_app.app import ReverieApp
from tui_app.screens.registry import SECTIONS
from tui_app.stylesheet import ReusingStylesheet

ROOT = Path(__file__).resolve().parents[2]
# loaded by the home screen's worker, after the first frame; never by importing the app
AFTER_THE_FIRST_FRAME = ("core.vault.store", "core.vault.ledger", "core.workbench.verify", "core.curate",
                         "core.index", "core.recall", "tui_app.screens.curation_notice")


async def test_the_stylesheet_is_parsed_once_for_every_section(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        sheet = app.stylesheet
        assert isinstance(sheet, ReusingStylesheet)
        first = [rule for rule in sheet.rules if not rule.is_default_rules]  # app.tcss; held, so no id is reused
        for section in SECTIONS:
            await press(pilot, section.key)
            assert app.current_mode == section.name
        await press(pilot, "f2")
        now = {id(rule) for rule in sheet.rules}
        assert first and all(id(rule) in now for rule in first)  # the same parsed rules: not parsed again
        assert sheet.full_parses == 1  # Textual alone parses app.tcss from scratch twice per new mode
        bar = app.screen.query_one("#section-bar")
        assert bar.region.height == 1 and bar.styles.background.a > 0  # app.tcss still styles every screen


async def test_a_new_theme_parses_again_and_restyles(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        before = app.screen.styles.background
        app.theme = "gruvbox"
        await settle(pilot)
        assert app.stylesheet.full_parses == 2  # type: ignore[attr-defined]
        assert app.screen.styles.background != before
        assert app.screen.styles.background.hex.lower() == app.current_theme.background.lower()


async def test_a_source_added_later_is_parsed_and_applied(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        sheet = app.stylesheet
        sheet.add_source("#home-review { color: #123456; }", read_from=("test", "late"))
        app.refresh_css()
        await settle(pilot)
        assert app.screen.query_one("#home-review", Static).styles.color.hex.lower() == "#123456"
        assert sheet.full_parses == 1  # type: ignore[attr-defined]  # only the new source was parsed


async def test_a_screen_shown_again_is_not_restyled_and_keeps_its_rendered_table(
    demo: DemoHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Textual restyles a whole screen each time it is shown, which empties a table's render caches
    (every visible cell rendered again): with the same rules and the same path, the restyle is skipped."""
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        for section in SECTIONS:  # every section once: every widget class's default CSS is in
            await press(pilot, section.key)
        await press(pilot, "f7", "f3")
        table = app.screen.query_one(DataTable)
        restyled: list[str] = []
        real = Stylesheet.apply

        def counted(sheet: Stylesheet, node: object, **kwargs: Any) -> None:
            restyled.append(type(node).__name__)
            real(sheet, node, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(Stylesheet, "apply", counted)  # Textual's own apply: what is not skipped
        skipped = app.stylesheet.skipped  # type: ignore[attr-defined]
        await press(pilot, "f7", "f3")
        assert app.screen.query_one(DataTable) is table
        assert app.stylesheet.skipped > skipped  # type: ignore[attr-defined]
        assert "RecordTable" not in restyled and "DataTable" not in restyled
        assert table.styles.background.a > 0 and table.row_count  # still styled, still filled


async def test_a_class_or_focus_that_changes_the_matching_rules_restyles(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        sheet = app.stylesheet
        sheet.add_source("#home-review.-marked { color: #123456; } #home-review:focus { color: #654321; }",
                         read_from=("test", "marks"))
        app.refresh_css()
        await settle(pilot)
        review = app.screen.query_one("#home-review", Static)
        before = review.styles.color
        review.add_class("-marked")
        await settle(pilot)
        assert review.styles.color.hex.lower() == "#123456"
        review.remove_class("-marked")
        await settle(pilot)
        assert review.styles.color == before
        review.can_focus = True
        review.focus()
        await settle(pilot)
        assert review.styles.color.hex.lower() == "#654321"  # :focus named by a rule for it: its path changed


async def test_a_new_theme_restyles_a_screen_styled_before(demo: DemoHome) -> None:
    """The skip holds only for the rules a widget was styled with: a theme makes new rules."""
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await press(pilot, "f3")
        table = app.screen.query_one(DataTable)
        before = table.styles.background
        await press(pilot, "f2")
        app.theme = "gruvbox"
        await settle(pilot)
        await press(pilot, "f3")
        assert table.styles.background != before


async def test_the_sections_are_composed_ahead_and_a_first_switch_shows_that_screen(demo: DemoHome) -> None:
    """After Home shows its data, each section's screen is composed off-screen and loads what it shows
    (curation reads its scopes but does not scan: a scan records a run), so a first switch shows that
    screen as it is."""
    runs = demo.paths.curation / "runs.jsonl"
    runs_before = runs.read_bytes() if runs.exists() else b""
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        ready = dict(app.ready_screens)
        assert set(ready) == {s.name for s in SECTIONS} - {"home"}
        assert all(screen.is_running and not screen.is_current for screen in ready.values())
        memories = ready["memories"]
        assert memories.query_one(DataTable).row_count == 8  # loaded before it was ever shown
        assert memories.query_one(DataTable).size.width > 0  # and laid out at the window's size
        assert (runs.read_bytes() if runs.exists() else b"") == runs_before  # no curation scan behind the back
        await press(pilot, "f4")
        assert app.screen is memories and app.ready_screens.keys() == set(ready) - {"memories"}
        assert memories.query_one(DataTable).row_count == 8
        await press(pilot, "f7")
        assert app.screen is ready["curation"]
        assert (runs.read_bytes() if runs.exists() else b"") != runs_before  # opened: it scans, as before


async def test_locking_drops_the_screens_composed_ahead(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        ready = list(app.ready_screens.values())
        assert ready
        await press(pilot, "ctrl+l")
        assert app.ready_screens == {} and not any(screen.is_attached for screen in ready)


async def test_without_composing_ahead_a_first_switch_makes_the_screen(demo: DemoHome) -> None:
    app = ReverieApp(demo.paths, tui_config(), demo.keys, label="demo", prepare_sections=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert app.ready_screens == {}
        await press(pilot, "f4")
        assert app.screen.query_one(DataTable).row_count == 8


def test_importing_the_app_loads_no_storage_code() -> None:
    code = "import sys, tui_app.app; print('\\n'.join(sorted(sys.modules)))"
    loaded = set(subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                                check=True).stdout.split())
    early = sorted(m for m in loaded if m.startswith(AFTER_THE_FIRST_FRAME))
    assert not early, f"importing the app loads {early[:5]}"


async def test_the_home_screen_is_drawn_before_the_vault_is_opened(
    demo: DemoHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first frame is composed from the session alone: the vault opens in the home screen's worker."""
    from core.workbench.home import Workbench

    app = make_app(demo)
    composed_first: list[bool] = []
    real = Workbench.vault

    def spy(workbench: Workbench) -> MemoryStore:
        composed_first.append(bool(app.screen.query("#home-review")))  # was the home screen already composed?
        return real.fget(workbench)  # type: ignore[attr-defined]

    monkeypatch.setattr(Workbench, "vault", property(spy))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert composed_first and composed_first[0]
        assert "8 memories" in str(app.screen.query_one("#home-vault", Static).render())


async def test_home_shown_again_loads_again_only_when_something_stored_changed(
    demo: DemoHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tui_app.views import data

    loads: list[int] = []
    real = data.load_home_summary

    def counted(*args: object, **kwargs: object) -> object:
        loads.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(data, "load_home_summary", counted)  # the home's worker imports it from there
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert len(loads) == 1
        await press(pilot, "f4", "f2")
        assert len(loads) == 1  # nothing stored changed: the counts on screen are still true
        app.workbench.review.capture("A new thought, captured elsewhere", ["habit"], check_duplicates=False)
        await press(pilot, "f4", "f2")
        assert len(loads) == 2
        assert "5 open drafts" in str(app.screen.query_one("#home-review", Static).render())
        await press(pilot, "ctrl+r")
        assert len(loads) == 3  # asked for: always


def test_the_stamp_moves_with_any_write_in_the_home_and_with_the_minute(demo: DemoHome) -> None:
    from tui_app.views.data import home_stamp

    now = 1_800_000_000.0
    first = home_stamp(demo.paths, now)
    assert home_stamp(demo.paths, now + 1) == first
    assert home_stamp(demo.paths, now + 61) != first
    with demo.paths.topics.open("a", encoding="utf-8") as topics:
        topics.write("\n")
    assert home_stamp(demo.paths, now) != first
