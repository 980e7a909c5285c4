"""A line of a day file as the log writes it (``store.turn_line``): the one typed declaration of its
nine fields, decoded by the store's fast path (``store.read_day``, ``store.parse_line``) and by the
index's whole-file reader (``core.index.logsource.read_records``).

What it accepts is at least as strict as the general path (``items.checked_turn``), so a line reads
the same either way: whatever it refuses goes through the general path, which words the error. msgspec
checks, in C, every field present with its type, no other field, a non-empty id, a known role and
type. ``ts`` is checked by :func:`stamps_ok`: one regular expression over all of a file's stamps at
once (a year from 1000, valid clock fields, ASCII digits only, microseconds, ``Z``) and a real date,
which is cheaper than a pattern msgspec would match value by value.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from functools import lru_cache
from typing import Annotated, Literal

import msgspec

from core.turns import ROLES, TYPES


class LogLine(msgspec.Struct, forbid_unknown_fields=True, frozen=True, gc=False):
    """One day-file line, decoded without a ``Turn`` (the store makes one; an index build reads these
    directly, ``core.index.catalog.TurnRecord``). Not tracked by the garbage collector: it holds
    strings only. ``ts`` is unchecked until :func:`stamps_ok`."""

    actor: str
    id: Annotated[str, msgspec.Meta(min_length=1)]
    model: str | None
    role: Literal[ROLES]
    session: str
    source: str
    text: str
    ts: str
    type: Literal[TYPES]
    machine: str | None = None  # set on turns shipped from another machine (core.remote)


LOG_LINE = msgspec.json.Decoder(LogLine)
LOG_LINES = msgspec.json.Decoder(list[LogLine])

# The log's form of a ts, each followed by a newline: a whole file's stamps in one C-speed match.
_STAMP = (r"[1-9][0-9]{3}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])"
          r"T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]\.[0-9]{6}Z")
_STAMPS = re.compile(f"(?:{_STAMP}\n)*")
_STAMP_LEN = len("2026-01-01T00:00:00.000000Z\n")


@lru_cache(maxsize=4096)
def real_day(day: str) -> bool:
    """``YYYY-MM-DD`` is a date of the calendar (the pattern lets 2026-02-31 through)."""
    try:
        date.fromisoformat(day)
    except ValueError:
        return False
    return True


def stamps_ok(stamps: Sequence[str]) -> bool:
    """Every ``ts`` of ``stamps`` is in the log's form, on a real date. The length check makes each
    value exactly one stamp: a ts holding a newline ("…Z\\n", "…Z\\n…Z") would otherwise pass as
    stamps joined by newlines."""
    if not stamps:
        return True
    joined = "\n".join(stamps) + "\n"
    return (len(joined) == _STAMP_LEN * len(stamps) and _STAMPS.fullmatch(joined) is not None
            and all(map(real_day, {stamp[:10] for stamp in stamps})))
