"""The filter line of a list screen: ``/`` opens it, typing narrows the list as you type.

One widget for every list (review queue, memories, topics, cold storage). The screen binds
:data:`FILTER_BINDING` (``/``), calls :meth:`ListFilter.open` from its action, and refills its table
when :class:`ListFilter.Changed` arrives, keeping the rows for which :meth:`ListFilter.keeps` is true
of the texts the row shows. Matching ignores case and Unicode width and composition (NFKC), so
``ｒｅｖｉｅ`` finds "Reverie" and a Korean or Japanese word typed through an input method finds the
same word in the list.

While the filter has the focus every printable key is typed into it (the screen's letter keys do
not fire); Esc clears it, a second Esc closes it; Enter (or Down) goes to the list, the filter kept.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.content import Content
from textual.message import Message
from textual.widgets import Input, Static

from tui_app.widgets.tables import RecordTable

FILTER_BINDING = Binding(
    "slash", "filter", "Filter", id="list.filter", tooltip="Filter the list by its text as you type (Esc clears)"
)


def filtered_table(name: str, below: str, *, blink: bool) -> ComposeResult:
    """A filterable list's widgets: its tabs line (``#NAME-filter``), the filter (``#NAME-find``), the
    table (``#NAME-table``) and the line under it (``#BELOW``)."""
    yield Static(id=f"{name}-filter")
    yield ListFilter(f"#{name}-table", blink=blink, id=f"{name}-find")
    yield RecordTable(id=f"{name}-table", cursor_type="row", zebra_stripes=True)
    yield Static(id=below)


def filter_tabs(
    title: str, tabs: Iterable[tuple[str, str]], counts: Mapping[str, int], current: str
) -> list[Content | tuple[str, str] | str]:
    """The start of a list's tabs line: ``title``, then `` KEY NAME COUNT `` for each (key, name) of
    ``tabs``, the ``current`` one reversed."""
    parts: list[Content | tuple[str, str] | str] = [(f"{title} ", "bold")]
    for key, name in tabs:
        label = f" {key} {name} {counts[name]} "
        parts.append((label, "reverse bold") if name == current else label)
    return parts


def folded(text: str) -> str:
    """``text`` as the filter compares it: NFKC (full-width letters, composed Hangul), case folded."""
    return unicodedata.normalize("NFKC", text).casefold()


def matches(query: str, texts: Iterable[str | Content]) -> bool:
    """Whether every word of ``query`` is in one of ``texts`` (an empty query keeps everything)."""
    words = folded(query).split()
    if not words:
        return True
    haystack = "\n".join(folded(t.plain if isinstance(t, Content) else t) for t in texts)
    return all(word in haystack for word in words)


class ListFilter(Horizontal):
    """``Filter › [text]  3 of 12``, hidden until :meth:`open`; ``target`` is the list's selector."""

    DEFAULT_CSS = """
    ListFilter {
        display: none;
        height: 1;
        margin: 1 0 0 0;
    }
    ListFilter.-open {
        display: block;
    }
    ListFilter > .list-filter-prompt {
        width: auto;
        padding: 0 1 0 0;
        text-style: bold;
    }
    ListFilter > Input {
        width: 1fr;
    }
    ListFilter > .list-filter-count {
        width: auto;
        padding: 0 0 0 1;
        color: $text-muted;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "escape", "clear_or_close", "Clear", id="list.filter_clear", tooltip="Clear the filter; again: close it"
        ),
        Binding("down", "to_list", "To the list", id="list.filter_done", tooltip="Go to the list", show=False),
    ]

    class Changed(Message):
        """The filter text changed (opened, typed, cleared or closed)."""

        def __init__(self, list_filter: ListFilter, text: str) -> None:
            super().__init__()
            self.list_filter = list_filter
            self.text = text

        @property
        def control(self) -> ListFilter:
            return self.list_filter

    def __init__(self, target: str, *, blink: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.target = target
        self.blink = blink

    def compose(self) -> ComposeResult:
        yield Static("Filter ›", classes="list-filter-prompt")
        field = Input(placeholder="type to narrow the list · Enter: to the list · Esc: clear", compact=True)
        field.cursor_blink = self.blink
        field.can_focus = False  # closed, it takes no focus (a screen focuses its first focusable widget)
        yield field
        yield Static(classes="list-filter-count")

    @property
    def field(self) -> Input:
        return self.query_one(Input)

    @property
    def text(self) -> str:
        """What the list is filtered by now ("" when closed)."""
        return self.field.value if self.has_class("-open") else ""

    @property
    def is_open(self) -> bool:
        return self.has_class("-open")

    def keeps(self, *texts: str | Content) -> bool:
        """Whether a row showing ``texts`` stays in the list."""
        return matches(self.text, texts)

    def show_count(self, shown: int, total: int) -> None:
        """``3 of 12`` after the field while a filter is typed."""
        count = self.query_one(".list-filter-count", Static)
        count.update(f"{shown} of {total}" if self.text.strip() else "")

    def open(self) -> None:
        """Show the filter and give it the focus (its text kept from last time it was used)."""
        opened = not self.is_open
        self.add_class("-open")
        self.field.can_focus = True
        self.field.focus()
        if opened and self.field.value:
            self.post_message(self.Changed(self, self.field.value))

    def close(self) -> None:
        self.field.value = ""
        self.remove_class("-open")
        self.action_to_list()
        self.field.can_focus = False

    @on(Input.Changed)
    def typed(self, event: Input.Changed) -> None:
        event.stop()
        self.post_message(self.Changed(self, self.text))

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_to_list()

    def action_clear_or_close(self) -> None:
        if self.field.value:
            self.field.value = ""  # Input.Changed follows: the list fills again
        else:
            self.close()
            self.post_message(self.Changed(self, ""))

    def action_to_list(self) -> None:
        targets = self.screen.query(self.target)
        if targets:
            targets.first().focus()
