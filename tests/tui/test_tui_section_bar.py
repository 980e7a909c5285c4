"""The section bar shows every section's key at any width, and the current section in full."""

from __future__ import annotations

import pytest

from core.demo.build import DemoHome
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    make_app,
    settle,
)
from tui_app.screens.registry import SECTIONS


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (200, 60)])
async def test_every_key_fits_and_the_current_section_is_named(demo: DemoHome, size: tuple[int, int]) -> None:
    app = make_app(demo)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        for section in SECTIONS:
            await pilot.press(section.key)
            await settle(pilot)
            line = str(app.screen.query_one("#section-bar-sections").render())
            assert f"{section.key.upper()} {section.title}" in line, (size, section.name, line)
            for other in SECTIONS:
                assert other.key.upper() in line, (size, other.name, line)
            assert len(line) <= size[0], (size, line)
