"""A section composed ahead whose data comes after it was laid out off-screen (a slow disk, a busy
machine) is laid out again when the data comes: its table has the window's size before it is ever
shown, as when the data comes first (tests/tui/test_tui_start.py)."""

from __future__ import annotations

import time

import pytest
from textual.widgets import DataTable

from core.demo.build import DemoHome
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    make_app,
    press,
    settle,
)
from tui_app.screens import memories as memories_screen


async def test_a_table_loaded_after_the_lay_out_ahead_is_laid_out_at_the_window_size(
    demo: DemoHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = memories_screen.load_memory_rows

    def slow(session):  # type: ignore[no-untyped-def]
        time.sleep(1.0)  # long after compose_sections laid the screen out (two pauses of 0.05 s)
        return real(session)

    monkeypatch.setattr(memories_screen, "load_memory_rows", slow)
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        memories = app.ready_screens["memories"]
        table = memories.query_one(DataTable)
        assert table.row_count == 8 and not memories.is_current
        assert table.size.width > 0
        await press(pilot, "f4")
        assert app.screen is memories and table.size.width > 0
