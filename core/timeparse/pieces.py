"""The meanings a rule can find in a piece of text, before they are put together into one range.

Some pieces are complete (``DayP``: a calendar day; ``WeekP``: a week), some need a neighbour or the
current time to become a range (``WeekdayP`` "Tuesday", ``DomP`` "the 3rd"), and two only qualify a
day (``PartP`` "night", ``ClockP`` "3 p.m."). :mod:`core.timeparse.resolve` combines them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, tzinfo

from core.timeparse.model import TimeRange
from core.timeparse.parts import PartOfDay


@dataclass(frozen=True)
class Context:
    """The person's "now" in their zone; every relative expression is read against it."""

    now: datetime
    zone: tzinfo
    fiscal_start: int = 1  # the month a fiscal year starts in (``timeparse.fiscal_year_start``)

    @property
    def today(self) -> date:
        return self.now.date()


@dataclass(frozen=True)
class DayP:
    day: date


@dataclass(frozen=True)
class WeekP:
    monday: date


@dataclass(frozen=True)
class WeekendP:
    monday: date  # the Monday of the week whose Saturday and Sunday are meant


@dataclass(frozen=True)
class MonthP:
    year: int
    month: int


@dataclass(frozen=True)
class YearP:
    year: int


@dataclass(frozen=True)
class WeekdayP:
    weekday: int  # Monday 0 .. Sunday 6
    mode: str = "bare"  # bare: latest on or before today; last: latest before today; this/next: that week


@dataclass(frozen=True)
class MonthNameP:
    month: int
    mode: str = "bare"  # bare: latest not in the future; last: latest before this month; this; next


@dataclass(frozen=True)
class MonthDayP:
    month: int
    day: int  # no year: the latest such date not in the future


@dataclass(frozen=True)
class AnnualP:
    """A period that comes back on the same dates every year: a season (1 June – 1 September), a
    fixed-date holiday (25 – 26 December). ``end`` is exclusive and falls in the next year when it is
    not after ``start`` (winter: 1 December – 1 March). Read by :mod:`core.timeparse.annual`."""

    name: str
    start: tuple[int, int]  # (month, day)
    end: tuple[int, int]
    mode: str = "bare"  # bare: latest that has begun; last: latest that has ended; this; next
    movable: bool = False  # its dates come from :mod:`core.timeparse.movable` by ``name`` (Easter, 추석)


@dataclass(frozen=True)
class PeriodP:
    """A numbered part of a year: quarter ``index`` (1–4, ``months`` 3) or half (1–2, ``months`` 6).
    With a year beside it, that year's; alone, the latest that has begun. A half beside a month is
    that month's half (days 1–15, 16 to the end)."""

    index: int
    months: int
    alone: bool = True  # False: only beside a year or a month ("the first half of ..." needs its "of")


@dataclass(frozen=True)
class NthWeekdayP:
    """ "the first Monday", "마지막 금요일", "第2火曜日": only meaningful with a month beside it."""

    nth: int  # 1..5, or -1 for the last
    weekday: int


@dataclass(frozen=True)
class EdgeP:
    """ "the beginning of", "말", "末": a part of the week, month or year beside it (see ``resolve``)."""

    edge: str  # "beginning", "middle", "end"; "day:1" / "day:-1" (first / last day); "week:N" / "week:-1"


@dataclass(frozen=True)
class ClockSpanP:
    """Two clock readings on one day: "3-4pm", "from 9:30 to 11"."""

    start: ClockP
    end: ClockP


@dataclass(frozen=True)
class DomP:
    day: int  # a day of the month, only meaningful beside a month (지난달 3일) or as a range's end


@dataclass(frozen=True)
class PartP:
    part: PartOfDay


@dataclass(frozen=True)
class ClockP:
    hour: int
    minute: int = 0
    meridiem: str | None = None  # "am", "pm", "24h" (written with a leading zero or past 12), None
    by: bool = False  # "by 2pm", "2시까지", "2時までに": from the start of the day up to that time
    after: bool = False  # "after 6pm": from that time to the end of the day


@dataclass(frozen=True)
class RangeP:
    range: TimeRange  # already complete: "in the last 3 days", "3 hours ago", an ISO time


Piece = (
    DayP
    | WeekP
    | WeekendP
    | MonthP
    | YearP
    | WeekdayP
    | MonthNameP
    | MonthDayP
    | AnnualP
    | DomP
    | NthWeekdayP
    | PeriodP
    | EdgeP
    | PartP
    | ClockP
    | ClockSpanP
    | RangeP
)
