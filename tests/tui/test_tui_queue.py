"""What the lists say after something changed elsewhere (issue 14, item 6): a reject refused because
another instance decided first leaves the draft and the queue showing what is stored, never
"pending"; cold storage's check says one copy and many copies right."""

from __future__ import annotations

from textual.widgets import DataTable

from core.curate.cold import ColdItem
from core.demo.build import DemoHome
from core.vault.store import MemoryStore
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    make_app,
    press,
)
from tui_app.screens.cold import verify_message
from tui_app.screens.draft import DraftReviewScreen
from tui_app.screens.queue import ReviewQueueScreen
from tui_app.widgets.dialogs import ErrorDialog

DRAFT = "draft_demo_dentist"  # open, two suggestions pending


def cells(table: DataTable[object], row: int) -> list[str]:
    return [str(cell) for cell in table.get_row_at(row)]


async def test_a_refused_reject_shows_the_decision_another_instance_made(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await press(pilot, "f3")
        queue = app.screen
        assert isinstance(queue, ReviewQueueScreen)
        table = queue.query_one("#queue-table", DataTable)
        assert cells(table, table.get_row_index(DRAFT))[2] == "2/2 pending"
        table.move_cursor(row=table.get_row_index(DRAFT))
        await press(pilot, "enter")
        draft_screen = app.screen
        assert isinstance(draft_screen, DraftReviewScreen)
        suggestion = draft_screen.highlighted()
        assert suggestion is not None
        other = MemoryStore.open(demo.paths, demo.keys)  # another instance accepts it first
        stored = other.get_draft(DRAFT)
        other.save_draft(stored.accept(suggestion.suggestion_id, reviewer="laptop"))
        await press(pilot, "r", "enter")  # reject, confirmed: refused
        assert isinstance(app.screen, ErrorDialog)
        await press(pilot, "escape")
        assert app.screen is draft_screen
        rows = draft_screen.query_one("#suggestions", DataTable)
        row = rows.get_row_index(suggestion.suggestion_id)
        assert cells(rows, row)[-1] == "accepted" and draft_screen.draft is not None
        assert draft_screen.draft.decision_for(suggestion.suggestion_id) is not None
        await press(pilot, "escape")
        assert app.screen is queue
        assert cells(table, table.get_row_index(DRAFT))[2] == "1/2 pending"


def items(*intact: bool | None) -> list[ColdItem]:
    """Cold items with only their check result set (what the message reads)."""
    return [ColdItem(stone=None, places=None, tombstone_present=True, intact=state)  # type: ignore[arg-type]
            for state in intact]


def test_cold_checks_read_right_for_one_and_many() -> None:
    assert verify_message(items(True)) == ("The cold copy matches its recorded checksum.", "information")
    assert verify_message(items(True, True, True)) == (
        "All 3 cold copies match their recorded checksums.",
        "information",
    )
    assert verify_message(items(False)) == ("The cold copy does not match its recorded checksum.", "error")
    assert verify_message(items(False, True, True)) == (
        "1 of 3 cold copies does not match its recorded checksum.",
        "error",
    )
    assert verify_message(items(False, False, True))[0] == (
        "2 of 3 cold copies do not match their recorded checksums."
    )
    assert verify_message([])[0] == "Cold storage is empty: nothing to check."
