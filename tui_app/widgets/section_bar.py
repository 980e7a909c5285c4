"""The top line of every unlocked screen: the sections with their keys, the current one marked.

It takes the place of a header: one line that says where you are and how to get anywhere else,
which is what a 24-line terminal can afford. Keys are read from the live bindings, so a key
remapped in ``tui.keymap`` shows as remapped.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import Static

from tui_app.screens.registry import SECTIONS


class SectionBar(Horizontal):
    def __init__(self, current: str, label: str = "") -> None:
        super().__init__(id="section-bar")
        self.current = current
        self.label = label

    def compose(self) -> ComposeResult:
        yield Static(id="section-bar-sections")
        yield Static(id="section-bar-right", markup=False)

    def on_mount(self) -> None:
        self.refresh_keys()

    def refresh_keys(self) -> None:
        self.query_one("#section-bar-sections", Static).update(self.sections_line())
        right = f"{self.key_for('app.lock', 'ctrl+l')} Lock"
        self.query_one("#section-bar-right", Static).update(f"{self.label} · {right}" if self.label else right)

    def key_for(self, binding_id: str, default: str) -> str:
        for active in self.screen.active_bindings.values():
            if active.binding.id == binding_id:
                return self.app.get_key_display(active.binding)
        return default.upper()

    def sections_line(self) -> Content:
        parts: list[Content | tuple[str, str] | str] = [(" Reverie ", "bold")]
        for section in SECTIONS:
            key = self.key_for(f"section.{section.name}", section.key)
            text = f" {key} {section.title} "
            parts += [" ", (text, "reverse bold") if section.name == self.current else text]
        return Content.assemble(*parts)
