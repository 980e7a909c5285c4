"""The lock as a person meets it: the idle lock fires within a second or two of its setting, the
search query on screen comes back after unlocking, the demo's unlock screen shows the demo's
passphrase, and Enter on the empty search field asks the placeholder's example question."""

from __future__ import annotations

import time

from textual.widgets import Input, Static

from core.demo.build import DEMO_PASSPHRASE, DemoHome
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    FakeEditor,
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    make_app,
    press,
    settle,
    tui_config,
)
from tui_app.app import ReverieApp
from tui_app.screens.search import SearchScreen
from tui_app.screens.unlock import UnlockScreen


async def test_the_idle_lock_fires_within_seconds_of_its_setting(demo: DemoHome) -> None:
    app = make_app(demo, config=tui_config())
    app.config.security.idle_lock_minutes = 1
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.last_input = time.monotonic() - 59.0  # the last key, 59 s ago
        await pilot.pause(2.5)
        assert isinstance(app.screen, UnlockScreen)
        assert "after 1 minute without input" in str(app.screen.query_one("#gate-message", Static).render())


async def test_unlocking_after_a_lock_keeps_the_search_query(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await press(pilot, "f5")
        assert isinstance(app.screen, SearchScreen)
        await pilot.press(*"ski trip")
        await settle(pilot)
        await press(pilot, "ctrl+l")
        assert isinstance(app.screen, UnlockScreen)
        await pilot.press(*DEMO_PASSPHRASE, "enter")
        await settle(pilot)
        assert isinstance(app.screen, SearchScreen)
        assert app.screen.query_one("#search-query", Input).value == "ski trip"
        assert app.screen.answer is not None and app.screen.answer.request.query == "ski trip"  # asked again


async def test_the_demo_unlock_screen_shows_the_demo_passphrase(demo: DemoHome) -> None:
    app = ReverieApp(demo.paths, tui_config(), None, editor=FakeEditor(), label="demo",
                     gate_hint=f"Demo passphrase: {demo.passphrase}")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, UnlockScreen)
        hint = app.screen.query_one("#gate-hint", Static)
        assert str(hint.render()) == f"Demo passphrase: {DEMO_PASSPHRASE}"
        assert hint.region.area and app.screen.region.contains_region(hint.region)  # on screen at 80x24


async def test_enter_on_the_empty_search_asks_the_example(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await press(pilot, "f5", "enter")
        field = app.screen.query_one("#search-query", Input)
        assert field.value == field.placeholder and field.value
        assert app.screen.answer is not None and app.screen.answer.result is not None
        assert app.screen.answer.result.range is not None  # "last Tuesday night" was read as a time
