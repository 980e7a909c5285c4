"""What the temporal backbone returns: a half-open range with its grain, and the parse of a query."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from core.errors import ReverieError
from core.typed import to_builtins

GRAINS = ("hour", "part_of_day", "day", "week", "month", "year", "span")

# Where a range open at its start begins ("until yesterday", 어제까지, 昨日まで): local midnight of
# this day, before any log, so the range holds everything up to its end. 1970, not earlier: by then
# every zone keeps a whole-minute offset, so the start reads "1970-01-01T00:00:00+09:00" in JSON (1
# January 1900 in Seoul is local mean time, +08:27:52).
OPEN_START = date(1970, 1, 1)

_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def instant(moment: datetime) -> datetime:
    """``moment`` in UTC. Aware datetimes that share a tzinfo compare by wall clock in Python (the
    repeated hour of a DST fall-back compares equal to itself); instants compare correctly."""
    return moment.astimezone(UTC)


class TimeParseError(ReverieError, ValueError):
    """The caller passed something the parser cannot work with (a naive ``now``, an unknown language)."""


@dataclass(frozen=True)
class TimeRange:
    """``[start, end)`` in the person's timezone. ``grain`` says how it was meant: one hour, one part
    of a day, a day, a Monday-to-Sunday week, a calendar month or year, or any other ``span``."""

    start: datetime
    end: datetime
    grain: str
    # no real start: it begins at OPEN_START ("until yesterday"); said, not inferred from the start, so
    # "in 1970", which begins there too, is still a year
    open_start: bool = False

    def __post_init__(self) -> None:
        if self.start.tzinfo is None or self.end.tzinfo is None:
            raise TimeParseError("a time range needs timezone-aware start and end")
        if not instant(self.start) < instant(self.end):
            raise TimeParseError(f"a time range must end after it starts: {self.start} – {self.end}")
        if self.grain not in GRAINS:
            raise TimeParseError(f"unknown grain {self.grain!r} (known: {', '.join(GRAINS)})")

    def __contains__(self, moment: datetime) -> bool:
        return instant(self.start) <= instant(moment) < instant(self.end)

    def to_dict(self) -> dict[str, str]:
        """Written out: the published form is ``datetime.isoformat`` (``+00:00``), and msgspec writes a
        UTC time as ``Z``; a time range in a UTC home would change form."""
        return {"start": self.start.isoformat(), "end": self.end.isoformat(), "grain": self.grain}

    def describe(self, reference: datetime | None = None) -> str:
        """A human form: ``Tue 24 Nov 18:00 – Wed 25 Nov 04:00``, ``Tue 24 Nov``, ``Mon 16 – Sun 22 Nov``,
        ``March 2026``, ``2025``, ``… – Tue 24 Nov`` (open at its start). Years are shown when they
        differ from ``reference``'s year (always, when no reference is given and the range is not in one
        year)."""
        ref_year = reference.astimezone(self.start.tzinfo).year if reference is not None else None
        start, end = self.start, self.end
        last_day = _last_day(self)
        if self.open_start:
            return f"… – {_until(end, last_day, ref_year)}"
        if self.grain == "year":
            return str(start.year)
        if self.grain == "month":
            return f"{_MONTH_NAMES[start.month - 1]} {start.year}"
        show_year = _show_year(start.date(), last_day, ref_year)
        if self.grain == "day":
            return _day(start.date(), show_year)
        if self.grain == "week":
            if start.month == last_day.month and not show_year:
                return f"{_WEEKDAYS[start.weekday()]} {start.day} – {_day(last_day, False)}"
            return f"{_day(start.date(), show_year)} – {_day(last_day, show_year)}"
        if _is_midnight(start) and _is_midnight(end):
            if start.date() == last_day:
                return _day(start.date(), show_year)
            return f"{_day(start.date(), show_year)} – {_day(last_day, show_year)}"
        head = f"{_day(start.date(), show_year)} {start:%H:%M}"
        if end.date() == start.date() or (_is_midnight(end) and end.date() == start.date() + timedelta(1)):
            tail = "24:00" if _is_midnight(end) else f"{end:%H:%M}"
            return f"{head} – {tail}"
        return f"{head} – {_day(end.date(), show_year)} {end:%H:%M}"


def _until(end: datetime, last_day: date, ref_year: int | None) -> str:
    """The end of a range open at its start: its last whole day, or the moment it ends."""
    with_year = _show_year(last_day, last_day, ref_year)
    if _is_midnight(end):
        return _day(last_day, with_year)
    return f"{_day(end.date(), with_year)} {end:%H:%M}"


def _is_midnight(moment: datetime) -> bool:
    return (moment.hour, moment.minute, moment.second, moment.microsecond) == (0, 0, 0, 0)


def _last_day(rng: TimeRange) -> date:
    """The last calendar day the range touches (its end is exclusive)."""
    if _is_midnight(rng.end) and rng.end.date() > rng.start.date():
        return rng.end.date() - timedelta(days=1)
    return rng.end.date()


def _show_year(first: date, last: date, ref_year: int | None) -> bool:
    if ref_year is None:
        return first.year != last.year
    return first.year != ref_year or last.year != ref_year


def _day(day: date, with_year: bool) -> str:
    text = f"{_WEEKDAYS[day.weekday()]} {day.day} {_MONTHS[day.month - 1]}"
    return f"{text} {day.year}" if with_year else text


@dataclass(frozen=True)
class TimeMatch:
    """One time expression found in a text: its range and where it sits (character offsets)."""

    range: TimeRange
    expression: str
    start: int
    end: int


@dataclass(frozen=True)
class TimeParse:
    """How a query is understood: the range (or None), the text that meant it, and the rest for ranking.

    ``notes`` are one-line remarks a person should see beside the answer, never acted on silently:
    a time word read despite a typo ("read 'yesturday' as yesterday") and time-like words that could
    not be read as a range ("could not read 'a while ago' as a time; searched all time"). Empty when
    the query was read as written."""

    range: TimeRange | None
    expression: str | None
    rest: str
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The fields by msgspec, the range in :meth:`TimeRange.to_dict`'s form: ``reverie when --json``
        prints ``+00:00`` where msgspec would write ``Z`` (pinned in tests/timeparse/test_timeparse_stored_form.py)."""
        return {**to_builtins(self), "range": self.range.to_dict() if self.range is not None else None}
