"""Footers composed once for the keys they show.

``SteadyFooter``: Textual's footer composes empty until its screen first says its bindings changed,
then composes again on every such signal (each focus change, each screen shown): on the unlock
screen that was a second compose and layout before the first frame, and for Home, composed while
the keys are derived, two more. This one composes its keys the first time and again only when the
keys on show change.

``WrappingFooter``: Textual's footer is one line that scrolls sideways: on an 80-column terminal a
screen with many keys (the home screen has nine) loses the last ones past the right edge, and a
keyboard cannot scroll it. This one lays the same keys out in rows that fit the width, the command
palette key staying on the right of the first row, and lays them out again when the terminal is
resized.
"""

from __future__ import annotations

from itertools import groupby

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.compose import compose
from textual.containers import HorizontalGroup
from textual.screen import Screen
from textual.widgets import Footer

PALETTE_CLASS = "-command-palette"


def split_rows(widths: list[int], room: int) -> list[int]:
    """How many items go on each row, filling rows left to right; every row holds at least one."""
    rows: list[int] = []
    used = room + 1
    for width in widths:
        if rows and used + width <= room:
            rows[-1] += 1
            used += width
        else:
            rows.append(1)
            used = width
    return rows


class SteadyFooter(Footer):
    """Textual's footer, composed with its keys from the first compose, and again only when the keys
    on show changed. Relies on Textual's private ``Footer._bindings_ready`` (false until the screen's
    first bindings signal, and ``compose`` yields nothing while it is: ``tests/tui/test_tui_footer_once.py``
    fails if Textual drops it)."""

    def __init__(self, *, compact: bool = False) -> None:
        super().__init__(compact=compact)
        self._bindings_ready = True  # the screen's bindings are read at the first compose, not after it
        self.composed_keys: tuple[object, ...] | None = None  # what the keys on show were composed from

    def bindings_changed(self, screen: Screen[object]) -> None:
        """Textual recomposes the footer whenever the bindings may have changed (each focus change, each
        screen shown): about ten new key widgets each time. Only when the keys on show did change, by
        the time the recompose runs (several signals in a row ask for one)."""
        if not self.app.app_focus or not self.is_attached or screen is not self.screen:
            return
        if self.keys_on_show() != self.composed_keys:
            self.call_after_refresh(self.recompose_if_changed)

    async def recompose_if_changed(self) -> None:
        if self.is_attached and self.keys_on_show() != self.composed_keys:
            await self.recompose()

    def keys_on_show(self) -> tuple[object, ...]:
        return tuple(
            (b.key, self.app.get_key_display(b), b.description, b.action, b.group, active.enabled, active.tooltip)
            for active in self.screen.active_bindings.values()
            for b in (active.binding,)
            if b.show or b.action == "app.command_palette" or b.key == self.app.COMMAND_PALETTE_BINDING
        )

    def compose(self) -> ComposeResult:
        self.composed_keys = self.keys_on_show()
        for item in super().compose():
            if self.compact and hasattr(item, "key_display"):  # as the key's data binding will set it: now
                item.add_class("-compact", update=False)
            yield item


class WrappingFooter(SteadyFooter):
    DEFAULT_CSS = """
    WrappingFooter {
        layout: vertical;
        height: auto;
        min-height: 1;  /* one line before the keys are known, as Textual's footer: the screen does not jump */
        max-height: 4;
    }
    WrappingFooter > .footer-row {
        width: 1fr;
        height: 1;
    }
    """

    def __init__(self) -> None:
        super().__init__(compact=True)
        self.rows: list[int] = []

    def compose(self) -> ComposeResult:
        items = compose(self, super().compose())
        palette = [item for item in items if item.has_class(PALETTE_CLASS)]
        keys = [item for item in items if not item.has_class(PALETTE_CLASS)]
        self.rows = self.layout_rows()
        if sum(self.rows) != len(keys):  # none yet, or Textual laid them out differently: one row
            self.rows = [len(keys)] if keys else []
        yield from palette  # docked on the right of the first row
        start = 0
        for count in self.rows:
            with HorizontalGroup(classes="footer-row"):
                yield from keys[start : start + count]
            start += count

    def on_resize(self, event: events.Resize) -> None:
        if self.rows and self.layout_rows() != self.rows:
            self.call_after_refresh(self.recompose)

    def layout_rows(self) -> list[int]:
        width = self.size.width or self.app.size.width
        palette = self.palette_width()
        widths = self.item_widths()
        rows = split_rows(widths, width - palette)
        return rows if widths else []

    def palette_width(self) -> int:
        if not (self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE):
            return 0
        active = self.screen.active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
        if active is None:
            return 0
        return 1 + self.key_width(active.binding)  # the border on its left, then "^p palette"

    def key_width(self, binding: Binding, description: bool = True) -> int:
        """A compact key: the key, a space and the description."""
        key = cell_len(self.app.get_key_display(binding))
        return key + 1 + cell_len(binding.description) if description and binding.description else key

    def item_widths(self) -> list[int]:
        """The cells each item of ``Footer.compose`` takes, its margin included, in the same order: one
        per key, or a group of keys then the group's label."""
        first_of_action: dict[str, Binding] = {}
        for active in self.screen.active_bindings.values():
            if active.binding.show:
                first_of_action.setdefault(active.binding.action, active.binding)
        widths: list[int] = []
        for group, run in groupby(first_of_action.values(), lambda binding: binding.group):
            bindings = list(run)
            if group is not None and len(bindings) > 1:
                keys = [self.key_width(binding, description=False) for binding in bindings]
                widths += [sum(keys) + len(keys) + 1, cell_len(group.description) + 1]
            else:
                widths += [self.key_width(binding) + 1 for binding in bindings]
        return widths
