"""Draft review driven by keys: every decision, approval and finalization, each confirmed, and what
the vault holds afterwards. Captures a new draft from the queue and from home."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from textual.widgets import DataTable, Input, Static, TextArea

from core.demo.build import DemoHome
from core.vault.review import StoredDraft
from core.vault.store import MemoryStore
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    REVIEWER,
    SIZES,
    FakeEditor,
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    make_app,
    on_screen,
    open_draft,
    press,
    settle,
)
from tui_app.screens.capture import CaptureScreen
from tui_app.screens.draft import DraftReviewScreen
from tui_app.screens.queue import ReviewQueueScreen
from tui_app.widgets.dialogs import ConfirmDialog, EditDialog


def stored(demo: DemoHome, draft_id: str) -> StoredDraft:
    return MemoryStore.open(demo.paths, demo.keys).get_draft(draft_id)


def highlight(app: object, suggestion_id: str) -> None:
    table = app.screen.query_one("#suggestions", DataTable)  # type: ignore[attr-defined]
    table.move_cursor(row=table.get_row_index(suggestion_id))


async def test_accept_after_confirming(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_draft(pilot, "draft_demo_fts5")
        assert isinstance(app.screen, DraftReviewScreen)
        highlight(app, "sug_fts5_people")
        await press(pilot, "a")
        assert isinstance(app.screen, ConfirmDialog)
        await press(pilot, "y")
        decision = stored(demo, "draft_demo_fts5").decision_for("sug_fts5_people")
        assert decision is not None and decision.action == "accepted" and not decision.edited
        assert decision.reviewer == REVIEWER
        assert stored(demo, "draft_demo_fts5").resolved_fields()["people"] == ("Mina",)
        table = app.screen.query_one("#suggestions", DataTable)
        assert table.get_row_index("sug_fts5_tags") == table.cursor_row  # on to the next pending one


async def test_cancelled_confirmation_writes_nothing(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_draft(pilot, "draft_demo_fts5")
        before = (demo.paths.drafts / "draft_demo_fts5.json").read_bytes()
        await press(pilot, "a", "n", "r", "escape")
        assert isinstance(app.screen, DraftReviewScreen)
        assert (demo.paths.drafts / "draft_demo_fts5.json").read_bytes() == before


async def test_edit_then_accept_keeps_the_suggestion_as_provenance(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_draft(pilot, "draft_demo_fts5")
        highlight(app, "sug_fts5_tags")
        await press(pilot, "e")
        assert isinstance(app.screen, EditDialog)
        field = app.screen.query_one(Input)
        assert field.value == "decision, search"
        field.value = ""
        await pilot.press(*"decision, sqlite", "enter")
        await settle(pilot)
        draft = stored(demo, "draft_demo_fts5")
        decision = draft.decision_for("sug_fts5_tags")
        assert decision is not None and decision.edited and decision.value == ("decision", "sqlite")
        assert draft.suggestion("sug_fts5_tags").value == ("decision", "search")  # the AI's value is untouched
        assert "(edited)" in str(app.screen.query_one("#draft-history-text", Static).render())


async def test_edit_in_external_editor_then_accept(demo: DemoHome) -> None:
    editor = FakeEditor(reply="Mina\nSato\n")
    app = make_app(demo, editor=editor)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_draft(pilot, "draft_demo_fts5")
        highlight(app, "sug_fts5_people")
        await press(pilot, "ctrl+o")
        assert editor.seen == ["Mina\n"]  # lists open one item per line
        assert isinstance(app.screen, ConfirmDialog)
        await press(pilot, "y")
        decision = stored(demo, "draft_demo_fts5").decision_for("sug_fts5_people")
        assert decision is not None and decision.edited and decision.value == ("Mina", "Sato")


async def test_external_editor_left_unchanged_decides_nothing(demo: DemoHome) -> None:
    app = make_app(demo, editor=FakeEditor(reply="Mina\n"))
    async with app.run_test(size=(100, 30)) as pilot:
        await open_draft(pilot, "draft_demo_fts5")
        highlight(app, "sug_fts5_people")
        await press(pilot, "ctrl+o")
        assert isinstance(app.screen, DraftReviewScreen)
        assert stored(demo, "draft_demo_fts5").decision_for("sug_fts5_people") is None


async def test_reject(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_draft(pilot, "draft_demo_jeju")
        highlight(app, "sug_jeju_place")
        await press(pilot, "r", "y")
        decision = stored(demo, "draft_demo_jeju").decision_for("sug_jeju_place")
        assert decision is not None and decision.action == "rejected" and decision.reviewer == REVIEWER
        assert "location" not in stored(demo, "draft_demo_jeju").resolved_fields()


async def test_approve_waits_for_every_decision_then_finalize_seals_a_memory(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_draft(pilot, "draft_demo_dentist")
        await press(pilot, "A")  # two suggestions pending: approve is disabled
        assert isinstance(app.screen, DraftReviewScreen)
        assert stored(demo, "draft_demo_dentist").state == "open"
        await press(pilot, "a", "y", "r", "y", "A")
        assert isinstance(app.screen, ConfirmDialog)
        await press(pilot, "y")
        draft = stored(demo, "draft_demo_dentist")
        assert draft.state == "approved" and draft.approval is not None and draft.approval.reviewer == REVIEWER
        await press(pilot, "f", "y")
        draft = stored(demo, "draft_demo_dentist")
        assert draft.state == "finalized" and draft.finalized_memory_id
        vault = MemoryStore.open(demo.paths, demo.keys)
        memory = vault.get_memory(draft.finalized_memory_id)
        assert memory.reviewed and memory.review_summary()["approved_by"] == REVIEWER
        assert memory.review_summary()["accepted_count"] == 1 and memory.review_summary()["rejected_count"] == 1
        assert vault.finalized_memory_id("draft_demo_dentist") == memory.memory_id
        assert memory.memory_id in vault.verified_ids()
        await press(pilot, "o")  # the memory it became, with its provenance
        assert app.screen.memory_id == memory.memory_id  # type: ignore[attr-defined]


async def test_finalize_confirmation_starts_on_cancel(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_draft(pilot, "draft_demo_book", state_key="2")
        await press(pilot, "f", "enter")  # Enter on the focused Cancel button
        assert stored(demo, "draft_demo_book").state == "approved"
        await press(pilot, "f", "y")
        assert stored(demo, "draft_demo_book").state == "finalized"
        await press(pilot, "f")  # finalized once: the key does nothing now
        assert isinstance(app.screen, DraftReviewScreen)


async def test_history_panel_toggles(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_draft(pilot, "draft_demo_fts5")
        history = app.screen.query_one("#draft-history")
        text = str(app.screen.query_one("#draft-history-text", Static).render())
        assert "rejected" in text and "accepted" in text and "captured" in text
        await press(pilot, "h")
        assert not history.display
        await press(pilot, "h")
        assert history.display


async def test_capture_a_draft_from_the_queue(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await press(pilot, "f3", "n")
        assert isinstance(app.screen, CaptureScreen)
        await press(pilot, "ctrl+s")  # nothing written yet: refused with a message
        assert isinstance(app.screen, CaptureScreen)
        app.screen.query_one(TextArea).text = "Booked the ryokan for 14-16 February."
        app.screen.query_one(Input).value = "travel, friends"
        await press(pilot, "ctrl+s")
        assert isinstance(app.screen, ReviewQueueScreen)
        new = [d for d in MemoryStore.open(demo.paths, demo.keys).list_drafts() if "Booked the ryokan" in d.content]
        assert len(new) == 1 and new[0].tags == ("travel", "friends") and new[0].created_by == REVIEWER
        assert new[0].draft_id in app.screen.query_one(DataTable).rows  # type: ignore[operator]


async def test_capture_from_home_with_the_external_editor(demo: DemoHome) -> None:
    app = make_app(demo, editor=FakeEditor(reply="Written in vi.\nSecond line.\n"))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await press(pilot, "n", "ctrl+o")
        assert app.screen.query_one(TextArea).text == "Written in vi.\nSecond line."
        await press(pilot, "ctrl+s")
        drafts = MemoryStore.open(demo.paths, demo.keys).list_drafts(state="open")
        assert any(d.content == "Written in vi.\nSecond line." for d in drafts)
        assert "5 open drafts · 9 to decide" in str(app.screen.query_one("#home-review", Static).render())


async def test_text_that_looks_like_markup_is_shown_as_written(demo: DemoHome) -> None:
    tricky = "Read [b]this[/b] and [red then $EDITOR [link=x]"
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await press(pilot, "f3", "n")
        app.screen.query_one(TextArea).text = tricky
        app.screen.query_one(Input).value = "odd"
        await press(pilot, "ctrl+s")
        draft = next(d for d in MemoryStore.open(demo.paths, demo.keys).list_drafts() if d.tags == ("odd",))
        await open_draft(pilot, draft.draft_id)
        assert str(app.screen.query_one("#draft-content", Static).render()) == tricky


@pytest.mark.parametrize("size", SIZES)
async def test_the_queue_detail_wraps_the_draft_and_always_says_what_it_is(
    demo: DemoHome, size: tuple[int, int]
) -> None:
    """Below the queue, the highlighted draft: its text wrapped at words into the pane's width (cut
    with … only when it needs more lines than the pane has), then its state and id on a line that
    is never pushed out of view."""
    app = make_app(demo)
    async with app.run_test(size=size) as pilot:
        await press(pilot, "f3", "0")
        assert isinstance(app.screen, ReviewQueueScreen)
        table = app.screen.query_one("#queue-table", DataTable)
        detail = app.screen.query_one("#queue-detail", Static)
        for draft in app.screen.drafts:
            table.move_cursor(row=table.get_row_index(draft.draft_id))
            await pilot.pause()
            lines = str(detail.render()).split("\n")
            assert len(lines) <= detail.content_size.height, (draft.draft_id, lines)
            assert all(cell_len(line) <= detail.content_size.width for line in lines), lines
            assert draft.draft_id in lines[-1] and lines[-1].startswith(draft.state)
            text, shown = "".join(draft.content.split()), "".join("".join(lines[:-1]).split())  # spaces aside
            assert shown == text or (shown.endswith("…") and text.startswith(shown[:-1])), (text, shown)
            assert on_screen(app, detail)
        table.move_cursor(row=table.get_row_index("draft_demo_fts5"))  # three lines at 80 columns: all shown
        await pilot.pause()
        assert "MEASUREMENTS.md." in str(detail.render())
