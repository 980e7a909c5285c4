"""Frontmatter: the YAML block between ``---`` lines at the top of agent memory files.

The block is read with PyYAML's ``safe_load`` (the C loader when PyYAML has it): plain, quoted and
block scalars, flow and block lists, nested tables, dates, numbers and booleans as YAML defines them.
The file itself is never rewritten: :attr:`Frontmatter.body` is the text after the closing line,
sliced from the original, so moving a record and restoring it stays byte for byte. Text values are
trimmed (a ``|`` block's last line break is not part of a label). A block that is not valid YAML,
or not a table, leaves ``data`` empty and one problem naming the line, so a record the reader is
unsure about is never judged confidently.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from typing import Any

import yaml

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass
class Frontmatter:
    data: dict[str, Any] = field(default_factory=dict)
    body: str = ""
    problems: list[str] = field(default_factory=list)


def _problem(exc: yaml.YAMLError) -> str:
    """One line naming the file line (the block starts on line 2) and what YAML found there."""
    mark = getattr(exc, "context_mark", None) or getattr(exc, "problem_mark", None)
    where = f"frontmatter line {mark.line + 2}" if mark is not None else "frontmatter"
    problem = str(getattr(exc, "problem", "") or "not valid YAML")
    if "expected ':'" in problem:  # a line that is not "key: value" inside a table
        return f"{where}: not 'key: value'"
    return f"{where}: not valid YAML ({' '.join(problem.split())})"


def parse(text: str) -> Frontmatter:
    """Split ``text`` into frontmatter (between ``---`` lines at the very top) and body."""
    if not (text.startswith("---\n") or text.startswith("---\r\n")):
        return Frontmatter(body=text)
    lines = text.splitlines(keepends=True)
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip("\r\n") in ("---", "...")), None)
    if end is None:
        return Frontmatter(body=text, problems=["frontmatter: no closing '---' line"])
    result = Frontmatter(body="".join(lines[end + 1 :]))
    try:
        data = yaml.load("".join(lines[1:end]), Loader=_Loader)  # a safe loader: plain data only
    except yaml.YAMLError as exc:
        result.problems.append(_problem(exc))
        return result
    except RecursionError:
        result.problems.append("frontmatter: nested too deeply")
        return result
    if data is None:
        return result
    if not isinstance(data, dict):
        result.problems.append(f"frontmatter line 2: not a table of 'key: value' lines (a {type(data).__name__})")
        return result
    # A block scalar (``|``) ends with its line break; a frontmatter value is a label, so text is trimmed.
    result.data = {str(key): value.strip() if isinstance(value, str) else value for key, value in data.items()}
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
