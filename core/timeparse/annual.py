"""Which occurrence of a yearly period is meant: "summer", "last winter", "next Christmas", "작년 크리스마스".

An occurrence belongs to the year it starts in (winter 2025 is 1 December 2025 – 1 March 2026), so a
year beside the period picks the one that starts in that year. Without a year the choice mirrors a
month name: bare, the latest that has begun; last, the latest that has ended; this, the one going on,
else the one that starts this year; next, the first that starts after today; after a range's start,
the first that starts on or after that day. A one-day period (a holiday) is a day, so a part of the
day can qualify it; a longer one is a ``span`` from the midnight it starts to the midnight after it.
"""

from __future__ import annotations

from datetime import date

from core.timeparse import ranges
from core.timeparse.model import TimeRange
from core.timeparse.movable import dates
from core.timeparse.pieces import AnnualP, Context

# The words that say which occurrence, per language (a year beside the name is read by the year rules).
EN_MODE = r"(?:(?:the\s+)?(?P<mode>last|this\s+past|this\s+coming|this|next|past|previous|coming)\s+)?"
KO_MODE = r"(?:(?P<mode>지난|저번|이번|다음|올)\s*)?"
JA_MODE = r"(?P<mode>この前の|前の|次の|今度の|この)?"
MODES = {
    "last": "last",
    "this past": "last",
    "past": "last",
    "previous": "last",
    "this": "this",
    "this coming": "next",
    "next": "next",
    "coming": "next",
    "지난": "last",
    "저번": "last",
    "이번": "this",
    "올": "this",
    "다음": "next",
    "前の": "last",
    "この前の": "last",
    "この": "this",
    "次の": "next",
    "今度の": "next",
    None: "bare",
}


def mode_of(word: str | None) -> str:
    return MODES[" ".join(word.split()) if word else None]


def occurrence(period: AnnualP, year: int) -> tuple[date, date]:
    """The ``[first day, day after the last)`` of the occurrence that starts in ``year``."""
    if period.movable:
        return dates(period.name, year)
    first = date(year, *period.start)
    end_year = year if period.end > period.start else year + 1
    return first, date(end_year, *period.end)


def choose(period: AnnualP, ctx: Context, year: int | None, after: date | None) -> tuple[date, date]:
    if year is not None:
        return occurrence(period, year)
    today = ctx.today
    origin = after or today
    candidates = [occurrence(period, origin.year + shift) for shift in (-2, -1, 0, 1)]
    if after is not None:
        return next(item for item in candidates if item[0] >= after)
    if period.mode == "last":
        return [item for item in candidates if item[1] <= today][-1]
    if period.mode == "next":
        return next(item for item in candidates if item[0] > today)
    if period.mode == "this":
        current = [item for item in candidates if item[0] <= today < item[1]]
        return current[0] if current else occurrence(period, today.year)
    return [item for item in candidates if item[0] <= today][-1]


def anchor(period: AnnualP, ctx: Context, year: int | None, after: date | None) -> date | TimeRange:
    """A single day (a holiday) or the span of the occurrence meant."""
    first, end = choose(period, ctx, year, after)
    if (end - first).days == 1:
        return first
    return ranges.span(ranges.midnight(first, ctx.zone), ranges.midnight(end, ctx.zone))
