"""The keymap page (F1 or ?): every key of the app on one full screen, grouped by screen.

The screen it was opened from comes first, then the keys that work everywhere, then every other
screen of the app. Keys are shown as they are bound now: a key remapped in ``tui.keymap`` shows
under its new key. Scroll with the arrows or PgUp/PgDn; Esc, F1 or ? close it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.screen import ModalScreen
from textual.widgets import Static

# The screens that are not sections but open from one (Enter on a row, a dialog's screen), and the
# list filter, whose keys work while it has the focus.
SUB_SCREENS: tuple[tuple[str, str], ...] = (
    ("Draft review", "tui_app.screens.draft:DraftReviewScreen"),
    ("Memory", "tui_app.screens.memory_detail:MemoryDetailScreen"),
    ("Session (from a search result or a topic marker)", "tui_app.screens.session_view:SessionViewScreen"),
    ("List filter (/ on Review, Memories, Topics, Cold storage)", "tui_app.widgets.list_filter:ListFilter"),
    ("Curation candidate", "tui_app.screens.curation_candidate:CandidateScreen"),
    ("Calibration", "tui_app.screens.calibration:CalibrationScreen"),
    ("Passphrase", "tui_app.screens.passphrase:PassphraseScreen"),
)


@dataclass(frozen=True)
class KeyRow:
    keys: str  # as the terminal shows them, "a" or "F3 or r"
    name: str
    help: str


@dataclass(frozen=True)
class KeyGroup:
    title: str
    rows: tuple[KeyRow, ...]


def class_bindings(node_class: type[DOMNode]) -> list[Binding]:
    """The bindings a screen class declares, its base classes' first (as Textual merges them)."""
    found: list[Binding] = []
    for klass in reversed(node_class.__mro__):
        declared: Sequence[BindingType] | None = klass.__dict__.get("BINDINGS")
        if declared:
            found.extend(Binding.make_bindings(declared))
    return found


def key_rows(bindings: Iterable[Binding], keymap: Mapping[str, str], display: Callable[[Binding], str]) -> list[KeyRow]:
    """One row per action: the keys (remapped through ``keymap``, binding id → keys) joined, the
    name (with its group's), and the tooltip. Textual's own keys (no id) and system keys are left
    out, as the footer and the palette leave them out."""
    rows: dict[str, tuple[list[str], str, str]] = {}
    for binding in bindings:
        if not binding.id or not binding.description or binding.system:
            continue
        keys = keymap.get(binding.id, binding.key)
        shown = [display(replace(binding, key=key.strip())) for key in keys.split(",") if key.strip()]
        if binding.action in rows:
            rows[binding.action][0].extend(k for k in shown if k not in rows[binding.action][0])
            continue
        name = binding.description
        group = binding.group.description if binding.group is not None else ""
        if group and not name.startswith(group):
            name = f"{group}: {name}"
        rows[binding.action] = (shown, name, binding.tooltip)
    return [KeyRow(" or ".join(keys), name, tip) for keys, name, tip in rows.values()]


def load_class(path: str) -> type[DOMNode]:
    module_name, _, class_name = path.partition(":")
    loaded: type[DOMNode] = getattr(importlib.import_module(module_name), class_name)
    return loaded


def group_table(group: KeyGroup) -> Table:
    table = Table(box=None, show_header=False, expand=True, padding=(0, 1, 0, 0), title_justify="left")
    table.add_column("key", no_wrap=True, style="bold", min_width=8, max_width=16)
    table.add_column("name", no_wrap=True, min_width=16, max_width=22)
    table.add_column("help", ratio=1, style="dim")
    for row in group.rows:
        table.add_row(row.keys, row.name, row.help)
    return table


class KeymapScreen(ModalScreen[None]):
    """Every key, grouped by screen, the current screen first."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1,question_mark,q", "close", "Close", id="keymap.close", tooltip="Back to the screen"),
    ]

    def __init__(self, groups: Sequence[KeyGroup]) -> None:
        super().__init__(id="keymap-screen")
        self.groups = tuple(groups)

    def compose(self) -> ComposeResult:
        yield Static(
            Text.assemble(("Keys", "bold"), "  ·  every key, by screen  ·  ↑↓ PgUp PgDn scroll  ·  Esc closes"),
            id="keymap-title",
        )
        with VerticalScroll(id="keymap-body"):
            for group in self.groups:
                yield Static(Text(group.title, style="bold reverse"), classes="keymap-group")
                yield Static(group_table(group), classes="keymap-rows")

    def on_mount(self) -> None:
        self.query_one("#keymap-body").focus()

    def action_close(self) -> None:
        self.dismiss(None)


def keymap_groups(
    current: DOMNode,
    current_title: str,
    app_bindings: Iterable[Binding],
    sections: Iterable[tuple[str, str]],
    keymap: Mapping[str, str],
    display: Callable[[Binding], str],
) -> list[KeyGroup]:
    """The page's groups: ``current`` (the screen showing), "Everywhere" (``app_bindings``), then
    every screen of ``sections`` and :data:`SUB_SCREENS` (title, ``module:Class``) not yet shown."""
    mine = key_rows(class_bindings(type(current)), keymap, display)
    groups = [KeyGroup(f"This screen: {current_title}", tuple(mine))]
    groups.append(KeyGroup("Everywhere", tuple(key_rows(app_bindings, keymap, display))))
    seen = {type(current)}
    for title, path in (*sections, *SUB_SCREENS):
        screen_class = load_class(path)
        if screen_class in seen:
            continue
        seen.add(screen_class)
        rows = key_rows(class_bindings(screen_class), keymap, display)
        if rows:
            groups.append(KeyGroup(title, tuple(rows)))
    return [group for group in groups if group.rows]
