"""A batch: what one capture on a machine without a vault read, as it travels to the home.

The payload is one UTF-8 JSON object ``{"format": "reverie-batch", "version": 1, "groups": [...]}``,
each group holding its transcript's ``origin``, its ``turns`` as the log writes them, the ``rejected``
lines (line, reason, raw bytes) and the ``skipped`` counts. The laptop reads and checks the transcript
as a local ingest does; the home checks every turn again with the importers' own rule
(:func:`~core.conversation.items.make_turn`) before storing it, so a turn the home would not import is
quarantined there, never written. A payload that is not this shape is refused whole.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from core.conversation.items import Rejected, make_turn
from core.errors import ReverieError
from core.turns import TurnError

FORMAT = "reverie-batch"
VERSION = 1
TURN_FIELDS = ("id", "ts", "actor", "role", "type", "text", "model", "session", "source")


class BadBatch(ReverieError):
    """A batch payload that is not a batch; nothing of it is stored."""


@dataclass
class Group:
    """What one capture read from one file."""

    origin: str
    turns: list[dict[str, Any]] = field(default_factory=list)
    rejected: list[dict[str, Any]] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)


def encode(groups: Sequence[Group]) -> bytes:
    body = {"format": FORMAT, "version": VERSION,
            "groups": [{"origin": g.origin, "turns": g.turns, "rejected": g.rejected, "skipped": g.skipped}
                       for g in groups]}
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def turn_fields(turn: Any) -> dict[str, Any]:
    """A turn's fields as a batch carries them (never its ``machine``: the home sets that)."""
    return {name: getattr(turn, name) for name in TURN_FIELDS}


def rejected_entry(line: int, reason: str, raw: bytes | None) -> dict[str, Any]:
    """A rejected line as a batch's JSON payload carries it (the wire form :func:`decode` reads back)."""
    return {"line": line, "reason": reason,
            "raw_base64": None if raw is None else base64.b64encode(raw).decode("ascii")}


@dataclass
class Decoded:
    groups: list[tuple[Path, list[Any]]]  # (origin as the quarantine names it, items)
    skipped: dict[str, int]
    turns: int


def decode(payload: bytes, *, machine: str, latest: str) -> Decoded:
    """The items of a batch for :func:`core.conversation.pipeline.ingest_items`: each turn checked
    as an importer checks it and marked with ``machine``, each refused one a ``Rejected`` record."""
    try:
        body = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise BadBatch(f"payload is not UTF-8 JSON ({exc})") from exc
    if not isinstance(body, dict) or body.get("format") != FORMAT:
        raise BadBatch(f"payload: format: not {FORMAT!r}")
    if body.get("version") != VERSION:
        raise BadBatch(f"payload: version {body.get('version')!r}, this reverie reads {VERSION}")
    groups = body.get("groups")
    if not isinstance(groups, list):
        raise BadBatch("payload: groups: missing or not a list")
    decoded = Decoded([], {}, 0)
    for index, group in enumerate(groups):
        where = f"payload: groups[{index}]"
        origin, turns, rejected, skipped = _group_parts(group, where)
        items: list[Any] = []
        for number, fields in enumerate(turns, start=1):
            raw = json.dumps(fields, ensure_ascii=False, sort_keys=True).encode("utf-8")
            try:
                if not isinstance(fields, dict) or "machine" in fields:
                    raise TurnError("not a turn object of the batch")
                items.append(replace(make_turn(latest=latest, **fields), machine=machine))
                decoded.turns += 1
            except (TurnError, TypeError) as exc:
                items.append(Rejected(number, f"shipped turn {number}: {exc}", raw=raw))
        for entry in rejected:
            items.append(_rejected(entry, where))
        for reason, count in skipped.items():
            decoded.skipped[reason] = decoded.skipped.get(reason, 0) + count
        decoded.groups.append((Path(f"{machine}:{origin}"), items))
    return decoded


def _group_parts(group: Any, where: str) -> tuple[str, list[Any], list[Any], dict[str, int]]:
    if not isinstance(group, dict):
        raise BadBatch(f"{where}: not an object")
    origin, turns = group.get("origin"), group.get("turns")
    rejected, skipped = group.get("rejected", []), group.get("skipped", {})
    if not isinstance(origin, str) or not origin:
        raise BadBatch(f"{where}.origin: missing or not a string")
    if not isinstance(turns, list):
        raise BadBatch(f"{where}.turns: missing or not a list")
    if not isinstance(rejected, list):
        raise BadBatch(f"{where}.rejected: not a list")
    if not isinstance(skipped, dict) or not all(
            isinstance(k, str) and type(v) is int and v >= 0 for k, v in skipped.items()):
        raise BadBatch(f"{where}.skipped: not a table of counts")
    return origin, turns, rejected, skipped


def _rejected(entry: Any, where: str) -> Any:
    if not isinstance(entry, dict) or type(entry.get("line")) is not int or not isinstance(entry.get("reason"), str):
        raise BadBatch(f"{where}.rejected: an entry without line and reason")
    raw_text = entry.get("raw_base64")
    try:
        raw = b"" if raw_text is None else base64.b64decode(raw_text, validate=True)
    except (binascii.Error, TypeError, ValueError) as exc:
        raise BadBatch(f"{where}.rejected: line {entry['line']}: raw_base64 is not base64") from exc
    return Rejected(entry["line"], entry["reason"], raw=raw)
