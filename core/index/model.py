"""The values the index hands out and takes in: hits, filters, memory documents, time bounds."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from core.turns import TurnError, format_ts, parse_ts

Kind = Literal["turn", "memory"]
KINDS: tuple[Kind, ...] = ("turn", "memory")
TimeBound = datetime | str | None


@dataclass(frozen=True)
class Hit:
    """One ranked document. ``score``: higher is better (``-bm25`` for exact, cosine for vectors)."""

    id: str
    kind: Kind
    ts: str
    score: float


@dataclass(frozen=True)
class MemoryDoc:
    """A finalized vault memory as the index sees it (plaintext: the index is sensitive)."""

    id: str
    ts: str  # occurred_at, or the time it was finalized; ISO-8601 with a timezone
    text: str
    tags: tuple[str, ...] = ()
    reviewed: bool = False

    def __post_init__(self) -> None:
        if not self.id:
            raise ValueError("memory id: empty")
        object.__setattr__(self, "ts", normalize_ts(self.ts, f"memory {self.id}: ts"))
        object.__setattr__(self, "tags", tuple(sorted(set(self.tags))))


@dataclass(frozen=True)
class Filters:
    """Which documents may be returned.

    Turn fields (``roles``, ``sessions``, ``sources``, ``actors``, ``types``): a turn passes when each
    non-empty tuple holds its value; memories have none of these fields, so any of them set drops
    memories. Memory fields: ``tags`` (a memory must carry every one; turns have no tags, so this drops
    turns), ``exclude_tags`` (a memory carrying any is dropped; turns pass) and ``reviewed`` (keeps
    memories with that flag; turns, never reviewed, pass). ``kinds`` selects turns, memories or both.
    """

    kinds: tuple[Kind, ...] = KINDS
    roles: tuple[str, ...] = ()
    sessions: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    actors: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    exclude_tags: tuple[str, ...] = ()
    reviewed: bool | None = None

    def __post_init__(self) -> None:
        for name in ("kinds", "roles", "sessions", "sources", "actors", "types", "tags", "exclude_tags"):
            value = getattr(self, name)
            if isinstance(value, str):
                raise TypeError(f"filters.{name}: a tuple of strings, not a string")
            object.__setattr__(self, name, tuple(value))
        unknown = set(self.kinds) - set(KINDS)
        if unknown:
            raise ValueError(f"filters.kinds: unknown kind {sorted(unknown)[0]!r} (turn or memory)")

    @property
    def turn_fields(self) -> dict[str, tuple[str, ...]]:
        """Turn column → allowed values, for the non-empty turn filters."""
        columns = {
            "role": self.roles,
            "session": self.sessions,
            "source": self.sources,
            "actor": self.actors,
            "type": self.types,
        }
        return {column: values for column, values in columns.items() if values}

    @property
    def wants_turns(self) -> bool:
        return "turn" in self.kinds and not self.tags

    @property
    def wants_memories(self) -> bool:
        return "memory" in self.kinds and not self.turn_fields

    @property
    def filters_memories(self) -> bool:
        return bool(self.tags or self.exclude_tags or self.reviewed is not None)


NO_FILTERS = Filters()


_CANONICAL_TS = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z")


def normalize_ts(value: datetime | str, what: str = "ts") -> str:
    """A time as the log writes it (``YYYY-MM-DDTHH:MM:SS.ffffffZ``); ``ValueError`` names ``what``."""
    if isinstance(value, str) and _CANONICAL_TS.fullmatch(value):
        return value  # already canonical (the common case: times handed back by the index itself)
    try:
        moment = value if isinstance(value, datetime) else parse_ts(value)
        if moment.tzinfo is None:
            return format_ts(moment)  # raises: a naive datetime has no timezone
        m = moment.astimezone(UTC)
    except TurnError as exc:
        raise ValueError(f"{what}: {str(exc).removeprefix('ts: ')}") from exc
    # the same text as core.turns.format_ts, without strftime (a third of a query's overhead)
    return f"{m.year:04d}-{m.month:02d}-{m.day:02d}T{m.hour:02d}:{m.minute:02d}:{m.second:02d}.{m.microsecond:06d}Z"


def bounds(start: TimeBound, end: TimeBound) -> tuple[str | None, str | None]:
    """``[start, end)`` as log timestamps (``None`` for an open side)."""
    lo = normalize_ts(start, "start_ts") if start is not None else None
    hi = normalize_ts(end, "end_ts") if end is not None else None
    return lo, hi
