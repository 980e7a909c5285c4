"""Long content in the draft review and the memory detail: the box scrolls, its border says how many
lines are cut ("▼ N more lines"), c reads it on the full screen; a finalized draft says what is
true of it (sealed as memory X, read-only) instead of inviting an approval."""

from __future__ import annotations

import pytest
from msgspec.structs import replace
from textual.widgets import DataTable, Static

from core.demo.build import DemoHome
from core.vault.store import MemoryStore
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    make_app,
    open_draft,
    press,
    settle,
)
from tui_app.screens.draft import DraftReviewScreen
from tui_app.screens.memory_detail import MemoryDetailScreen
from tui_app.widgets.longtext import LongText, more_marker

LINES = 330
LONG = "\n".join(f"Line {i}: the plan for the winter trip, what to pack and who drives." for i in range(1, LINES + 1))


def long_draft(demo: DemoHome, *, finalize: bool = False) -> tuple[str, str | None]:
    vault = MemoryStore.open(demo.paths, demo.keys)
    draft = vault.create_draft(LONG, ["long"])
    if not finalize:
        return draft.draft_id, None
    approved = draft.approve(reviewer="tester")
    vault.save_draft(approved)
    memory = vault.finalize_draft(approved)
    return draft.draft_id, memory.memory_id


def test_more_marker_counts_what_is_cut() -> None:
    assert more_marker(100, 0, 10) == ("", "▼ 90 more lines")
    assert more_marker(100, 30, 10) == ("▲ 30 above", "▼ 60 more lines")
    assert more_marker(100, 90, 10) == ("▲ 90 above", "")
    assert more_marker(11, 0, 10) == ("", "▼ 1 more line")
    assert more_marker(5, 0, 10) == ("", "")


@pytest.mark.parametrize("size", [(80, 24), (100, 30)], ids=["80x24", "100x30"])
async def test_long_draft_scrolls_with_a_more_marker(demo: DemoHome, size: tuple[int, int]) -> None:
    draft_id, _ = long_draft(demo)
    app = make_app(demo)
    async with app.run_test(size=size) as pilot:
        await open_draft(pilot, draft_id)
        screen = app.screen
        assert isinstance(screen, DraftReviewScreen)
        box = screen.query_one("#draft-content-box", LongText)
        await settle(pilot)
        shown = box.scrollable_content_region.height
        assert shown >= 8  # no suggestions to decide: the content takes their room
        assert box.virtual_size.height >= LINES
        assert box.border_subtitle == f"▼ {box.virtual_size.height - shown:,} more lines · c reads all"
        assert box.show_vertical_scrollbar
        assert box.has_focus  # nothing else to act on: the arrows scroll the content
        await press(pilot, "pagedown")
        assert box.scroll_y > 0
        assert box.border_title.startswith("Content · ▲ ")
        await press(pilot, "end")
        assert box.border_subtitle == ""


async def test_c_reads_the_content_on_the_full_screen_and_esc_comes_back(demo: DemoHome) -> None:
    draft_id, _ = long_draft(demo)
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_draft(pilot, draft_id)
        screen = app.screen
        box = screen.query_one("#draft-content-box", LongText)
        before = box.scrollable_content_region.height
        await press(pilot, "c")
        assert screen.maximized is box
        assert box.scrollable_content_region.height > before
        assert box.size.height >= app.size.height - 4  # the whole screen but the footer (one or two lines)
        assert box.border_subtitle.endswith(" more lines · Esc comes back")  # not "c reads all" again
        footer = {b.binding.action for b in screen.active_bindings.values()}
        assert "minimize" in footer and "back" not in footer
        await press(pilot, "escape")
        assert app.screen is screen and screen.maximized is None  # Esc restores, it does not leave
        await press(pilot, "escape")
        assert not isinstance(app.screen, DraftReviewScreen)


async def test_a_draft_with_suggestions_keeps_its_table_and_cuts_long_content(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_draft(pilot, "draft_demo_fts5")
        screen = app.screen
        assert screen.query_one("#suggestions", DataTable).display
        box = screen.query_one("#draft-content-box", LongText)
        assert box.border_subtitle == ""  # the demo's content fits: no mark
        vault = MemoryStore.open(demo.paths, demo.keys)
        draft = vault.get_draft("draft_demo_fts5")
        screen.show_draft(replace(draft, content=LONG))
        await settle(pilot)
        assert box.border_subtitle.startswith("▼ ")
        assert screen.query_one("#suggestions", DataTable).size.height >= 5
        await press(pilot, "c")  # the full screen, though the box had a third of it
        assert screen.maximized is box and box.size.height >= app.size.height - 4
        await press(pilot, "escape")
        assert screen.query_one("#suggestions", DataTable).has_focus  # the keys act on suggestions again


async def test_a_finalized_draft_says_it_is_sealed_and_read_only(demo: DemoHome) -> None:
    draft_id, memory_id = long_draft(demo, finalize=True)
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_draft(pilot, draft_id, "3")
        screen = app.screen
        detail = str(screen.query_one("#suggestion-detail", Static).render())
        meta = str(screen.query_one("#draft-meta", Static).render())
        assert "Approve" not in detail and "No suggestions" not in detail
        assert f"Sealed as memory {memory_id}" in detail and "Read-only" in detail
        assert f"sealed as memory {memory_id} · read-only" in meta
        actions = {b.binding.action for b in screen.active_bindings.values()}
        assert "approve" not in actions and "accept" not in actions
        await press(pilot, "o")
        assert isinstance(app.screen, MemoryDetailScreen) and app.screen.memory_id == memory_id


async def test_an_approved_draft_without_suggestions_says_finalize_next(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_draft(pilot, "draft_demo_book", "2")
        screen = app.screen
        assert isinstance(screen, DraftReviewScreen)
        screen.query_one("#suggestions", DataTable).clear()
        screen.show_suggestion_detail()
        detail = str(screen.query_one("#suggestion-detail", Static).render())
        assert detail.startswith("Approved by ") and "f finalizes" in detail


async def test_long_memory_scrolls_with_a_more_marker(demo: DemoHome) -> None:
    _, memory_id = long_draft(demo, finalize=True)
    assert memory_id is not None
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(MemoryDetailScreen(app.session, memory_id))  # type: ignore[arg-type]
        await settle(pilot)
        screen = app.screen
        box = screen.query_one("#memory-content", LongText)
        assert box.virtual_size.height >= LINES
        assert box.border_subtitle.startswith("▼ ") and "more lines" in box.border_subtitle
        assert screen.query_one("#memory-verification", Static).region.y < app.size.height  # still on screen
        box.focus()
        await press(pilot, "pagedown")
        assert box.scroll_y > 0 and "▲" in box.border_title
        shown = box.scrollable_content_region.height
        await press(pilot, "c")
        assert screen.maximized is box
        assert box.size.height >= app.size.height - 4 > shown  # the whole screen but the footer (one or two lines)
        await press(pilot, "escape")
        assert screen.maximized is None and app.screen is screen
