"""The turns around a search result (or a topic marker), in the order they were said, that turn marked.

Opened with Enter on a turn in the search results, or on a topic marker (the conversation at the
marker's time). It shows up to :data:`AROUND` turns of the same session before and after the hit,
under the session's project and first prompt when the index has them; ``e`` and ``l`` reach further
back or forward, ``h`` scrolls back to the hit. The text is the log's own, never summarized; the query's
words are highlighted.
"""

from __future__ import annotations

from datetime import datetime, tzinfo
from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Static

from core.textsafe import field_line, visible
from core.turns import Turn
from core.workbench.search import TermMarks
from tui_app import messages
from tui_app.screens.base import ReverieScreen
from tui_app.screens.search_view import assemble, exact_time, highlighted
from tui_app.screens.session import Session
from tui_app.views.turns import SessionAbout, TurnSource, session_about
from tui_app.widgets.format import plural, preview
from tui_app.widgets.humane import ago

AROUND = 8  # turns shown on each side of the hit at first
MORE = 10  # turns added by each press of e or l


def turn_text(
    turn: Turn, zone: tzinfo, now: datetime, pattern: TermMarks | None, hit: bool, mark: str = "▶ found "
) -> Content:
    """``Tue 3 Nov 18:12 · claude (assistant, claude-sonnet-4.5) · 6 days ago`` over the turn's text."""
    speaker_style = {"user": "bold", "assistant": "bold $text-accent"}.get(turn.role, "bold dim")
    about = ", ".join(field_line(part, 80) for part in (turn.role, turn.model, turn.type if turn.type != "text" else "")
                      if part)
    body = highlighted(visible(turn.text.strip()), pattern)  # a turn's controls shown, never obeyed
    if turn.type != "text":
        body = body.stylize("dim")
    return assemble(
        (mark if hit else "", "bold $text-warning"),
        (exact_time(turn.ts, zone, now), "dim"),
        " · ",
        (field_line(turn.actor, 80), speaker_style),  # one line of data, whatever the import held
        (f" ({about}) · {ago(turn.ts, now)}", "dim"),
        "\n",
        body,
    )


