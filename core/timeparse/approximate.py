"""Approximate and fractional counts back in time: "a few days ago", 며칠 전, 数日前, "the last few
days", ここ数日; "2 or 3 days ago", 이삼 일 전, 二、三日前; "a week and a half ago", 1년 반 전, "half a
year ago", 半月前; "two and a half hours ago"; 十数年前, 십여 년 전.

"a few" is two to five units back and "the last few" the last five up to now; "N or M units ago" runs
from the older unit's start to the newer one's end; "and a half" is the unit around that moment (the
hour for hours, the month 18 back for "a year and a half"); 十数年前 is 11 – 19 years back. Whole counts
("3 days ago", "in 3 days", "the last 3 days") are in :mod:`core.timeparse.counts`.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from core.timeparse import ranges
from core.timeparse.counts import EN_PAST_PREFIX, count_of, hour_around
from core.timeparse.lang_ko import word_ends
from core.timeparse.model import TimeRange
from core.timeparse.pieces import Context, DayP, MonthP, Piece, RangeP, WeekP, YearP
from core.timeparse.relative import same_day_months_back, shift
from core.timeparse.rules import (
    START,
    STOP,
    Rule,
    last_n,
    rule,
)
from core.timeparse.text import (
    EN_NUMBER_PATTERN,
    number,
)


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


_KO_FEW_UNITS = {"며칠": "day", "몇일": "day", "몇 시간": "hour", "몇시간": "hour", "몇 주": "week", "몇주": "week"}


_KO_FEW_UNITS |= {"몇 달": "month", "몇달": "month"}


_KO_FEW_UNITS |= {"몇 개월": "month", "몇개월": "month", "몇 년": "year", "몇년": "year"}


_JA_FEW_UNITS = {"日": "day", "週間": "week", "週": "week", "か月": "month", "ヶ月": "month", "カ月": "month"}


_JA_FEW_UNITS |= {"年": "year", "時間": "hour"}



def _en_few(found: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    return few_ago(found.group("unit"), ctx)



def _en_and_half(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = count_of(found.group("n"))
    return None if count is None else hour_around(60 * count + 30, ctx)



def _en_last_few(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    word = " ".join(found.group("few").split())
    count = 2 if "couple" in word else 5
    unit = found.group("unit")
    return last_n(count, unit, ctx)



def _half_year_ago(_m: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    return (MonthP(*ranges.add_months(ctx.today.year, ctx.today.month, -6)),)



def _ko_and_half(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = number(found.group("n"))
    return None if count is None else hour_around(60 * count + 30, ctx)



def _ja_and_half(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = number(found.group("n"))
    return None if count is None else hour_around(60 * count + 30, ctx)



def _last_five(unit: str):
    return lambda _m, ctx: last_n(5, unit, ctx)



_EN_UNIT_PLURAL = r"(?P<unit>day|week|month|year)s"


def _between_ago(unit: str, low: int, high: int, ctx: Context) -> tuple[Piece, ...] | None:
    """ "2 or 3 days ago", 이삼 일 전, 二、三日前: from the start of the older unit to the end of the newer."""
    if not 0 < low < high <= low + 5:
        return None
    older, newer = shift(unit, -high, ctx), shift(unit, -low, ctx)
    if not older or not newer:
        return None
    first, last = _range_of(older[0], ctx), _range_of(newer[0], ctx)
    return (RangeP(ranges.span(first.start, last.end)),)



def _range_of(piece: Piece, ctx: Context) -> TimeRange:
    if isinstance(piece, DayP):
        return ranges.day_range(piece.day, ctx.zone)
    if isinstance(piece, WeekP):
        return ranges.week_range(piece.monday, ctx.zone)
    if isinstance(piece, MonthP):
        return ranges.month_range(piece.year, piece.month, ctx.zone)
    if isinstance(piece, YearP):
        return ranges.year_range(piece.year, ctx.zone)
    assert isinstance(piece, RangeP)
    return piece.range



def _en_between_ago(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    low, high = count_of(found.group("a")), count_of(found.group("b"))
    if low is None or high is None:
        return None
    return _between_ago(found.group("unit"), low, high, ctx)


_KO_PAIRS = {"이삼": (2, 3), "삼사": (3, 4), "사오": (4, 5), "오륙": (5, 6), "사나흘": (3, 4), "두세": (2, 3)}


_KO_PAIRS |= {"서너": (3, 4), "두어": (2, 3), "한두": (1, 2)}


_KO_PAIR_UNITS = {"일": "day", "주": "week", "달": "month", "개월": "month", "년": "year", "해": "year"}



def _ko_between_ago(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    if found.group("pair"):
        low, high = _KO_PAIRS[found.group("pair")]
    else:
        low, high = int(found.group("a")), int(found.group("b"))
    unit = _KO_PAIR_UNITS[found.group("unit")] if found.group("unit") else "day"
    return _between_ago(unit, low, high, ctx)


_JA_PAIR_UNITS = {"日": "day", "週間": "week", "か月": "month", "ヶ月": "month", "カ月": "month", "年": "year"}



def _ja_between_ago(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    low, high = number(found.group("a")), number(found.group("b"))
    if low is None or high is None:
        return None
    return _between_ago(_JA_PAIR_UNITS[found.group("unit")], low, high, ctx)



def _year_and_half_ago(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = count_of(found.group("n")) if found.groupdict().get("n") else 1
    return None if count is None else _year_and_half_ago_n(count, ctx)



def _year_and_half_ago_n(count: int, ctx: Context) -> tuple[Piece, ...] | None:
    if not 0 < count <= 50:
        return None
    return (MonthP(*ranges.add_months(ctx.today.year, ctx.today.month, -(12 * count + 6))),)



def _teens_of_years_ago(_m: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    """十数年前, 십여 년 전: eleven to nineteen years back (whole years)."""
    first = ranges.midnight(date(ctx.today.year - 19, 1, 1), ctx.zone)
    return (RangeP(ranges.span(first, ranges.midnight(date(ctx.today.year - 10, 1, 1), ctx.zone))),)



def _and_half_ago(unit: str, count: int | None, ctx: Context) -> tuple[Piece, ...] | None:
    """``count`` and a half ``unit`` back: for weeks and months the unit around that moment ("a week
    and a half ago", 1주 반 전, 1週間半前: from 14 to 7 days back; "a month and a half ago", 한 달 반 전,
    一ヶ月半前: from the same day two months back to the same day one month back), as "two and a half
    hours ago" is the hour around its moment; years as "a year and a half ago" (the month 18 back)."""
    if count is None or not 0 < count <= 50:
        return None
    if unit == "year":
        return _year_and_half_ago_n(count, ctx)
    if unit == "week":
        first, last = ctx.today - timedelta(days=7 * (count + 1)), ctx.today - timedelta(days=7 * count)
    else:
        first, last = same_day_months_back(count + 1, ctx), same_day_months_back(count, ctx)
    return (RangeP(ranges.span(ranges.midnight(first, ctx.zone), ranges.midnight(last, ctx.zone))),)


