"""Edit a long value in the person's own editor (``$VISUAL``, then ``$EDITOR``, then ``vi``).

The app is suspended while the editor runs (``App.suspend``), so the editor gets the terminal. The
text sits in a file readable only by the person (a 0700 folder, 0600 file) for as long as the editor
runs and is deleted afterwards.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

from textual.app import App, SuspendNotSupported

from core.errors import ReverieError

# (app, text, file suffix) → the text after editing, or None when the editor failed or was left unsaved.
ExternalEditor = Callable[[App[object], str, str], str | None]


class EditorUnavailable(ReverieError):
    """No editor can run here (no terminal to hand over, as in a browser, or no editor installed)."""


def editor_command() -> list[str]:
    command = shlex.split(os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi")
    if not command or shutil.which(command[0]) is None:
        raise EditorUnavailable(f"editor {command[0] if command else '(empty)'!r} not found: set $EDITOR")
    return command


def edit_in_terminal_editor(app: App[object], text: str, suffix: str = ".txt") -> str | None:
    """Open ``text`` in the person's editor with the app suspended; return the saved text, or
    ``None`` if the editor exited with an error."""
    command = editor_command()
    folder = Path(tempfile.mkdtemp(prefix="reverie-edit-"))
    path = folder / f"value{suffix}"
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
        try:
            with app.suspend():
                code = subprocess.call([*command, str(path)])
        except SuspendNotSupported as exc:
            raise EditorUnavailable("an external editor cannot run here (no terminal); press e to edit inline") from exc
        if code != 0:
            return None
        return path.read_text(encoding="utf-8")
    finally:
        path.unlink(missing_ok=True)
        folder.rmdir()
