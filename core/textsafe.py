"""Stored text shown on a terminal, made harmless: control characters become visible escapes.

Turns, drafts, suggestions and memories hold text that an assistant (over MCP or REST) or an imported
file wrote. Printed raw, a control character is an instruction to the terminal, not text: ``ESC [ 8 m``
hides what follows, ``ESC [ 2 J`` clears the screen, ``\\r`` and cursor moves overwrite a line, OSC 0
sets the window title, OSC 8 hides a link behind other text, OSC 52 writes the clipboard. A person
reviewing a draft could then approve words they never saw.

:func:`visible` shows every C0 control (U+0000–U+001F), DEL and every C1 control (U+0080–U+009F) as a
Python-style escape (``\\x1b``), so an escape sequence reads as ``\\x1b[8m`` and does nothing; newline and
tab are kept where the layout allows them. Characters that reorder or hide text without being controls
(the bidirectional overrides and isolates, U+202A–U+202E and U+2066–U+2069, the "Trojan source" ones)
are shown as ``\\u202e`` too, and so are the Unicode line and paragraph separators (U+2028, U+2029),
which many readers take for a line break. Everything else, every language's letters and emoji, passes unchanged.

JSON output needs none of this: ``json.dumps`` escapes C0 controls itself, and a script reads values, not
a screen. The function is pure and cheap (one ``str.translate``), for every place that renders stored text.
"""

from __future__ import annotations

_BIDI = (*range(0x202A, 0x202F), *range(0x2066, 0x206A))
_SEPARATORS = (0x2028, 0x2029)  # LINE SEPARATOR, PARAGRAPH SEPARATOR: a line break to many readers


def _escape(code: int) -> str:
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


_TABLE: dict[int, str] = {
    code: _escape(code) for code in (*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0), *_BIDI, *_SEPARATORS)
}
_KEEP_NEWLINES = {code: value for code, value in _TABLE.items() if code != 0x0A}
_KEEP_BOTH = {code: value for code, value in _KEEP_NEWLINES.items() if code != 0x09}
_KEEP_TABS = {code: value for code, value in _TABLE.items() if code != 0x09}
_TABLES = {(True, True): _KEEP_BOTH, (True, False): _KEEP_NEWLINES, (False, True): _KEEP_TABS, (False, False): _TABLE}


def visible(text: str, keep_newlines: bool = True, keep_tabs: bool = True) -> str:
    """``text`` with every control character (and bidirectional override) shown as an escape such as
    ``\\x1b``; newline and tab stay as they are unless ``keep_newlines`` / ``keep_tabs`` is false (a table
    cell, a one-line field)."""
    return text.translate(_TABLES[keep_newlines, keep_tabs])


def one_line(text: str) -> str:
    """:func:`visible` for a single-line place (a list row, a title): newline and tab escaped too."""
    return visible(text, keep_newlines=False, keep_tabs=False)


def field_line(text: str | None, limit: int | None = None) -> str:
    """A stored field as one line of data for a prompt block or a terminal row: every run of whitespace
    (newline, CR, VT, FF, NEL, U+2028, U+2029, tab, Unicode spaces) becomes one space, what is left of
    the controls shows as an escape (:func:`one_line`), and with ``limit`` it is cut to that many
    characters with "…". Nothing in it can start a line of its own, so it cannot pose as a header or an
    item of the text around it."""
    flat = one_line(" ".join((text or "").split()))
    return flat if limit is None or len(flat) <= limit else flat[: max(limit - 1, 0)] + "…"


def has_controls(text: str) -> bool:
    """Whether :func:`visible` would change ``text`` (newline and tab allowed)."""
    return text != visible(text)
