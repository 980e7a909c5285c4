"""The review queue: drafts by state (open, approved, finalized), newest first; Enter opens one, ``/``
filters the list by its text."""

from __future__ import annotations

from typing import ClassVar

from rich.cells import cell_len
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import DataTable, Static

from core.workbench.types import StoredDraft
from tui_app import messages
from tui_app.screens.base import ReverieScreen
from tui_app.screens.session import Session
from tui_app.widgets.format import plural, preview, wrap_lines
from tui_app.widgets.humane import age
from tui_app.widgets.list_filter import FILTER_BINDING, ListFilter, filter_tabs, filtered_table
from tui_app.widgets.tables import cursor_key

STATES = ("open", "approved", "finalized", "all")
AGE_WIDTH = 15  # the longest age humanize says ("1 year, 1 month"); longer ones end in …
DETAIL_LINES = 4  # the highlighted draft below the table: its text (wrapped, cut with …), then what it is
SHOW = Binding.Group("Show")


def draft_status(draft: StoredDraft) -> str:
    pending = len(draft.pending_suggestions())
    if draft.state == "open":
        return f"{pending}/{len(draft.suggestions)} pending" if draft.suggestions else "no suggestions"
    if draft.state == "approved":
        return "to finalize"
    return "sealed"


class ReviewQueueScreen(ReverieScreen):
    SECTION = "queue"
    RESUME_ONLY_IF_CHANGED = True  # shown again, reloaded only when something in the data home changed
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "capture", "New draft", id="capture", tooltip="Capture a new draft for review"),
        Binding("1", "show('open')", "Open", id="queue.show_open", tooltip="Show open drafts", group=SHOW),
        Binding(
            "2", "show('approved')", "Approved", id="queue.show_approved", tooltip="Show approved drafts", group=SHOW
        ),
        Binding(
            "3",
            "show('finalized')",
            "Finalized",
            id="queue.show_finalized",
            tooltip="Show finalized drafts",
            group=SHOW,
        ),
        Binding("0", "show('all')", "All", id="queue.show_all", tooltip="Show every draft", group=SHOW),
        FILTER_BINDING,
        Binding("ctrl+r", "reload", "Refresh", id="refresh", tooltip="Load the drafts again"),
    ]

    def __init__(self, session: Session, state: str = "open") -> None:
        super().__init__(session)
        self.state = state
        self.drafts: list[StoredDraft] = []

    def compose_body(self) -> ComposeResult:
        with Vertical(id="queue"):
            yield from filtered_table("queue", "queue-detail", blink=self.blink)

    # --- loading -------------------------------------------------------------------------------------

    def reload(self) -> None:
        if not self.drafts:  # a loading indicator only while there is nothing to show yet
            self.set_busy(True, self.query_one(DataTable))
        self.load_drafts()

    @work(thread=True, exclusive=True, exit_on_error=False, group="load", description="load the drafts")
    def load_drafts(self) -> None:
        drafts = self.session.workbench.review.drafts()
        if not self.cancelled():
            self.post_message(messages.DraftsLoaded(drafts))

    def on_drafts_loaded(self, message: messages.DraftsLoaded) -> None:
        self.set_busy(False)
        self.drafts = sorted(message.drafts, key=lambda d: d.created_at, reverse=True)
        self.fill()

    def in_state(self) -> list[StoredDraft]:
        return [d for d in self.drafts if self.state == "all" or d.state == self.state]

    def visible(self) -> list[StoredDraft]:
        """The drafts of the state shown that the filter keeps (by what their row shows)."""
        found = self.query_one(ListFilter)
        now = self.session.now()
        return [
            d
            for d in self.in_state()
            if found.keeps(d.state, age(d.created_at, now), draft_status(d), ", ".join(d.tags), d.content)
        ]

    def fill(self) -> None:
        table = self.query_one(DataTable)
        keep = self.highlighted_id()
        table.clear(columns=True)
        tags = 14 if self.size.width >= 96 else 10
        now = self.session.now()
        shown = self.visible()
        ages = {d.draft_id: age(d.created_at, now) for d in shown}
        age_width = min(max((cell_len(a) for a in ages.values()), default=3), AGE_WIDTH)
        fixed = (("State", 9), ("Age", max(age_width, 3)), ("Suggestions", 14), ("Tags", tags))
        width = max(self.size.width - sum(size for _, size in fixed) - 2 * 5 - 5, 16)
        for label, size in (*fixed, ("Content", width)):
            table.add_column(label, width=size)
        for draft in shown:
            table.add_row(
                draft.state,
                Content(preview(ages[draft.draft_id], age_width)),
                draft_status(draft),
                Content(preview(", ".join(draft.tags), tags)),
                Content(preview(draft.content, width)),
                key=draft.draft_id,
            )
        if keep is not None and any(d.draft_id == keep for d in shown):
            table.move_cursor(row=table.get_row_index(keep))
        self.query_one("#queue-filter", Static).update(self.filter_line())
        self.query_one(ListFilter).show_count(len(shown), len(self.in_state()))
        self.show_detail()

    def filter_line(self) -> Content:
        counts = {state: sum(1 for d in self.drafts if d.state == state) for state in STATES[:3]}
        counts["all"] = len(self.drafts)
        return Content.assemble(*filter_tabs("Drafts", zip(("1", "2", "3", "0"), STATES, strict=True), counts,
                                             self.state))

    # --- the highlighted draft ----------------------------------------------------------------------

    def highlighted_id(self) -> str | None:
        return cursor_key(self.query_one(DataTable))

    @on(DataTable.RowHighlighted)
    def show_detail(self) -> None:
        detail = self.query_one("#queue-detail", Static)
        draft_id = self.highlighted_id()
        draft = next((d for d in self.drafts if d.draft_id == draft_id), None)
        if draft is None:
            typed = self.query_one(ListFilter).text.strip()
            if typed and self.in_state():
                detail.update(Content.assemble(f"No drafts match “{typed}”.", (" Esc clears the filter.", "dim")))
                return
            empty = "No drafts here." if self.state == "all" else f"No {self.state} drafts."
            detail.update(Content.assemble(empty, (" Press n to capture one, 0 to show all.", "dim")))
            return
        pending = len(draft.pending_suggestions())
        width = detail.content_size.width or self.size.width - 2
        about = wrap_lines(
            f"{draft.state} · {plural(len(draft.suggestions), 'suggestion')}, {pending} pending · "
            f"by {draft.created_by} · {draft.draft_id}",
            width,
            DETAIL_LINES - 1,
        )
        text = wrap_lines(draft.content, width, DETAIL_LINES - len(about))
        detail.update(Content.assemble("\n".join(text), "\n", ("\n".join(about), "dim")))

    def on_resize(self) -> None:
        if self.drafts:
            self.fill()  # the content column and the detail's lines follow the width

    # --- actions -------------------------------------------------------------------------------------

    def action_show(self, state: str) -> None:
        self.state = state
        self.fill()

    def action_filter(self) -> None:
        self.query_one(ListFilter).open()

    def on_list_filter_changed(self) -> None:
        self.fill()

    @on(DataTable.RowSelected)
    def action_open_draft(self) -> None:
        from tui_app.screens.draft import DraftReviewScreen  # lazy: a screen shown later (the review code, ~30 ms)

        draft_id = self.highlighted_id()
        if draft_id is not None:
            self.app.push_screen(DraftReviewScreen(self.session, draft_id))
