"""Weekdays: "Tuesday", "last Tuesday", "this coming Monday", "sat night", 화요일, 火曜日; "Tuesday
before last", "two Mondays ago"; ordinal weekdays ("the first Monday of this month", "the last Friday
of October", 10월 마지막 금요일, 10月の第2月曜日).

A weekday alone is the latest on or before today, "last Monday" the latest before today, "this/next
Monday" the one in this/next week (see :mod:`core.timeparse.resolve`); "two Mondays ago" is the Monday
before last Monday; an ordinal weekday is that day of the month meant (a month name alone is the latest
that has begun).
"""

from __future__ import annotations

import re
from datetime import timedelta

from core.timeparse.counts import count_of
from core.timeparse.lang_en import (
    ABBR_WORDS,
    MODES,
    WEEKDAY_ABBR,
    WEEKDAYS,
    abbr_beside_guard,
    abbr_weekday,
    alternatives,
    weekday_of,
)
from core.timeparse.lang_ja import kanji_at
from core.timeparse.pieces import Context, DayP, NthWeekdayP, Piece, WeekdayP
from core.timeparse.rules import START, STOP, Rule, Scan, rule


def _weekday(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    return (WeekdayP(weekday_of(found.group("wd")), MODES[found.group("mode")]),)


_PART_AHEAD = r"\s+(?:(?:in\s+the|at)\s+)?(?:(?:early|late)\s+)?(?:morning|afternoon|evening|night)(?!\w)"


KO_WEEKDAYS = {"월": 0, "화": 1, "수": 2, "목": 3, "금": 4, "토": 5, "일": 6}


KO_MODES = {"지난": "last", "저번": "last", "이번": "this", "다음": "next", None: "bare"}


JA_WEEKDAYS = {"月": 0, "火": 1, "水": 2, "木": 3, "金": 4, "土": 5, "日": 6}


def _weekday_guard(view: Scan, found: re.Match[str]) -> bool:
    """Not "every Monday" (毎週月曜日), and 日曜 glued to another kanji (日曜大工, DIY) is a word."""
    if view.before(found.start(), 2).endswith(("毎週", "毎")):
        return False
    return bool(found.group("day")) or not kanji_at(view, found.end())


_EN_WEEKDAYS = {"monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5, "sunday": 6}


_EN_NTH = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_EN_NTH |= {"fifth": 5, "5th": 5, "last": -1, "final": -1}


_KO_NTH = {"첫째": 1, "첫": 1, "첫번째": 1, "둘째": 2, "두번째": 2, "셋째": 3, "세번째": 3, "넷째": 4, "네번째": 4}
_KO_NTH |= {"다섯째": 5, "다섯번째": 5, "마지막": -1}


_KO_WEEKDAYS = {"월": 0, "화": 1, "수": 2, "목": 3, "금": 4, "토": 5, "일": 6}


JA_NTH = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5}


def _en_nth(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    return (NthWeekdayP(_EN_NTH[found.group("nth")], _EN_WEEKDAYS[found.group("wd")]),)


def _en_nth_guard(view: Scan, found: re.Match[str]) -> bool:
    return re.match(r"\s+(?:of|in)\s", view.text[found.end() : found.end() + 5]) is not None


def _ko_nth(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    return (NthWeekdayP(_KO_NTH[re.sub(r"\s", "", found.group("nth"))], _KO_WEEKDAYS[found.group("wd")]),)


def _ja_nth(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    nth = -1 if found.group("last") else JA_NTH[found.group("n")]
    return (NthWeekdayP(nth, JA_WEEKDAYS[found.group("wd")]),)


def _en_weekdays_ago(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = count_of(found.group("n"))
    if count is None or count <= 0 or count > 52:
        return None
    weekday = WEEKDAYS[found.group("wd")]
    back = (ctx.today.weekday() - weekday) % 7 or 7  # the latest such weekday before today
    return (DayP(ctx.today - timedelta(days=back + 7 * (count - 1))),)


def _abbr_guard(view: Scan, found: re.Match[str]) -> bool:
    """ "on Thu", "since Tues", "until Fri": an abbreviation after a preposition; "sat", "sun" and "wed"
    only when written with a capital ("on Sat")."""
    token = found.group("wd")
    return token not in ABBR_WORDS or view.original_at(found.start("wd")).isupper()


def _weekday_abbr(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    return (WeekdayP(WEEKDAY_ABBR[found.group("wd")]),)


def _coming_weekday(found: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    """ "this coming Monday": the next one after today (explicit future)."""
    ahead = (WEEKDAYS[found.group("wd")] - ctx.today.weekday()) % 7 or 7
    return (DayP(ctx.today + timedelta(days=ahead)),)


def _weekday_before_last(found: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    """ "Tuesday before last": the one before the latest Tuesday before today."""
    back = (ctx.today.weekday() - WEEKDAYS[found.group("wd")]) % 7 or 7
    return (DayP(ctx.today - timedelta(days=back + 7)),)


EN: list[Rule] = [
    rule(
        "en.coming_weekday",
        "en",
        START + r"(?:this\s+)?coming\s+(?P<wd>" + "|".join(WEEKDAYS) + r")" + STOP,
        _coming_weekday,
        needs=("coming",),
    ),
    rule(
        "en.weekday_before_last",
        "en",
        START + r"(?:the\s+)?(?P<wd>" + "|".join(WEEKDAYS) + r")\s+before\s+last" + STOP,
        _weekday_before_last,
        needs=("before last",),
    ),
    rule(
        "en.weekdays_ago",
        "en",
        START + r"(?P<n>two|three|four|five|\d{1,2})\s+(?P<wd>" + "|".join(WEEKDAYS) + r")s\s+ago" + STOP,
        _en_weekdays_ago,
        needs=("s ago",),
    ),
    rule(
        "en.weekday_abbr_on",
        "en",
        r"(?:(?<=\bon\s)|(?<=\bsince\s)|(?<=\buntil\s)|(?<=\btill\s))"
        r"(?P<wd>tues|thurs|thur|weds|mon|tue|wed|thu|fri|sat|sun)\.?" + STOP,
        _weekday_abbr,
        guard=_abbr_guard,
        needs=("on ", "since ", "until ", "till "),
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
        "en.weekday",
        "en",
        START + r"(?:(?P<mode>last|past|previous|this|next)\s+)?"
        rf"(?P<wd>{alternatives(WEEKDAYS)})" + STOP + r"(?!\s+night\s+football)",
        _weekday,
    ),
    rule(
        "en.weekday_abbr",
        "en",
        START + r"(?P<mode>last|this|next)\s+"
        rf"(?P<wd>{alternatives(WEEKDAY_ABBR)})\.?" + STOP,
        _weekday,
    ),
    # "sat night", "fri morning", "thurs evening": an abbreviated weekday before a part of the day; "fri 3pm",
    # "tues at 9am" before a clock time when the abbreviation is no English word.
    rule(
        "en.weekday_abbr_part",
        "en",
        START + rf"(?P<wd>{alternatives(WEEKDAY_ABBR)})\.?(?={_PART_AHEAD})",
        abbr_weekday,
        guard=abbr_beside_guard,
        needs=("morning", "afternoon", "evening", "night"),
    ),
]


KO: list[Rule] = [
    rule(
        "ko.nth_weekday",
        "ko",
        r"(?P<nth>첫\s*번째|두\s*번째|세\s*번째|네\s*번째|다섯\s*번째|첫째|둘째|셋째|넷째|다섯째|마지막|첫)"
        r"\s*(?:주\s*)?(?P<wd>[월화수목금토일])요일",
        _ko_nth,
    ),
    rule(
        "ko.weekday",
        "ko",
        r"(?:(?P<mode>지난|저번|이번|다음)\s*)?(?P<wd>[월화수목금토일])요일",
        lambda m, _c: (WeekdayP(KO_WEEKDAYS[m.group("wd")], KO_MODES[m.group("mode")]),),
    ),
]


JA: list[Rule] = [
    rule(
        "ja.nth_weekday",
        "ja",
        r"(?:第\s*(?P<n>[1-5一二三四五])|(?P<last>最終|最後の))\s*(?P<wd>[月火水木金土日])曜日?",
        _ja_nth,
    ),
    rule(
        "ja.weekday",
        "ja",
        r"(?P<mode>この前の|この間の|前の)?\s*(?P<wd>[月火水木金土日])曜(?P<day>日)?",
        lambda m, _c: (WeekdayP(JA_WEEKDAYS[m.group("wd")], "last" if m.group("mode") else "bare"),),
        guard=_weekday_guard,
    ),
]

RULES: dict[str, list[Rule]] = {"en": EN, "ko": KO, "ja": JA}
