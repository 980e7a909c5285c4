"""The section bar shows every section's key at any width, and the current section in full."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from textual.app import App, ComposeResult

from core.demo.build import DemoHome
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    make_app,
    settle,
)
from tui_app.screens.registry import SECTIONS
from tui_app.widgets.section_bar import SectionBar


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (200, 60)])
async def test_every_key_fits_and_the_current_section_is_named(demo: DemoHome, size: tuple[int, int]) -> None:
    app = make_app(demo)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        for section in SECTIONS:
            await pilot.press(section.key)
            await settle(pilot)
            line = str(app.screen.query_one("#section-bar-sections").render())
            assert f"{section.key.upper()} {section.short_title}" in line, (size, section.name, line)
            for other in SECTIONS:
                assert other.key.upper() in line, (size, other.name, line)
            right = str(app.screen.query_one("#section-bar-right").render())
            assert len(line) + len(right) + 2 <= size[0], (size, line, right)  # nothing cut off with a …


@pytest.mark.parametrize(("size", "form"), [((80, 24), "short_title"), ((100, 30), "title")])
async def test_names_stay_readable_at_80_and_100_columns(demo: DemoHome, size: tuple[int, int], form: str) -> None:
    """At 80 columns every section keeps a name (the short one), at 100 every full title shows."""
    app = make_app(demo)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        for section in SECTIONS:
            await pilot.press(section.key)
            await settle(pilot)
            line = str(app.screen.query_one("#section-bar-sections").render())
            for other in SECTIONS:
                assert f"{other.key.upper()} {getattr(other, form)}" in line, (size, section.name, line)


@dataclass(frozen=True)
class FakeSection:
    name: str
    title: str
    key: str
    short_title: str = ""


class BarApp(App[None]):
    def __init__(self, sections: list[FakeSection]) -> None:
        super().__init__()
        self.sections = sections

    def compose(self) -> ComposeResult:
        yield SectionBar("b", self.sections, label="test")


async def test_the_bar_shows_the_sections_it_is_given() -> None:
    sections = [FakeSection("a", "Alpha", "f9", "Al"), FakeSection("b", "Beta", "f10", "Be")]
    app = BarApp(sections)
    async with app.run_test(size=(60, 5)):
        line = str(app.query_one("#section-bar-sections").render())
        assert "F9 Alpha" in line and " F10 Beta " in line and "Home" not in line
        assert "test · CTRL+L Lock" in str(app.query_one("#section-bar-right").render())
