"""The search screen's filter bar: a small dialog with one line each for tags, role and session.

Enter applies all three, Esc leaves the filters as they were, Tab moves between the lines, an empty
line means "any". Role and session complete as you type (→ takes the completion): roles from the
three the log knows, sessions from the results on screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Vertical
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import Input, Label, Static

from core.turns import ROLES
from tui_app.views.search_backend import SearchFilters

FIELDS = ("tags", "role", "session")


def parse_tags(text: str) -> tuple[str, ...]:
    """``travel, friends`` → ``("travel", "friends")``: separated by commas (as when capturing a
    draft), duplicates dropped."""
    return tuple(dict.fromkeys(tag.strip() for tag in text.split(",") if tag.strip()))


class FilterDialog(ModalScreen[SearchFilters | None]):
    """Edit the filters; dismisses with the new :class:`SearchFilters`, or ``None`` when cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="search.filters_cancel", tooltip="Leave the filters as they were"),
        Binding("enter", "apply", "Apply", id="search.filters_apply", tooltip="Search again with these filters"),
    ]

    def __init__(
        self, filters: SearchFilters, focus: str = "tags", sessions: Sequence[str] = (), *, blink: bool = False
    ) -> None:
        super().__init__(classes="dialog")
        self.filters = filters
        self.focus_field = focus if focus in FIELDS else "tags"
        self.sessions = list(dict.fromkeys(sessions))
        self.blink = blink

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box filter-box"):
            yield Label("Filter the search", classes="dialog-title")
            with Grid(id="filter-grid"):
                yield Label("Tags", classes="filter-label")
                yield self.field("tags", ", ".join(self.filters.tags), "memories carrying every tag: travel, friends")
                yield Label("Role", classes="filter-label")
                yield self.field("role", self.filters.role, "user, assistant or system", ROLES)
                yield Label("Session", classes="filter-label")
                yield self.field("session", self.filters.session, "one conversation's session id", self.sessions)
            yield Static(id="filter-error", classes="dialog-warning")
            yield Static(
                "Enter applies · Esc cancels · Tab next line · → completes · empty means any. "
                "Tags keep memories only; role and session keep turns only.",
                classes="dialog-hint",
            )

    def field(self, name: str, value: str, placeholder: str, choices: Sequence[str] = ()) -> Input:
        suggester = SuggestFromList(choices, case_sensitive=False) if choices else None
        widget = Input(value, placeholder=placeholder, id=f"filter-{name}", suggester=suggester, compact=True)
        widget.cursor_blink = self.blink
        return widget

    def on_mount(self) -> None:
        self.query_one("#filter-error").display = False
        self.query_one(f"#filter-{self.focus_field}", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_apply()

    def value(self, name: str) -> str:
        return self.query_one(f"#filter-{name}", Input).value.strip()

    def action_apply(self) -> None:
        role = self.value("role").lower()
        if role and role not in ROLES:
            error = self.query_one("#filter-error", Static)
            error.update(f"Role must be one of {', '.join(ROLES)} (or empty).")
            error.display = True
            self.query_one("#filter-role", Input).focus()
            return
        self.dismiss(SearchFilters(tags=parse_tags(self.value("tags")), role=role, session=self.value("session")))

    def action_cancel(self) -> None:
        self.dismiss(None)
