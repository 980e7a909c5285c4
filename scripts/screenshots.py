"""Regenerate ``screenshots/*.svg`` from the real app, on a demo home, at 100x30.

    /work/venv/bin/python scripts/screenshots.py [--out screenshots] [--only home,memories]

The clock is frozen (``core.clock.utc_now``) and memory ids are derived from draft ids, so running
it twice gives the same files; both only affect the throwaway demo home this script builds. To add
a picture of a new screen, append a ``Shot`` to ``SHOTS`` whose steps drive the app there.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from textual.pilot import Pilot  # noqa: E402
from textual.widgets import DataTable, Input, TextArea  # noqa: E402

from core import clock  # noqa: E402
from core.config import Config  # noqa: E402
from core.demo.build import build_demo_home  # noqa: E402
from core.vault.store import MemoryStore  # noqa: E402

NOW = datetime(2026, 11, 10, 21, 30, tzinfo=UTC)
ZONE = "Asia/Seoul"
SIZE = (100, 30)
Steps = Callable[[Pilot[Any]], Awaitable[None]]


async def settle(pilot: Pilot[Any]) -> None:
    for _ in range(20):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        if not any(worker.is_running for worker in pilot.app.workers):
            return


def keys(*pressed: str) -> Steps:
    async def run(pilot: Pilot[Any]) -> None:
        for key in pressed:
            await pilot.press(key)
            await settle(pilot)

    return run


def cursor_to(table_id: str, row_key: str, *then: str) -> Steps:
    async def run(pilot: Pilot[Any]) -> None:
        table = pilot.app.screen.query_one(f"#{table_id}", DataTable)
        table.move_cursor(row=table.get_row_index(row_key))
        await keys(*then)(pilot)

    return run


def chain(*steps: Steps) -> Steps:
    async def run(pilot: Pilot[Any]) -> None:
        for step in steps:
            await step(pilot)

    return run


async def write_capture(pilot: Pilot[Any]) -> None:
    pilot.app.screen.query_one(TextArea).text = "Booked the ryokan in Hakuba for 14-16 February; Kate pays the train."
    pilot.app.screen.query_one(Input).value = "travel, friends"


def search_for(query: str, starting: str = "", *then: str) -> Steps:
    """The search section, ``query`` entered, the cursor on the result whose text starts with ``starting``."""

    async def run(pilot: Pilot[Any]) -> None:
        await keys("f5")(pilot)
        pilot.app.screen.query_one("#search-query", Input).value = query
        await keys("enter", "down")(pilot)
        results = [item.text for item in pilot.app.screen.results]  # type: ignore[attr-defined]
        row = next((i for i, text in enumerate(results) if starting and text.startswith(starting)), 0)
        pilot.app.screen.query_one("#search-results", DataTable).move_cursor(row=row)
        await keys(*then)(pilot)

    return run


@dataclass(frozen=True)
class Shot:
    name: str
    steps: Steps
    locked: bool = False


SHOTS = [
    Shot("home", keys()),
    Shot("review-queue", keys("f3", "0")),
    Shot("draft-review", chain(keys("f3", "0"), cursor_to("queue-table", "draft_demo_fts5", "enter"))),
    Shot("accept-confirm", chain(keys("f3", "0"), cursor_to("queue-table", "draft_demo_jeju", "enter", "a"))),
    Shot("finalize-confirm", chain(keys("f3", "2"), cursor_to("queue-table", "draft_demo_book", "enter", "f"))),
    Shot("capture", chain(keys("f3", "n"), write_capture)),
    Shot("edit-time", chain(keys("f3", "0"), cursor_to("queue-table", "draft_demo_fts5", "enter"),
                            cursor_to("suggestions", "sug_fts5_when", "e", "ctrl+u", *"tuesday 23:10"))),
    Shot("memories", keys("f4")),
    Shot("memory-provenance", chain(keys("f4"), cursor_to("memories-table", "mem_draft_demo_ski", "enter"))),
    Shot("unlock", keys(*"a guess", "enter"), locked=True),
    Shot("curation", keys("f7")),
    Shot("curation-move-confirm", keys("f7", "2", "a", "y", "0", "m")),  # approve the first medium, then move
    Shot("calibration", keys("f7", "c")),
    Shot("cold-storage", keys("f8")),
    Shot("restore-confirm", keys("f8", "r")),
    Shot("search", search_for("what did we decide last Tuesday night", "OK. Decided")),
    Shot("session-view", search_for("what did we decide last Tuesday night", "OK. Decided", "enter")),
    Shot("search-filters", search_for("Kate", "Kate just texted", "s")),
    Shot("topics", keys("f6")),
    Shot("keymap", keys("f5", "down", "f1")),
    Shot("import", keys("i")),
]


async def take(shot: Shot, out: Path, workdir: Path) -> Path:
    from tui_app.app import ReverieApp

    demo = build_demo_home(workdir / shot.name / "demo", now=NOW, timezone=ZONE)  # laid out for the app's zone
    config = Config()
    config.general.timezone = ZONE
    app = ReverieApp(demo.paths, config, None if shot.locked else demo.keys, label="demo",
                     gate_hint=f"Demo passphrase: {demo.passphrase}")  # as `reverie demo` opens it
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await shot.steps(pilot)
        app.clear_notifications()
        await pilot.pause()
        return Path(app.save_screenshot(filename=f"{shot.name}.svg", path=str(out)))


async def main(out: Path, only: set[str]) -> None:
    clock.utc_now = lambda: NOW  # frozen: ages and times read the same on every run
    MemoryStore.memory_id_for_draft = lambda self, draft_id: f"mem_{draft_id}"  # type: ignore[method-assign]
    from core.curate import cold

    cold.new_move_id = lambda now: f"m-{now:%Y%m%dT%H%M%S}-000000000001"  # cold storage shows move ids
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="reverie-shots-") as tmp:
        os.environ["HOME"] = tmp  # the demo home shows as ~/demo
        for shot in SHOTS:
            if not only or shot.name in only:
                print(await take(shot, out, Path(tmp)))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "screenshots")
    parser.add_argument("--only", default="", help="comma-separated shot names")
    args = parser.parse_args()
    asyncio.run(main(args.out, {name for name in args.only.split(",") if name}))
