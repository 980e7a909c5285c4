"""Plain-text formatting shared by the screens: ages, local times, field values, confidences.

Pure functions (no Textual), so they are cheap to test and safe to call from worker threads.
"""

from __future__ import annotations

import json
from datetime import datetime, tzinfo
from pathlib import Path
from typing import Any

from rich.cells import cell_len, set_cell_size

from core.frozen import thaw
from core.textsafe import visible
from core.vault.review import LIST_FIELDS


def parse_time(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def age(stamp: str | None, now: datetime) -> str:
    """``just now``, ``5m``, ``3h``, ``2d``, ``3w``, ``4mo``, ``2y``; ``in 4d`` for future times."""
    if not stamp:
        return "—"
    seconds = (now - parse_time(stamp)).total_seconds()
    future = seconds < 0
    seconds = abs(seconds)
    if seconds < 60:
        return "just now"
    for unit, size in (("y", 365 * 86400), ("mo", 30 * 86400), ("w", 7 * 86400), ("d", 86400), ("h", 3600)):
        if seconds >= size:
            text = f"{int(seconds // size)}{unit}"
            break
    else:
        text = f"{int(seconds // 60)}m"
    return f"in {text}" if future else text


def ago(stamp: str | None, now: datetime) -> str:
    """``age`` as a phrase: ``5m ago``, ``just now``, ``in 4d``."""
    text = age(stamp, now)
    return text if text in ("just now", "—") or text.startswith("in ") else f"{text} ago"


def local_time(stamp: str | None, zone: tzinfo) -> str:
    """``2026-11-03 22:40`` in the person's timezone."""
    if not stamp:
        return "—"
    return parse_time(stamp).astimezone(zone).strftime("%Y-%m-%d %H:%M")


def value_text(value: Any) -> str:
    """A field value on one line: lists joined with commas, text as is, anything else as JSON."""
    plain = thaw(value)
    if isinstance(plain, str):
        return plain
    if isinstance(plain, list) and all(isinstance(v, str) for v in plain):
        return ", ".join(plain)
    return json.dumps(plain, ensure_ascii=False)


def field_value_text(field_name: str, value: Any, zone: tzinfo) -> str:
    """Like :func:`value_text`, with times shown in the person's timezone, for display: control
    characters shown escaped (:func:`core.textsafe.visible`)."""
    if field_name == "occurred_at" and isinstance(value, str):
        try:
            return local_time(value, zone)
        except ValueError:
            return visible(value)
    return visible(value_text(value))


def value_from_text(field_name: str, text: str, original: Any) -> Any:
    """The inverse of :func:`value_text` for an edit of ``original``: lists split on commas, text stays
    text, other JSON values are parsed as JSON (falling back to text)."""
    plain = thaw(original)
    if field_name in LIST_FIELDS or (isinstance(plain, list) and all(isinstance(v, str) for v in plain)):
        return [part.strip() for part in text.replace("\n", ",").split(",") if part.strip()]
    if isinstance(plain, str):
        return text.strip("\n")
    try:
        return json.loads(text)
    except ValueError:
        return text


def editor_text(value: Any) -> str:
    """A value as the text an external editor opens: lists one item per line."""
    plain = thaw(value)
    if isinstance(plain, list) and all(isinstance(v, str) for v in plain):
        return "\n".join(plain) + "\n"
    return value_text(value) + "\n"


def confidence_text(confidence: float | None) -> str:
    return "—" if confidence is None else f"{round(confidence * 100)}%"


def preview(text: str, width: int) -> str:
    """``text`` on one line, cut to ``width`` terminal cells (wide CJK characters count two) with an ellipsis;
    control characters shown escaped (stored text must not drive the terminal)."""
    line = " ".join(visible(text).split())
    if cell_len(line) <= width:
        return line
    return set_cell_size(line, max(width - 1, 0)).rstrip() + "…"


def split_at_cells(text: str, width: int) -> tuple[str, str]:
    """The longest start of ``text`` that fits ``width`` cells, and the rest."""
    cells = 0
    for index, char in enumerate(text):
        cells += cell_len(char)
        if cells > width:
            return text[:index], text[index:]
    return text, ""


def wrap_lines(text: str, width: int, limit: int) -> list[str]:
    """``text`` wrapped at spaces into lines of at most ``width`` cells (wide CJK characters count two;
    a word longer than a line is split), at most ``limit`` lines; a text cut short ends in an ellipsis."""
    width = max(width, 2)
    lines: list[str] = []
    line = ""
    for word in visible(text).split():
        joined = f"{line} {word}" if line else word
        if cell_len(joined) <= width:
            line = joined
            continue
        if line:
            lines.append(line)
        while cell_len(word) > width:
            head, word = split_at_cells(word, width)
            lines.append(head)
        line = word
    if line:
        lines.append(line)
    if len(lines) <= limit:
        return lines
    kept = lines[: max(limit, 1)]
    kept[-1] = split_at_cells(kept[-1], width - 1)[0].rstrip() + "…"
    return kept


def one_line(error: BaseException | None) -> str:
    """An error as one line for a dialog: Reverie's own errors already are; others get their type."""
    from core.errors import ReverieError

    if error is None:
        return "unknown error"
    if isinstance(error, ReverieError):
        return str(error)
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def short_path(path: Path) -> str:
    """``~/…`` for paths inside the person's home folder."""
    try:
        return "~/" + str(path.relative_to(Path.home()))
    except ValueError:
        return str(path)


def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else (many or word + 's')}"
