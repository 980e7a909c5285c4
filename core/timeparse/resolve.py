"""Put pieces together into one range: "last week" + "Tuesday" + "night" → Tue 18:00 – Wed 04:00.

Pieces that do not say everything are read looking back, because Reverie searches what happened: a
weekday, month, date without a year, part of the day or hour alone is the latest that has begun
("last" the latest before the current one, "this"/"next" the one in this or the next unit); an hour
with a part of the day is placed inside it (밤 11시 → 23:00) or read as its a.m./p.m.; without one,
1–6 is p.m. After ``after`` (the start of a "between" range) each is the first on or after that day,
so "Monday to Wednesday" ends on that Wednesday. A combination that makes no sense ("yesterday" +
"last week") gives None; the caller keeps the pieces apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, time, timedelta

from core.timeparse import annual, ranges
from core.timeparse.model import TimeRange, instant
from core.timeparse.parts import PartOfDay
from core.timeparse.pieces import (
    AnnualP,
    ClockP,
    ClockSpanP,
    Context,
    DayP,
    DomP,
    EdgeP,
    MonthDayP,
    MonthNameP,
    MonthP,
    NthWeekdayP,
    PartP,
    PeriodP,
    Piece,
    RangeP,
    WeekdayP,
    WeekendP,
    WeekP,
    YearP,
)


def resolve(pieces: Sequence[Piece], ctx: Context, after: date | None = None) -> TimeRange | None:
    """The range the pieces mean together, or None when they do not fit together (or name no real
    date, such as 30 February)."""
    try:
        return _resolve(pieces, ctx, after)
    except (ValueError, OverflowError):
        return None


@dataclass
class _Anchors:
    """At most one anchoring piece of each kind."""

    day: DayP | None = None
    week: WeekP | None = None
    weekend: WeekendP | None = None
    month: MonthP | None = None
    year: YearP | None = None
    weekday: WeekdayP | None = None
    month_name: MonthNameP | None = None
    month_day: MonthDayP | None = None
    annual: AnnualP | None = None
    dom: DomP | None = None
    nth: NthWeekdayP | None = None
    period: PeriodP | None = None
    range: RangeP | None = None

    def kinds(self) -> set[str]:
        return {name for name, value in vars(self).items() if value is not None}


_FIELD = {
    DayP: "day",
    WeekP: "week",
    WeekendP: "weekend",
    MonthP: "month",
    YearP: "year",
    WeekdayP: "weekday",
    MonthNameP: "month_name",
    MonthDayP: "month_day",
    AnnualP: "annual",
    DomP: "dom",
    NthWeekdayP: "nth",
    PeriodP: "period",
    RangeP: "range",
}


def _resolve(pieces: Sequence[Piece], ctx: Context, after: date | None) -> TimeRange | None:
    part: PartOfDay | None = None
    clock: ClockP | ClockSpanP | None = None
    edge: EdgeP | None = None
    anchors = _Anchors()
    for piece in pieces:
        if isinstance(piece, PartP):
            if part is not None:
                return None
            part = piece.part
        elif isinstance(piece, (ClockP, ClockSpanP)):
            if clock is not None:
                return None
            clock = piece
        elif isinstance(piece, EdgeP):
            if edge is not None:
                return None
            edge = piece
        else:
            name = _FIELD[type(piece)]
            if getattr(anchors, name) is not None:
                return None
            setattr(anchors, name, piece)
    if not anchors.kinds():
        if (part is None and clock is None) or edge is not None:
            return None
        return _unanchored(part, clock, ctx, after)
    base = _anchor(anchors, ctx, after)
    if base is None:
        return None
    if edge is not None:
        if part is not None or clock is not None or not isinstance(base, TimeRange):
            return None
        return _edge(base, edge.edge, ctx)
    if isinstance(base, TimeRange):
        return base if part is None and clock is None else None
    return _on_day(base, part, clock, ctx)


_YEAR_EDGES = {"beginning": ((1, 1), (3, 1)), "middle": ((5, 1), (9, 1)), "end": ((11, 1), (1, 1))}
_MONTH_EDGES = {"beginning": (1, 11), "middle": (11, 21), "end": (21, 1)}
_WEEK_EDGES = {"beginning": (0, 2), "middle": (2, 4), "end": (4, 7)}


def _edge(base: TimeRange, edge: str, ctx: Context) -> TimeRange | None:
    """The beginning, middle or end of a year (Jan–Feb, May–Aug, Nov–Dec), a month (days 1–10,
    11–20, 21 to the end) or a week (Mon–Tue, Wed–Thu, Fri–Sun), as a ``span``; the first or last
    day of a month or year (a ``day``); the Nth week of a month (days 7N-6 to 7N, a ``span``) or its
    last seven days."""
    first = base.start.date()
    if edge.startswith(("day:", "week:")):
        kind, _, number_text = edge.partition(":")
        number = int(number_text)
        last = base.end.date()
        if base.grain not in ("month", "year"):
            return None
        if kind == "day":
            return ranges.day_range(first if number > 0 else last - timedelta(days=1), ctx.zone)
        if base.grain != "month":
            return None
        start = first + timedelta(days=7 * (number - 1)) if number > 0 else last - timedelta(days=7)
        end = min(start + timedelta(days=7), last)
        if start >= last:
            return None
        return ranges.span(ranges.midnight(start, ctx.zone), ranges.midnight(end, ctx.zone))
    if base.grain == "year":
        (m1, d1), (m2, d2) = _YEAR_EDGES[edge]
        start = date(first.year, m1, d1)
        end = date(first.year + (1 if edge == "end" else 0), m2, d2)
    elif base.grain == "month":
        day1, day2 = _MONTH_EDGES[edge]
        start = date(first.year, first.month, day1)
        end = base.end.date() if edge == "end" else date(first.year, first.month, day2)
    elif base.grain == "week":
        offset1, offset2 = _WEEK_EDGES[edge]
        start, end = first + timedelta(days=offset1), first + timedelta(days=offset2)
    else:
        return None
    return ranges.span(ranges.midnight(start, ctx.zone), ranges.midnight(end, ctx.zone))


def _period(piece: PeriodP, year: int | None, ctx: Context, after: date | None) -> TimeRange | None:
    """A quarter or half of ``year``; without one, the latest that has begun (or the first on or
    after ``after``)."""
    count = 12 // piece.months
    if not 1 <= piece.index <= count:
        return None
    first_month = (piece.index - 1) * piece.months + 1
    if year is None:
        origin = after or ctx.today
        year = origin.year
        if after is None and first_month > origin.month:
            year -= 1
        elif after is not None and first_month < origin.month:
            year += 1
    end_year, end_month = ranges.add_months(year, first_month, piece.months)
    start = ranges.midnight(date(year, first_month, 1), ctx.zone)
    return ranges.span(start, ranges.midnight(date(end_year, end_month, 1), ctx.zone))


def _half_month(a: _Anchors, ctx: Context, after: date | None) -> TimeRange | None:
    """ "the first half of September (2022)": days 1–15 or 16 to the end of that month."""
    assert a.period is not None
    kinds = a.kinds()
    if a.month is not None:
        if kinds != {"period", "month"}:
            return None
        year, month = a.month.year, a.month.month
    else:
        assert a.month_name is not None
        if kinds - {"period", "month_name", "year"}:
            return None
        month = a.month_name.month
        year = a.year.year if a.year is not None else _month_year(a.month_name, ctx, after)
    first = date(year, month, 1 if a.period.index == 1 else 16)
    end_year, end_month = ranges.add_months(year, month, 1)
    end = date(year, month, 16) if a.period.index == 1 else date(end_year, end_month, 1)
    return ranges.span(ranges.midnight(first, ctx.zone), ranges.midnight(end, ctx.zone))


def _nth_weekday(year: int, month: int, piece: NthWeekdayP) -> date | None:
    """The ``nth`` (or last, -1) ``weekday`` of the month; None when the month has no fifth one."""
    if piece.nth < 0:
        last = date(year, month, ranges.days_in_month(year, month))
        return last - timedelta(days=(last.weekday() - piece.weekday) % 7)
    first = date(year, month, 1)
    day = first + timedelta(days=(piece.weekday - first.weekday()) % 7 + 7 * (piece.nth - 1))
    return day if day.month == month else None


def _anchor(a: _Anchors, ctx: Context, after: date | None) -> date | TimeRange | None:
    """A single day, or a complete range (week, month, ...), from the anchoring pieces."""
    kinds = a.kinds()
    zone = ctx.zone
    weekday = a.weekday
    if a.range is not None:
        return a.range.range if kinds == {"range"} else None
    if a.period is not None:
        if a.period.months == 6 and (a.month is not None or a.month_name is not None):
            return _half_month(a, ctx, after)
        if kinds - {"period", "year"} or (kinds == {"period"} and not a.period.alone):
            return None
        return _period(a.period, a.year.year if a.year is not None else None, ctx, after)
    if a.nth is not None:
        if kinds == {"nth", "month"} and a.month is not None:
            return _nth_weekday(a.month.year, a.month.month, a.nth)
        if kinds - {"nth", "month_name", "year"} or a.month_name is None:
            return None
        found_year = a.year.year if a.year is not None else _month_year(a.month_name, ctx, after)
        return _nth_weekday(found_year, a.month_name.month, a.nth)
    if a.annual is not None:
        if kinds - {"annual", "year"}:
            return None
        return annual.anchor(a.annual, ctx, a.year.year if a.year is not None else None, after)
    if a.day is not None:
        if kinds - {"day", "weekday"}:
            return None
        return a.day.day if weekday is None or weekday.weekday == a.day.day.weekday() else None
    if a.week is not None or a.weekend is not None:
        if kinds - {"week", "weekday"} and kinds - {"weekend", "weekday"}:
            return None
        if a.week is not None:
            monday = a.week.monday
            if weekday is None:
                return ranges.week_range(monday, zone)
        else:
            assert a.weekend is not None
            monday = a.weekend.monday
            if weekday is None:
                return ranges.weekend_range(monday, zone)
            if weekday.weekday < 5:
                return None
        return monday + timedelta(days=weekday.weekday)
    if a.month is not None:
        if kinds == {"month"}:
            return ranges.month_range(a.month.year, a.month.month, zone)
        if kinds == {"month", "dom"} and a.dom is not None:
            return date(a.month.year, a.month.month, a.dom.day)
        return None
    year = a.year.year if a.year is not None else None
    if a.month_day is not None or (a.month_name is not None and a.dom is not None):
        if kinds - {"month_day", "year", "weekday"} and kinds - {"month_name", "dom", "year", "weekday"}:
            return None
        if a.month_day is not None:
            month_num, day_num = a.month_day.month, a.month_day.day
        else:
            assert a.month_name is not None and a.dom is not None
            month_num, day_num = a.month_name.month, a.dom.day
        found = date(year, month_num, day_num) if year else _month_day(month_num, day_num, ctx, after)
        if found is None or (weekday is not None and weekday.weekday != found.weekday()):
            return None
        return found
    if a.month_name is not None:
        if kinds - {"month_name", "year"}:
            return None
        found_year = year if year else _month_year(a.month_name, ctx, after)
        return ranges.month_range(found_year, a.month_name.month, zone)
    if kinds == {"year"} and year is not None:
        return ranges.year_range(year, zone)
    if kinds == {"weekday"} and weekday is not None:
        return _weekday(weekday, ctx, after)
    if kinds == {"dom"} and a.dom is not None:
        return _dom(a.dom.day, ctx, after)
    return None


def _weekday(piece: WeekdayP, ctx: Context, after: date | None) -> date:
    today = ctx.today
    if after is not None:
        return after + timedelta(days=(piece.weekday - after.weekday()) % 7)
    if piece.mode == "last":
        return today - timedelta(days=(today.weekday() - piece.weekday - 1) % 7 + 1)
    if piece.mode == "this":
        return ranges.monday_of(today) + timedelta(days=piece.weekday)
    if piece.mode == "next":
        return ranges.monday_of(today) + timedelta(days=7 + piece.weekday)
    return today - timedelta(days=(today.weekday() - piece.weekday) % 7)


def _month_year(piece: MonthNameP, ctx: Context, after: date | None) -> int:
    today = ctx.today
    if after is not None:
        return after.year if piece.month >= after.month else after.year + 1
    if piece.mode == "this":
        return today.year
    if piece.mode == "next":
        return today.year if piece.month > today.month else today.year + 1
    if piece.mode == "last":
        return today.year if piece.month < today.month else today.year - 1
    return today.year if piece.month <= today.month else today.year - 1


def _month_day(month: int, day: int, ctx: Context, after: date | None) -> date | None:
    """The latest valid ``month``/``day`` on or before today (or the first on or after ``after``)."""
    if after is not None:
        for year in range(after.year, after.year + 9):
            found = _valid(year, month, day)
            if found is not None and found >= after:
                return found
        return None
    for year in range(ctx.today.year, ctx.today.year - 9, -1):
        found = _valid(year, month, day)
        if found is not None and found <= ctx.today:
            return found
    return None


def _dom(day: int, ctx: Context, after: date | None) -> date | None:
    """The latest ``day`` of a month on or before today (or the first on or after ``after``)."""
    origin = after or ctx.today
    step = 1 if after is not None else -1
    for offset in range(13):
        year, month = ranges.add_months(origin.year, origin.month, step * offset)
        found = _valid(year, month, day)
        if found is not None and (found >= origin if after is not None else found <= origin):
            return found
    return None


def _valid(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _place_clock(day: date, clock: ClockP, part: PartOfDay | None) -> tuple[date, time]:
    """The day and wall time a clock reading means, using the part of day when there is one."""
    hour = clock.hour % 24
    if part is not None and clock.meridiem != "24h":
        choices = [hour, hour + 12] if hour < 12 else ([12, 0] if hour == 12 else [hour])
        for choice in choices:
            if choice % 24 in part.hours():
                choice %= 24
                return (day + timedelta(days=1) if part.next_day_hour(choice) else day), time(choice, clock.minute)
    if part is not None and hour in part.hours() and part.next_day_hour(hour):
        return day + timedelta(days=1), time(hour, clock.minute)  # "midnight last night", 深夜0時
    meridiem = clock.meridiem or (part.meridiem if part is not None else None)
    if meridiem == "pm" and hour < 12:
        hour += 12
    elif meridiem == "am" and hour == 12:
        hour = 0
    elif meridiem is None and 1 <= hour <= 6:
        hour += 12
    return day, time(hour, clock.minute)


def _on_day(day: date, part: PartOfDay | None, clock: ClockP | ClockSpanP | None, ctx: Context) -> TimeRange:
    if isinstance(clock, ClockSpanP):
        first_day, first_time = _place_clock(day, clock.start, part)
        last_day, last_time = _place_clock(day, clock.end, part)
        start, end = ranges.at(first_day, first_time, ctx.zone), ranges.at(last_day, last_time, ctx.zone)
        if instant(end) <= instant(start):
            end = ranges.at(last_day + timedelta(days=1), last_time, ctx.zone)
        return ranges.span(start, end)
    if clock is not None:
        clock_day, clock_time = _place_clock(day, clock, part)
        if clock.after:
            start = ranges.at(clock_day, clock_time, ctx.zone)
            return ranges.span(start, ranges.midnight(clock_day + timedelta(days=1), ctx.zone))
        if clock.by:
            end = ranges.at(clock_day, clock_time, ctx.zone)
            start = ranges.midnight(day, ctx.zone)
            if instant(start) < instant(end):
                return ranges.span(start, end)
            return ranges.hour_range(day, clock_time, ctx.zone)
        return ranges.hour_range(clock_day, clock_time, ctx.zone)
    if part is not None:
        return ranges.part_range(day, part, ctx.zone)
    return ranges.day_range(day, ctx.zone)


def _unanchored(
    part: PartOfDay | None, clock: ClockP | ClockSpanP | None, ctx: Context, after: date | None
) -> TimeRange:
    """A part of day or an hour with no day: the latest one that has begun (or the one on ``after``)."""
    if after is not None:
        return _on_day(after, part, clock, ctx)
    today = _on_day(ctx.today, part, clock, ctx)
    if instant(today.start) <= instant(ctx.now):
        return today
    return _on_day(ctx.today - timedelta(days=1), part, clock, ctx)
