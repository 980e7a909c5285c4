"""The top line of every unlocked screen: the sections with their keys, the current one marked.

It takes the place of a header: one line that says where you are and how to get anywhere else,
which is what a 24-line terminal can afford. The bar is given its sections (anything with a
``name``, ``title``, ``short_title`` and ``key``); it reads nothing of the app but the live
bindings, so a key remapped in ``tui.keymap`` shows as remapped.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import Static


class BarSection(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def short_title(self) -> str: ...
    @property
    def key(self) -> str: ...


Form = Callable[[BarSection, str], str]


def padded(section: BarSection, key: str) -> str:
    return f" {key} {section.title} "


def compact(section: BarSection, key: str) -> str:
    return f"{key} {section.title}"


def compact_short(section: BarSection, key: str) -> str:
    return f"{key} {section.short_title}"


def key_only(section: BarSection, key: str) -> str:
    return key


def padded_short(section: BarSection, key: str) -> str:
    return f" {key} {section.short_title} "


# From the widest to the narrowest: (brand, form of the current section, of the others, whether the
# lock key shows). 80 columns fit the short names, 100 the full ones.
LAYOUTS: tuple[tuple[str, Form, Form, bool], ...] = (
    (" Reverie ", padded, padded, True),
    ("", padded, padded, True),
    ("", padded, compact, True),
    ("", padded, compact_short, True),
    ("", padded, compact_short, False),
    ("", padded_short, compact_short, False),
    ("", padded, key_only, False),
)


class SectionBar(Horizontal):
    def __init__(self, current: str, sections: Sequence[BarSection], label: str = "") -> None:
        super().__init__(id="section-bar")
        self.current = current
        self.sections = tuple(sections)
        self.label = label

    def compose(self) -> ComposeResult:
        yield Static(id="section-bar-sections")
        yield Static(id="section-bar-right", markup=False)

    def on_mount(self) -> None:
        self.refresh_keys()

    def on_resize(self) -> None:
        self.refresh_keys()

    def refresh_keys(self) -> None:
        line, lock, status = self.sections_line()
        self.query_one("#section-bar-sections", Static).update(line)
        self.query_one("#section-bar-right", Static).update(self.right_text(lock, status))

    def right_text(self, lock: bool, status: str = "") -> str:
        """The label and the lock key; or, while it lasts, the app's long work in progress (``status``)
        in their place."""
        if status:
            return status
        parts = [self.label] if self.label else []
        if lock:
            parts.append(f"{self.key_for('app.lock', 'ctrl+l')} Lock")
        return " · ".join(parts)

    def key_for(self, binding_id: str, default: str) -> str:
        for active in self.screen.active_bindings.values():
            if active.binding.id == binding_id:
                return self.app.get_key_display(active.binding)
        return default.upper()

    def sections_line(self) -> tuple[Content, bool, str]:
        """Every section with its key, and whether the lock key still fits on the right. When the line
        does not fit, the brand goes, then the padding, then the long names shrink to their short
        form, then the lock key's label goes, then the current section's name too, then the other
        sections shrink to their key: the current one is always named and every key stays visible. The
        app's long work in progress (``background_status``) shows only where it costs no section name."""
        width = self.size.width or self.app.size.width
        keys = [(s, self.key_for(f"section.{s.name}", s.key)) for s in self.sections]
        wanted = getattr(self.app, "background_status", "")  # "vectors 40%"
        status = ""
        for brand, mine, form, lock in LAYOUTS:
            texts = [mine(s, key) if s.name == self.current else form(s, key) for s, key in keys]
            needed = len(brand) + sum(len(t) + 1 for t in texts)
            if needed <= self.room(width, self.right_text(lock)):
                status = wanted if wanted and needed <= self.room(width, self.right_text(lock, wanted)) else ""
                break
        parts: list[Content | tuple[str, str] | str] = [(brand, "bold")] if brand else []
        for (section, _), text in zip(keys, texts, strict=True):
            parts += [" ", (text, "reverse bold") if section.name == self.current else text]
        return Content.assemble(*parts), lock, status

    @staticmethod
    def room(width: int, right: str) -> int:
        """The cells left for the sections beside ``right`` (one cell of padding each side of it)."""
        return max(20, width - len(right) - 2) if right else width
