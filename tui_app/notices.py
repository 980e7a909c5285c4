"""Where a process without a screen says what it waits for: one line on stderr.

The MCP server's stdout is its protocol and the REST server's clients never see its terminal, so a
workbench notice there ("loading the embedding model…", "index.db is being upgraded by another
Reverie process (pid 4242); waiting…") goes to stderr, named by the process, control characters
shown as escapes (the line may quote stored text).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from core.textsafe import visible


def on_stderr(process: str) -> Callable[[str], None]:
    """A workbench notice that writes ``"<process>: <line>"`` to stderr, flushed at once."""

    def notice(line: str) -> None:
        print(visible(f"{process}: {line}", keep_newlines=False), file=sys.stderr, flush=True)

    return notice
