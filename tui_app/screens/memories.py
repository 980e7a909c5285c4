"""Memories: every finalized or added memory, newest first, with its reviewed badge and whether its
record verifies against the ledger; Enter opens its provenance, ``/`` filters the list by its text."""

from __future__ import annotations

from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import DataTable, Static

from core.textsafe import one_line
from tui_app import messages
from tui_app.screens.base import ReverieScreen
from tui_app.screens.memory_detail import MemoryDetailScreen
from tui_app.screens.session import Session
from tui_app.views.data import MemoryRow, load_memory_rows
from tui_app.widgets.format import local_time, preview
from tui_app.widgets.list_filter import FILTER_BINDING, ListFilter, filter_tabs, filtered_table
from tui_app.widgets.tables import cursor_key

SHOW = Binding.Group("Show")
FILTERS = ("all", "reviewed", "unreviewed")


def reviewed_badge(row: MemoryRow) -> Content:
    if row.memory is None:
        return Content.styled("✗ DAMAGED", "bold $text-error")
    return Content.styled("✓ reviewed", "$text-success") if row.reviewed else Content.styled("· unreviewed", "dim")


def verified_badge(row: MemoryRow) -> Content:
    if row.memory is None:
        return Content.styled("✗ fails", "bold $text-error")
    return Content.styled("sealed", "$text-success") if row.verified else Content.styled("✗ check", "bold $text-error")


class MemoriesScreen(ReverieScreen):
    SECTION = "memories"
    RESUME_ONLY_IF_CHANGED = True  # shown again, reloaded only when something in the data home changed
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "show('all')", "All", id="memories.show_all", tooltip="Show every memory", group=SHOW),
        Binding(
            "2",
            "show('reviewed')",
            "Reviewed",
            id="memories.show_reviewed",
            tooltip="Show reviewed memories",
            group=SHOW,
        ),
        Binding(
            "3",
            "show('unreviewed')",
            "Unreviewed",
            id="memories.show_unreviewed",
            tooltip="Show memories stored without review",
            group=SHOW,
        ),
        FILTER_BINDING,
        Binding("ctrl+r", "reload", "Refresh", id="refresh", tooltip="Load and verify the memories again"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.filter = "all"
        self.rows: list[MemoryRow] = []
        self.problems: list[str] = []

    def compose_body(self) -> ComposeResult:
        with Vertical(id="memories"):
            yield from filtered_table("memories", "memories-problems", blink=self.blink)

    def reload(self) -> None:
        if not self.rows:  # a loading indicator only while there is nothing to show yet
            self.set_busy(True, self.query_one(DataTable))
        self.load_rows()

    @work(thread=True, exclusive=True, exit_on_error=False, group="load", description="load the memories")
    def load_rows(self) -> None:
        rows, problems = load_memory_rows(self.session)
        if not self.cancelled():
            self.post_message(messages.MemoriesLoaded(rows, problems))

    def on_memories_loaded(self, message: messages.MemoriesLoaded) -> None:
        self.set_busy(False)
        self.rows = message.rows
        self.problems = message.problems
        self.fill()

    def of_kind(self) -> list[MemoryRow]:
        if self.filter == "all":
            return self.rows
        return [r for r in self.rows if r.memory is not None and r.reviewed == (self.filter == "reviewed")]

    def visible(self) -> list[MemoryRow]:
        """The memories of the kind shown that the filter keeps (by what their row shows)."""
        found = self.query_one(ListFilter)
        zone = self.session.zone
        return [
            r
            for r in self.of_kind()
            if found.keeps(
                reviewed_badge(r),
                verified_badge(r),
                local_time(r.memory.time, zone) if r.memory is not None else "",
                r.title,
                ", ".join(r.memory.metadata.tags) if r.memory is not None else "",
            )
        ]

    def fill(self) -> None:
        table = self.query_one(DataTable)
        keep = self.highlighted_id()
        table.clear(columns=True)
        width = max(self.size.width - 52, 20)
        for label, size in (("Review", 12), ("Record", 7), ("When", 16), ("Memory", width)):
            table.add_column(label, width=size)
        shown = self.visible()
        for row in shown:
            table.add_row(reviewed_badge(row), verified_badge(row), *self.cells(row, width), key=row.memory_id)
        ids = [r.memory_id for r in shown]
        if keep in ids:
            table.move_cursor(row=ids.index(keep))
        self.query_one("#memories-filter", Static).update(self.filter_line())
        self.query_one(ListFilter).show_count(len(shown), len(self.of_kind()))
        problems = self.query_one("#memories-problems", Static)
        problems.update(Content.assemble(*[(f"✗ {p}\n", "$text-error") for p in self.problems[:4]]))
        problems.display = bool(self.problems)

    def cells(self, row: MemoryRow, width: int) -> tuple[str, Content]:
        """The When and Memory cells: a damaged record shows its reason, never content."""
        if row.memory is None:
            return "", Content.styled(preview(row.title, width), "$text-error")
        tags = row.memory.metadata.tags
        text = Content.assemble(preview(row.title, width), (f"  {', '.join(tags)}", "dim") if tags else "")
        return local_time(row.memory.time, self.session.zone), text

    def filter_line(self) -> Content:
        reviewed = sum(1 for r in self.rows if r.reviewed)
        sound = sum(1 for r in self.rows if r.memory is not None)
        counts = {"all": len(self.rows), "reviewed": reviewed, "unreviewed": sound - reviewed}
        unverified = sum(1 for r in self.rows if not r.verified)
        parts = filter_tabs("Memories", zip(("1", "2", "3"), FILTERS, strict=True), counts, self.filter)
        if self.rows:
            note = "all records verify" if not unverified and not self.problems else f"{unverified} to check"
            parts.append((f"  · {note}", "dim" if not unverified else "bold $text-error"))
        return Content.assemble(*parts)

    def highlighted_id(self) -> str | None:
        return cursor_key(self.query_one(DataTable))

    def action_show(self, name: str) -> None:
        self.filter = name
        self.fill()

    def action_filter(self) -> None:
        self.query_one(ListFilter).open()

    def on_list_filter_changed(self) -> None:
        self.fill()

    @on(DataTable.RowSelected)
    def action_open_memory(self) -> None:
        memory_id = self.highlighted_id()
        row = next((r for r in self.rows if r.memory_id == memory_id), None)
        if row is not None and row.memory is None:
            self.notify(one_line(f"{memory_id}: {row.damage}"), title="Damaged record", severity="error",
                        markup=False)
        elif memory_id is not None:
            self.app.push_screen(MemoryDetailScreen(self.session, memory_id))
