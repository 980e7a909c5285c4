"""Range arithmetic in a timezone, DST-correct.

Every boundary is a local wall-clock time built from a calendar date in the zone (``at``), never an
aware datetime plus a fixed number of hours: a day across a DST change is 23 or 25 hours long, and a
week that contains one is 167 or 169. Only elapsed-time spans ("3 hours ago", "the last 24 hours")
are computed in UTC, because there the person means elapsed time.

A local time that does not exist (inside a spring-forward gap) is moved forward to the real instant
(02:30 on a night that jumps from 02:00 to 03:00 becomes 03:30); an ambiguous one (the repeated hour
of a fall-back night) is its first occurrence.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta, tzinfo

from core.timeparse.model import OPEN_START, TimeRange, instant
from core.timeparse.parts import PartOfDay


def at(day: date, clock: time, zone: tzinfo) -> datetime:
    """The instant the wall clocks of ``zone`` show ``clock`` on ``day`` (normalised, see module doc)."""
    return datetime.combine(day, clock, tzinfo=zone).astimezone(UTC).astimezone(zone)


def midnight(day: date, zone: tzinfo) -> datetime:
    return at(day, time(0), zone)


def elapsed(moment: datetime, delta: timedelta) -> datetime:
    """``moment + delta`` in elapsed (UTC) time, expressed in ``moment``'s zone."""
    zone = moment.tzinfo
    return (moment.astimezone(UTC) + delta).astimezone(zone)


def monday_of(day: date) -> date:
    return day - timedelta(days=day.weekday())


def add_months(year: int, month: int, count: int) -> tuple[int, int]:
    index = year * 12 + (month - 1) + count
    return index // 12, index % 12 + 1


def days_in_month(year: int, month: int) -> int:
    next_year, next_month = add_months(year, month, 1)
    return (date(next_year, next_month, 1) - date(year, month, 1)).days


def day_range(day: date, zone: tzinfo) -> TimeRange:
    return TimeRange(midnight(day, zone), midnight(day + timedelta(days=1), zone), "day")


def week_range(monday: date, zone: tzinfo) -> TimeRange:
    """The Monday-to-Sunday week that starts on ``monday``."""
    return TimeRange(midnight(monday, zone), midnight(monday + timedelta(days=7), zone), "week")


def weekend_range(monday: date, zone: tzinfo) -> TimeRange:
    """Saturday 00:00 to Monday 00:00 of the week that starts on ``monday``."""
    return TimeRange(midnight(monday + timedelta(days=5), zone), midnight(monday + timedelta(days=7), zone), "span")


def month_range(year: int, month: int, zone: tzinfo) -> TimeRange:
    next_year, next_month = add_months(year, month, 1)
    return TimeRange(midnight(date(year, month, 1), zone), midnight(date(next_year, next_month, 1), zone), "month")


def year_range(year: int, zone: tzinfo) -> TimeRange:
    return TimeRange(midnight(date(year, 1, 1), zone), midnight(date(year + 1, 1, 1), zone), "year")


def part_range(day: date, part: PartOfDay, zone: tzinfo) -> TimeRange:
    """``part`` of ``day``; a part that crosses midnight (night) ends on the next day."""
    end_day = day + timedelta(days=1) if part.crosses_midnight else day
    return TimeRange(at(day, part.start, zone), at(end_day, part.end, zone), "part_of_day")


def hour_range(day: date, clock: time, zone: tzinfo) -> TimeRange:
    """One elapsed hour from ``clock`` on ``day``."""
    start = at(day, clock, zone)
    return TimeRange(start, elapsed(start, timedelta(hours=1)), "hour")


def span(start: datetime, end: datetime) -> TimeRange:
    return TimeRange(start, end, "span")


def up_to(end: datetime, zone: tzinfo) -> TimeRange | None:
    """A range open at its start that ends at ``end`` ("until yesterday": everything before its end),
    or None when ``end`` is not after :data:`~core.timeparse.model.OPEN_START`."""
    start = midnight(OPEN_START, zone)
    return TimeRange(start, end, "span", open_start=True) if instant(start) < instant(end) else None
