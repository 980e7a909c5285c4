"""A box of text that may be much longer than the room it has: it scrolls, shows its scrollbar, and its
border says what is cut (``▲ 3 above`` in the title, ``▼ 312 more lines`` in the subtitle).

The draft review and the memory detail show a record's content in one of these: a 31,000-character
draft is read a screenful at a time instead of showing its first four lines with no sign of the
rest. The box takes the focus (Tab), then ↑ ↓ PgUp PgDn Home End scroll it; a screen may bind a key
that maximizes it (``Screen.maximize``; Esc restores; its stylesheet gives ``.-maximized`` the room).
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from tui_app.widgets.format import plural


def more_marker(total: int, top: int, shown: int) -> tuple[str, str]:
    """What a box showing lines ``[top, top + shown)`` of ``total`` cuts off: the mark above ("▲ 3
    above", or "") and the mark below ("▼ 312 more lines", or "")."""
    top = max(0, min(top, total))
    below = max(0, total - top - max(shown, 0))
    above_mark = f"▲ {top:,} above" if top else ""
    below_mark = f"▼ {plural(below, 'more line')}" if below else ""
    return above_mark, below_mark


class LongText(VerticalScroll, can_focus=True):
    """Plain text (never markup) in a bordered box that scrolls; ``title`` names the box and ``hint``
    (a key that shows all of it) follows the "more" mark while something is cut off."""

    ALLOW_MAXIMIZE = True  # Textual's scroll containers refuse it by default

    DEFAULT_CSS = """
    LongText {
        height: auto;
        border: round $primary 50%;
        border-title-color: $text-primary;
        border-subtitle-color: $text-warning;
        padding: 0 1;
        scrollbar-size-vertical: 1;
    }
    LongText:focus {
        border: round $primary;
    }
    LongText > .long-text-body {
        height: auto;
    }
    """

    def __init__(self, *, id: str, title: str, hint: str = "", body_id: str | None = None, classes: str = "") -> None:
        """``body_id``: the id of the Static inside that holds the text (``<id>-text`` if not given)."""
        super().__init__(id=id, classes=classes)
        self.box_title = title
        self.hint = hint
        self.body_id = body_id or f"{id}-text"
        self.border_title = title

    def compose(self) -> ComposeResult:
        yield Static(id=self.body_id, classes="long-text-body", markup=False)

    def on_mount(self) -> None:
        self.watch(self, "scroll_y", self.show_marks, init=False)
        self.watch(self, "virtual_size", self.show_marks, init=False)
        self.watch(self, "size", self.show_marks, init=False)

    def update(self, text: str) -> None:
        """Show ``text`` from its first line."""
        self.query_one(".long-text-body", Static).update(text)
        self.scroll_home(animate=False)
        self.call_after_refresh(self.show_marks)

    @property
    def marks(self) -> tuple[str, str]:
        """(above, below) for what is on screen now."""
        return more_marker(self.virtual_size.height, round(self.scroll_y), self.scrollable_content_region.height)

    @property
    def lines_below(self) -> int:
        return max(0, self.virtual_size.height - round(self.scroll_y) - self.scrollable_content_region.height)

    def show_marks(self) -> None:
        above, below = self.marks
        self.border_title = f"{self.box_title} · {above}" if above else self.box_title
        hint = "Esc comes back" if self.has_class("-maximized") else self.hint  # already reading it all
        if below and hint:
            below = f"{below} · {hint}"
        self.border_subtitle = below
