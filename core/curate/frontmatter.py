"""Frontmatter: the small YAML subset agent memory files use, read without a YAML dependency.

Understood: ``key: value`` (plain, quoted, ``[a, b]`` flow lists, true/false), block lists
(``- item`` lines), and ``|`` / ``>`` block scalars. Anything else is kept as text and reported
as a problem naming the line, so a record the reader is unsure about is never judged confidently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from typing import Any

_KEY = re.compile(r"^([A-Za-z_][\w.-]*)\s*:(?:\s+(.*?))?\s*$")
_TRUE = {"true", "yes", "on"}
_FALSE = {"false", "no", "off"}


@dataclass
class Frontmatter:
    data: dict[str, Any] = field(default_factory=dict)
    body: str = ""
    problems: list[str] = field(default_factory=list)


def _scalar(raw: str) -> Any:
    value = raw.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    if value.startswith("[") and value.endswith("]"):
        inner = value[1:-1].strip()
        return [_scalar(part) for part in _split_flow(inner)] if inner else []
    if " #" in value:
        value = value.split(" #", 1)[0].rstrip()
    lowered = value.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    if lowered in {"null", "~", ""}:
        return None
    return value


def _split_flow(inner: str) -> list[str]:
    parts, current, quote = [], [], ""
    for char in inner:
        if quote:
            current.append(char)
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
            current.append(char)
        elif char == ",":
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return [p for p in (part.strip() for part in parts) if p]


def parse(text: str) -> Frontmatter:
    """Split ``text`` into frontmatter (between ``---`` lines at the very top) and body."""
    if not (text.startswith("---\n") or text.startswith("---\r\n")):
        return Frontmatter(body=text)
    lines = text.splitlines(keepends=True)
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip("\r\n") in ("---", "...")), None)
    if end is None:
        return Frontmatter(body=text, problems=["frontmatter: no closing '---' line"])
    result = Frontmatter(body="".join(lines[end + 1 :]))
    key: str | None = None
    block: list[str] | None = None
    for number, raw in enumerate(lines[1:end], start=2):
        line = raw.rstrip("\r\n")
        if not line.strip() or line.lstrip().startswith("#"):
            if block is not None:
                block.append("")
            continue
        if line[:1] in " \t" and key is not None:
            stripped = line.strip()
            if block is not None:
                block.append(stripped)
                result.data[key] = "\n".join(block).strip()
            elif stripped.startswith("- "):
                current = result.data.get(key)
                items = current if isinstance(current, list) else []
                items.append(_scalar(stripped[2:]))
                result.data[key] = items
            elif isinstance(result.data.get(key), dict):
                sub = _KEY.match(stripped)
                if sub:
                    result.data[key][sub.group(1)] = _scalar(sub.group(2) or "")
            else:
                result.problems.append(f"frontmatter line {number}: unexpected indented text")
            continue
        if line.startswith("- ") and key is not None and isinstance(result.data.get(key), list):
            result.data[key].append(_scalar(line[2:]))
            continue
        match = _KEY.match(line)
        if not match:
            result.problems.append(f"frontmatter line {number}: not 'key: value'")
            key, block = None, None
            continue
        key, value = match.group(1), match.group(2)
        block = None
        if value in ("|", ">", "|-", ">-"):
            block = []
            result.data[key] = ""
        elif value is None or value == "":
            result.data[key] = []  # a block list or a nested table may follow
            nxt = lines[number] if number < end else ""
            if nxt[:1] in " \t" and _KEY.match(nxt.strip()) and not nxt.strip().startswith("- "):
                result.data[key] = {}
        else:
            result.data[key] = _scalar(value)
    for name, value in list(result.data.items()):
        if value == []:
            result.data[name] = None
    return result


def as_list(value: Any) -> list[str]:
    """A frontmatter value as a list of non-empty strings (a scalar becomes one item)."""
    if value is None or value is False:
        return []
    if isinstance(value, list):
        return [str(v).strip() for v in value if v is not None and str(v).strip()]
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()] if "," in value else (
            [value.strip()] if value.strip() else []
        )
    return [str(value)]


def parse_when(value: Any) -> datetime | None:
    """A date or date-time from frontmatter (ISO forms, ``YYYY/MM/DD``) as an aware UTC datetime.

    Raises ``ValueError`` for text that is not a date, so the caller can name the field.
    """
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if isinstance(value, date):
        return datetime.combine(value, time.min, tzinfo=UTC)
    text = str(value).strip().replace("/", "-")
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"not a date: {value!r}") from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
