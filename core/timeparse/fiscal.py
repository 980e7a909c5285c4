"""Fiscal years: "FY2023", "FY23", "fiscal 2023", "fiscal year 2023", "last fiscal year", "2023 회계연도",
"지난 회계연도", 2022年度, 令和7年度, 今年度, 昨年度. The Japanese 年度 is always 1 April to 31 March.

The fiscal year starts on the first of the month ``timeparse.fiscal_year_start`` (config.toml; default
1, January, so a fiscal year is the calendar year). With another month, an English fiscal year is
named by the year it ends in (the US habit: with October, FY2023 is 1 October 2022 – 30 September
2023) and a Korean 회계연도 by the year it starts in (as 年度 is). Two-digit years are 20yy. A fiscal
year that is a calendar year is a ``year``; any other is a ``span``.
"""

from __future__ import annotations

import re
from datetime import date

from core.timeparse import lang_ko, ranges
from core.timeparse.dates import ERA_LAST, ERAS, ja_number
from core.timeparse.model import TimeRange
from core.timeparse.pieces import Context, Piece, RangeP
from core.timeparse.rules import START, STOP, Rule, rule


def fiscal_range(first_year: int, ctx: Context) -> TimeRange:
    """The fiscal year that starts in ``first_year`` (on the first of ``ctx.fiscal_start``)."""
    month = ctx.fiscal_start
    if month == 1:
        return ranges.year_range(first_year, ctx.zone)
    start = ranges.midnight(date(first_year, month, 1), ctx.zone)
    return ranges.span(start, ranges.midnight(date(first_year + 1, month, 1), ctx.zone))


def _current_first_year(ctx: Context) -> int:
    """The year in which the fiscal year holding today started."""
    today = ctx.today
    return today.year if today.month >= ctx.fiscal_start else today.year - 1


def _year(text: str) -> int:
    return int(text) if len(text) == 4 else 2000 + int(text)


def _en_named(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    year = _year(found.group("y"))
    return (RangeP(fiscal_range(year if ctx.fiscal_start == 1 else year - 1, ctx)),)


def _ko_named(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    return (RangeP(fiscal_range(_year(found.group("y")), ctx)),)


_EN_WHICH = {"this": 0, "current": 0, "the current": 0, "last": -1, "previous": -1, "the previous": -1, "next": 1}
_KO_WHICH = {"이번": 0, "올해": 0, "금년": 0, "당해": 0, "지난": -1, "작년": -1, "전년": -1, "다음": 1, "내년": 1}


def _relative(table: dict[str, int]):
    def build(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
        offset = table[" ".join(found.group("which").split())]
        return (RangeP(fiscal_range(_current_first_year(ctx) + offset, ctx)),)

    return build


_JA_WHICH = {"今": 0, "本": 0, "当": 0, "昨": -1, "前": -1, "来": 1, "翌": 1, "再来": 2, "一昨": -2}


def _ja_relative(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    """今年度 (the April-to-March year holding today), 昨年度, 来年度 ..."""
    today = ctx.today
    first = (today.year if today.month >= 4 else today.year - 1) + _JA_WHICH[found.group("which")]
    start = ranges.midnight(date(first, 4, 1), ctx.zone)
    return (RangeP(ranges.span(start, ranges.midnight(date(first + 1, 4, 1), ctx.zone))),)


def _ja_fiscal_year(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    """ "2022年度", "令和7年度": the Japanese fiscal year, 1 April to 31 March."""
    if found.group("era"):
        count = ja_number(found.group("n"))
        if count is None or not 1 <= count <= ERA_LAST[found.group("era")]:
            return None
        year = ERAS[found.group("era")] + count
    else:
        year = int(found.group("y"))
    start = ranges.midnight(date(year, 4, 1), ctx.zone)
    return (RangeP(ranges.span(start, ranges.midnight(date(year + 1, 4, 1), ctx.zone))),)


RULES: dict[str, list[Rule]] = {
    "en": [
        rule(
            "en.fiscal_named",
            "en",
            START + r"(?:fy\s*|fiscal\s+(?:year\s+)?)'?(?P<y>\d{4}|\d{2})" + STOP,
            _en_named,
            needs=("fy", "fiscal"),
        ),
        rule(
            "en.fiscal_relative",
            "en",
            START
            + r"(?P<which>this|current|the\s+current|last|previous|the\s+previous|next)\s+(?:fiscal\s+year|fy)"
            + STOP,
            _relative(_EN_WHICH),
            needs=("fiscal", "fy"),
        ),
    ],
    "ko": [
        rule(
            "ko.fiscal_named",
            "ko",
            r"(?<!\d)(?P<y>\d{4}|\d{2})\s*(?:년\s*)?(?:회계\s*연도|회계\s*년도)",
            _ko_named,
            needs=("회계",),
        ),
        rule(
            "ko.fiscal_relative",
            "ko",
            r"(?P<which>이번|올해|금년|당해|지난|작년|전년|다음|내년)\s*(?:회계\s*연도|회계\s*년도)",
            _relative(_KO_WHICH),
            guard=lang_ko.word_bounded,
            needs=("회계",),
        ),
    ],
    "ja": [
        rule(
            "ja.fiscal_year",
            "ja",
            r"(?:(?P<era>令和|平成|昭和)\s*(?P<n>元|\d{1,2}|[一二三四五六七八九十]{1,3})|(?P<y>(?:19|20)\d\d))\s*年度",
            _ja_fiscal_year,
            needs=("年度",),
        ),
        rule(
            "ja.fiscal_relative",
            "ja",
            r"(?<![\u3400-\u4dbf\u4e00-\u9fff])(?P<which>再来|一昨|今|本|当|昨|前|来|翌)年度",
            _ja_relative,
            needs=("年度",),
        ),
    ],
}
