"""Topic markers ("where are we now"): short sentences the person writes when the conversation
turns, kept in ``topics.jsonl``, one ``{"ts", "text", "id"}`` per line, append-only.

Only the person writes markers (``reverie mark``, the TUI); assistants read them (MCP, context)
and never write. The text is kept exactly as written, apart from surrounding whitespace.
Appends are serialised by a lock and fsynced; an unterminated last line left by a crash is
repaired before the next append (terminated if it is a whole marker, otherwise quarantined and
cut off), and readers skip it meanwhile.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from core import clock
from core.conversation.quarantine import Quarantine
from core.conversation.tail import repair_tail
from core.errors import ReverieError
from core.fsutil import append_line_durably, file_lock
from core.paths import HomePaths
from core.turns import TurnError, format_ts, parse_ts

MAX_MARKER_CHARS = 2000


class MarkerError(ReverieError):
    """A marker that cannot be written (empty, too long) or a line that is not a marker."""


@dataclass(frozen=True)
class Marker:
    ts: str
    text: str
    id: str

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_dict(cls, obj: Any) -> Marker:
        """Check a decoded line; written out for the reason :meth:`core.turns.Turn.from_dict` gives (a
        bad line's reason is quarantined, and msgspec's depends on the line's key order)."""
        if not isinstance(obj, dict):
            raise MarkerError("not a JSON object")
        for name in ("ts", "text", "id"):
            if not isinstance(obj.get(name), str) or not obj[name]:
                raise MarkerError(f"{name}: missing or not a non-empty string")
        try:
            ts = format_ts(parse_ts(obj["ts"]))
        except (TurnError, OverflowError) as exc:
            raise MarkerError(f"ts: not an ISO-8601 time: {obj['ts']!r}") from exc
        return cls(ts=ts, text=obj["text"], id=obj["id"])


@dataclass
class MarkerReading:
    markers: list[Marker] = field(default_factory=list)  # file order (oldest appended first)
    problems: list[str] = field(default_factory=list)  # "topics.jsonl:LINE: reason"


def _whole_marker(data: bytes) -> bool:
    try:
        Marker.from_dict(json.loads(data.decode("utf-8")))
    except (UnicodeDecodeError, ValueError, MarkerError):
        return False
    return True


def add_marker(paths: HomePaths, text: str, now: datetime | None = None) -> Marker:
    """Append the person's marker ``text`` (timestamped now) and return it."""
    cleaned = text.strip()
    if not cleaned:
        raise MarkerError("marker text is empty")
    if len(cleaned) > MAX_MARKER_CHARS:
        raise MarkerError(f"marker text is {len(cleaned)} characters; keep it under {MAX_MARKER_CHARS}")
    try:
        cleaned.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise MarkerError(f"marker text is not valid Unicode at character {exc.start}") from exc
    moment = now or clock.utc_now()
    marker = Marker(ts=format_ts(moment), text=cleaned, id=f"m-{secrets.token_hex(8)}")
    paths.ensure()
    with file_lock(paths.lock("topics")):
        quarantine = Quarantine(paths)
        repair_tail(paths.topics, _whole_marker, lambda tail: quarantine.keep_tail(paths.topics, tail))
        append_line_durably(paths.topics, marker.to_json())
    return marker


def read_markers(paths: HomePaths) -> MarkerReading:
    """Every marker in file order; bad lines are reported, never raised."""
    reading = MarkerReading()
    try:
        data = paths.topics.read_bytes()
    except FileNotFoundError:
        return reading
    lines = data.split(b"\n")
    tail = lines.pop()  # b"" when the file ends with a newline
    name = Path(paths.topics.name)
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            reading.markers.append(Marker.from_dict(json.loads(line.decode("utf-8"))))
        except (UnicodeDecodeError, ValueError, MarkerError) as exc:
            reason = str(exc) if isinstance(exc, MarkerError) else "not a JSON marker"
            reading.problems.append(f"{name}:{number}: {reason}")
    if tail:
        reading.problems.append(f"{name}:{len(lines) + 1}: unterminated last line (an interrupted write)")
    return reading


def newest_first(markers: list[Marker]) -> list[Marker]:
    """``markers`` latest first, by time; of two with the same time, the later line first."""
    ordered = sorted(enumerate(markers), key=lambda item: (item[1].ts, item[0]), reverse=True)
    return [marker for _, marker in ordered]


def latest_markers(paths: HomePaths, n: int) -> list[Marker]:
    """The ``n`` latest markers, latest first."""
    if n <= 0:
        return []
    return newest_first(read_markers(paths).markers)[:n]
