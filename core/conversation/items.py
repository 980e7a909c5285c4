"""What an importer yields for each piece of its input: a :class:`~core.turns.Turn`, a
:class:`Rejected` record (malformed: reported as ``FILE:LINE: reason`` and quarantined), or a
:class:`Skipped` record (well formed but deliberately not a turn, counted by reason).

Nothing an importer reads disappears without one of these three.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from core.turns import ROLES, TYPES, Turn, TurnError, format_ts, parse_ts

# Advance a progress display by this many bytes of input read. Core never draws anything itself.
Progress = Callable[[int], None]

_REASON_MAX = 300
# Anchored with \Z, not $: $ also matches before a final newline, and "…Z\n" passed as the log's form.
_TS_SHAPE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z\Z")
_LEAP_SECOND = re.compile(r"^(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}):60(?:[.,]\d+)?(?=Z|[+-]\d|\Z)")
# How far after the moment of an import a turn's time may lie. A turn dated later is refused (and
# quarantined): a clock or file error, or a forged far-future date, would otherwise sort after
# everything ever imported and (at 9999-12-31) reach the end of the calendar.
FUTURE_LIMIT = timedelta(days=1)


def latest_ts(now: datetime) -> str:
    """The latest ``ts`` (in the log's form) an import at ``now`` accepts: ``now + FUTURE_LIMIT``."""
    return format_ts(now + FUTURE_LIMIT)


def one_line(text: str, limit: int = _REASON_MAX) -> str:
    """``text`` on one line (newlines and tabs become spaces), cut to ``limit`` characters."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def normal_ts(text: str) -> str:
    """``text`` (ISO-8601 with a timezone) as the log writes it (``format_ts``), or ``TurnError``.

    Also refuses times that would not read back: years before 1000 (``strftime`` drops their zero
    padding) and offsets that push a time out of ``datetime``'s range. A leap second (``23:59:60``,
    which ``datetime`` cannot hold) is read as the last microsecond of its minute: it keeps its
    place after ``:59`` and before the next minute."""
    leap = _LEAP_SECOND.match(text)
    if leap is not None:
        text = leap.group(1) + ":59.999999" + text[leap.end():]
    try:
        moment = parse_ts(text)
    except OverflowError as exc:
        raise TurnError(f"ts: out of range: {one_line(repr(text), 60)}") from exc
    if moment.year < 1000:
        raise TurnError(f"ts: year out of range: {one_line(repr(text), 60)}")
    if _TS_SHAPE.match(text):
        return text  # already in the log's form (and a valid time: parse_ts accepted it)
    return moment.isoformat(timespec="microseconds")[:-6] + "Z"  # == format_ts, without strftime's cost


_STR_FIELDS = ("id", "ts", "actor", "role", "type", "text", "session", "source")

# Identifiers are names, not text: the longest each may be, and what none may hold. A turn's text keeps
# every character; its actor, model, session, id and source are shown inline (a context block's line, a
# result row, a column), so a line break there would let an import write the structure around it.
IDENTIFIER_LIMITS = {"actor": 200, "model": 200, "session": 512, "id": 512, "source": 8192}
# Controls (C0, DEL, C1 with NEL), the Unicode line and paragraph separators, and the invisible format
# characters (soft hyphen, zero-width space and marks, bidirectional overrides and isolates, word joiner
# and invisible operators, BOM, interlinear annotation, the tag characters that can hide ASCII from a
# reader). Zero-width (non-)joiners stay: emoji sequences and several scripts need them.
_NOT_IN_IDENTIFIER = re.compile(
    "[\x00-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b\u200e\u200f\u2028-\u202e\u2060-\u206f\ufeff"
    "\ufff9-\ufffb\U000e0000-\U000e007f]"
)


def check_identifiers(fields: dict[str, Any]) -> None:
    """``TurnError`` naming the field when an identifier is too long or holds a character that is
    not part of a name (see ``_NOT_IN_IDENTIFIER``); the turn is then quarantined with that reason."""
    for name, limit in IDENTIFIER_LIMITS.items():
        value = fields.get(name)
        if not isinstance(value, str):
            continue
        if len(value) > limit:
            raise TurnError(f"{name}: {len(value):,} characters, more than the {limit:,} a name may have")
        bad = _NOT_IN_IDENTIFIER.search(value)
        if bad is not None:
            raise TurnError(f"{name}: holds U+{ord(bad.group()):04X} at character {bad.start()}, "
                            "which a name may not (a line break, control or invisible character)")


def checked_turn(obj: Any) -> Turn:
    """``Turn.from_dict(obj)``, with a fast path for what the log itself writes (every field present
    and of the right type, ``ts`` already in the log's form): the same turns pass, the same fail."""
    if (
        type(obj) is dict
        and len(obj) == 9
        and "model" in obj
        and all(type(obj.get(name)) is str for name in _STR_FIELDS)
        and (obj["model"] is None or type(obj["model"]) is str)
        and obj["role"] in ROLES
        and obj["type"] in TYPES
        and obj["id"]
        and _TS_SHAPE.match(obj["ts"])
        and obj["ts"][0] != "0"  # years before 1000 take the slow path (``Turn.from_dict`` mangles them)
    ):
        try:
            datetime.fromisoformat(obj["ts"][:-1])
        except ValueError:
            pass
        else:
            return Turn(**obj)
    return Turn.from_dict(obj)


def check_not_future(ts: str, latest: str | None) -> None:
    """``TurnError`` when ``ts`` (in the log's form) is after ``latest`` (from :func:`latest_ts`)."""
    if latest is not None and ts > latest:
        raise TurnError(
            f"ts: {ts} is more than {FUTURE_LIMIT.days} day after the import ({latest[:10]} at the latest); refused"
        )


def make_turn(*, latest: str | None = None, **fields: Any) -> Turn:
    """A validated turn: :func:`normal_ts`, :func:`check_identifiers`, then ``Turn.from_dict``'s checks;
    ``TurnError`` names the field.

    ``latest`` (from :func:`latest_ts`) refuses turns dated after it."""
    if isinstance(fields.get("ts"), str):
        fields["ts"] = normal_ts(fields["ts"])
        check_not_future(fields["ts"], latest)
    for name, value in fields.items():
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise TurnError(f"{name}: holds an unpaired UTF-16 surrogate at character {exc.start}") from exc
    check_identifiers(fields)
    return checked_turn(fields)


@dataclass(frozen=True)
class Rejected:
    """A malformed line or record. ``raw`` holds its bytes; for a line too long to hold in memory
    ``raw`` is ``None`` and ``span`` gives its byte range in the source file, copied from there."""

    line: int
    reason: str
    raw: bytes | None = None
    span: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "reason", one_line(self.reason))


class Malformed(ValueError):
    """A record an importer cannot read as a turn (not JSON, not an object, a field missing or of the
    wrong type); the message names the field. The importer turns it into a :class:`Rejected`."""


@dataclass(frozen=True)
class Skipped:
    """A well-formed record that is deliberately not imported (progress events, snapshots, empty
    placeholder parts...). Counted under ``reason`` in the ingest report."""

    reason: str


ImportItem = Turn | Rejected | Skipped
