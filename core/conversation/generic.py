"""Generic JSONL: one object per line with ``ts``, ``role``, ``text`` and optionally ``actor``,
``session``, ``model``, ``id``, ``type``.

- ``ts``: ISO-8601 with a timezone, or Unix seconds (a number).
- ``role``: user | assistant | system; ``type``: text | action | meta (default text).
- ``actor`` defaults to the role, ``session`` to the file's name without extension.
- A given ``id`` (a string, or an integer) is kept as it is. Without one, the id is a hash of the
  content fields (``ts`` normalised, ``role``, ``text``, ``actor``, ``session``, ``model``, ``type``),
  so the same line imported twice is the same turn.
- Any other field is ignored and counted ("unknown field ... ignored"); an empty ``text`` is skipped.

Every problem is one line naming the field; nothing here raises for bad input.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core.conversation.items import ImportItem, Progress, Rejected, Skipped, make_turn, normal_ts, one_line
from core.conversation.lines import iter_lines, json_line
from core.turns import ROLES, TYPES, Turn, TurnError, format_ts

NAME = "generic"
FIELDS = ("ts", "role", "text", "actor", "session", "model", "id", "type")


def _ts(value: Any) -> str:
    """``ts`` as an ISO string: kept as given when a string, converted when Unix seconds."""
    if isinstance(value, str):
        return value
    if value is None:
        raise TurnError("ts: missing")
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TurnError(f"ts: must be an ISO-8601 string or Unix seconds, got {type(value).__name__}")
    try:
        return format_ts(datetime.fromtimestamp(value, UTC))
    except (OverflowError, OSError, ValueError) as exc:
        raise TurnError(f"ts: {one_line(repr(value), 40)} is not a time in range") from exc


def _optional_str(obj: dict[str, Any], name: str, default: str | None) -> str | None:
    value = obj.get(name)
    if value is None:
        return default
    if not isinstance(value, str):
        raise TurnError(f"{name}: must be a string, got {type(value).__name__}")
    if not value:
        raise TurnError(f"{name}: empty")
    return value


def stable_id(fields: dict[str, Any]) -> str:
    """A hash of the content fields (``ts`` already normalised, so equal times give equal ids)."""
    body = json.dumps([fields[name] for name in ("ts", "role", "text", "actor", "session", "model", "type")],
                      ensure_ascii=True, separators=(",", ":"))
    return "g-" + hashlib.sha256(body.encode("utf-8")).hexdigest()[:32]


def turn_from_generic(obj: Any, *, source: str, default_session: str, latest: str | None = None) -> Turn:
    """One generic record as a turn; ``TurnError`` naming the field otherwise (``latest``: see ``make_turn``)."""
    if not isinstance(obj, dict):
        raise TurnError(f"not a JSON object (got {type(obj).__name__})")
    fields: dict[str, Any] = {"ts": normal_ts(_ts(obj.get("ts")))}
    role = obj.get("role")
    if role not in ROLES:
        raise TurnError(f"role: must be one of {', '.join(ROLES)}, got {one_line(repr(role), 60)}")
    fields["role"] = role
    text = obj.get("text")
    if not isinstance(text, str):
        raise TurnError("text: missing" if text is None else f"text: must be a string, got {type(text).__name__}")
    fields["text"] = text
    kind = obj.get("type", "text")
    if kind not in TYPES:
        raise TurnError(f"type: must be one of {', '.join(TYPES)}, got {one_line(repr(kind), 60)}")
    fields["type"] = kind
    fields["actor"] = _optional_str(obj, "actor", role)
    fields["session"] = _optional_str(obj, "session", default_session)
    fields["model"] = _optional_str(obj, "model", None)
    given = obj.get("id")
    if given is None:
        fields["id"] = stable_id(fields)
    elif isinstance(given, int) and not isinstance(given, bool):
        fields["id"] = str(given)
    elif isinstance(given, str) and given.strip():
        fields["id"] = given
    else:
        raise TurnError(f"id: must be a non-empty string or an integer, got {one_line(repr(given), 60)}")
    return make_turn(source=source, latest=latest, **fields)


def read(path: Path, progress: Progress | None = None, *, latest: str | None = None) -> Iterator[ImportItem]:
    source = f"{NAME}:{path}"
    session = path.stem or path.name
    for raw in iter_lines(path, progress=progress):
        value = json_line(raw)
        if isinstance(value, Rejected | Skipped):
            yield value
            continue
        try:
            turn = turn_from_generic(value, source=source, default_session=session, latest=latest)
        except TurnError as exc:
            yield Rejected(raw.number, str(exc), raw=raw.data)
            continue
        if not turn.text.strip():
            yield Skipped("generic: empty text")
            continue
        assert isinstance(value, dict)
        for name in value:
            if name not in FIELDS:
                yield Skipped(f"generic: unknown field {one_line(repr(name), 40)} ignored")
        yield turn
