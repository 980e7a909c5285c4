"""Time for the interfaces: the wall clock core reads, the reading of ``--now``/``--tz`` values, and
the time grammar as a search reads it (``reverie when``, a draft's time field). Cheap to import: it
loads :mod:`core.timeparse` on first use."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING

from core import clock
from core.clock import TimeInputError, parse_now, parse_zone

if TYPE_CHECKING:
    from core.timeparse import TimeParse

__all__ = ["TimeInputError", "parse_now", "parse_zone", "read_time", "utc_now"]


def utc_now() -> datetime:
    """The current time from :func:`core.clock.utc_now`, looked up on each call so a frozen clock
    applies to the interfaces too."""
    return clock.utc_now()


def read_time(text: str, now: datetime, zone: tzinfo, languages: Sequence[str],
              fiscal_year_start: int = 1) -> TimeParse:
    """How ``text`` reads as a time: its range [start, end) in ``zone`` as of ``now``, the expression
    and the rest."""
    from core.timeparse import parse_time  # lazy: the time grammar, ~70 ms; the TUI imports this module at start

    return parse_time(text, now, zone, languages, fiscal_year_start=fiscal_year_start)
