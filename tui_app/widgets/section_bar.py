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

    def on_resize(self) -> None:
        self.refresh_keys()

    def _room(self) -> int:
        """Cells the sections may use: the bar's width less the right-hand label (lock key, home label)."""
        width = self.size.width or self.app.size.width
        right = self.query_one("#section-bar-right", Static)
        return max(20, width - len(str(right.render())) - 1)

    def sections_line(self) -> Content:
        """Every section with its key; when the line does not fit (80 columns, eight sections), the
        other sections shrink to their key and a short name, then to the key alone, so the current one
        is always shown in full and every key stays visible."""
        room = self._room()
        keys = [(s, self.key_for(f"section.{s.name}", s.key)) for s in SECTIONS]
        forms = (
            lambda s, key: f" {key} {s.title} ",
            lambda s, key: f" {key} {s.title.split()[0][:4]} ",
            lambda s, key: f" {key} ",
        )
        for brand, form in ((" Reverie ", forms[0]), ("", forms[0]), ("", forms[1]), ("", forms[2])):
            texts = [f" {key} {s.title} " if s.name == self.current else form(s, key) for s, key in keys]
            if len(brand) + sum(len(t) + 1 for t in texts) <= room:
                break
        parts: list[Content | tuple[str, str] | str] = [(brand, "bold")] if brand else []
        for (section, _), text in zip(keys, texts, strict=True):
            parts += [" ", (text, "reverse bold") if section.name == self.current else text]
        return Content.assemble(*parts)
