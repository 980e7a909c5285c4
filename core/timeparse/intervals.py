"""Intervals written as one expression: between two clock times on one day ("3-4pm", "from 9:30 to 11",
"9am–5pm"), between two days of a month ("20-22 November", 12월 24~26일, 2月3日から5日まで) and between
two years ("2023-2024", "2019-21"). Each is a ``span`` that holds both ends.

"3-4pm" is 15:00 – 16:00: the meridiem of the end goes with the start unless that would put the start
after the end, so "11-1pm" is 11:00 – 13:00. Joining two separate expressions ("since Monday", "between
May and June", "3시부터 5시까지", "午前9時から午後5時まで") is :mod:`core.timeparse.compose`'s.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from core.timeparse import ranges
from core.timeparse.clock import meridiem_of, one_spaced
from core.timeparse.dates import EN_MONTH_NAME_PATTERN, MONTHS
from core.timeparse.pieces import ClockP, ClockSpanP, Context, Piece, RangeP
from core.timeparse.rules import START, STOP, Rule, rule


def _twelve(hour: int, minute: int, meridiem: str | None) -> int:
    """Minutes after midnight of a 12-hour reading."""
    hour %= 12
    return (hour + (12 if meridiem == "pm" else 0)) * 60 + minute


def _en_interval(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    h1, h2 = int(found.group("h1")), int(found.group("h2"))
    m1, m2 = int(found.group("m1") or 0), int(found.group("m2") or 0)
    mer1, mer2 = meridiem_of(found.group("mer1")), meridiem_of(found.group("mer2"))
    opener, separator = found.group("open"), one_spaced(found.group("sep"))
    if (separator == "and") != (opener == "between"):
        return None
    if not (mer1 or mer2 or found.group("m1") or found.group("m2")):
        return None
    if m1 > 59 or m2 > 59 or h1 > 23 or h2 > 24:
        return None
    if mer1 or mer2:
        if (mer1 and not 1 <= h1 <= 12) or (mer2 and not 1 <= h2 <= 12):
            return None
        if mer2 and not mer1:
            same = _twelve(h1, m1, mer2)
            mer1 = mer2 if same < _twelve(h2, m2, mer2) else ("am" if mer2 == "pm" else "pm")
        elif mer1 and not mer2:
            start = _twelve(h1, m1, mer1)
            mer2 = mer1 if _twelve(h2, m2, mer1) > start else ("pm" if mer1 == "am" else "am")
        return (ClockSpanP(ClockP(h1, m1, mer1), ClockP(h2, m2, mer2)),)
    explicit1 = h1 == 0 or h1 > 12 or found.group("h1").startswith("0")
    explicit2 = h2 in (0, 24) or h2 > 12 or found.group("h2").startswith("0")
    if not explicit1 and not explicit2 and 1 <= h1 <= 6 and h1 <= h2 <= 12:
        # 1–6 alone reads as p.m.; then so does the end that follows it ("1:30-3" is 13:30 – 15:00)
        return (ClockSpanP(ClockP(h1, m1, "pm"), ClockP(h2, m2, "pm" if h2 < 12 else None)),)
    first = ClockP(h1, m1, "24h" if explicit1 else None)
    second = ClockP(h2 % 24, m2, "24h" if explicit2 else None)
    return (ClockSpanP(first, second),)


def _year_span(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    """ "2023-2024", "2019–21", "the 2022-23 season": both years, whole."""
    first = int(found.group("y1"))
    tail = found.group("y2")
    last = int(tail) if len(tail) == 4 else first // 100 * 100 + int(tail)
    if not first < last <= first + 10:
        return None
    start = ranges.midnight(date(first, 1, 1), ctx.zone)
    return (RangeP(ranges.span(start, ranges.midnight(date(last + 1, 1, 1), ctx.zone))),)


def _day_range_month(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    """ "5-7 Jan", "3rd-5th of March 2023", 2월 3~5일, 2月3〜5日: days of one month; without a year the
    latest that has begun."""

    month_text = found.group("month")
    month = int(month_text) if month_text.isdigit() else MONTHS[month_text]
    if not 1 <= month <= 12:
        return None
    first, last = int(found.group("d1")), int(found.group("d2"))
    if not 1 <= first < last <= 31:
        return None
    if found.group("year"):
        year = int(found.group("year"))
    else:
        year = ctx.today.year if date(ctx.today.year, month, first) <= ctx.today else ctx.today.year - 1
    start = ranges.midnight(date(year, month, first), ctx.zone)
    return (RangeP(ranges.span(start, ranges.midnight(date(year, month, last) + timedelta(days=1), ctx.zone))),)


EN: list[Rule] = [
    rule(
        "en.year_span",
        "en",
        r"(?<![\w./:-])(?P<y1>(?:19|20)\d\d)\s*[-–]\s*(?P<y2>(?:19|20)\d\d|\d\d)(?![\w./:-])",
        _year_span,
        needs=("-", "–"),
    ),
    rule(
        "en.day_range_month",
        "en",
        START + r"(?:the\s+)?(?P<d1>\d{1,2})(?:st|nd|rd|th)?\s*(?:-|–|to)\s*(?:the\s+)?(?P<d2>\d{1,2})(?:st|nd|rd|th)?"
        r"\s+(?:of\s+)?" + EN_MONTH_NAME_PATTERN + r"(?:,?\s+(?P<year>(?:19|20)\d\d))?" + STOP,
        _day_range_month,
        needs=("-", "–", " to "),
    ),
    rule(
        "en.clock_interval",
        "en",
        r"(?<![\w:/.-])(?:(?P<open>from|between)\s+)?(?P<h1>\d{1,2})(?::(?P<m1>\d{2}))?\s*"
        r"(?P<mer1>a\.m\.|p\.m\.|am|pm)?\s*(?P<sep>-|–|—|to|until|till|and)\s*"
        r"(?P<h2>\d{1,2})(?::(?P<m2>\d{2}))?\s*(?P<mer2>a\.m\.|p\.m\.|am|pm)?(?![\w:/-]|\.\d)",
        _en_interval,
    ),
]


KO: list[Rule] = [
    rule(
        "ko.day_range_month",
        "ko",
        r"(?<!\d)(?:(?P<year>\d{4})\s*년\s*)?(?P<month>\d{1,2})\s*월\s*(?P<d1>\d{1,2})\s*(?:일\s*)?(?:~|〜|-|–)\s*"
        r"(?P<d2>\d{1,2})\s*일",
        _day_range_month,
    ),
]


JA: list[Rule] = [
    rule(
        "ja.day_range_month",
        "ja",
        r"(?<!\d)(?:(?P<year>\d{4})\s*年\s*)?(?P<month>\d{1,2})\s*月\s*(?P<d1>\d{1,2})\s*(?:日\s*)?(?:~|〜|-|–|から)\s*"
        r"(?P<d2>\d{1,2})\s*日(?:\s*まで)?",
        _day_range_month,
    ),
]

RULES: dict[str, list[Rule]] = {"en": EN, "ko": KO, "ja": JA}
