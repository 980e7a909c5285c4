"""Memories: reviewed badges, verification state per record, provenance; tampering shows."""

from __future__ import annotations

from textual.widgets import DataTable, Static

from core.demo.build import DemoHome
from core.vault.store import MemoryStore
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    make_app,
    press,
    settle,
)
from tui_app.screens.memories import MemoriesScreen
from tui_app.screens.memory_detail import MemoryDetailScreen


def rendered(app: object, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())  # type: ignore[attr-defined]


async def test_list_shows_reviewed_badges_and_verification(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await press(pilot, "f4")
        screen = app.screen
        assert isinstance(screen, MemoriesScreen)
        assert len(screen.rows) == 8 and all(row.verified for row in screen.rows)
        assert sum(row.memory.reviewed for row in screen.rows) == 6
        assert "all records verify" in rendered(app, "#memories-filter")
        await press(pilot, "3")
        assert screen.query_one(DataTable).row_count == 2
        await press(pilot, "2")
        assert screen.query_one(DataTable).row_count == 6


async def test_open_a_memory_shows_its_provenance(demo: DemoHome) -> None:
    vault = MemoryStore.open(demo.paths, demo.keys)
    ski = vault.finalized_memory_id("draft_demo_ski")
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await press(pilot, "f4")
        table = app.screen.query_one(DataTable)
        table.move_cursor(row=table.get_row_index(ski))
        await press(pilot, "enter")
        assert isinstance(app.screen, MemoryDetailScreen) and app.screen.memory_id == ski
        assert "Ski trip off, onsen weekend on" in rendered(app, "#memory-fields")
        assert "Hakuba" in rendered(app, "#memory-fields")
        assert "✓ sealed" in rendered(app, "#memory-verification")
        assert "approved by me" in rendered(app, "#memory-review")
        suggestions = app.screen.query_one("#memory-suggestions", DataTable)
        # people, place, title, mood: the date suggester attaches nothing to a text that speaks of the
        # future ("we'll do the onsen weekend in February"), as it would for a real draft
        assert suggestions.row_count == 4
        cells = [str(suggestions.get_row_at(i)[-1]) for i in range(4)]
        assert "edited → Hakuba" in cells and "rejected by me" in cells
        await press(pilot, "escape")
        assert isinstance(app.screen, MemoriesScreen)


async def test_unreviewed_memory_says_so(demo: DemoHome) -> None:
    vault = MemoryStore.open(demo.paths, demo.keys)
    wifi = next(m.memory_id for m in vault.list_memories() if m.metadata.title == "Cabin Wi-Fi")
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await press(pilot, "f4")
        table = app.screen.query_one(DataTable)
        table.move_cursor(row=table.get_row_index(wifi))
        await press(pilot, "enter")
        assert "Not reviewed" in rendered(app, "#memory-review")
        assert not app.screen.query_one("#memory-suggestions").display


async def test_a_tampered_record_shows_on_home_and_in_the_list(demo: DemoHome) -> None:
    vault = MemoryStore.open(demo.paths, demo.keys)
    victim = vault.finalized_memory_id("draft_demo_ski")
    path = vault.memory_path(victim)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert "✗ Verification found" in rendered(app, "#home-vault")
        assert victim in rendered(app, "#home-notices")
        await press(pilot, "m")  # the key the home screen's notice names
        screen = app.screen
        assert isinstance(screen, MemoriesScreen)
        assert len(screen.rows) == 8  # the damaged record is listed, not dropped
        damaged = next(r for r in screen.rows if r.memory_id == victim)
        assert damaged.memory is None and damaged.damage and not damaged.verified
        table = screen.query_one(DataTable)
        cells = [str(c) for c in table.get_row(victim)]
        assert "DAMAGED" in cells[0] and "DAMAGED" in cells[-1]
        assert "Ski trip" not in " ".join(cells)  # never shown as content
        assert victim in rendered(app, "#memories-problems")
        table.move_cursor(row=table.get_row_index(victim))
        await press(pilot, "enter")
        assert isinstance(app.screen, MemoriesScreen)  # nothing to open: the reason is told instead


async def test_a_planted_record_with_an_escape_in_its_name_is_listed_escaped(demo: DemoHome) -> None:
    planted = demo.paths.vault / "mem_\x1b[2Jplanted.json"
    planted.write_bytes(b'{"format": "[bold]not a record"}')
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await press(pilot, "f4")
        screen = app.screen
        assert isinstance(screen, MemoriesScreen)
        damaged = [r for r in screen.rows if r.memory is None]
        assert [r.memory_id for r in damaged] == ["mem_\x1b[2Jplanted"]
        problems = rendered(app, "#memories-problems")
        assert "\x1b" not in problems and "\\x1b[2Jplanted" in problems
        table = screen.query_one(DataTable)
        table.move_cursor(row=table.get_row_index(damaged[0].memory_id))
        await press(pilot, "enter")  # the reason is told; its brackets are not read as markup
        assert isinstance(app.screen, MemoriesScreen)
