"""The time grammar as a search reads it, for the interfaces that show a reading of their own
(``reverie when``, a draft's time field): cheap to import, it loads :mod:`core.timeparse` on first use."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.timeparse import TimeParse


def read_time(text: str, now: datetime, zone: tzinfo, languages: Sequence[str],
              fiscal_year_start: int = 1) -> TimeParse:
    """How ``text`` reads as a time: its range [start, end) in ``zone`` as of ``now``, the expression
    and the rest."""
    from core.timeparse import parse_time

    return parse_time(text, now, zone, languages, fiscal_year_start=fiscal_year_start)
