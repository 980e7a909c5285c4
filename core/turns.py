"""A conversation turn: the one record of the lossless log (one JSON line in a UTC day file).

The seven fields of a turn (``ts``, ``actor``, ``role``, ``type``, ``text``, ``model``, ``session``)
plus ``source`` (where it was imported from) and a stable ``id`` (so re-importing adds nothing).
A turn shipped from another machine (:mod:`core.remote`) also carries ``machine``, the name that
machine's remote was given; the field is left out of a line whose turn was captured on the home itself,
so every line written before it existed reads as before.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROLES = ("user", "assistant", "system")
TYPES = ("text", "action", "meta")


class TurnError(ValueError):
    """A line that is not a valid turn; the message names the field."""


def format_ts(moment: datetime) -> str:
    """ISO-8601 UTC with microseconds and a ``Z``: sorts as text in time order."""
    if moment.tzinfo is None:
        raise TurnError("ts: a naive datetime has no timezone")
    try:
        utc = moment.astimezone(UTC)
    except (OverflowError, ValueError) as exc:
        raise TurnError(f"ts: out of range: {moment.isoformat()!r}") from exc
    return f"{utc.year:04d}-{utc:%m-%dT%H:%M:%S.%f}Z"


def parse_ts(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except (ValueError, AttributeError, TypeError) as exc:
        raise TurnError(f"ts: not an ISO-8601 time: {text!r}") from exc
    if moment.tzinfo is None:
        raise TurnError(f"ts: no timezone in {text!r}")
    try:
        return moment.astimezone(UTC)
    except (OverflowError, ValueError) as exc:
        raise TurnError(f"ts: out of range: {text!r}") from exc


@dataclass(frozen=True)
class Turn:
    id: str
    ts: str
    actor: str
    role: str
    type: str
    text: str
    model: str | None
    session: str
    source: str
    machine: str | None = None  # the machine a shipped turn was captured on (None: this home)

    @property
    def moment(self) -> datetime:
        return parse_ts(self.ts)

    @property
    def day(self) -> str:
        return self.ts[:10]

    def to_json(self) -> str:
        fields = asdict(self)
        if self.machine is None:
            del fields["machine"]
        return json.dumps(fields, ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_dict(cls, obj: Any) -> Turn:
        """Check a decoded line. Written out rather than by ``msgspec.convert``: the message becomes
        the ``reason`` of a quarantine entry, and for a line with several faults msgspec names the
        first in the line's own key order (``{"role": "robot", "id": 1}`` gives the role, the same
        turn written the other way round the id), so the recorded reason would depend on how the
        source wrote its keys; here the checks run in one fixed order with the log's own words."""
        if not isinstance(obj, dict):
            raise TurnError("not a JSON object")
        values: dict[str, Any] = {}
        for name in ("id", "ts", "actor", "role", "type", "text", "session", "source"):
            value = obj.get(name)
            if not isinstance(value, str):
                raise TurnError(f"{name}: missing or not a string")
            values[name] = value
        model = obj.get("model")
        if model is not None and not isinstance(model, str):
            raise TurnError("model: not a string")
        if values["role"] not in ROLES:
            raise TurnError(f"role: must be one of {', '.join(ROLES)}, got {values['role']!r}")
        if values["type"] not in TYPES:
            raise TurnError(f"type: must be one of {', '.join(TYPES)}, got {values['type']!r}")
        if not values["id"]:
            raise TurnError("id: empty")
        values["ts"] = format_ts(parse_ts(values["ts"]))
        machine = obj.get("machine")
        if machine is not None and (not isinstance(machine, str) or not machine):
            raise TurnError("machine: not a non-empty string")
        unknown = set(obj) - {*values, "model", "machine"}
        if unknown:
            raise TurnError(f"unknown field {sorted(unknown)[0]!r}")
        return cls(model=model, machine=machine, **values)

    @classmethod
    def from_json(cls, line: str) -> Turn:
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise TurnError(f"not JSON: {exc.msg} at column {exc.colno}") from exc
        return cls.from_dict(obj)


# The name :func:`day_file` gives a day file; \Z, not $: "….jsonl\n" is not a day file.
DAY_FILE_NAME = re.compile(r"^(\d{4})-(\d{2})-(\d{2})\.jsonl\Z")


def day_file(logs_root: Path, day: str) -> Path:
    """``logs/YYYY/MM/YYYY-MM-DD.jsonl`` for a UTC day ``YYYY-MM-DD``."""
    return logs_root / day[:4] / day[5:7] / f"{day}.jsonl"
