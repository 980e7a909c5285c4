"""Periods named by their place: quarters, "current week", now and just now, 엊그제, "a few days
ago", ordinal weekdays ("the first Monday of this month"), the beginning / middle / end of a period,
two-digit years (12년에, "back in '98") and short spans ahead ("in 1/4 h").

Conventions (stated in ``reverie when --help`` too):

- a quarter is a calendar quarter (Q1 January – March); "this/current quarter", "last quarter",
  이번/지난 분기, 今四半期/前四半期; "Q3" or 3분기 alone is the latest Q3 that has begun; a ``span``;
- "now", "right now", 지금, 今, 現在 are the current clock hour; "just now", 방금, たった今, 今しがた
  the last hour up to now; 아까, さっき, 先ほど the last three hours up to now;
- 엊그제 / 엊그저께 is yesterday and the day before (a ``span``); 그끄제 and 一昨昨日 / さきおととい
  three days ago; "the other day", 先日 the seven days before today; "a few days ago", 며칠 전, 数日前
  two to five days ago (and the same for weeks, months and years);
- the beginning / middle / end of a year is January – February / May – August / November – December,
  of a month days 1 – 10 / 11 – 20 / 21 to the end (초순, 중순, 하순, 上旬, 中旬, 下旬), of a week
  Monday – Tuesday / Wednesday – Thursday / Friday – Sunday; 연말, 年末, 월초, 月末 ... are the current
  year's or month's;
- "the first/second/third/fourth/last <weekday> of <month>": that day of the month meant (a month
  name alone is the latest that has begun, as everywhere);
- a two-digit year (12년에, '98) is 20yy when not more than a year ahead, else 19yy;
- "in 15 minutes", "in 1/4 h", "in half an hour", "in 2 hours": the hour that starts then (explicit
  future words go forward);
- ISO weeks ("W10", "week 10 of 2026", "ISO week 8", 10주차, 2026년 10주차, 第10週, 今年の第10週): Monday
  to Sunday, week 1 holding the year's first Thursday; without a year the latest that has begun. "week
  2 of the course" is no calendar week; 3월 2주차 is the month's second week (days 8 – 14), and 第N週
  for N up to 5 without a year stays the month's;
- centuries as people mean them: "the 19th century", 19세기, 19世紀 are 1800 – 1899; "last century",
  지난 세기, 前世紀 the 1900s; "this decade" the 2020s, "last decade" the 2010s, "the past decade" the ten
  years up to now ("the past century" alike).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta

from core.timeparse import lang_ja, lang_ko, ranges
from core.timeparse.model import TimeRange
from core.timeparse.parts import PARTS
from core.timeparse.pieces import (
    Context,
    DayP,
    EdgeP,
    MonthP,
    NthWeekdayP,
    PartP,
    PeriodP,
    Piece,
    RangeP,
    WeekP,
    YearP,
)
from core.timeparse.rules import (
    START,
    STOP,
    Builder,
    Rule,
    Scan,
    months_from_this,
    rule,
    weeks_from_this,
    years_from_this,
)
from core.timeparse.text import ko_sino_number, number

# Quarters -------------------------------------------------------------------------------------------


def quarter_range(year: int, quarter: int, ctx: Context) -> TimeRange:
    first = date(year, 3 * quarter - 2, 1)
    end_year, end_month = ranges.add_months(year, 3 * quarter - 2, 3)
    return ranges.span(ranges.midnight(first, ctx.zone), ranges.midnight(date(end_year, end_month, 1), ctx.zone))


def _relative_quarter(offset: int, ctx: Context) -> tuple[Piece, ...]:
    index = ctx.today.year * 4 + (ctx.today.month - 1) // 3 + offset
    return (RangeP(quarter_range(index // 4, index % 4 + 1, ctx)),)


def _numbered_quarter(quarter: int, year: int | None, ctx: Context) -> tuple[Piece, ...] | None:
    """Q``quarter`` of ``year``; without a year a :class:`PeriodP`, so a year beside it ("Q4 of last
    year", 작년 4분기) picks the year, and alone it is the latest that has begun."""
    if not 1 <= quarter <= 4:
        return None
    if year is None:
        return (PeriodP(quarter, 3),)
    return (RangeP(quarter_range(year, quarter, ctx)),)


_EN_WHICH = {"this": 0, "current": 0, "last": -1, "previous": -1, "past": -1, "this past": -1, "next": 1}
_KO_WHICH = {"지지난": -2, "지난": -1, "저번": -1, "전": -1, "이번": 0, "다음": 1}
_JA_WHICH = {"今": 0, "当": 0, "前": -1, "先": -1, "来": 1, "次": 1}
_ORDINAL_WORDS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_YEAR_SHIFT = {"last": -1, "this": 0, "next": 1}


def _en_quarter_n(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    quarter = int(found.group("q")) if found.group("q") else _ORDINAL_WORDS[found.group("qw")]
    year_text = found.group("y1") or found.group("y2")
    year = int(year_text) if year_text else None
    if found.groupdict().get("ly"):
        year = ctx.today.year + _YEAR_SHIFT[found.group("ly")]
    return _numbered_quarter(quarter, year, ctx)


def _ko_quarter_n(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    year = int(found.group("y")) if found.group("y") else (ctx.today.year if found.group("this") else None)
    return _numbered_quarter(int(found.group("q")), year, ctx)


def _year_of(found: re.Match[str], ctx: Context) -> int:
    """The year named by group ``y`` (digits) or ``ly`` (last/this/next year)."""
    return int(found.group("y")) if found.group("y") else ctx.today.year + _YEAR_SHIFT[found.group("ly")]


def _ko_count(text: str) -> int:
    return int(text) if text.isdigit() else ko_sino_number(text) or 0


def _half(index: int, this_year: bool, ctx: Context) -> tuple[Piece, ...]:
    return (PeriodP(index, 6), YearP(ctx.today.year)) if this_year else (PeriodP(index, 6),)


def _minutes_ago(minutes: int, ctx: Context) -> tuple[Piece, ...] | None:
    """ "20 minutes ago", 20분 전, 20分前: the hour around that moment (30 minutes either side)."""
    if not 0 < minutes <= 24 * 60:
        return None
    moment = ranges.elapsed(ctx.now, timedelta(minutes=-minutes))
    start = ranges.elapsed(moment, timedelta(minutes=-30))
    return (RangeP(TimeRange(start, ranges.elapsed(start, timedelta(hours=1)), "hour")),)


_EN_SMALL_COUNTS = {"a": 1, "one": 1, "a few": 3, "few": 3, "a couple of": 2, "couple of": 2, "five": 5, "ten": 10}
_EN_SMALL_COUNTS |= {"fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "forty-five": 45, "fifty": 50}


# The words of _EN_SMALL_COUNTS as a regex alternation, longest first ("a few" before "a").
_EN_SMALL_COUNT_WORDS = "|".join(sorted((w.replace(" ", r"\s+") for w in _EN_SMALL_COUNTS), key=len, reverse=True))


def _en_small_count(text: str) -> int:
    text = " ".join(text.split())
    return int(text) if text.isdigit() else _EN_SMALL_COUNTS[text]


def _en_minutes_ago(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    if found.group("half"):
        return _minutes_ago(30 if not found.group("and_half") else 90, ctx)
    return _minutes_ago(_en_small_count(found.group("n")), ctx)


def _seconds_ago(seconds: int, ctx: Context) -> tuple[Piece, ...] | None:
    """ "30 seconds ago", 30초 전, 30秒前: the minute around that moment (30 seconds either side), as
    "20 minutes ago" is the hour around its moment; a ``span``."""
    if not 0 < seconds <= 24 * 3600:
        return None
    start = ranges.elapsed(ctx.now, timedelta(seconds=-seconds - 30))
    return (RangeP(ranges.span(start, ranges.elapsed(start, timedelta(minutes=1)))),)


def _last_seconds(seconds: int, ctx: Context) -> tuple[Piece, ...] | None:
    """ "the last 30 seconds", 지난 30초, 過去30秒: elapsed time up to now."""
    if not 0 < seconds <= 24 * 3600:
        return None
    return (RangeP(ranges.span(ranges.elapsed(ctx.now, timedelta(seconds=-seconds)), ctx.now)),)


def _decade_of_short(found: re.Match[str], ctx: Context, group: str = "dd") -> tuple[Piece, ...]:
    """ "the 90s", 90년대, 90年代: 19x0 or 20x0, whichever has begun most recently."""
    year = 2000 + int(found.group(group)) * 10
    return _decade(year if year <= ctx.today.year else year - 100, ctx)


def _decade(start_year: int, ctx: Context) -> tuple[Piece, ...]:
    start = ranges.midnight(date(start_year, 1, 1), ctx.zone)
    return (RangeP(ranges.span(start, ranges.midnight(date(start_year + 10, 1, 1), ctx.zone))),)


def _decade_of(found: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    return _decade(int(found.group("c")) * 100 + int(found.group("d")) * 10, ctx)


_BACK = {
    "yesterday": ("day", 1),
    "the day before yesterday": ("day", 2),
    "last week": ("day", 7),
    "last month": ("month", 1),
    "last year": ("month", 12),
    "어제": ("day", 1),
    "그저께": ("day", 2),
    "그제": ("day", 2),
    "지난주": ("day", 7),
    "지난달": ("month", 1),
    "작년": ("month", 12),
    "昨日": ("day", 1),
    "一昨日": ("day", 2),
    "先週": ("day", 7),
    "先月": ("month", 1),
    "去年": ("month", 12),
    "昨年": ("month", 12),
}


def _this_time(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    """ "this time yesterday", 어제 이맘때, 昨日の今頃: the hour around the same time that many days back
    (a day or a week); "this time last year", 작년 이맘때: the week around the same date."""
    unit, count = _BACK[" ".join(found.group("when").split())]
    now = ctx.now
    if unit == "day":
        moment = ranges.at(now.date() - timedelta(days=count), now.time().replace(tzinfo=None), ctx.zone)
        start = ranges.elapsed(moment, timedelta(minutes=-30))
        return (RangeP(TimeRange(start, ranges.elapsed(start, timedelta(hours=1)), "hour")),)
    year, month = ranges.add_months(now.year, now.month, -count)
    day = date(year, month, min(now.day, ranges.days_in_month(year, month)))
    start = ranges.midnight(day - timedelta(days=3), ctx.zone)
    return (RangeP(ranges.span(start, ranges.midnight(day + timedelta(days=4), ctx.zone))),)


_EN_NTH_WEEK = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_EN_NTH_WEEK |= {"last": -1, "final": -1}
_KO_NTH_WEEK = {"첫째": 1, "첫": 1, "첫번째": 1, "둘째": 2, "두번째": 2, "셋째": 3, "세번째": 3, "넷째": 4}
_KO_NTH_WEEK |= {"네번째": 4, "마지막": -1}


_KANJI_QUARTER = {"1": 1, "2": 2, "3": 3, "4": 4, "一": 1, "二": 2, "三": 3, "四": 4}

# Now and moments ago --------------------------------------------------------------------------------


def _current_hour(_m: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    now = ctx.now
    start = ranges.elapsed(now, -timedelta(minutes=now.minute, seconds=now.second, microseconds=now.microsecond))
    return (RangeP(TimeRange(start, ranges.elapsed(start, timedelta(hours=1)), "hour")),)


def _lately(hours: int) -> Builder:
    def build(_m: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
        return (RangeP(ranges.span(ranges.elapsed(ctx.now, timedelta(hours=-hours)), ctx.now)),)

    return build


_TEXT_ONLY = re.compile(r"^[\s?.!,。？！、]*$")


def alone(view: Scan, found: re.Match[str], particles: tuple[str, ...] = ()) -> bool:
    """Nothing but punctuation (or one of ``particles``) around the match: the query is only this word."""
    before, after = view.text[: found.start()], view.text[found.end() :]
    for particle in particles:
        if after.startswith(particle):
            after = after[len(particle) :]
            break
    return bool(_TEXT_ONLY.match(before)) and bool(_TEXT_ONLY.match(after))


def _days_span(first: int, last: int) -> Builder:
    """Days ``first`` .. ``last`` before today (inclusive), as a span."""

    def build(_m: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
        start = ranges.midnight(ctx.today - timedelta(days=first), ctx.zone)
        return (RangeP(ranges.span(start, ranges.midnight(ctx.today - timedelta(days=last - 1), ctx.zone))),)

    return build


def few_ago(unit: str, ctx: Context) -> tuple[Piece, ...]:
    """Two to five ``unit``s ago: "a few days ago", 며칠 전, 数日前 (hours: one to five hours back)."""
    today = ctx.today
    if unit == "hour":
        start = ranges.elapsed(ctx.now, timedelta(hours=-5))
        return (RangeP(ranges.span(start, ranges.elapsed(ctx.now, timedelta(hours=-1)))),)
    if unit == "day":
        first, end = today - timedelta(days=5), today - timedelta(days=1)
    elif unit == "week":
        monday = ranges.monday_of(today)
        first, end = monday - timedelta(days=35), monday - timedelta(days=7)
    elif unit == "month":
        first, end = (
            date(*ranges.add_months(today.year, today.month, -5), 1),
            date(*ranges.add_months(today.year, today.month, -1), 1),
        )
    else:
        first, end = date(today.year - 5, 1, 1), date(today.year - 1, 1, 1)
    return (RangeP(ranges.span(ranges.midnight(first, ctx.zone), ranges.midnight(end, ctx.zone))),)


_EN_FEW_UNITS = {"day": "day", "week": "week", "month": "month", "year": "year"}
_KO_FEW_UNITS = {"며칠": "day", "몇일": "day", "몇 시간": "hour", "몇시간": "hour", "몇 주": "week", "몇주": "week"}
_KO_FEW_UNITS |= {"몇 달": "month", "몇달": "month"}
_KO_FEW_UNITS |= {"몇 개월": "month", "몇개월": "month", "몇 년": "year", "몇년": "year"}
_JA_FEW_UNITS = {"日": "day", "週間": "week", "週": "week", "か月": "month", "ヶ月": "month", "カ月": "month"}
_JA_FEW_UNITS |= {"年": "year", "時間": "hour"}


def _en_few(found: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    return few_ago(found.group("unit"), ctx)


# Ahead ----------------------------------------------------------------------------------------------

_FRACTIONS = {"1/4": 15, "quarter": 15, "a quarter": 15, "1/2": 30, "half": 30, "a half": 30, "3/4": 45}
_FRACTIONS |= {"three quarters": 45}


def _ahead(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    groups = found.groupdict()
    if groups.get("frac"):
        minutes = _FRACTIONS[" ".join(groups["frac"].split())]
    else:
        if groups.get("one"):
            minutes = 60
        else:
            count = int(groups["n"])
            minutes = count if groups["unit"].startswith("m") else 60 * count
    if not 0 < minutes <= 48 * 60:
        return None
    start = ranges.elapsed(ctx.now, timedelta(minutes=minutes))
    return (RangeP(TimeRange(start, ranges.elapsed(start, timedelta(hours=1)), "hour")),)


# Ordinal weekdays -------------------------------------------------------------------------------------

_EN_WEEKDAYS = {"monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5, "sunday": 6}
_EN_NTH = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_EN_NTH |= {"fifth": 5, "5th": 5, "last": -1, "final": -1}
_KO_NTH = {"첫째": 1, "첫": 1, "첫번째": 1, "둘째": 2, "두번째": 2, "셋째": 3, "세번째": 3, "넷째": 4, "네번째": 4}
_KO_NTH |= {"다섯째": 5, "다섯번째": 5, "마지막": -1}
_KO_WEEKDAYS = {"월": 0, "화": 1, "수": 2, "목": 3, "금": 4, "토": 5, "일": 6}
_JA_NTH = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5}


def _en_nth(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    return (NthWeekdayP(_EN_NTH[found.group("nth")], _EN_WEEKDAYS[found.group("wd")]),)


def _en_nth_guard(view: Scan, found: re.Match[str]) -> bool:
    return re.match(r"\s+(?:of|in)\s", view.text[found.end() : found.end() + 5]) is not None


def _ko_nth(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    return (NthWeekdayP(_KO_NTH[re.sub(r"\s", "", found.group("nth"))], _KO_WEEKDAYS[found.group("wd")]),)


def _after_time(view: Scan, found: re.Match[str]) -> bool:
    """The match follows another time word directly (or after one space / の): 작년 말, 先月の末."""
    start = found.start()
    return start in view.ends or (start - 1 in view.ends and view.text[start - 1] in " の")


def _ja_nth(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    nth = -1 if found.group("last") else _JA_NTH[found.group("n")]
    return (NthWeekdayP(nth, lang_ja.WEEKDAYS[found.group("wd")]),)


# Edges ----------------------------------------------------------------------------------------------

_EN_EDGES = {"beginning": "beginning", "start": "beginning", "middle": "middle", "end": "end"}
_KO_EDGES = {"초순": "beginning", "초반": "beginning", "초": "beginning", "중순": "middle", "중반": "middle"}
_KO_EDGES |= {"하순": "end", "후반": "end", "말경": "end", "말": "end"}
_JA_EDGES = {"初め": "beginning", "始め": "beginning", "はじめ": "beginning", "初旬": "beginning"}
_JA_EDGES |= {"上旬": "beginning"}
_JA_EDGES |= {"頭": "beginning", "中旬": "middle", "半ば": "middle", "下旬": "end", "終わり": "end", "末": "end"}


def _edge_of(table: dict[str, str]) -> Builder:
    return lambda found, _ctx: (EdgeP(table[found.group("edge")]),)


def _this_with_edge(unit: str, edge: str) -> Builder:
    def build(_m: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
        base: Piece = YearP(ctx.today.year) if unit == "year" else MonthP(ctx.today.year, ctx.today.month)
        return base, EdgeP(edge)

    return build


def _two_digit_year(text: str, ctx: Context) -> int:
    value = int(text)
    return 2000 + value if 2000 + value <= ctx.today.year + 1 else 1900 + value


_KO_YEAR_FOLLOWS = ("에", "엔", "도", "의", "부터", "까지", "쯤", "초", "말", "여름", "봄", "가을", "겨울", "때")
_KO_YEAR_FOLLOWS += ("상반기", "하반기", "중반", "후반")


def _ko_short_year_guard(view: Scan, found: re.Match[str]) -> bool:
    """12년에, 12년 여름: a year; 12년 동안 and "10년에 한 번" (once in ten years) are durations."""
    rest = view.text[found.end() : found.end() + 8].lstrip()
    if re.match(r"(?:에|엔)\s*한\s*번", rest):
        return False
    return rest.startswith(_KO_YEAR_FOLLOWS) or bool(re.match(r"\d{1,2}\s*(?:월|분기)", rest)) or not rest


_EN_UNIT_BARE = {"week": weeks_from_this(0), "month": months_from_this(0), "year": years_from_this(0)}

# ISO weeks, centuries and decades by name (round 5) ----------------------------------------------------


def _iso_week(week: int, year: int | None, ctx: Context) -> tuple[Piece, ...] | None:
    """ISO week ``week`` (Monday to Sunday; week 1 holds the year's first Thursday) of ``year``; without
    a year, the latest that has begun (this ISO year's, else last year's)."""
    if not 1 <= week <= 53:
        return None
    if year is None:
        year = ctx.today.isocalendar().year
        if date.fromisocalendar(year, week, 1) > ctx.today:
            year -= 1
    return (WeekP(date.fromisocalendar(year, week, 1)),)


_WHICH_YEAR = {"last": -1, "this": 0, "next": 1, "올해": 0, "금년": 0, "작년": -1, "지난해": -1, "내년": 1}
_WHICH_YEAR |= {"今年": 0, "本年": 0, "去年": -1, "昨年": -1, "来年": 1}


def _week_year(found: re.Match[str], ctx: Context) -> int | None:
    """The year written with an ISO week (digits or last/this/next year), else None."""
    for group in ("y1", "y2", "y3", "y"):
        text = found.groupdict().get(group)
        if text:
            return int(text)
    which = found.groupdict().get("ly")
    return ctx.today.year + _WHICH_YEAR[which] if which else None


def _en_iso_week(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    week = next(int(found.group(g)) for g in ("w1", "w2", "w3") if found.group(g))
    return _iso_week(week, _week_year(found, ctx), ctx)


def _has_week_year(found: re.Match[str]) -> bool:
    return any(found.groupdict().get(group) for group in ("y1", "y2", "y3", "y", "ly"))


def _en_iso_week_strong(view: Scan, found: re.Match[str]) -> bool:
    """ "W10" or "week 10" counts with a year, "ISO"/"calendar" before it, a preposition of time, or
    alone; "week 2 of the course" is no calendar week (see the guard)."""
    if _has_week_year(found) or found.group("iso"):
        return True
    return view.prev_word(found.start()) in ("in", "during", "since", "from", "until", "by", "over") or alone(
        view, found
    )


def _en_iso_week_guard(view: Scan, found: re.Match[str]) -> bool:
    return _has_week_year(found) or not re.match(r"\s+of\s", view.text[found.end() :])


def _century(number_: int, ctx: Context) -> tuple[Piece, ...] | None:
    """The ``number_``th century as people mean it: the 19th is 1800 – 1899 (the 1800s)."""
    if not 1 <= number_ <= 22:
        return None
    start = ranges.midnight(date(max(1, (number_ - 1) * 100), 1, 1), ctx.zone)
    return (RangeP(ranges.span(start, ranges.midnight(date(number_ * 100, 1, 1), ctx.zone))),)


def _this_century(offset: int) -> Builder:
    return lambda _m, ctx: _century(ctx.today.year // 100 + 1 + offset, ctx)


_EN_CENTURY_WORDS = {"eighteenth": 18, "nineteenth": 19, "twentieth": 20, "twenty-first": 21, "twenty first": 21}
_JA_CENTURY_WORDS = {"十八": 18, "十九": 19, "二十": 20, "二十一": 21}


def _rolling_years(years: int) -> Builder:
    """The last ``years`` years up to now, from the midnight of this date that many years back."""

    def build(_m: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
        today = ctx.today
        first = date(
            today.year - years, today.month, min(today.day, ranges.days_in_month(today.year - years, today.month))
        )
        return (RangeP(ranges.span(ranges.midnight(first, ctx.zone), ctx.now)),)

    return build


def _this_decade(offset: int) -> Builder:
    return lambda _m, ctx: _decade(ctx.today.year // 10 * 10 + 10 * offset, ctx)


def _this_last_or_past(years: int, this: Callable[[int], Builder]) -> Builder:
    """ "this/current", "last/previous" or "past" century or decade (group ``which``): the calendar one,
    the one before it, or the rolling ``years`` up to now."""

    def build(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
        which = found.group("which")
        if which == "past":
            return _rolling_years(years)(found, ctx)
        return this(-1 if which in ("last", "previous") else 0)(found, ctx)

    return build


_EN_DECADE_NAMES = {"aughts": 2000, "noughties": 2000, "naughties": 2000, "twenty-tens": 2010, "twenty tens": 2010}


_EN_SECONDS = r"(?P<n>\d{1,5}|" + _EN_SMALL_COUNT_WORDS + r")\s+(?:seconds?|secs?)"
# 30초, 삼십 초, 몇 초; 30秒, 三十秒, 数秒. Not 30초 전후 / 30秒前後 ("about 30 seconds").
_KO_SECONDS = r"(?P<n>\d{1,5}|[일이삼사오육칠팔구십백천]{1,5}|몇)\s*초"
_JA_SECONDS = r"(?P<n>\d{1,5}|[一二三四五六七八九十百]{1,5}|数)\s*秒"


def _ko_few_or_count(text: str) -> int:
    """A count of minutes or seconds: 몇 ("a few") is 3."""
    return 3 if text == "몇" else _ko_count(text)


def _ja_few_or_count(text: str) -> int:
    """A count of minutes or seconds: 数 ("a few") is 3."""
    return 3 if text == "数" else number(text) or 0


RULES: dict[str, list[Rule]] = {
    "en": [
        rule(
            "en.iso_week",
            "en",
            START + r"(?:the\s+)?(?:(?P<y1>(?:19|20)\d\d)-?w(?P<w1>\d{1,2})"
            r"|w(?P<w2>\d{1,2})(?:[\s,/-]+(?P<y2>(?:19|20)\d\d))?"
            r"|(?:(?P<iso>iso|calendar)\s+)?(?:week|wk|cw)\s*(?:no\.?\s*|#\s*)?(?P<w3>\d{1,2})"
            r"(?:\s*(?:,|of|in)?\s*(?:(?P<y3>(?:19|20)\d\d)|(?P<ly>last|this|next)\s+year))?)" + STOP,
            _en_iso_week,
            strong=_en_iso_week_strong,
            guard=_en_iso_week_guard,
        ),
        rule(
            "en.century",
            "en",
            START
            + r"(?:the\s+)?(?:(?P<n>\d{1,2})(?:st|nd|rd|th)|(?P<nw>eighteenth|nineteenth|twentieth|twenty[\s-]first))"
            r"\s+century" + STOP,
            lambda m, c: _century(
                int(m.group("n"))
                if m.group("n")
                else _EN_CENTURY_WORDS[m.group("nw").replace("-", " ").replace("twenty first", "twenty-first")],
                c,
            ),
            strong=lambda v, m: (
                alone(v, m)
                or v.prev_word(m.start()) in ("in", "during", "since", "from", "until", "through", "throughout", "of")
            ),
            needs=("century",),
        ),
        rule(
            "en.this_century",
            "en",
            START + r"(?:the\s+)?(?P<which>this|current|last|previous|past)\s+century" + STOP,
            _this_last_or_past(100, _this_century),
            needs=("century",),
        ),
        rule(
            "en.this_decade",
            "en",
            START + r"(?:the\s+)?(?P<which>this|current|last|previous|past)\s+decade" + STOP,
            _this_last_or_past(10, _this_decade),
            needs=("decade",),
        ),
        rule(
            "en.decade_name",
            "en",
            START + r"(?:the\s+)?(?P<w>aughts|noughties|naughties|twenty[\s-]tens)" + STOP,
            lambda m, c: _decade(_EN_DECADE_NAMES[m.group("w").replace(" ", "-")], c),
            strong=lambda _v, m: m.group(0).startswith("the"),
        ),
        rule(
            "en.quarter",
            "en",
            START + r"(?:the\s+)?(?P<which>this\s+past|this|current|last|previous|past|next)\s+quarter" + STOP,
            lambda m, c: _relative_quarter(_EN_WHICH[" ".join(m.group("which").split())], c),
        ),
        rule(
            "en.quarter_n",
            "en",
            START + r"(?:(?:the\s+)?(?P<qw>first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter"
            r"(?:\s+(?:of|in)\s+(?:(?P<y1>(?:19|20)\d\d)|(?P<ly>last|this|next)\s+year))?"
            r"|(?:(?P<y2>(?:19|20)\d\d)\s*)?q(?P<q>[1-4])(?:\s*(?P<y3>(?:19|20)\d\d))?)" + STOP,
            lambda m, c: (
                _en_quarter_n(m, c)
                if not m.group("y3")
                else _numbered_quarter(int(m.group("q")), int(m.group("y3")), c)
            ),
            strong=lambda _v, m: bool(m.group("q") or m.group("y1") or m.group("ly")),
        ),
        rule(
            "en.last_quarter_of",
            "en",
            START + r"(?:the\s+)?(?:last|final)\s+quarter\s+(?:of|in)\s+"
            r"(?:(?P<y>(?:19|20)\d\d)|(?P<ly>last|this|next)\s+year)" + STOP,
            lambda m, c: (RangeP(quarter_range(_year_of(m, c), 4, c)),),
        ),
        rule(
            "en.half",
            "en",
            START + r"(?:the\s+)?(?P<h>first|second|1st|2nd)\s+half(?=\s+of\s)",
            lambda m, _c: (PeriodP(1 if m.group("h") in ("first", "1st") else 2, 6, alone=False),),
            guard=lambda v, m: v.time_follows(m.end(), r"\s+of\s+"),
        ),
        rule(
            "en.half_short",
            "en",
            START + r"h(?P<h>[12])(?=\s*,?\s*(?:19|20)\d\d)" + STOP,
            lambda m, _c: (PeriodP(int(m.group("h")), 6),),
        ),
        rule(
            "en.minutes_ago",
            "en",
            START
            + r"(?:(?P<n>\d{1,4}|"
            + _EN_SMALL_COUNT_WORDS
            + r")\s+(?:minutes?|mins?)|(?P<half>(?:(?:an?|one)\s+hour\s+and\s+"
            r"(?P<and_half>a\s+half))|half\s+an\s+hour))\s+(?:or\s+so\s+)?(?:ago|back)" + STOP,
            _en_minutes_ago,
        ),
        rule(
            "en.seconds_ago",
            "en",
            START + _EN_SECONDS + r"\s+(?:or\s+so\s+)?(?:ago|back)" + STOP,
            lambda m, c: _seconds_ago(_en_small_count(m.group("n")), c),
            needs=("sec",),
        ),
        rule(
            "en.last_seconds",
            "en",
            START + r"(?:(?:in|over|during|for|within)\s+)?(?:the\s+)?(?:last|past|previous)\s+" + _EN_SECONDS + STOP,
            lambda m, c: _last_seconds(_en_small_count(m.group("n")), c),
            guard=lambda v, m: re.match(r"\s+of\s", v.text[m.end() :]) is None,  # "the last 30 seconds of the game"
            needs=("sec",),
        ),
        rule("en.moment_ago", "en", START + r"(?:a\s+moment|moments)\s+ago" + STOP, _lately(1)),
        rule("en.little_while_ago", "en", START + r"a\s+little\s+while\s+ago" + STOP, _lately(3)),
        rule(
            "en.decade",
            "en",
            START + r"(?:the\s+)?(?:(?P<c>19|20)(?P<d>\d)0|['’]?(?P<dd>\d)0)['’]?s" + STOP,
            lambda m, c: _decade_of(m, c) if m.group("c") else _decade_of_short(m, c),
            strong=lambda v, m: m.group(0).startswith("the") or v.prev_word(m.start()) in ("in", "since", "during"),
        ),
        rule(
            "en.nth_week",
            "en",
            START
            + r"(?:the\s+)?(?P<nth>first|1st|second|2nd|third|3rd|fourth|4th|last|final)\s+week\s+(?:of|in)"
            + STOP,
            lambda m, _c: (EdgeP(f"week:{_EN_NTH_WEEK[m.group('nth')]}"),),
        ),
        rule(
            "en.first_last_day",
            "en",
            START + r"(?:the\s+)?(?P<which>first|last|final)\s+day\s+of" + STOP,
            lambda m, _c: (EdgeP("day:1" if m.group("which") == "first" else "day:-1"),),
        ),
        rule(
            "en.this_time",
            "en",
            START + r"(?:(?:at|around|about)\s+)?(?:this|(?:the\s+)?same)\s+time\s+"
            r"(?P<when>yesterday|the\s+day\s+before\s+yesterday|last\s+week|last\s+month|last\s+year)" + STOP,
            _this_time,
        ),
        rule(
            "en.current_unit",
            "en",
            START + r"(?:the\s+)?current\s+(?P<unit>week|month|year)" + STOP,
            lambda m, c: _EN_UNIT_BARE[m.group("unit")](m, c),
        ),
        rule(
            "en.bare_unit",
            "en",
            START + r"(?:the\s+)?(?P<unit>week|month|year)" + STOP,
            lambda m, c: _EN_UNIT_BARE[m.group("unit")](m, c),
            strong=False,
        ),
        rule(
            "en.now",
            "en",
            START + r"(?P<w>right\s+now|as\s+of\s+now|now)" + STOP,
            _current_hour,
            strong=lambda v, m: m.group("w") != "now" or alone(v, m),
        ),
        rule("en.just_now", "en", START + r"just\s+now" + STOP, _lately(1)),
        rule("en.other_day", "en", START + r"the\s+other\s+(?:day|night|evening|morning)" + STOP, _days_span(7, 1)),
        rule(
            "en.few_ago",
            "en",
            START
            + r"(?:a\s+few|several|some)\s+(?P<unit>hour|day|week|month|year)s\s+(?:or\s+so\s+)?(?:ago|back)"
            + STOP,
            _en_few,
        ),
        rule(
            "en.ahead",
            "en",
            START + r"in\s+(?:(?P<frac>1/4|1/2|3/4|a\s+quarter|quarter|a\s+half|half|three\s+quarters)"
            r"(?:\s+(?:of\s+)?an?)?\s*(?:h|hr|hour)|(?P<n>\d{1,3})\s*(?P<unit>minutes?|mins?|hours?|hrs?|h)"
            r"|(?P<one>an?|one)\s+(?P<hour>hour))"
            r"(?![\w/])",
            _ahead,
        ),
        rule(
            "en.nth_weekday",
            "en",
            START + r"(?:the\s+)?(?P<nth>first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last|final)\s+"
            r"(?P<wd>monday|tuesday|wednesday|thursday|friday|saturday|sunday)" + STOP,
            _en_nth,
            guard=_en_nth_guard,
        ),
        rule(
            "en.edge",
            "en",
            START + r"(?:(?:at|in|by|towards?|near|around|from|since|until|till)\s+)?(?:the\s+)?(?:very\s+)?"
            r"(?P<edge>beginning|start|middle|end)\s+of" + STOP,
            _edge_of(_EN_EDGES),
        ),
        rule(
            "en.the_year",
            "en",
            START + r"(?:in\s+)?the\s+year\s+(?P<y>(?:1[5-9]|20|21)\d\d)" + STOP,
            lambda m, _c: (YearP(int(m.group("y"))),),
        ),
        rule(
            "en.short_year",
            "en",
            r"(?<![\w'’])['’](?P<yy>\d\d)" + STOP,
            lambda m, c: (YearP(_two_digit_year(m.group("yy"), c)),),
            strong=lambda v, m: v.prev_word(m.start()) in ("in", "since", "from", "during", "around", "of", "until"),
        ),
    ],
    "ko": [
        rule(
            "ko.iso_week",
            "ko",
            r"(?:(?P<y>\d{4})\s*년\s*|(?P<ly>올해|금년|작년|지난해|내년)\s*)?(?<!\d)(?P<w>\d{1,2})\s*주\s*차",
            lambda m, c: _iso_week(int(m.group("w")), _week_year(m, c), c),
            strong=lambda v, m: _has_week_year(m) or alone(v, m, ("에", "에는", "의")),
            guard=lambda v, m: lang_ko.word_ends(v, m) and not re.search(r"(?:월|달)\s*$", v.before(m.start(), 4)),
            needs=("주",),
        ),
        rule(
            "ko.month_week",
            "ko",
            r"(?<!\d)(?P<w>[1-5])\s*주\s*차",
            lambda m, _c: (EdgeP(f"week:{m.group('w')}"),),
            guard=lambda v, m: _after_time(v, m) and bool(re.search(r"(?:월|달)\s*$", v.before(m.start(), 4))),
            needs=("주",),
        ),
        rule(
            "ko.century",
            "ko",
            r"(?<!\d)(?P<n>\d{1,2})\s*세기",
            lambda m, c: _century(int(m.group("n")), c),
            strong=lambda v, m: alone(v, m, ("에", "에는", "의", "까지", "부터")) or lang_ko.part_strong(v, m),
            guard=lang_ko.word_ends,
            needs=("세기",),
        ),
        rule(
            "ko.this_century",
            "ko",
            r"(?P<which>지난|이번|전|금)\s*세기",
            lambda m, c: _this_century(0 if m.group("which") in ("이번", "금") else -1)(m, c),
            guard=lang_ko.word_bounded,
            needs=("세기",),
        ),
        rule(
            "ko.quarter",
            "ko",
            r"(?P<which>지지난|지난|저번|이번|다음|(?<![가-힣])전)\s*분기",
            lambda m, c: _relative_quarter(_KO_WHICH[m.group("which")], c),
        ),
        rule(
            "ko.quarter_n",
            "ko",
            r"(?<!\d)(?:(?P<y>\d{4})\s*년\s*|(?P<this>올)\s*)?(?P<q>[1-4])\s*분기",
            _ko_quarter_n,
        ),
        rule(
            "ko.half",
            "ko",
            r"(?:(?P<this>올)\s*)?(?P<h>상|하)반기",
            lambda m, c: _half(1 if m.group("h") == "상" else 2, bool(m.group("this")), c),
        ),
        rule(
            "ko.minutes_ago",
            "ko",
            r"(?<!\d)(?P<n>\d{1,4}|[일이삼사오육칠팔구십]{1,4}|몇)\s*분\s*(?:쯤|정도|가량)?\s*전"
            r"|(?P<half>반\s*시간)\s*(?:쯤|정도)?\s*전",
            lambda m, c: _minutes_ago(30 if m.group("half") else _ko_few_or_count(m.group("n")), c),
            guard=lang_ko.word_ends,
        ),
        rule(
            "ko.seconds_ago",
            "ko",
            r"(?<![\d가-힣])" + _KO_SECONDS + r"\s*(?:쯤|정도|가량)?\s*전(?!\s*후)",
            lambda m, c: _seconds_ago(_ko_few_or_count(m.group("n")), c),
            guard=lang_ko.word_ends,
            needs=("초",),
        ),
        rule(
            "ko.last_seconds",
            "ko",
            r"(?<![가-힣])(?:지난|최근|과거)\s*" + _KO_SECONDS + r"(?:\s*(?:간|동안))?",
            lambda m, c: _last_seconds(_ko_few_or_count(m.group("n")), c),
            guard=lang_ko.word_ends,
            needs=("초",),
        ),
        rule(
            "ko.this_time",
            "ko",
            r"(?P<when>어제|그저께|그제|지난주|지난달|작년)\s*(?:이맘때|이\s*시간(?:쯤|대)?|요맘때)",
            _this_time,
            guard=lang_ko.word_ends,
        ),
        rule("ko.little_while_ago", "ko", r"(?:조금|좀)\s*전", _lately(3), guard=lang_ko.word_ends),
        rule("ko.just_now_2", "ko", r"지금\s*막", _lately(1)),
        rule(
            "ko.last_evening",
            "ko",
            r"엊저녁",
            lambda _m, c: (DayP(c.today - timedelta(days=1)), PartP(PARTS["evening"])),
        ),
        rule(
            "ko.decade",
            "ko",
            r"(?<!\d)(?:(?P<c>19|20)?(?P<d>\d)0)\s*년대",
            lambda m, c: _decade_of(m, c) if m.group("c") else _decade_of_short(m, c, "d"),
        ),
        rule(
            "ko.nth_week",
            "ko",
            r"(?P<nth>첫\s*번째|두\s*번째|세\s*번째|네\s*번째|첫째|둘째|셋째|넷째|마지막|첫)\s*주(?!\s*[월화수목금토일]요일|말|일|간)",
            lambda m, _c: (EdgeP(f"week:{_KO_NTH_WEEK[''.join(m.group('nth').split())]}"),),
            guard=_after_time,
        ),
        rule(
            "ko.first_last_day",
            "ko",
            r"(?P<which>말일|마지막\s*날|첫\s*날|첫날)",
            lambda m, _c: (EdgeP("day:1" if "첫" in m.group("which") else "day:-1"),),
            guard=lambda v, m: _after_time(v, m) and lang_ko.word_ends(v, m),
        ),
        rule(
            "ko.month_last_day",
            "ko",
            r"말일",
            _this_with_edge("month", "day:-1"),
            guard=lambda v, m: not _after_time(v, m) and lang_ko.word_bounded(v, m),
        ),
        rule("ko.now", "ko", r"지금|현재", _current_hour, strong=lambda v, m: alone(v, m, ("은", "는", "쯤", "까지"))),
        rule("ko.just_now", "ko", r"방금(?:\s*전)?|막\s*방금", _lately(1), guard=lang_ko.word_ends),
        rule("ko.a_while_ago", "ko", r"아까", _lately(3), guard=lang_ko.word_bounded),
        rule("ko.other_day", "ko", r"요전\s*날|요전에|일전에|엊그제께", _days_span(7, 1), guard=lang_ko.word_bounded),
        rule("ko.three_years_ago", "ko", r"재재작년|삼\s*년\s*전", years_from_this(-3), guard=lang_ko.word_bounded),
        rule("ko.now_right", "ko", r"지금\s*바로|바로\s*지금", _current_hour),
        rule("ko.two_days", "ko", r"엊그저께|엊그제", _days_span(2, 1)),
        rule(
            "ko.three_days_ago",
            "ko",
            r"그끄저께|그끄제",
            lambda _m, c: (DayP(c.today - timedelta(days=3)),),
        ),
        rule(
            "ko.few_ago",
            "ko",
            r"(?P<unit>며칠|몇일|몇\s*시간|몇\s*주|몇\s*달|몇\s*개월|몇\s*년)\s*전",
            lambda m, c: few_ago(_KO_FEW_UNITS[" ".join(m.group("unit").split())], c),
            guard=lang_ko.word_ends,
        ),
        rule(
            "ko.nth_weekday",
            "ko",
            r"(?P<nth>첫\s*번째|두\s*번째|세\s*번째|네\s*번째|다섯\s*번째|첫째|둘째|셋째|넷째|다섯째|마지막|첫)"
            r"\s*(?:주\s*)?(?P<wd>[월화수목금토일])요일",
            _ko_nth,
        ),
        rule(
            "ko.edge",
            "ko",
            r"(?P<edge>초순|중순|하순|초반|중반|후반|말경|말(?!이야|이지|이에요|이죠|인데|이다)|초)",
            _edge_of(_KO_EDGES),
            guard=lambda v, m: _after_time(v, m) and lang_ko.word_ends(v, m),
        ),
        rule("ko.year_end", "ko", r"연말|년말", _this_with_edge("year", "end"), guard=lang_ko.word_bounded),
        rule("ko.year_start", "ko", r"연초|년초", _this_with_edge("year", "beginning"), guard=lang_ko.word_bounded),
        rule("ko.month_end", "ko", r"월말", _this_with_edge("month", "end"), guard=lang_ko.word_bounded),
        rule("ko.month_start", "ko", r"월초", _this_with_edge("month", "beginning"), guard=lang_ko.word_bounded),
        rule(
            "ko.short_year",
            "ko",
            r"(?<![\d'])['’]?(?P<yy>\d{2})\s*년(?:도)?",
            lambda m, c: (YearP(_two_digit_year(m.group("yy"), c)),),
            guard=_ko_short_year_guard,
        ),
    ],
    "ja": [
        rule(
            "ja.iso_week",
            "ja",
            r"(?:(?P<y>\d{4})\s*年\s*(?:の\s*)?|(?P<ly>今年|本年|去年|昨年|来年)\s*の?\s*)?第\s*(?P<w>\d{1,2})\s*週(?!末|間|目)",
            lambda m, c: _iso_week(int(m.group("w")), _week_year(m, c), c),
            guard=lambda v, m: (
                _has_week_year(m) or (int(m.group("w")) > 5 and not re.search(r"月の?\s*$", v.before(m.start(), 3)))
            ),
            needs=("週",),
        ),
        rule(
            "ja.century",
            "ja",
            r"(?<!\d)(?P<n>\d{1,2}|二十一|二十|十九|十八)\s*世紀",
            lambda m, c: _century(int(m.group("n")) if m.group("n").isdigit() else _JA_CENTURY_WORDS[m.group("n")], c),
            strong=lambda v, m: alone(v, m, ("に", "は", "の")) or lang_ja.particle_follows(v, m.end()),
            needs=("世紀",),
        ),
        rule(
            "ja.this_century",
            "ja",
            r"(?P<which>前|今|先)世紀",
            lambda m, c: _this_century(0 if m.group("which") == "今" else -1)(m, c),
            needs=("世紀",),
        ),
        rule(
            "ja.quarter",
            "ja",
            r"(?P<which>今|当|前|先|来|次)四半期",
            lambda m, c: _relative_quarter(_JA_WHICH[m.group("which")], c),
        ),
        rule(
            "ja.quarter_n",
            "ja",
            r"(?:(?P<y>\d{4})\s*年\s*(?:度\s*)?(?:の)?\s*)?第\s*(?P<q>[1-4一二三四])\s*四半期",
            lambda m, c: _numbered_quarter(
                _KANJI_QUARTER[m.group("q")], int(m.group("y")) if m.group("y") else None, c
            ),
        ),
        rule(
            "ja.this_time",
            "ja",
            r"(?P<when>一昨日|昨日|先週|先月|去年|昨年)の(?:今頃|今ごろ|この時間|同じ時間)",
            _this_time,
        ),
        rule(
            "ja.half",
            "ja",
            r"(?P<h>上|下)(?:半)?期",
            lambda m, _c: (PeriodP(1 if m.group("h") == "上" else 2, 6),),
            guard=lambda v, m: (
                (not lang_ja.kanji_at(v, m.end()) and not lang_ja.kanji_at(v, m.start() - 1)) or m.start() in v.ends
            ),
        ),
        rule(
            "ja.minutes_ago",
            "ja",
            r"(?<!\d)(?P<n>\d{1,4}|[一二三四五六七八九十]{1,3}|数)\s*分\s*(?:ほど|くらい|ぐらい|程)?\s*前",
            lambda m, c: _minutes_ago(_ja_few_or_count(m.group("n")), c),
        ),
        rule(
            "ja.seconds_ago",
            "ja",
            r"(?<![\d一二三四五六七八九十百])" + _JA_SECONDS + r"\s*(?:ほど|くらい|ぐらい|程)?\s*前(?!後)",
            lambda m, c: _seconds_ago(_ja_few_or_count(m.group("n")), c),
            needs=("秒",),
        ),
        rule(
            "ja.last_seconds",
            "ja",
            r"(?:過去|最近|ここ|直近)\s*" + _JA_SECONDS + r"(?:間)?",
            lambda m, c: _last_seconds(_ja_few_or_count(m.group("n")), c),
            needs=("秒",),
        ),
        rule(
            "ja.decade",
            "ja",
            r"(?<!\d)(?:(?P<c>19|20)?(?P<d>\d)0)\s*年代",
            lambda m, c: _decade_of(m, c) if m.group("c") else _decade_of_short(m, c, "d"),
        ),
        rule(
            "ja.nth_week",
            "ja",
            r"(?:第\s*(?P<n>[1-5一二三四五])|(?P<last>最終))\s*週(?!末|間)",
            lambda m, _c: (EdgeP("week:-1" if m.group("last") else f"week:{_JA_NTH[m.group('n')]}"),),
            guard=_after_time,
        ),
        rule(
            "ja.first_last_day",
            "ja",
            r"(?P<which>最終日|初日|最後の日|最初の日)",
            lambda m, _c: (EdgeP("day:1" if m.group("which") in ("初日", "最初の日") else "day:-1"),),
            guard=_after_time,
        ),
        rule("ja.this_week", "ja", r"当週|本週", weeks_from_this(0)),
        rule("ja.this_month", "ja", r"当月(?!曜)", months_from_this(0)),
        rule("ja.today_kana", "ja", r"ほんじつ", lambda _m, c: (DayP(c.today),)),
        rule("ja.last_week_kana", "ja", r"せんしゅう", weeks_from_this(-1), guard=lang_ja.kana_bounded),
        rule("ja.this_week_kana", "ja", r"こんしゅう", weeks_from_this(0), guard=lang_ja.kana_bounded),
        rule("ja.next_week_kana", "ja", r"らいしゅう", weeks_from_this(1), guard=lang_ja.kana_bounded),
        rule("ja.last_month_kana", "ja", r"せんげつ", months_from_this(-1), guard=lang_ja.kana_bounded),
        rule("ja.last_year_kana", "ja", r"きょねん", years_from_this(-1), guard=lang_ja.kana_bounded),
        rule(
            "ja.now",
            "ja",
            r"(?<![\u4e00-\u9fff])(?:今現在|現在|今)(?![\u4e00-\u9fff])",
            _current_hour,
            strong=lambda v, m: alone(v, m, ("は", "の", "、")) or m.group(0) == "今現在",
        ),
        rule("ja.just_now", "ja", r"たった今|今しがた", _lately(1)),
        rule("ja.a_while_ago", "ja", r"さっき|先ほど|先程", _lately(3)),
        rule(
            "ja.three_days_ago",
            "ja",
            r"一昨昨日|さきおととい|先一昨日",
            lambda _m, c: (DayP(c.today - timedelta(days=3)),),
        ),
        rule("ja.other_day", "ja", r"先日|この間(?![\u4e00-\u9fff])|こないだ", _days_span(7, 1)),
        rule("ja.little_while_ago", "ja", r"(?:少し|ちょっと|すこし)\s*前(?![\u4e00-\u9fff])", _lately(3)),
        rule("ja.half_month_ago", "ja", r"半月前", lambda _m, c: (DayP(c.today - timedelta(days=15)),)),
        rule("ja.three_years_ago", "ja", r"一昨々年|一昨昨年|さきおととし", years_from_this(-3)),
        rule("ja.now_kanji", "ja", r"只今|ただ今(?=[はの、])", _current_hour),
        rule(
            "ja.few_ago",
            "ja",
            r"数\s*(?P<unit>時間|日|週間|週|か月|ヶ月|カ月|年)\s*前",
            lambda m, c: few_ago(_JA_FEW_UNITS[m.group("unit")], c),
        ),
        rule(
            "ja.nth_weekday",
            "ja",
            r"(?:第\s*(?P<n>[1-5一二三四五])|(?P<last>最終|最後の))\s*(?P<wd>[月火水木金土日])曜日?",
            _ja_nth,
        ),
        rule(
            "ja.edge",
            "ja",
            r"(?P<edge>初め|始め|はじめ|初旬|上旬|中旬|下旬|半ば|終わり|末|頭)",
            _edge_of(_JA_EDGES),
            guard=lambda v, m: _after_time(v, m) and not lang_ja.kanji_at(v, m.end()),
        ),
        rule("ja.year_end", "ja", r"年末", _this_with_edge("year", "end")),
        rule("ja.year_start", "ja", r"年始|年初|年明け", _this_with_edge("year", "beginning")),
        rule("ja.month_end", "ja", r"(?<![\d一二三四五六七八九十先今来])月末", _this_with_edge("month", "end")),
        rule(
            "ja.month_start",
            "ja",
            r"(?<![\d一二三四五六七八九十先今来])月初め?",
            _this_with_edge("month", "beginning"),
        ),
    ],
}
