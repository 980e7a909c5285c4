"""Search: type a question, see how its time words were understood, read what was said.

The query runs after a pause in typing (``tui.search_debounce_ms``; Enter runs it at once) in a
worker, through the one recall entry point. Above the results: the range as understood ("last
Tuesday night → Tue 3 Nov 18:00 – Wed 4 Nov 04:00") or "no time expression", then the mode that
produced the results and, when auto fell back to semantic, why. Each result shows its time (exact
and how long ago), speaker, kind (turn, or memory with its reviewed badge) and text; Enter opens the
turns around it in its session (or a memory's provenance).

Filters (tags, role, session) open a small dialog; ctrl+t switches the mode. Choosing semantic or
hybrid when the index lacks vectors builds them in a worker with a progress bar (Esc cancels; the
build resumes later): that is when the embedding model first loads, never at start-up.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widgets import DataTable, Input, ProgressBar, Static
from textual.worker import Worker

from core.workbench.freshness import Freshness
from core.workbench.search import TermMarks, term_pattern
from core.workbench.types import RecallItem
from tui_app import messages
from tui_app.screens.base import ReverieScreen
from tui_app.screens.memory_detail import MemoryDetailScreen
from tui_app.screens.search_filters import FilterDialog
from tui_app.screens.search_view import (
    detail_text,
    filter_bar,
    index_text,
    kind_text,
    live_key,
    mode_text,
    result_text,
    speaker_name,
    speaker_text,
    understood_text,
    when_text,
)
from tui_app.screens.session import Session
from tui_app.views.search_backend import (
    MODES,
    SearchBackend,
    SearchFilters,
    SearchReply,
    SearchRequest,
)
from tui_app.widgets.format import speaker_labels, speaker_width
from tui_app.widgets.tables import RecordTable

RESULT_LIMIT = 20
WIDE_SCREEN = 96  # from this many columns the When and Speaker columns may take more room
FILTER = Binding.Group("Filter")  # ctrl+f, t, r and s share one footer entry: "^f t r s Filter"
SEMANTIC_MODES = ("semantic", "hybrid")
RESULTS_ONLY = ("filters", "clear_filters", "focus_query")  # letter keys: the query field types letters


class SearchMemoryScreen(MemoryDetailScreen):
    """A memory's provenance opened from a search result: it stays in the search section."""

    SECTION = "search"


