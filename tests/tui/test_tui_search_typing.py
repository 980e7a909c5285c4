"""Typing a new search after results: Enter searches and leaves the focus in the query, letters never
fire the results' keys while the query has the focus, a letter typed on the results goes back into
the query, Esc clears the query and then leaves for Home, ctrl+u clears it and is shown."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable, Input

from core.demo.build import DemoHome
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    make_app,
    press,
)
from tui_app.screens.home import HomeScreen
from tui_app.screens.search import SearchScreen
from tui_app.screens.search_filters import FilterDialog


def footer(screen: SearchScreen) -> str:
    return " ".join(str(k.render()) for k in screen.query("FooterKey, FooterLabel"))


@pytest.mark.parametrize("size", [(80, 24), (100, 30)], ids=["80x24", "100x30"])
async def test_typing_a_new_search_after_results_never_fires_the_filters(demo: DemoHome, size: tuple[int, int]) -> None:
    app = make_app(demo)
    async with app.run_test(size=size) as pilot:
        await press(pilot, "f5")
        screen = app.screen
        assert isinstance(screen, SearchScreen)
        field = screen.query_one("#search-query", Input)
        await pilot.press(*"Kate")
        await press(pilot, "enter")
        assert screen.results and app.focused is field  # results shown, the query keeps the focus
        await pilot.press("ctrl+u")
        await pilot.press(*"phoenx servr")  # s, r and x are filter keys on the results
        await press(pilot, "enter")
        assert field.value == "phoenx servr" and not screen.filters.active
        assert not isinstance(app.screen, FilterDialog)
        assert "New query" in footer(screen) and "^u" in footer(screen)

        await press(pilot, "ctrl+u", *"Kate", "enter", "down")  # to the results: letters are keys there
        assert isinstance(app.focused, DataTable)
        await press(pilot, "k")  # no key of the results: typing goes back into the query
        assert app.focused is field and field.value == "Katek"
        await press(pilot, "down", "backspace")
        assert app.focused is field and field.value == "Kate"


async def test_escape_clears_the_query_then_leaves(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "f5")
        screen = app.screen
        assert isinstance(screen, SearchScreen)
        field = screen.query_one("#search-query", Input)
        await press(pilot, *"Kate", "enter", "down")
        await press(pilot, "escape")  # from the results: back to the query, the text kept
        assert app.focused is field and field.value == "Kate"
        await press(pilot, "escape")  # clears it
        assert field.value == "" and app.screen is screen and not screen.results
        await press(pilot, "escape")  # then leaves
        assert isinstance(app.screen, HomeScreen)