_HALF_UNITS = {"week": "week", "weeks": "week", "month": "month", "months": "month", "years": "year"}


_HALF_UNITS |= {"주": "week", "주일": "week", "달": "month", "개월": "month"}


_HALF_UNITS |= {"週間": "week", "か月": "month", "ヶ月": "month", "カ月": "month", "ケ月": "month", "ヵ月": "month"}



def _en_and_half_units_ago(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = count_of(found.group("n") or found.group("n2"))
    return _and_half_ago(_HALF_UNITS[found.group("unit") or found.group("unit2")], count, ctx)



def _ko_and_half_units_ago(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = 1 if found.group("week") else number(found.group("n"))
    return _and_half_ago("week" if found.group("week") else _HALF_UNITS[found.group("unit")], count, ctx)



def _en_half_a_unit_ago(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    """ "half a year ago": the month six back (as 반년 전, 半年前); "half a month ago": the day 15 back (as
    半月前, 보름 전); "half a week ago": the days 3 and 4 back; "half a day ago": the hour around 12 hours back."""
    unit = found.group("unit")
    if unit == "year":
        return _half_year_ago(found, ctx)
    if unit == "month":
        return (DayP(ctx.today - timedelta(days=15)),)
    if unit == "week":
        return _between_ago("day", 3, 4, ctx)
    return hour_around(12 * 60, ctx)


EN: list[Rule] = [
    # was read as "a year ago" with "half" left over
    rule(
        "en.half_a_unit_ago",
        "en",
        START + r"half\s+an?\s+(?P<unit>year|month|week|day)\s+(?:or\s+so\s+)?(?:ago|back)" + STOP,
        _en_half_a_unit_ago,
        needs=("half",),
    ),
    # "a week and a half ago", "two months and a half ago", "one and a half weeks ago", "2 and a half years ago"
    rule(
        "en.and_half_units_ago",
        "en",
        START + r"(?:(?P<n>a|an|one|\d{1,2}|two|three|four|five|six)\s+(?P<unit>weeks?|months?)\s+and\s+a\s+half"
        r"|(?P<n2>one|\d{1,2}|two|three|four|five|six)\s+and\s+a\s+half\s+(?P<unit2>weeks|months|years))"
        r"\s+(?:or\s+so\s+)?(?:ago|back)" + STOP,
        _en_and_half_units_ago,
        needs=("half",),
    ),
    rule(
        "en.between_ago",
        "en",
        START
        + r"(?P<a>\d{1,2}|one|two|three|four|five|six)\s*(?:-|–|or|to)\s*(?P<b>\d{1,2}|two|three|four|five|six|seven)"
        r"\s+" + _EN_UNIT_PLURAL + r"\s+ago" + STOP,
        _en_between_ago,
        needs=("ago",),
    ),
    rule(
        "en.year_and_half_ago",
        "en",
        START + r"(?:(?:a|one)\s+year|(?P<n>\d{1,2}|two|three|four|five)\s+years)\s+and\s+a\s+half\s+ago" + STOP,
        _year_and_half_ago,
        needs=("half",),
    ),
    rule(
        "en.and_half_ago",
        "en",
        START + r"(?P<n>" + EN_NUMBER_PATTERN + r")\s+and\s+a\s+half\s+hours?\s+ago" + STOP,
        _en_and_half,
        needs=("half",),
    ),
    rule(
        "en.last_few",
        "en",
        START
        + EN_PAST_PREFIX
        + r"(?P<few>few|several|couple\s+of|couple)\s+(?P<unit>hour|day|week|month|year)s"
        + STOP,
        _en_last_few,
        needs=("few", "several", "couple"),
    ),
    rule(
        "en.few_ago",
        "en",
        START + r"(?:a\s+few|several|some)\s+(?P<unit>hour|day|week|month|year)s\s+(?:or\s+so\s+)?(?:ago|back)" + STOP,
        _en_few,
    ),
]

KO: list[Rule] = [
    rule(
        "ko.and_half_units_ago",
        "ko",
        r"(?<![\d가-힣])(?:(?P<week>일주일)|(?P<n>\d{1,2}|한|두|세|네|다섯)\s*(?P<unit>주일|주|달|개월))\s*반\s*(?:쯤|정도)?\s*전",
        _ko_and_half_units_ago,
        guard=word_ends,
        needs=("반",),
    ),
    rule("ko.teens_of_years_ago", "ko", r"십여\s*년\s*전", _teens_of_years_ago, guard=word_ends),
    rule(
        "ko.between_ago",
        "ko",
        r"(?<![\d가-힣])(?:(?P<a>\d)\s*[,~-]\s*(?P<b>\d)\s*|(?P<pair>이삼|삼사|사오|오륙|두세|서너|두어|한두)\s*)"
        r"(?P<unit>일|주|달|개월|년|해)\s*전"
        r"|(?<![가-힣])(?P<pair2>사나흘)\s*전",
        lambda m, c: _ko_between_ago(m, c) if not m.group("pair2") else _between_ago("day", 3, 4, c),
        guard=word_ends,
        needs=("전",),
    ),
    rule(
        "ko.year_and_half_ago",
        "ko",
        r"(?<![\d가-힣])(?P<n>\d{1,2}|일|한)\s*년\s*반\s*전",
        lambda m, c: _year_and_half_ago_n(1 if m.group("n") in ("일", "한") else int(m.group("n")), c),
        guard=word_ends,
        needs=("반",),
    ),
    rule(
        "ko.few_years_ago",
        "ko",
        r"(?<![가-힣])수\s*(?P<unit>년|개월|일|주)\s*전",
        lambda m, c: few_ago({"년": "year", "개월": "month", "일": "day", "주": "week"}[m.group("unit")], c),
        guard=word_ends,
        needs=("수",),
    ),
    rule(
        "ko.last_few_months",
        "ko",
        r"(?<![가-힣])(?:최근|지난)\s*몇\s*(?:달|개월)(?:\s*(?:간|동안|사이))?",
        _last_five("month"),
        guard=word_ends,
        needs=("몇",),
    ),
    rule("ko.half_year_ago", "ko", r"(?<![가-힣])반\s*년\s*전", _half_year_ago, guard=word_ends, needs=("반",)),
    rule(
        "ko.and_half_ago",
        "ko",
        r"(?<![\d가-힣])(?P<n>\d{1,2}|한|두|세|네|다섯|여섯|일곱|여덟|아홉|열)\s*시간\s*반\s*전",
        _ko_and_half,
        guard=word_ends,
        needs=("반",),
    ),
    rule(
        "ko.last_few_days",
        "ko",
        r"(?<![가-힣])(?:최근|지난|요\s*)\s*(?:며칠|몇\s*일)(?:\s*(?:간|동안|사이))?",
        _last_five("day"),
        guard=word_ends,
        needs=("며칠", "몇"),
    ),
    rule(
        "ko.last_few_weeks",
        "ko",
        r"(?<![가-힣])(?:최근|지난)\s*몇\s*주(?:\s*(?:간|동안|사이))?",
        _last_five("week"),
        guard=word_ends,
        needs=("몇",),
    ),
    rule(
        "ko.few_ago",
        "ko",
        r"(?P<unit>며칠|몇일|몇\s*시간|몇\s*주|몇\s*달|몇\s*개월|몇\s*년)\s*전",
        lambda m, c: few_ago(_KO_FEW_UNITS[" ".join(m.group("unit").split())], c),
        guard=word_ends,
    ),
]

JA: list[Rule] = [
    rule(
        "ja.and_half_units_ago",
        "ja",
        r"(?<![\d一二三四五六七八九十])(?P<n>\d{1,2}|[一二三四五六七八九十]{1,2})\s*"
        r"(?P<unit>週間|か月|ヶ月|カ月|ケ月|ヵ月)\s*半\s*(?:ほど|くらい|ぐらい)?\s*前",
        lambda m, c: _and_half_ago(_HALF_UNITS[m.group("unit")], number(m.group("n")), c),
        needs=("半",),
    ),
    rule("ja.teens_of_years_ago", "ja", r"十数\s*年\s*前", _teens_of_years_ago),
    rule(
        "ja.between_ago",
        "ja",
        r"(?<![\d一二三四五六七八九十])(?P<a>\d|[一二三四五六七八九])\s*[、,~〜-]\s*(?P<b>\d|[一二三四五六七八九十])\s*"
        r"(?P<unit>週間|か月|ヶ月|カ月|日|年)\s*前",
        _ja_between_ago,
        needs=("前",),
    ),
    rule(
        "ja.year_and_half_ago",
        "ja",
        r"(?<![\d一二三四五六七八九十])(?P<n>\d{1,2}|[一二三四五六七八九十]{1,2})\s*年半\s*前",
        lambda m, c: _year_and_half_ago_n(number(m.group("n")) or 0, c),
        needs=("年半",),
    ),
    rule("ja.half_year_ago", "ja", r"半年前", _half_year_ago, needs=("半年前",)),
    rule(
        "ja.and_half_ago",
        "ja",
        r"(?<![\d一二三四五六七八九十])(?P<n>\d{1,2}|[一二三四五六七八九十]{1,3})\s*時間半\s*前",
        _ja_and_half,
        needs=("時間半",),
    ),
    rule("ja.last_few_days", "ja", r"(?:ここ|この|過去)\s*数\s*日(?:間)?", _last_five("day"), needs=("数",)),
    rule("ja.last_few_weeks", "ja", r"(?:ここ|この|過去)\s*数\s*週間", _last_five("week"), needs=("数",)),
    rule(
        "ja.last_few_months", "ja", r"(?:ここ|この|過去)\s*数\s*(?:か月|ヶ月|カ月)", _last_five("month"), needs=("数",)
    ),
    rule("ja.half_month_ago", "ja", r"半月前", lambda _m, c: (DayP(c.today - timedelta(days=15)),)),
    rule(
        "ja.few_ago",
        "ja",
        r"数\s*(?P<unit>時間|日|週間|週|か月|ヶ月|カ月|年)\s*前",
        lambda m, c: few_ago(_JA_FEW_UNITS[m.group("unit")], c),
    ),
]

RULES: dict[str, list[Rule]] = {"en": EN, "ko": KO, "ja": JA}
