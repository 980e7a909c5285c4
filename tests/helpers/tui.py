"""Shared set-up for the TUI tests (no tests here): a demo home built at a frozen time, the app on
it, a fake $EDITOR, and a helper that waits until every worker and message has settled.

A test module uses the fixtures by importing them (``from tests.helpers.tui import demo_fixture``);
they register under their short names (``demo``, ``frozen_clock``, ``stable_ids``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import DataTable

from core import clock
from core.config import Config
from core.demo.build import DemoHome, build_demo_home
from core.embed.hashing import HashingEmbedder
from core.embed.protocol import Embedder
from core.vault.store import MemoryStore
from tui_app.app import ReverieApp

FROZEN_NOW = datetime(2026, 11, 10, 12, 0, tzinfo=UTC)
REVIEWER = "tester"


@pytest.fixture(name="frozen_clock")
def frozen_clock_fixture(monkeypatch: pytest.MonkeyPatch) -> datetime:
    """Every time Reverie reads (``core.clock.utc_now``) is FROZEN_NOW."""
    monkeypatch.setattr(clock, "utc_now", lambda: FROZEN_NOW)
    return FROZEN_NOW


@pytest.fixture(name="stable_ids")
def stable_ids_fixture(monkeypatch: pytest.MonkeyPatch) -> None:
    """Memory ids that do not depend on the random salt, so snapshots are byte-stable."""
    counter = iter(range(1, 1000))
    monkeypatch.setattr(MemoryStore, "memory_id_for_draft", lambda self, draft_id: f"mem_{draft_id}")
    monkeypatch.setattr("core.vault.store.new_id", lambda prefix: f"{prefix}_demo_{next(counter):04d}")


@pytest.fixture(name="demo")
def demo_fixture(tmp_path: Path, frozen_clock: datetime) -> DemoHome:
    return build_demo_home(tmp_path / "demo", now=frozen_clock, timezone="UTC")  # as tui_config()


@pytest.fixture(name="snapshot_demo")
def snapshot_demo_fixture(
    tmp_path: Path, frozen_clock: datetime, stable_ids: None, monkeypatch: pytest.MonkeyPatch
) -> DemoHome:
    """A demo home whose every byte on screen is the same on each run: frozen clock, stable memory
    ids, and the home shown as ``~/demo`` (HOME points at the temporary folder)."""
    monkeypatch.setenv("HOME", str(tmp_path))
    return build_demo_home(tmp_path / "demo", now=frozen_clock, timezone="UTC")  # as tui_config()


@dataclass
class FakeEditor:
    """Stands in for $EDITOR: records what it was given and returns ``reply`` (or None)."""

    reply: str | None = None
    seen: list[str] = field(default_factory=list)

    def __call__(self, app: App[object], text: str, suffix: str) -> str | None:
        self.seen.append(text)
        return self.reply


def tui_config(**tui: object) -> Config:
    config = Config()
    config.general.reviewer = REVIEWER
    config.general.timezone = "UTC"
    for key, value in tui.items():
        setattr(config.tui, key, value)
    return config


def model_free_embedder() -> Embedder:
    """The embedder TUI tests run with unless they pass their own: no model is loaded (a capture's
    duplicate check and semantic search still run, on hashed vectors)."""
    return HashingEmbedder(dim=64)


EMBEDDERS: dict[str, Callable[[], Embedder]] = {"default": model_free_embedder}  # fixtures may replace it


def make_app(
    demo: DemoHome, *, locked: bool = False, config: Config | None = None, editor: FakeEditor | None = None,
    embedder: Callable[[], Embedder] | None = None,
) -> ReverieApp:
    return ReverieApp(
        demo.paths,
        config or tui_config(),
        None if locked else demo.keys,
        editor=editor or FakeEditor(),
        label="demo",
        embedder=embedder or (lambda: EMBEDDERS["default"]()),
    )


async def settle(pilot: Pilot[object]) -> None:
    """Wait until no worker runs and every posted message was handled (handlers may start workers)."""
    app = pilot.app
    for _ in range(20):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if not any(worker.is_running for worker in app.workers):
            return


async def until(pilot: Pilot[object], condition: Callable[[], object], what: str, *, tries: int = 1500) -> None:
    """Wait, 20 ms at a time and at most ``tries`` times, until ``condition()`` is true; else fail
    naming ``what``."""
    for _ in range(tries):
        if condition():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"never happened: {what}")


async def press(pilot: Pilot[object], *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
        await settle(pilot)


async def open_draft(pilot: Pilot[object], draft_id: str, state_key: str = "0") -> None:
    """From anywhere: the review queue, every draft shown, cursor on ``draft_id``, Enter."""
    await press(pilot, "f3", state_key)
    table = pilot.app.screen.query_one("#queue-table", DataTable)
    table.move_cursor(row=table.get_row_index(draft_id))
    await press(pilot, "enter")


def vault_files(root: Path) -> dict[str, tuple[int, int]]:
    """Every file under the home with its size and mtime: to prove that nothing was written."""
    return {str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns) for p in root.rglob("*") if p.is_file()}


# the small SSH terminal first; every screen is usable at each
SIZES = [pytest.param((width, height), id=f"{width}x{height}") for width, height in ((80, 24), (100, 30), (200, 60))]


def on_screen(app: App[object], *widgets: Widget) -> bool:
    """Whether every one of ``widgets`` is laid out wholly inside the terminal (nothing cut off)."""
    screen = app.screen.region
    return all(widget.region.area and screen.contains_region(widget.region) for widget in widgets)
