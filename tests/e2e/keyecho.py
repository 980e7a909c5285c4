"""A Textual app that writes down every key it receives, one Textual key name a line (what
``textual keys`` shows, in a form a test can read). It binds nothing, so no key is taken before it
is written down.

    python tests/e2e/keyecho.py KEYS_FILE
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import ClassVar

from textual import events
from textual.app import App, ComposeResult
from textual.binding import BindingType
from textual.widgets import Static

READY = "keyecho ready"


class KeyEcho(App[None], inherit_bindings=False):
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = []

    def __init__(self, out: Path) -> None:
        super().__init__()
        self.out = out
        self.count = 0
        self.last: events.Key | None = None

    def compose(self) -> ComposeResult:
        yield Static(READY, id="status")

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and event is not self.last:  # a key comes back once it has bubbled
            self.last = event
            with self.out.open("a", encoding="utf-8") as handle:
                handle.write(event.key + "\n")
            self.count += 1
            self.query_one("#status", Static).update(f"{READY} · {self.count} keys · last {event.key}")
        await super().on_event(event)


if __name__ == "__main__":
    KeyEcho(Path(sys.argv[1])).run()
