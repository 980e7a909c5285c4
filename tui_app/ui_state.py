"""What the app remembers between runs that is not a setting: the theme picked from the command
palette. One small JSON file in the data home (``ui.json``), written atomically (temporary file,
fsync, rename) and only when something changed. It holds no secret, so the unlock screen uses it
too. A file that cannot be read is reported in one line naming it, and the app starts with the
defaults; it is replaced the next time something is remembered.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from core.workbench.local import atomic_write_text

UI_STATE_FILE = "ui.json"


@dataclass(frozen=True)
class UiState:
    theme: str = ""  # a Textual theme name; empty: Textual's default


def ui_state_path(home: Path) -> Path:
    return home / UI_STATE_FILE


def load_ui_state(path: Path) -> tuple[UiState, str]:
    """The remembered state and, when the file is there but unusable, the one-line reason."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return UiState(), ""
    except OSError as exc:
        return UiState(), f"{path}: cannot be read ({exc.strerror or exc}); the defaults are used"
    try:
        data = json.loads(text)
    except ValueError as exc:
        return UiState(), f"{path}: line {getattr(exc, 'lineno', 1)}: not JSON; the defaults are used"
    if not isinstance(data, dict):
        return UiState(), f"{path}: expected a JSON object; the defaults are used"
    theme = data.get("theme", "")
    if not isinstance(theme, str):
        return UiState(), f"{path}: field 'theme' must be a string; the default theme is used"
    return UiState(theme=theme), ""


def save_ui_state(path: Path, state: UiState) -> None:
    atomic_write_text(path, json.dumps(asdict(state), indent=2) + "\n")