class SessionViewScreen(ReverieScreen):
    SECTION = "search"
    RELOAD_ON_RESUME = False  # loads once; e and l load more
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("e", "more('before')", "Earlier", id="session.earlier", tooltip=f"Show {MORE} more turns before"),
        Binding("l", "more('after')", "Later", id="session.later", tooltip=f"Show {MORE} more turns after"),
        Binding("h", "to_hit", "Found turn", id="session.hit", tooltip="Scroll back to the turn it was opened at"),
        Binding("escape", "back", "Back", id="back", tooltip="Back to the results (or the topics)"),
    ]

    def __init__(
        self,
        session: Session,
        backend: TurnSource,
        turn_id: str,
        pattern: TermMarks | None = None,
        *,
        mark: str = "▶ found ",
        note: Content | None = None,
    ) -> None:
        """``mark`` labels the turn it opens at ("▶ found ", "▶ at the marker "); ``note`` is a line
        above the session's project (the topic marker it was opened from)."""
        super().__init__(session)
        self.mark = mark
        self.note = note
        self.about = SessionAbout()
        self.backend = backend
        self.turn_id = turn_id
        self.pattern = pattern
        self.before = AROUND
        self.after = AROUND
        self.turns: list[Turn] = []
        self.at_start = False
        self.at_end = False
        self.scroll_after_load = "hit"  # "hit", "top" or "bottom"
        self.placed = False  # the turns are loaded and scrolled into place

    def compose_body(self) -> ComposeResult:
        with Vertical(id="session-view"):
            yield Static(id="session-head")
            yield Static(id="session-about")  # the project and the first prompt, when the index has them
            yield VerticalScroll(id="session-turns", can_focus=True)

    def on_mount(self) -> None:
        self.query_one("#session-about").display = False
        self.query_one("#session-turns").focus()
        self.load_turns()

    @work(thread=True, exclusive=True, exit_on_error=False, group="load", description="load the turns around it")
    def load_turns(self) -> None:
        turns = self.backend.session_turns(self.turn_id, self.before, self.after)
        about = session_about(self.session.workbench, turns[0].session) if turns else SessionAbout()
        if not self.cancelled():
            self.post_message(messages.SessionTurnsLoaded(turns, about))

    async def on_session_turns_loaded(self, message: messages.SessionTurnsLoaded) -> None:
        self.turns, self.placed = message.turns, False
        self.about = message.about or SessionAbout()
        hit = next((i for i, t in enumerate(self.turns) if t.id == self.turn_id), 0)
        self.at_start = hit < self.before
        self.at_end = len(self.turns) - hit - 1 < self.after
        container = self.query_one("#session-turns", VerticalScroll)
        await container.remove_children()
        now, zone = self.session.now(), self.session.zone
        widgets = [
            Static(
                turn_text(turn, zone, now, self.pattern, turn.id == self.turn_id, self.mark),
                classes=f"turn -{turn.role}" + (" -hit" if turn.id == self.turn_id else ""),
            )
            for turn in self.turns
        ]
        await container.mount_all(widgets)
        self.query_one("#session-head", Static).update(self.head_text())
        about = self.query_one("#session-about", Static)
        about.update(Content("\n").join([*self.about_lines(), Content("")]))  # a blank line before the turns
        about.display = bool(self.about.header or self.about.first_prompt or self.note)
        self.refresh_bindings()
        self.call_after_refresh(self.scroll_into_place)

    def head_text(self) -> Content:
        if not self.turns:
            return Content.styled("This turn is no longer in the index (reindex, then search again).", "$text-error")
        first, last = self.turns[0], self.turns[-1]
        zone, now = self.session.zone, self.session.now()
        start, end = exact_time(first.ts, zone, now), exact_time(last.ts, zone, now)
        if start.rsplit(" ", 1)[0] == end.rsplit(" ", 1)[0]:
            end = end.rsplit(" ", 1)[1]  # the same day: "Tue 3 Nov 18:04 – 18:09"
        if self.at_start and self.at_end:
            edges = "the whole session"
        else:
            edges = " · ".join(
                [
                    "from its first turn" if self.at_start else f"e: {MORE} earlier",
                    "to its latest" if self.at_end else f"l: {MORE} later",
                ]
            )
        return assemble(
            ("Session ", "dim"),
            (first.session, "bold"),
            (f" · {plural(len(self.turns), 'turn')} in order · ", "dim"),
            f"{start} – {end}",
            (f" · {edges}", "dim"),
        )

    def about_lines(self) -> list[Content]:
        """The session's project (the importer's header) and the person's first prompt, a line each."""
        width = max(self.size.width - 4, 20)
        lines = [self.note.truncate(width, ellipsis=True)] if self.note is not None else []
        if self.about.header:
            lines.append(Content.styled(preview(self.about.header, width), "dim"))
        if self.about.first_prompt:
            lines.append(assemble(("first prompt ", "dim"), f"“{preview(self.about.first_prompt, width - 15)}”"))
        return lines

    def scroll_into_place(self) -> None:
        """After a load, once laid out: to the hit, or to the turns just added (``placed`` then says so)."""
        container = self.query_one("#session-turns", VerticalScroll)
        if self.scroll_after_load == "top":
            container.scroll_home(animate=False, immediate=True)
        elif self.scroll_after_load == "bottom":
            container.scroll_end(animate=False, immediate=True)
        else:
            self.action_to_hit()
            self.call_after_refresh(self.hit_settled)  # once more when the wrapped turns have their heights
            return
        self.placed = True

    def hit_settled(self, tries: int = 4, seen: tuple[int, int] | None = None) -> None:
        """Center the hit again until the layout stops moving it (wrapped turns get their heights over
        a refresh or two, more under load), then say it is placed."""
        self.action_to_hit()
        hits = self.query(".-hit")
        turns = self.query_one("#session-turns", VerticalScroll)
        where = (hits.first().virtual_region.y, int(turns.scroll_y)) if hits else None
        if where != seen and tries > 1:
            self.call_after_refresh(self.hit_settled, tries - 1, where)
            return
        self.placed = True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "more":
            return not (self.at_start if parameters == ("before",) else self.at_end)
        return True

    def action_more(self, side: str) -> None:
        if side == "before":
            self.before += MORE
            self.scroll_after_load = "top"
        else:
            self.after += MORE
            self.scroll_after_load = "bottom"
        self.load_turns()

    def action_to_hit(self) -> None:
        """Center the hit: its middle line at the middle of the view (computed here, so the same layout
        always gives the same scroll; Textual's centering rounds either way from where it starts)."""
        hits = self.query(".-hit")
        if hits:
            turns = self.query_one("#session-turns", VerticalScroll)
            region = hits.first().virtual_region
            target = region.y + region.height // 2 - turns.scrollable_content_region.height // 2
            turns.scroll_to(y=max(0, min(target, turns.max_scroll_y)), animate=False, immediate=True)

    def action_back(self) -> None:
        self.app.pop_screen()


class MarkerSessionScreen(SessionViewScreen):
    """The conversation at a topic marker's time, opened from Topics: it stays in the topics section."""

    SECTION = "topics"