class SearchScreen(ReverieScreen):
    SECTION = "search"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "ctrl+f",
            "filter_bar",
            "Filters",
            id="search.filters",
            tooltip="Filter by memory tags, turn role and session",
            group=FILTER,
        ),
        Binding(
            "t", "filters('tags')", "Tags", id="search.filter_tags", tooltip="Only memories with tags", group=FILTER
        ),
        Binding(
            "r", "filters('role')", "Role", id="search.filter_role", tooltip="Only turns of one role", group=FILTER
        ),
        Binding(
            "s",
            "filters('session')",
            "Session",
            id="search.filter_session",
            tooltip="Only turns of one session (the highlighted result's, to start with)",
            group=FILTER,
        ),
        Binding("x", "clear_filters", "Clear", id="search.clear_filters", tooltip="Remove every filter"),
        Binding(
            "ctrl+t",
            "cycle_mode",
            "Mode",
            id="search.mode",
            tooltip="Switch the mode: auto → exact → semantic → hybrid",
        ),
        Binding("down", "focus_results", "Results", id="search.results", tooltip="Move to the results", show=False),
        Binding("slash", "focus_query", "Query", id="search.query", tooltip="Back to the query to change it"),
        Binding(
            "ctrl+u",
            "clear_query",
            "New query",
            id="search.clear_query",
            tooltip="Clear the query and type a new one",
            priority=True,
        ),
        Binding(
            "escape",
            "escape",
            "Cancel",
            id="search.cancel",
            tooltip="Stop building vectors; in the query: clear it, then leave; on the results: back to the query",
            show=False,
        ),
        Binding(
            "ctrl+r",
            "reload",
            "Refresh",
            id="refresh",
            tooltip="Bring new turns and memories into the index, then search again",
        ),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.backend = SearchBackend(session.workbench)
        self.mode = "auto"
        self.filters = SearchFilters()
        self.seq = 0
        self.last_request: SearchRequest | None = None
        self.answer: SearchReply | None = None
        self.index_state: Freshness | None = None
        self.debounce: Timer | None = None
        self.busy_line = ""
        self.building = False
        self.vectors_checked = False  # once per screen: semantic modes check the vectors the first time
        self.search_after_load = False

    # --- layout ---------------------------------------------------------------------------------------

    def compose_body(self) -> ComposeResult:
        with Vertical(id="search"):
            with Horizontal(id="search-bar"):
                yield Static("Search ›", id="search-prompt")
                query = Input(
                    placeholder="what did we decide last Tuesday night",
                    id="search-query",
                    compact=True,
                    select_on_focus=False,  # back from the results, typing goes on where the query ends
                )
                query.cursor_blink = self.blink
                yield query
            yield Static(id="search-understood")
            yield Static(id="search-mode")
            yield Static(id="search-filters")
            with Horizontal(id="search-progress"):
                yield Static(id="search-progress-label")
                yield ProgressBar(id="search-progress-bar", show_eta=False)
            yield RecordTable(id="search-results", cursor_type="row", zebra_stripes=True)
            yield Static(id="search-detail")

    def on_mount(self) -> None:
        self.query_one("#search-progress").display = False
        field = self.query_one("#search-query", Input)
        typed: dict[str, str] = getattr(self.app, "typed", {})
        if typed.get("search.query") and not field.value:
            field.value = typed["search.query"]  # the query on screen when the app locked
            field.cursor_position = len(field.value)
        field.focus()
        self.show_lines()

    def on_unmount(self) -> None:
        self.backend.close()

    def on_resize(self, event: events.Resize) -> None:
        self.fill_results()
        self.call_after_refresh(self.fill_results)  # again once laid out: the table's height, the detail's width

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self.refresh_bindings()  # the letter keys act only while the results have the focus

    def typing(self) -> bool:
        """Whether the query field has the focus (then letters are typed, not keys)."""
        focused = self.focused
        return isinstance(focused, Input) and focused.id == "search-query"

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in RESULTS_ONLY:
            return not self.typing()
        if action == "focus_results":
            return self.typing()
        return True

    # --- the index: caught up on every return to the screen ------------------------------------------

    def reload(self) -> None:
        self.catch_up()

    def action_reload(self) -> None:
        self.search_after_load = True  # asked for: search again even if nothing changed
        self.reload()

    @work(thread=True, exclusive=True, exit_on_error=False, group="load", description="bring the index up to date")
    def catch_up(self) -> None:
        state = self.backend.catch_up(should_stop=self.cancelled)
        if not self.cancelled():
            self.post_message(messages.SearchIndexReady(state))

    def on_search_index_ready(self, message: messages.SearchIndexReady) -> None:
        again = self.index_state is None or message.state.changed or self.search_after_load
        self.index_state, self.search_after_load = message.state, False
        if again and self.query_text().strip():
            self.start_search()  # new turns or memories may answer the question on screen
        self.show_lines()

    # --- typing and searching -------------------------------------------------------------------------

    def query_text(self) -> str:
        return self.query_one("#search-query", Input).value

    @on(Input.Changed, "#search-query")
    def query_changed(self) -> None:
        keep = getattr(self.app, "keep_typed", None)
        if keep is not None:
            keep("search.query", self.query_text())  # unlocking after a lock brings it back
        if self.debounce is not None:
            self.debounce.stop()
        delay = self.session.config.tui.search_debounce_ms / 1000
        self.debounce = self.set_timer(delay, self.start_search) if delay > 0 else None
        if delay <= 0:
            self.start_search()

    @on(Input.Submitted, "#search-query")
    def query_submitted(self) -> None:
        """Enter: search now (no waiting for the pause). The query keeps the focus, so typing goes on
        changing the query; Down (or Tab) moves to the results, where letters are keys. On an empty
        field Enter asks the placeholder's example question."""
        field = self.query_one("#search-query", Input)
        if not field.value.strip() and field.placeholder:
            field.value = str(field.placeholder)
            field.cursor_position = len(field.value)
        if self.debounce is not None:
            self.debounce.stop()
            self.debounce = None
        self.start_search()

    def on_key(self, event: events.Key) -> None:
        """On the results, a printable character that is no key of the screen starts typing into the
        query again (and Backspace edits it), instead of doing nothing."""
        if self.typing() or not isinstance(self.focused, DataTable):
            return
        field = self.query_one("#search-query", Input)
        if event.key == "backspace":
            field.focus()
            field.action_delete_left()
        elif event.is_printable and event.character and event.key not in self.app.active_bindings:
            field.focus()
            field.insert_text_at_cursor(event.character)
        else:
            return
        event.stop()
        event.prevent_default()

    def start_search(self) -> None:
        self.debounce = None
        self.seq += 1
        query = self.query_text()
        if not query.strip():
            self.last_request, self.answer, self.busy_line = None, None, ""
            self.fill_results()
            self.show_lines()
            return
        request = SearchRequest(
            seq=self.seq,
            query=query,
            mode=self.mode,
            filters=self.filters,
            now=self.session.now(),
            zone=self.session.zone,
            limit=RESULT_LIMIT,
        )
        self.last_request = request
        if not self.building:
            self.busy_line = "searching…"
        self.show_lines()
        self.run_search(request)

    @work(thread=True, exclusive=True, exit_on_error=False, group="search", description="search")
    def run_search(self, request: SearchRequest) -> None:
        answer = self.backend.search(request)
        if not self.cancelled():
            self.post_message(messages.SearchAnswered(answer))

    def on_search_answered(self, message: messages.SearchAnswered) -> None:
        if message.answer.request.seq != self.seq:
            return  # a newer query was typed meanwhile
        self.answer = message.answer
        if not self.building:
            self.busy_line = ""
        elif message.answer.error is not None:
            self.busy_line = "Searching again once the vectors are built…"
        self.fill_results()
        self.show_lines()

    # --- what the screen shows ------------------------------------------------------------------------

    @property
    def results(self) -> list[RecallItem]:
        if self.answer is None or self.answer.result is None:
            return []
        return self.answer.result.results

    def pattern(self) -> TermMarks | None:
        """The query's words as they are highlighted in the results."""
        result = self.answer.result if self.answer is not None else None
        return term_pattern(result.rest) if result is not None else None

    def show_lines(self) -> None:
        query = self.query_text()
        understood = self.query_one("#search-understood", Static)
        result = self.answer.result if self.answer is not None else None
        understood.update(understood_text(result if query.strip() else None, query, self.session.now()))
        status = self.query_one("#search-mode", Static)
        if not query.strip() and not self.busy_line:
            status.update(index_text(self.index_state, live_key(self, "search.mode", "ctrl+t")))
        else:
            asked = self.answer.request.mode if self.answer is not None else self.mode
            status.update(mode_text(self.answer, asked, self.busy_line))
        self.query_one("#search-filters", Static).update(filter_bar(self.mode, self.filters))
        self.show_detail()

    def fill_results(self) -> None:
        table = self.query_one("#search-results", DataTable)
        keep = table.cursor_row if table.row_count else 0
        table.clear(columns=True)
        width = self.size.width - 2
        room = table.size.height - 1  # rows below the header; more results than that bring a scrollbar
        if not room > 0 or len(self.results) > room:
            width -= table.styles.scrollbar_size_vertical  # which would hide the end of the text and its …
        now, zone = self.session.now(), self.session.zone
        whens = [when_text(item.ts, zone, now) for item in self.results]
        wide = self.size.width >= WIDE_SCREEN
        when_width = max(min(max((w.cell_length for w in whens), default=0), 30 if wide else 26), 15)
        names = [speaker_name(item) for item in self.results]
        speaker = speaker_width(names, 7, 16 if wide else 9)  # whole names when the column allows
        labels = speaker_labels(names, speaker)  # else abbreviated, different names kept different
        text_width = max(width - when_width - speaker - 8 - 8, 16)
        for label, size in (("When", when_width), ("Speaker", speaker), ("Kind", 8), ("Text", text_width)):
            table.add_column(label, width=size)
        pattern = self.pattern()
        for index, item in enumerate(self.results):
            table.add_row(
                whens[index].truncate(when_width, ellipsis=True),
                speaker_text(item, labels[names[index]]),
                kind_text(item),
                result_text(item, text_width, pattern),
                key=f"{index}:{item.kind}:{item.id}",
            )
        if table.row_count:
            table.move_cursor(row=min(keep, table.row_count - 1))
        self.show_detail()

    def highlighted(self) -> RecallItem | None:
        table = self.query_one("#search-results", DataTable)
        results = self.results
        if not table.row_count or not 0 <= table.cursor_row < len(results):
            return None
        return results[table.cursor_row]

    @on(DataTable.RowHighlighted, "#search-results")
    def show_detail(self) -> None:
        pane = self.query_one("#search-detail", Static)
        width = pane.content_size.width or self.size.width - 2
        pane.update(detail_text(self.highlighted(), self.session.zone, self.session.now(), self.pattern(), width))

    @on(DataTable.RowSelected, "#search-results")
    def open_result(self) -> None:
        from tui_app.screens.session_view import SessionViewScreen  # lazy: a screen shown later (~10 ms)

        item = self.highlighted()
        if item is None:
            return
        if item.kind == "memory":
            self.app.push_screen(SearchMemoryScreen(self.session, item.id))
            return
        self.app.push_screen(SessionViewScreen(self.session, self.backend, item.id, self.pattern()))

    # --- focus ----------------------------------------------------------------------------------------

    def action_focus_results(self) -> None:
        self.query_one("#search-results", DataTable).focus()

    def action_focus_query(self) -> None:
        self.query_one("#search-query", Input).focus()

    def action_clear_query(self) -> None:
        field = self.query_one("#search-query", Input)
        field.value = ""
        field.focus()
        self.start_search()  # an empty query: the old results go at once

    async def action_escape(self) -> None:
        """Stop building vectors; in the query, clear it, and when it is empty leave for Home; on the
        results, back to the query."""
        if self.building:
            self.workers.cancel_group(self, "vectors")
            return
        if not self.typing():
            self.action_focus_query()
        elif self.query_text():
            self.action_clear_query()
        else:
            await self.app.run_action("section('home')")

    # --- filters and mode -----------------------------------------------------------------------------

    def action_filter_bar(self) -> None:
        self.action_filters("tags")

    def action_filters(self, field: str) -> None:
        filters = self.filters
        item = self.highlighted()
        if field == "session" and not filters.session and item is not None and item.session:
            filters = SearchFilters(filters.tags, filters.role, item.session)
        sessions = [i.session for i in self.results if i.session]
        self.app.push_screen(FilterDialog(filters, field, sessions, blink=self.blink), self.filters_chosen)

    def filters_chosen(self, filters: SearchFilters | None) -> None:
        if filters is not None and filters != self.filters:
            self.set_filters(filters)

    def action_clear_filters(self) -> None:
        if self.filters.active:
            self.set_filters(SearchFilters())

    def set_filters(self, filters: SearchFilters) -> None:
        self.filters = filters
        self.show_lines()
        if self.query_text().strip():
            self.start_search()

    def action_cycle_mode(self) -> None:
        self.mode = MODES[(MODES.index(self.mode) + 1) % len(MODES)]
        if self.mode in SEMANTIC_MODES and not self.vectors_checked and not self.building:
            self.vectors_checked = True
            self.ensure_vectors()
        self.show_lines()
        if self.query_text().strip():
            self.start_search()

    # --- vectors, built when a semantic mode is first chosen ------------------------------------------

    @work(thread=True, exclusive=True, exit_on_error=False, group="vectors", description="build vectors")
    def ensure_vectors(self) -> None:
        if getattr(self.app, "building_vectors", False):
            self.vectors_checked = False  # the app's build is under way (its progress in the section bar)
            return
        if not self.backend.needs_vectors():
            return
        self.post_message(messages.VectorProgress(0, 0))

        def progress(phase: str, done: int, total: int) -> None:
            if phase == "embed":
                self.post_message(messages.VectorProgress(done, total))

        state = self.backend.build_vectors(progress=progress, should_stop=self.cancelled)
        self.post_message(messages.VectorsBuilt(state))

    def on_vector_progress(self, message: messages.VectorProgress) -> None:
        message.stop()  # this screen's build: the app's own handler is for its background build
        self.building = True
        self.query_one("#search-progress").display = True
        bar = self.query_one("#search-progress-bar", ProgressBar)
        bar.update(total=message.total or None, progress=message.done)
        cancel = live_key(self, "search.cancel", "esc")
        what = f"{message.done:,}/{message.total:,}" if message.total else "starting"
        self.query_one("#search-progress-label", Static).update(
            f"Building vectors for semantic search: {what} · {cancel} cancels "
        )

    def on_vectors_built(self, message: messages.VectorsBuilt) -> None:
        message.stop()  # this screen's build: the app's own handler is for its background build
        self.building = False
        self.busy_line = ""
        self.query_one("#search-progress").display = False
        self.index_state = message.state
        if message.state.stopped:
            self.vectors_checked = False  # choosing a semantic mode again resumes the build
            self.notify("Stopped; the vectors built so far are kept and the build resumes later.", markup=False)
        else:
            self.notify(f"{message.state.vectors:,} vectors ready for semantic search.", markup=False)
        if self.query_text().strip():
            self.start_search()
        self.show_lines()

    def work_failed(self, worker: Worker[object]) -> None:
        self.building = False
        self.busy_line = ""
        self.vectors_checked = False
        self.query_one("#search-progress").display = False

    def show_notice(self, line: str) -> None:
        """The workbench's notice (the app routes it here while this screen is shown): the status line."""
        self.busy_line = line
        self.show_lines()
