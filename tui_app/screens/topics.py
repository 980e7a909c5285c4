"""Topics: the markers the person wrote when a conversation turned ("where are we now"), newest first.

``m`` adds one in the person's own words (kept exactly as written, apart from surrounding spaces),
timestamped now, through the same core function as ``reverie mark``. Assistants read markers (MCP,
context blocks) and never write them; this screen is the person's.

Enter on a marker opens the conversation at that time: the session of the latest turn said at or
before the marker, scrolled to that turn. ``/`` filters the markers by their text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import DataTable, Input, Label, Static

from core.workbench.topics import Topics
from tui_app import messages
from tui_app.screens.base import ReverieScreen
from tui_app.screens.search_view import assemble, exact_time, live_key, when_text
from tui_app.screens.session import Session
from tui_app.views.turns import IndexTurns
from tui_app.widgets.format import plural, preview
from tui_app.widgets.list_filter import FILTER_BINDING, ListFilter
from tui_app.widgets.tables import RecordTable, cursor_key

if TYPE_CHECKING:
    from core.topics import Marker


class MarkerDialog(ModalScreen[str | None]):
    """One line for a new marker: Enter adds it, Esc cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="topics.cancel_mark", tooltip="Close without adding a marker"),
        Binding("enter", "submit", "Add", id="topics.add_mark", tooltip="Add the marker, timestamped now"),
    ]

    def __init__(self, *, blink: bool = False) -> None:
        super().__init__(classes="dialog")
        self.blink = blink

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label("Where are we now?", classes="dialog-title")
            field = Input(
                placeholder="in your own words: e.g. search screen done, curation next",
                id="marker-text",
                max_length=Topics.max_chars,
            )
            field.cursor_blink = self.blink
            yield field
            yield Static(
                "Kept exactly as you write it, timestamped now. Assistants read markers; only you write them.",
                classes="dialog-hint",
            )
            yield Static(id="marker-error", classes="dialog-warning")

    def on_mount(self) -> None:
        self.query_one("#marker-error").display = False
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def action_submit(self) -> None:
        text = self.query_one(Input).value
        if not text.strip():
            error = self.query_one("#marker-error", Static)
            error.update("Write a few words first, or Esc to cancel.")
            error.display = True
            return
        self.dismiss(text)

    def action_cancel(self) -> None:
        self.dismiss(None)


