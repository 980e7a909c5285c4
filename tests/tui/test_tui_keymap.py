"""The keymap page (F1 and ?): full screen, grouped by screen with the current one first, readable at
80×24 (nothing wider than the terminal, scrolls), remapped keys shown as remapped; and every key of a
screen is also a command in the palette."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static

from core.demo.build import DemoHome
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    make_app,
    press,
    tui_config,
)
from tui_app.commands import ScreenCommands
from tui_app.screens.keymap import KeymapScreen
from tui_app.screens.registry import SECTIONS
from tui_app.screens.search import SearchScreen


def page_text(screen: KeymapScreen) -> str:
    return "\n".join(screen.app.export_screenshot().splitlines())


def groups(screen: KeymapScreen) -> list[str]:
    return [group.title for group in screen.groups]


@pytest.mark.parametrize("key", ["f1", "question_mark"])
async def test_the_keymap_page_opens_full_screen_grouped_by_screen(demo: DemoHome, key: str) -> None:
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "f5", "down")  # the search results: letters are keys, ? opens the page
        await press(pilot, key)
        page = app.screen
        assert isinstance(page, KeymapScreen)
        assert page.region == app.screen.region and page.query_one("#keymap-body").region.width == 80
        titles = groups(page)
        assert titles[0] == "This screen: Search" and titles[1] == "Everywhere"
        assert {s.title for s in SECTIONS if s.name != "search"} <= set(titles)
        assert "Draft review" in titles and "Memory" in titles
        first = page.groups[0]
        names = {row.name: row.keys for row in first.rows}
        assert names["Filter: Session"] == "s" and names["New query"] == "^u"
        everywhere = {row.name: row.keys for row in page.groups[1].rows}
        assert everywhere["Keys"] == "F1 or ?" and everywhere["Review"] == "F3"
        for table in page.query(".keymap-rows"):
            assert table.region.width <= 78  # readable: nothing runs past the terminal's edge
        body = page.query_one("#keymap-body")
        await press(pilot, "pagedown")
        assert body.scroll_y > 0
        await press(pilot, key)  # the same key closes it
        assert isinstance(app.screen, SearchScreen)


async def test_question_mark_types_into_the_query(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "f5", *"why?")
        assert isinstance(app.screen, SearchScreen)
        assert app.screen.query_one("#search-query", Input).value == "why?"


async def test_the_page_shows_remapped_keys(demo: DemoHome) -> None:
    app = make_app(demo, config=tui_config(keymap={"draft.accept": "y", "section.queue": "f9"}))
    async with app.run_test(size=(100, 30)) as pilot:
        await press(pilot, "f1")
        page = app.screen
        assert isinstance(page, KeymapScreen)
        rows = {(group.title, row.name): row.keys for group in page.groups for row in group.rows}
        assert rows[("Everywhere", "Review")] == "F9"
        assert rows[("Draft review", "Accept")] == "y"
        assert "Esc closes" in str(page.query_one("#keymap-title", Static).render())
        await press(pilot, "escape")
        assert not isinstance(app.screen, KeymapScreen)


async def test_the_palette_offers_the_keymap_page_and_every_key_of_the_screen(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        for section in SECTIONS:
            await press(pilot, section.key)
            screen = app.screen
            provider = ScreenCommands(screen)
            offered = {command.name.removeprefix("Go to ") for command in provider.commands()}
            for active in screen.active_bindings.values():
                binding = active.binding
                if not binding.id or not binding.description or not active.enabled or binding.system:
                    continue
                if binding.description in ("Quit", "Keys", "Passphrase"):
                    continue  # offered as the palette's own system commands
                group = binding.group.description if binding.group is not None else ""
                name = binding.description
                if group and not name.startswith(group):
                    name = f"{group}: {name}"
                assert name in offered, (section.name, name, sorted(offered))
        keys = [c for c in app.get_system_commands(app.screen) if c.title == "Keys"]
        assert len(keys) == 1 and "one page" in keys[0].help
        keys[0].callback()
        await pilot.pause()
        assert isinstance(app.screen, KeymapScreen)
