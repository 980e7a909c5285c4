"""Snapshots of long content: a draft too long for its box shows its scrollbar and "▼ N more lines",
at 80x24, and on the full screen after c. Clock frozen, ids stable, cursor blink off."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from textual.pilot import Pilot
from textual.widgets import DataTable

from core.demo.build import DemoHome
from core.vault.store import MemoryStore
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures
    frozen_clock_fixture,  # noqa: F401
    make_app,
    settle,
    snapshot_demo_fixture,  # noqa: F401
    stable_ids_fixture,  # noqa: F401
)

Snap = Callable[..., bool]
LONG = "\n".join(f"Line {i}: the plan for the winter trip, what to pack and who drives." for i in range(1, 120))


def at_long_draft(demo: DemoHome, *after: str) -> Callable[[Pilot[Any]], Awaitable[None]]:
    draft_id = MemoryStore.open(demo.paths, demo.keys).create_draft(LONG, ["trip"]).draft_id

    async def run(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        for key in ("f3", "0"):
            await pilot.press(key)
            await settle(pilot)
        table = pilot.app.screen.query_one("#queue-table", DataTable)
        table.move_cursor(row=table.get_row_index(draft_id))
        for key in ("enter", *after):
            await pilot.press(key)
            await settle(pilot)
        pilot.app.clear_notifications()
        await pilot.pause()

    return run


def test_long_draft_80x24(snap_compare: Snap, snapshot_demo: DemoHome) -> None:
    assert snap_compare(make_app(snapshot_demo), terminal_size=(80, 24), run_before=at_long_draft(snapshot_demo))


def test_long_draft_read_all_80x24(snap_compare: Snap, snapshot_demo: DemoHome) -> None:
    run = at_long_draft(snapshot_demo, "c", "pagedown")
    assert snap_compare(make_app(snapshot_demo), terminal_size=(80, 24), run_before=run)