class TopicsScreen(ReverieScreen):
    SECTION = "topics"
    RESUME_ONLY_IF_CHANGED = True  # shown again, reloaded only when something in the data home changed
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("m", "mark", "Mark", id="topics.mark", tooltip="Add a topic marker: where we are now, in your words"),
        FILTER_BINDING,
        Binding("ctrl+r", "reload", "Refresh", id="refresh", tooltip="Read the markers again"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.markers: list[Marker] = []
        self.problems: list[str] = []
        self.loaded = False
        self.select_next: str | None = None  # the marker just added: highlighted once the list is read
        self.turns = IndexTurns(session.workbench)

    def compose_body(self) -> ComposeResult:
        with Vertical(id="topics"):
            yield Static(id="topics-head")
            yield ListFilter("#topics-table", blink=self.blink, id="topics-find")
            yield RecordTable(id="topics-table", cursor_type="row", zebra_stripes=True)
            yield Static(id="topics-detail")
            yield Static(id="topics-problems")

    def on_mount(self) -> None:
        self.query_one("#topics-table").focus()

    def on_resize(self) -> None:
        self.fill()

    def reload(self) -> None:
        if not self.loaded:
            self.set_busy(True, self.query_one("#topics-table"))
        self.load_markers()

    @work(thread=True, exclusive=True, exit_on_error=False, group="load", description="read the topic markers")
    def load_markers(self) -> None:
        reading = self.session.workbench.topics.read()  # latest first
        if not self.cancelled():
            self.post_message(messages.MarkersLoaded(reading.markers, reading.problems))

    def on_markers_loaded(self, message: messages.MarkersLoaded) -> None:
        self.set_busy(False)
        self.loaded = True
        self.markers, self.problems = message.markers, message.problems
        self.fill(select=self.select_next)
        self.select_next = None

    def fill(self, select: str | None = None) -> None:
        table = self.query_one("#topics-table", DataTable)
        keep = select or self.highlighted_id()
        table.clear(columns=True)
        now, zone = self.session.now(), self.session.zone
        found = self.query_one(ListFilter)
        whens = {m.id: when_text(m.ts, zone, now) for m in self.markers}
        shown = [m for m in self.markers if found.keeps(whens[m.id], m.text)]
        when_width = max(min(max((whens[m.id].cell_length for m in shown), default=0), 30), 15)
        width = max(self.size.width - 2 - when_width - 4, 20)
        table.add_column("When", width=when_width)
        table.add_column("Marker", width=width)
        for marker in shown:
            when = whens[marker.id].truncate(when_width, ellipsis=True)
            table.add_row(when, Content(preview(marker.text, width)), key=marker.id)
        ids = [m.id for m in shown]
        if keep in ids:
            table.move_cursor(row=ids.index(keep))
        found.show_count(len(shown), len(self.markers))
        self.query_one("#topics-head", Static).update(self.head_text())
        problems = self.query_one("#topics-problems", Static)
        problems.update(Content.assemble(*[(f"✗ {p}\n", "$text-error") for p in self.problems[:3]]))
        problems.display = bool(self.problems)
        self.show_detail()

    def head_text(self) -> Content:
        if not self.markers:
            key = live_key(self, "topics.mark", "m")
            return assemble(
                ("No topic markers yet. ", "bold"), (f"Press {key} to note where the conversation is now.", "dim")
            )
        return assemble(
            ("Topics ", "bold"),
            (f"· {plural(len(self.markers), 'marker')}, newest first · your words; assistants only read them", "dim"),
        )

    def highlighted_id(self) -> str | None:
        return cursor_key(self.query_one("#topics-table", DataTable))

    @on(DataTable.RowHighlighted, "#topics-table")
    def show_detail(self) -> None:
        marker = next((m for m in self.markers if m.id == self.highlighted_id()), None)
        detail = self.query_one("#topics-detail", Static)
        detail.update(Content(marker.text) if marker is not None else Content(""))
        detail.display = marker is not None

    def action_filter(self) -> None:
        self.query_one(ListFilter).open()

    def on_list_filter_changed(self) -> None:
        self.fill()

    # --- the conversation at a marker's time -----------------------------------------------------------

    @on(DataTable.RowSelected, "#topics-table")
    def open_marker(self) -> None:
        marker = next((m for m in self.markers if m.id == self.highlighted_id()), None)
        if marker is not None:
            self.find_turn(marker)

    @work(thread=True, exclusive=True, exit_on_error=False, group="open", description="find the conversation")
    def find_turn(self, marker: Marker) -> None:
        turn = self.turns.turn_at(marker.ts)
        self.post_message(messages.MarkerTurnFound(marker, turn))

    def on_marker_turn_found(self, message: messages.MarkerTurnFound) -> None:
        from tui_app.screens.session_view import MarkerSessionScreen  # lazy: a screen shown later (~10 ms)

        if message.turn is None:
            self.notify("No conversation is in the index yet: import one first (i on Home).", severity="warning")
            return
        marker = message.marker
        note = assemble(
            ("Marker ", "dim"),
            (f"“{preview(marker.text, 60)}”", "bold"),
            (f" · {exact_time(marker.ts, self.session.zone, self.session.now())}", "dim"),
        )
        screen = MarkerSessionScreen(self.session, self.turns, message.turn.id, mark="▶ at the marker ", note=note)
        self.app.push_screen(screen)

    # --- adding a marker ------------------------------------------------------------------------------

    def action_mark(self) -> None:
        self.app.push_screen(MarkerDialog(blink=self.blink), self.mark_written)

    def mark_written(self, text: str | None) -> None:
        if text is not None:
            self.save_marker(text)

    @work(thread=True, exclusive=True, exit_on_error=False, group="mark", description="add the topic marker")
    def save_marker(self, text: str) -> None:
        marker = self.session.workbench.mark(text, now=self.session.now())
        self.post_message(messages.MarkerAdded(marker))

    def on_marker_added(self, message: messages.MarkerAdded) -> None:
        self.select_next = message.marker.id  # read them all again (a reload may already be under way)
        self.reload()
        self.notify(preview(message.marker.text, 60), title="Marked", markup=False)
