"""Dates and numeric forms: ISO and other numeric dates every language writes alike (2026-11-03,
2026/11/03, 2026. 11. 3., 5.3.2026 day first, 3/5 and 3/5/26 month first; alone "3/5" counts only as
the whole query or after a preposition of time, so "3/5 of the team" stays a fraction), month names
with a day or a year ("3 November", "Nov 3rd 2025", "05-Mar-2026", "the third of May", "May the
twenty-first"), a month or a year alone, days of the month ("the 3rd", 15일에, 15日に, "Tuesday the
3rd"), 11월 3일 and 11月3日, Japanese eras and
kanji years (令和7年, 二〇二五年) and two-digit years (12년에, "back in '98", 98年に, 5/3/87).

Conventions (stated in ``reverie when --help`` too): a date without a year, a month name alone and a day
of the month alone are the latest that has begun; a two-digit year is 20yy when not more than a year
ahead, else 19yy (98年 only before に, 頃, から, まで ...: 10年は長い is ten years); 令和 starts 2019
(元年), 平成 1989, 昭和 1926, 大正 1912; 3월호 and "the March 2024 issue" are a magazine's, no date.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

from core.timeparse import ranges
from core.timeparse.lang_en import (
    MODES,
    ONLY_PUNCT,
    TIME_PREPOSITIONS,
    WEEKDAY_ABBR,
    WEEKDAYS,
    alternatives,
    weekday_of,
)
from core.timeparse.lang_ja import KANJI_DIGITS, kanji_at, kanji_int
from core.timeparse.model import TimeRange
from core.timeparse.pieces import (
    ClockP,
    Context,
    DayP,
    DomP,
    MonthDayP,
    MonthNameP,
    MonthP,
    Piece,
    RangeP,
    WeekdayP,
    YearP,
)
from core.timeparse.rules import START, STOP, Rule, Scan, rule
from core.timeparse.text import number

_OFFSET = re.compile(r"([+-])(\d\d):?(\d\d)")


def _iso(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    day = date(int(found.group("y")), int(found.group("mo")), int(found.group("d")))
    if found.group("h") is None:
        return (DayP(day),)
    hour, minute = int(found.group("h")), int(found.group("mi"))
    if hour > 23 or minute > 59:
        return None
    offset = found.group("tz")
    if not offset:
        return DayP(day), ClockP(hour, minute, "24h")
    if offset == "z":
        zone_offset = timedelta(0)
    else:
        parts = _OFFSET.fullmatch(offset)
        if parts is None:
            return None
        sign, hh, mm = parts.groups()
        zone_offset = (1 if sign == "+" else -1) * timedelta(hours=int(hh), minutes=int(mm))
    moment = datetime(day.year, day.month, day.day, hour, minute, tzinfo=UTC) - zone_offset
    start = moment.astimezone(ctx.zone)
    return (RangeP(TimeRange(start, ranges.elapsed(start, timedelta(hours=1)), "hour")),)


def _ymd(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    return (DayP(date(int(found.group("y")), int(found.group("mo")), int(found.group("d")))),)


def _ym(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    month = int(found.group("mo"))
    return (MonthP(int(found.group("y")), month),) if 1 <= month <= 12 else None


def _dmy(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    return (DayP(date(int(found.group("y")), int(found.group("mo")), int(found.group("d")))),)


def _two_digit_year(text: str, ctx: Context) -> int:
    """ "87" as a year: 20yy when that is not more than a year ahead, else 19yy."""
    value = int(text)
    return 2000 + value if 2000 + value <= ctx.today.year + 1 else 1900 + value


def _md(found: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    month, day, year = int(found.group("mo")), int(found.group("d")), found.group("y")
    if year:
        return (DayP(date(_two_digit_year(year, ctx) if len(year) == 2 else int(year), month, day)),)
    date(2000, month, day)  # raises for 31 April
    return (MonthDayP(month, day),)


# A number right after one of these names a version, not a date ("version 1.2.2026", "v2.1.3",
# "release 3/5"); the fallback (core.timeparse.fallback) refuses the same.
VERSION_BEFORE = re.compile(r"(?:\b(?:version|ver|release|build|rev)\.?\s*|\bv\.?\s*)\Z", re.IGNORECASE)


def not_a_version(view: Scan, found: re.Match[str]) -> bool:
    return VERSION_BEFORE.search(view.before(found.start(), 12)) is None


_MD_PREPOSITIONS = re.compile(r"(?:^|\s)(?:on|since|from|until|till|by|before|after)\s+$")


def _md_strong(view: Scan, found: re.Match[str]) -> bool:
    """ "3/5" counts with a year, a preposition of time before it, or alone ("3/5 of the team" is a
    fraction); beside a time it joins ("3/5 at 2pm")."""
    if found.group("y") or _MD_PREPOSITIONS.search(view.before(found.start(), 12)):
        return True
    return bool(ONLY_PUNCT.fullmatch(view.text[: found.start()]) and ONLY_PUNCT.fullmatch(view.text[found.end() :]))


MONTHS = {
    "january": 1,
    "february": 2,
    "march": 3,
    "april": 4,
    "may": 5,
    "june": 6,
    "july": 7,
    "august": 8,
    "september": 9,
    "october": 10,
    "november": 11,
    "december": 12,
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "sept": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}


MONTH = rf"(?P<month>{alternatives(MONTHS)})(?:\.|(?![a-z]))"


ANY_WEEKDAY = rf"(?P<wd>{alternatives(WEEKDAYS)}|{alternatives(WEEKDAY_ABBR)})\.?"


_YEAR_AFTER = r"(?:,?\s+(?P<year>(?:19|20|21)\d\d)|,?\s+'(?P<yy>\d\d))?"


def _with_weekday(found: re.Match[str], pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    wd = found.group("wd")
    return (*pieces, WeekdayP(weekday_of(wd))) if wd else pieces


_ORDINAL_UNITS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")
_ORDINAL_TEENS = ("tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth")
_ORDINAL_TEENS += ("seventeenth", "eighteenth", "nineteenth")
# Days of the month in words: "the third of May", "May the twenty-first", "the thirty-first".
ORDINAL_DAYS: dict[str, int] = {word: index + 1 for index, word in enumerate(_ORDINAL_UNITS)}
ORDINAL_DAYS |= {word: index + 10 for index, word in enumerate(_ORDINAL_TEENS)}
ORDINAL_DAYS |= {"twentieth": 20, "thirtieth": 30, "thirty-first": 31, "thirty first": 31}
ORDINAL_DAYS |= {f"twenty{gap}{word}": 21 + index for index, word in enumerate(_ORDINAL_UNITS) for gap in ("-", " ")}
_ORDINAL_DAY_WORDS = "|".join(sorted(ORDINAL_DAYS, key=len, reverse=True)).replace(" ", r"\s+")
_ORDINAL_DAY = rf"(?<!-)(?P<dayword>{_ORDINAL_DAY_WORDS})"  # not "thirty-second"


def _en_date(found: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    words = found.groupdict().get("dayword")
    month = MONTHS[found.group("month")]
    day = ORDINAL_DAYS[" ".join(words.split())] if words else int(found.group("day"))
    yy = found.group("yy")
    year = found.group("year") or (str(_two_digit_year(yy, ctx)) if yy else None)
    main: Piece = DayP(date(int(year), month, day)) if year else MonthDayP(month, day)
    if not year:
        date(2000, month, day)  # raises for 31 April and the like (2000 is a leap year)
    return _with_weekday(found, (main,))


def _date_strong(view: Scan, found: re.Match[str]) -> bool:
    """ "may 3" in lower case without a year or an ordinal could be the verb; everything else is a date.
    An ordinal in words after the month ("March second") needs a capital, "the" or a preposition of
    time before it ("we march first", "may second the motion")."""
    if found.groupdict().get("dayword"):
        return (
            view.original_at(found.start("month")).isupper()
            or "the" in found.group(0).split()
            or view.prev_word(found.start()) in TIME_PREPOSITIONS
        )
    if (
        found.group("month") != "may"
        or found.group("year")
        or found.group("yy")
        or found.group("ord")
        or found.group("wd")
    ):
        return True
    return view.original_at(found.start("month")) == "M" or view.prev_word(found.start()) in TIME_PREPOSITIONS


def _after_preposition(view: Scan, found: re.Match[str]) -> bool:
    return view.prev_word(found.start()) in TIME_PREPOSITIONS


_ISSUE_AFTER = re.compile(r"\s+(?:issue|edition)(?!\w)")


def not_an_issue(view: Scan, found: re.Match[str]) -> bool:
    """ "the March 2024 issue", "the May edition": a magazine's, not a time to search."""
    return _ISSUE_AFTER.match(view.text, found.end()) is None


