"""Plain-text formatting shared by the screens: local times, field values, confidences, speaker names.
Ages and sizes are said through ``humanize`` in :mod:`tui_app.widgets.humane`.

Pure functions (no Textual), so they are cheap to test and safe to call from worker threads.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from datetime import datetime, tzinfo
from pathlib import Path
from typing import Any

from rich.cells import cell_len, set_cell_size

from core.errors import ReverieError, disk_full
from core.frozen import thaw
from core.textsafe import visible


def parse_time(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


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
    from core.workbench.types import LIST_FIELDS  # heavy: the vault's review code and cryptography, ~30 ms

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
    """An error as one line for a dialog: Reverie's own errors already are; a full disk names what
    could not be written (:func:`core.errors.disk_full`); others get their type."""
    if error is None:
        return "unknown error"
    if isinstance(error, ReverieError):
        return str(error)
    full = disk_full(error) if isinstance(error, BaseException) else None
    if full is not None:
        return full
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


# --- speaker names in a narrow column ------------------------------------------------------------------

_SEPARATED = re.compile(r"([-_:./ ]+)")  # name words and what stands between them ("claude-opus-4-5")
_DATE_WORD = re.compile(r"\d{6,}")  # a release date or build number at the end of a model name


def speaker_forms(name: str, width: int) -> list[str]:
    """Ways to show ``name`` in ``width`` cells, the most readable first; each fits.

    The whole name; without a trailing date (``claude-opus-4-5-20251101`` → ``claude-opus-4-5``);
    with its first word cut to its initial (``c-opus-4-5``), then cut at the end with ``…``
    (``c-opus-4…``), keeping the words that tell one model from another; then more leading words cut
    to initials; last, the start and the end of the name around ``…`` (a distinguishing suffix kept)."""
    width = max(width, 2)
    parts = _SEPARATED.split(visible(name))  # words at even positions, separators at odd ones
    while len(parts) > 2 and _DATE_WORD.fullmatch(parts[-1]):
        parts = parts[:-2]
    bases = ["".join(parts)]
    shrunk = list(parts)
    for index in range(0, len(parts) - 2, 2):  # every word but the last may shrink to its initial
        if shrunk[index].isdigit() or len(shrunk[index]) < 2:
            continue
        shrunk[index] = shrunk[index][:1]
        bases.append("".join(shrunk))

    def cut(form: str) -> str:
        return form if cell_len(form) <= width else set_cell_size(form, width - 1).rstrip() + "…"

    forms = [visible(name), bases[0]]
    for base in bases[1:]:
        forms += [base, cut(base)]
    forms += [cut(bases[0]), cut(visible(name))]
    whole = visible(name)
    for tail in range(width - 2, 0, -1):
        forms.append(set_cell_size(whole, width - 1 - tail).rstrip() + "…" + whole[-tail:])
    return list(dict.fromkeys(f for f in forms if cell_len(f) <= width and f.strip("…")))


def speaker_labels(names: Iterable[str], width: int) -> dict[str, str]:
    """Each distinct name → how it shows in a column of ``width`` cells: whole when it fits, else
    abbreviated (:func:`speaker_forms`) so that different names of the same table stay different
    (``claude-opus-4-5-20251101`` and ``claude-code`` in 9 cells: ``c-opus-4…`` and ``c-code``)."""
    forms = {name: speaker_forms(name, width) or [preview(name, width)] for name in dict.fromkeys(names)}
    choice = dict.fromkeys(forms, 0)
    everyone_else = {name: {f for other, fs in forms.items() if other != name for f in fs} for name in forms}
    for _ in range(4 * width + 8):  # each round moves every clashing name to its next form
        shown: dict[str, list[str]] = {}
        for name, index in choice.items():
            shown.setdefault(forms[name][index], []).append(name)
        clashes = [names for names in shown.values() if len(names) > 1]
        if not clashes:
            break
        taken = set(shown)
        moved = False
        for group in clashes:
            for name in group:
                if forms[name][choice[name]] == visible(name):
                    continue  # a name shown whole keeps it: the others move
                later = [i for i in range(choice[name] + 1, len(forms[name])) if forms[name][i] not in taken]
                own = [i for i in later if forms[name][i] not in everyone_else[name]]  # no other name has it
                later = own or later
                if later:
                    choice[name] = later[0]
                    taken.add(forms[name][later[0]])
                    moved = True
        if not moved:
            break  # no form left that differs: the width is too small to tell them apart
    return {name: forms[name][index] for name, index in choice.items()}


def speaker_width(names: Iterable[str], least: int, most: int) -> int:
    """A speaker column just wide enough for the longest name, between ``least`` and ``most`` cells."""
    longest = max((cell_len(visible(name)) for name in names), default=0)
    return max(least, min(most, longest))