def _month_alone(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    return (MonthNameP(MONTHS[found.group("month")], MODES[found.group("mode")]),)


def _month_alone_strong(view: Scan, found: re.Match[str]) -> bool:
    return bool(found.group("mode")) or _after_preposition(view, found)


def _only_this(view: Scan, found: re.Match[str]) -> bool:
    """Nothing but punctuation around the match: the query is only "the 3rd"."""
    return bool(ONLY_PUNCT.fullmatch(view.text[: found.start()]) and ONLY_PUNCT.fullmatch(view.text[found.end() :]))


def _year(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    return (YearP(int(found.group("year"))),)


def _month_year(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    return (MonthP(int(found.group("year")), MONTHS[found.group("month")]),)


_MONTH_MODES = {"지난": "last", "저번": "last", "이번": "this", "다음": "next"}


def _ko_date(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    year, month, day = found.group("y"), int(found.group("mo")), found.group("d")
    if day is None:
        if not 1 <= month <= 12:
            raise ValueError(month)
        return (MonthP(int(year), month),) if year else (MonthNameP(month),)
    if year:
        return (DayP(date(int(year), month, int(day))),)
    date(2000, month, int(day))  # raises for 31 April
    return (MonthDayP(month, int(day)),)


# 3월호 (a magazine's March issue), 3월생 (born in March): about March, not a time to search.
NOT_AN_ISSUE = r"(?![호생])"


def _ja_date(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    year, month, day = found.group("y"), kanji_int(found.group("mo")), found.group("d")
    if not 1 <= month <= 12:
        raise ValueError(month)
    if day is None:
        return (MonthP(int(year), month),) if year else (MonthNameP(month),)
    if year:
        return (DayP(date(int(year), month, kanji_int(day))),)
    date(2000, month, kanji_int(day))  # raises for 31 April
    return (MonthDayP(month, kanji_int(day)),)


def _ja_dom(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    day = kanji_int(found.group("d"))
    return (DomP(day),) if 1 <= day <= 31 else None


_KO_YEAR_FOLLOWS = ("에", "엔", "도", "의", "부터", "까지", "쯤", "초", "말", "여름", "봄", "가을", "겨울", "때")
_KO_YEAR_FOLLOWS += ("상반기", "하반기", "중반", "후반")


def _ko_short_year_guard(view: Scan, found: re.Match[str]) -> bool:
    """12년에, 12년 여름: a year; 12년 동안 and "10년에 한 번" (once in ten years) are durations."""
    rest = view.text[found.end() : found.end() + 8].lstrip()
    if re.match(r"(?:에|엔)\s*한\s*번", rest):
        return False
    return rest.startswith(_KO_YEAR_FOLLOWS) or bool(re.match(r"\d{1,2}\s*(?:월|분기)", rest)) or not rest


ERAS = {"令和": 2018, "平成": 1988, "昭和": 1925, "大正": 1911}


ERA_LAST = {"令和": 99, "平成": 31, "昭和": 64, "大正": 15}


def ja_number(text: str) -> int | None:
    return 1 if text == "元" else number(text)


def _year_month_day(year: int, month_text: str | None, day_text: str | None) -> tuple[Piece, ...] | None:
    """A year, or a month of it, or a day of that month, from numerals written in digits or kanji."""
    if not month_text:
        return (YearP(year),)
    month = number(month_text)
    if month is None or not 1 <= month <= 12:
        return None
    if not day_text:
        return (MonthP(year, month),)
    day = number(day_text)
    return None if day is None else (DayP(date(year, month, day)),)


def _ja_era(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    era = found.group("era")
    count = ja_number(found.group("y"))
    if count is None or not 1 <= count <= ERA_LAST[era]:
        return None
    year = ERAS[era] + count
    return _year_month_day(year, found.group("mo"), found.group("d"))


_KANJI_DIGIT_YEAR = {"〇": "0", "零": "0", "一": "1", "二": "2", "三": "3", "四": "4"}
_KANJI_DIGIT_YEAR |= {"五": "5", "六": "6", "七": "7", "八": "8", "九": "9"}


def _ja_kanji_year(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    year = int("".join(_KANJI_DIGIT_YEAR[char] for char in found.group("y")))
    if not 1900 <= year <= 2199:
        return None
    return _year_month_day(year, found.group("mo"), found.group("d"))


def _dom_number(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    day = number(found.group("d"))
    return (DomP(day),) if day is not None and 1 <= day <= 31 else None


# "3일에 한 번", "1일에 2회", "3일에 걸쳐", "3日に1回": a rate or a duration, not a day of the month.
_KO_PER = re.compile(r"\s*에?\s*(?:한\s*번|두\s*번|걸쳐|\d+\s*(?:회|번|개|시간|잔|알|정))")


_JA_PER = re.compile(r"\s*に?\s*(?:一度|一回|[\d一二三四五六七八九十]+\s*(?:回|度|個|時間|錠))")


def _ja_dom_guard(view: Scan, found: re.Match[str]) -> bool:
    """二十三日に, 15日は: a day of the month; not 15日間 (fifteen days), 3日目, 月 before it (a date rule
    reads that), nor a kanji or digit glued before."""
    start = found.start()
    if start > 0 and (view.text[start - 1].isdigit() or kanji_at(view, start - 1)):
        return False
    return _JA_PER.match(view.text[found.end() :]) is None


def _ko_dom_guard(view: Scan, found: re.Match[str]) -> bool:
    """15일에: the 15th; not 3일에 한 번 (once every three days), nor 월 or a digit before it."""
    start = found.start()
    if start > 0 and (view.text[start - 1].isdigit() or re.match(r"[가-힣]", view.text[start - 1])):
        return False
    return _KO_PER.match(view.text[found.end() :]) is None


_KO_DAY_NUM = r"(?P<d>[1-9]|[12]\d|3[01])"


_JA_DAY_NUM = r"(?P<d>[1-9]|[12]\d|3[01]|[一二三四五六七八九十]{1,3})"


EN_MONTH_NAME_PATTERN = (
    r"(?P<month>january|february|march|april|may|june|july|august|september|october|november|december|"
    r"jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.?"
)


def _month_short_year(found: re.Match[str], ctx: Context) -> tuple[Piece, ...]:

    value = int(found.group("yy"))
    year = 2000 + value if 2000 + value <= ctx.today.year + 1 else 1900 + value
    return (MonthP(year, MONTHS[found.group("month")]),)


def _weekday_the_dom(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    """ "Tuesday the 3rd", "Sunday, the 8th": the latest day that is both (within two years)."""
    weekday = WEEKDAYS.get(found.group("wd")) if found.group("wd") in WEEKDAYS else WEEKDAY_ABBR[found.group("wd")]
    day = int(found.group("d"))
    if not 1 <= day <= 31:
        return None
    year, month = ctx.today.year, ctx.today.month
    for _ in range(24):
        if day <= ranges.days_in_month(year, month):
            candidate = date(year, month, day)
            if candidate <= ctx.today and candidate.weekday() == weekday:
                return (DayP(candidate),)
        year, month = ranges.add_months(year, month, -1)
    return None


_JA_SHORT_YEAR_AFTER = re.compile(r"(?:に|頃|ごろ|から|まで|当時|以降)")


def _ja_short_year_strong(view: Scan, found: re.Match[str]) -> bool:
    """98年に, 98年頃, 98年の夏 count; "10年は長い" (ten years are long) and 10年も do not."""
    return bool(_JA_SHORT_YEAR_AFTER.match(view.text, found.end())) or view.time_follows(found.end(), "の?")


def _d_mon_y(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:

    return (DayP(date(int(found.group("y")), MONTHS[found.group("mon")], int(found.group("d")))),)


COMMON: list[Rule] = [
    # 5.3.2026, 05.03.2026: day first, as every language that writes dots before the year does.
    rule(
        "dmy.dotted",
        "*",
        r"(?<![\d./-])(?P<d>\d{1,2})\.(?P<mo>\d{1,2})\.(?P<y>(?:19|20)\d\d)(?![\d]|\.\d)",
        _dmy,
        guard=not_a_version,
    ),
    # 3/5, 3/5/26, 03/05/2026: month first (US, Korean and Japanese order).
    rule(
        "md.slashed",
        "*",
        r"(?<![\d./-])(?P<mo>1[0-2]|0?[1-9])/(?P<d>3[01]|[12]\d|0?[1-9])(?:/(?P<y>(?:19|20)\d\d|\d\d))?(?![\d/])",
        _md,
        strong=_md_strong,
        guard=not_a_version,
    ),
    rule(
        "iso.datetime",
        "*",
        r"(?<![\d.:/-])(?P<y>\d{4})-(?P<mo>\d{1,2})-(?P<d>\d{1,2})"
        r"(?:[t ](?P<h>\d{1,2}):(?P<mi>\d{2})(?::\d{2}(?:\.\d+)?)?(?P<tz>z|[+-]\d\d:?\d\d)?)?(?![\d:])",
        _iso,
    ),
    rule(
        "iso.slashed",
        "*",
        r"(?<![\d./-])(?P<y>\d{4})\s?(?P<sep>[./])\s?(?P<mo>\d{1,2})\s?(?P=sep)\s?"
        r"(?P<d>\d{1,2})(?:\.(?!\d))?(?![\d/])",
        _ymd,
    ),
    rule("iso.month", "*", r"(?<![\d./:-])(?P<y>\d{4})-(?P<mo>\d{2})(?![\d:-])", _ym),
]


EN: list[Rule] = [
    rule(
        "en.d_mon_y",
        "en",
        START
        + r"(?P<d>\d{1,2})[-/](?P<mon>jan|feb|mar|apr|may|jun|jul|aug|sept|sep|oct|nov|dec)[-/](?P<y>(?:19|20)\d\d)"
        + STOP,
        _d_mon_y,
    ),
    rule(
        "en.the_nth_of_the_month",
        "en",
        START + r"(?:on\s+)?the\s+(?:(?P<d>\d{1,2})(?:st|nd|rd|th)|(?P<first>first))\s+of\s+the\s+month" + STOP,
        lambda m, _c: (DomP(1 if m.group("first") else int(m.group("d"))),),
        needs=("of the month",),
    ),
    rule(
        "en.weekday_the_dom",
        "en",
        START
        + r"(?P<wd>monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)"
        r"\.?,?\s+(?:the\s+)?(?P<d>\d{1,2})(?:st|nd|rd|th)" + STOP + r"(?!\s+of\s)",
        _weekday_the_dom,
    ),
    rule(
        "en.month_short_year",
        "en",
        START + EN_MONTH_NAME_PATTERN + r"\s+['’](?P<yy>\d\d)" + STOP,
        _month_short_year,
        needs=("'", "’"),
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
    rule(
        "en.month_year",
        "en",
        START + MONTH + r",?\s+(?:of\s+)?(?P<year>(?:19|20|21)\d\d)" + STOP,
        _month_year,
        guard=not_an_issue,
    ),
    rule(
        "en.month_day",
        "en",
        START + rf"(?:{ANY_WEEKDAY},?\s+)?" + MONTH + r"\s+(?:the\s+)?(?:(?P<day>\d{1,2})"
        r"(?P<ord>st|nd|rd|th)?|" + _ORDINAL_DAY + ")" + _YEAR_AFTER + r"(?![\w:])",
        _en_date,
        strong=_date_strong,
    ),
    rule(
        "en.day_month",
        "en",
        START
        + rf"(?:{ANY_WEEKDAY},?\s+)?(?:the\s+)?(?:(?P<day>\d{{1,2}})(?P<ord>st|nd|rd|th)?\s+(?:of\s+)?"
        + rf"|{_ORDINAL_DAY}\s+of\s+)"
        + MONTH
        + _YEAR_AFTER
        + r"(?!\w)",
        _en_date,
    ),
    rule(
        "en.month_alone",
        "en",
        START + r"(?:(?P<mode>last|this|next)\s+)?" + MONTH,
        _month_alone,
        strong=_month_alone_strong,
        guard=not_an_issue,
    ),
    rule(
        "en.year_alone",
        "en",
        r"(?<![\w.:/])(?<![\d.:/]-)(?P<year>(?:19|20|21)\d\d)(?![\w.:/-])",
        _year,
        strong=_after_preposition,
    ),
    rule(
        "en.dom",
        "en",
        START + r"(?:(?P<on>on)\s+)?the\s+(?P<day>\d{1,2})(?:st|nd|rd|th)" + STOP,
        lambda m, _c: (DomP(int(m.group("day"))),) if 1 <= int(m.group("day")) <= 31 else None,
        strong=lambda v, m: bool(m.group("on")) or _only_this(v, m),
    ),
]


KO: list[Rule] = [
    rule("ko.dom", "ko", _KO_DAY_NUM + r"\s*일(?=에|날)", _dom_number, guard=_ko_dom_guard, needs=("일",)),
    rule(
        "ko.short_year",
        "ko",
        r"(?<![\d'])['’]?(?P<yy>\d{2})\s*년(?:도)?",
        lambda m, c: (YearP(_two_digit_year(m.group("yy"), c)),),
        guard=_ko_short_year_guard,
    ),
    rule(
        "ko.month_mode",
        "ko",
        r"(?P<mode>지난|저번|이번|다음|올)\s*(?P<mo>1[0-2]|0?[1-9])\s*월" + NOT_AN_ISSUE + r"(?!\s*\d{1,2}\s*일)",
        lambda m, c: (
            (MonthP(c.today.year, int(m.group("mo"))),)
            if m.group("mode") == "올"
            else (MonthNameP(int(m.group("mo")), _MONTH_MODES[m.group("mode")]),)
        ),
    ),
    rule(
        "ko.date",
        "ko",
        r"(?<!\d)(?:(?P<y>\d{4})\s*년\s*)?(?P<mo>\d{1,2})\s*월" + NOT_AN_ISSUE + r"(?:\s*(?P<d>\d{1,2})\s*일)?",
        _ko_date,
    ),
    rule(
        "ko.year",
        "ko",
        r"(?<!\d)(?P<y>\d{4})\s*년(?!\s*\d{1,2}\s*월|\s*(?:전|동안|간|대))",
        lambda m, _c: (YearP(int(m.group("y"))),),
    ),
    rule(
        "ko.dom",
        "ko",
        r"(?<!\d)(?P<d>\d{1,2})\s*일(?!\s*(?:전|동안|간|째|후|차))",
        lambda m, _c: (DomP(int(m.group("d"))),) if 1 <= int(m.group("d")) <= 31 else None,
        strong=False,
    ),
]


JA: list[Rule] = [
    rule(
        "ja.short_year",
        "ja",
        r"(?<![\d'’])['’]?(?P<yy>\d{2})\s*年(?![前間後生代度目ぶ\d])",
        lambda m, c: (YearP(_two_digit_year(m.group("yy"), c)),),
        strong=_ja_short_year_strong,
    ),
    rule(
        "ja.era",
        "ja",
        r"(?P<era>令和|平成|昭和|大正)\s*(?P<y>元|\d{1,2}|[一二三四五六七八九十]{1,3})\s*年"
        r"(?:\s*(?P<mo>\d{1,2}|[一二三四五六七八九十]{1,3})\s*月(?:\s*(?P<d>\d{1,2}|[一二三四五六七八九十]{1,3})\s*日)?)?",
        _ja_era,
        needs=("令和", "平成", "昭和", "大正"),
    ),
    rule(
        "ja.kanji_year",
        "ja",
        r"(?P<y>[〇零一二三四五六七八九]{4})\s*年"
        r"(?:\s*(?P<mo>[一二三四五六七八九十]{1,2}|\d{1,2})\s*月(?:\s*(?P<d>[一二三四五六七八九十]{1,3}|\d{1,2})\s*日)?)?",
        _ja_kanji_year,
        needs=("年",),
    ),
    rule(
        "ja.dom",
        "ja",
        _JA_DAY_NUM + r"\s*日(?=に|は|$|[?？。、])(?!間|目|前|後|分)",
        _dom_number,
        guard=_ja_dom_guard,
        needs=("日",),
    ),
    rule(
        "ja.date",
        "ja",
        # 3月号 (a magazine's March issue) and 3月生まれ (born in March) are about March, not a time to search
        rf"(?<!\d)(?:(?P<y>\d{{4}})\s*年\s*)?(?P<mo>{KANJI_DIGITS})\s*月(?!曜|号|生まれ)"
        rf"(?:\s*(?P<d>{KANJI_DIGITS})\s*日)?",
        _ja_date,
    ),
    rule(
        "ja.year",
        "ja",
        r"(?<!\d)(?P<y>\d{4})\s*年(?!\s*\d{1,2}\s*月|\s*(?:度|代|間|前|後))",
        lambda m, _c: (YearP(int(m.group("y"))),),
    ),
    rule("ja.dom", "ja", rf"(?<!\d)(?P<d>{KANJI_DIGITS})\s*日(?!\s*(?:前|間|目|後|曜|本|中))", _ja_dom, strong=False),
]

RULES: dict[str, list[Rule]] = {"en": EN, "ko": KO, "ja": JA}
