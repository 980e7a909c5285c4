"""Japanese rules.

Japanese has no spaces, so the guards look at the characters around a match. A one-kanji part of the
day (朝, 昼, 晩, 夜) counts only when no other kanji is glued to it (朝日新聞, 朝食, 毎朝, 夜景, 徹夜
are words, not times), unless that kanji belongs to another time word (昨日夜); alone it also needs a
particle after it (朝に, 夜は). 日中 is guarded the same way (一日中 is "all day", 日中関係 "Japan–China
relations"). 月 is a month only after a number (3月), so 月曜日 is Monday and 今月
this month; 日 is a day of the month only beside a month (11月3日, 先月3日) or as the end of a range
(3日から5日まで), so 三日坊主 and 毎日 are no dates. 3時間 and 3ヶ月 are durations, not times. Hiragana
day words (きのう, きょう) count only when a particle or a non-kana character follows (きょうだい is
"siblings").
"""

from __future__ import annotations

import re
from datetime import date

from core.timeparse.parts import PARTS
from core.timeparse.pieces import (
    ClockP,
    Context,
    DayP,
    DomP,
    MonthDayP,
    MonthNameP,
    MonthP,
    PartP,
    Piece,
    WeekdayP,
    YearP,
)
from core.timeparse.rules import (
    Rule,
    Scan,
    ago,
    day_and_part,
    days_from_today,
    last_n,
    months_from_this,
    recent_weekend,
    relative,
    rule,
    weekend_from_this,
    weeks_from_this,
    years_from_this,
)
from core.timeparse.text import KANJI_NUMBER_PATTERN, number

_KANJI = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff々]")
_HIRAGANA = re.compile(r"[\u3041-\u309f]")
_KANA_PARTICLES = (
    "は",
    "に",
    "の",
    "も",
    "が",
    "を",
    "から",
    "まで",
    "で",
    "こそ",
    "って",
    "ね",
    "よ",
    "か",
    "、",
    "。",
)
_PART_PARTICLES = ("に", "は", "も", "から", "まで", "ごろ", "頃", "中", "、", "。", ",")

WEEKDAYS = {"月": 0, "火": 1, "水": 2, "木": 3, "金": 4, "土": 5, "日": 6}
UNITS = {
    "時間": "hour",
    "日": "day",
    "週間": "week",
    "週": "week",
    "か月": "month",
    "ヶ月": "month",
    "カ月": "month",
    "ケ月": "month",
    "ヵ月": "month",
    "箇月": "month",
    "年": "year",
}
PART_NAMES = {
    "早朝": "early_morning",
    "明け方": "dawn",
    "夜明け": "dawn",
    "未明": "dawn",
    "午前中": "forenoon",
    "午前": "forenoon",
    "午後": "afternoon",
    "夕方": "late_afternoon",
    "夕刻": "late_afternoon",
    "深夜": "late_night",
    "夜遅く": "late_night",
    "真夜中": "late_night",
    "夜中": "late_night",
    "日中": "daytime",
    "朝": "morning",
    "昼": "midday",
    "晩": "evening",
    "夜": "night",
}
_SINGLE = {"朝", "昼", "晩", "夜"}
_BOUNDED = _SINGLE | {"日中"}

NUM = rf"(?P<n>\d{{1,4}}|{KANJI_NUMBER_PATTERN})"
UNIT = r"(?P<unit>時間|週間|か月|ヶ月|カ月|ケ月|ヵ月|箇月|日|週|年)"
WHICH = {"先々": -2, "先": -1, "今": 0, "来": 1, "再来": 2}


def kanji_at(view: Scan, index: int) -> bool:
    return 0 <= index < len(view.text) and bool(_KANJI.match(view.text[index]))


def kanji_bounded(view: Scan, found: re.Match[str]) -> bool:
    """No kanji glued before or after, unless it belongs to another time word."""
    start, end = found.start(), found.end()
    if kanji_at(view, start - 1) and start not in view.ends:
        return False
    return not (kanji_at(view, end) and end not in view.starts)


def kana_bounded(view: Scan, found: re.Match[str]) -> bool:
    """No hiragana glued before, and after it a particle or no hiragana (きょうだい is "siblings")."""
    start, end = found.start(), found.end()
    if start > 0 and _HIRAGANA.match(view.text[start - 1]):
        return False
    rest = view.text[end : end + 4]
    return not rest or not _HIRAGANA.match(rest[0]) or rest.startswith(_KANA_PARTICLES)


def _part_guard(view: Scan, found: re.Match[str]) -> bool:
    return found.group("p") not in _BOUNDED or kanji_bounded(view, found)


SINCE_WORDS = ("以降", "以来")


def particle_follows(view: Scan, end: int) -> bool:
    """Nothing but spaces, a particle of time (に, は, から, ごろ ...) or 以降 / 以来 after ``end``."""
    rest = view.text[end : end + 3]
    return not rest.strip() or rest.startswith(_PART_PARTICLES) or rest.startswith(SINCE_WORDS)


def part_strong(view: Scan, found: re.Match[str]) -> bool:
    return found.group("p") not in _SINGLE or particle_follows(view, found.end())


def _weekday_guard(view: Scan, found: re.Match[str]) -> bool:
    """Not "every Monday" (毎週月曜日), and 日曜 glued to another kanji (日曜大工, DIY) is a word."""
    if view.before(found.start(), 2).endswith(("毎週", "毎")):
        return False
    return bool(found.group("day")) or not kanji_at(view, found.end())


def _int(token: str) -> int:
    value = number(token)
    if value is None:
        raise ValueError(token)
    return value


def _date(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    year, month, day = found.group("y"), _int(found.group("mo")), found.group("d")
    if not 1 <= month <= 12:
        raise ValueError(month)
    if day is None:
        return (MonthP(int(year), month),) if year else (MonthNameP(month),)
    if year:
        return (DayP(date(int(year), month, _int(day))),)
    date(2000, month, _int(day))  # raises for 31 April
    return (MonthDayP(month, _int(day)),)


def _ago(found: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    return ago(_int(found.group("n")), UNITS[found.group("unit")], ctx)


def _last_n(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    return last_n(_int(found.group("n")), UNITS[found.group("unit")], ctx)


def _clock(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    hour = _int(found.group("h"))
    minute = 30 if found.group("half") else _int(found.group("m")) if found.group("m") else 0
    if hour > 24 or minute > 59:
        return None
    return (ClockP(hour % 24, minute, "24h" if hour == 0 or hour > 12 else None),)


def _dom(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    day = _int(found.group("d"))
    return (DomP(day),) if 1 <= day <= 31 else None


# Day counts spelled in kana: みっか前 (three days ago), ふつか後; ついたち is only the first of a month.
_KANA_DAYS = {
    "ふつか": 2,
    "みっか": 3,
    "よっか": 4,
    "いつか": 5,
    "むいか": 6,
    "なのか": 7,
    "ようか": 8,
    "ここのか": 9,
    "とおか": 10,
    "はつか": 20,
}


def _kana_days(found: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    count = _KANA_DAYS[found.group("k")]
    if found.group("dir") in ("前", "まえ"):
        return ago(count, "day", ctx)
    return days_from_today(count)(found, ctx)


_DIGITS = rf"\d{{1,2}}|{KANJI_NUMBER_PATTERN}"

RULES: list[Rule] = [
    rule("ja.day_before_yesterday", "ja", r"一昨日|おととい", days_from_today(-2), guard=kana_bounded),
    rule("ja.yesterday", "ja", r"昨日|きのう", days_from_today(-1), guard=kana_bounded),
    rule("ja.today", "ja", r"今日|本日|きょう", days_from_today(0), guard=kana_bounded),
    rule("ja.tomorrow", "ja", r"明日|あした", days_from_today(1), guard=kana_bounded),
    rule("ja.day_after_tomorrow", "ja", r"明後日|あさって", days_from_today(2), guard=kana_bounded),
    rule("ja.last_night", "ja", r"昨夜|昨晩|ゆうべ|夕べ", day_and_part(-1, "night"), guard=kana_bounded),
    rule("ja.this_morning", "ja", r"今朝|けさ", day_and_part(0, "morning"), guard=kana_bounded),
    rule("ja.tonight", "ja", r"今夜|今晩", day_and_part(0, "night")),
    rule("ja.week", "ja", r"(?P<which>先々|再来|先|今|来)週(?!末)", relative(WHICH, weeks_from_this)),
    rule("ja.weekend", "ja", r"(?P<which>先々|先|今|来)週末", relative(WHICH, weekend_from_this)),
    rule(
        "ja.the_weekend",
        "ja",
        r"(?<![毎先今来々])週末",
        recent_weekend,
        strong=lambda v, m: v.text[m.end() : m.end() + 1] in ("に", "は", "、", ""),
    ),
    # 先月号, 今月号: last / this month's issue of a magazine, not a time to search
    rule("ja.month", "ja", r"(?P<which>先々|再来|先|今|来)月(?!曜|号)", relative(WHICH, months_from_this)),
    rule("ja.year_before_last", "ja", r"一昨年|おととし", years_from_this(-2)),
    rule("ja.last_year", "ja", r"去年|昨年", years_from_this(-1)),
    rule("ja.this_year", "ja", r"今年|本年", years_from_this(0)),
    rule("ja.next_year", "ja", r"来年", years_from_this(1)),
    rule("ja.year_after_next", "ja", r"再来年", years_from_this(2)),
    rule(
        "ja.kana_days",
        "ja",
        r"(?<![\u3041-\u309f])(?P<k>" + "|".join(_KANA_DAYS) + r")\s*(?:ほど|くらい|ぐらい)?\s*(?P<dir>前|まえ|後)",
        _kana_days,
        needs=tuple(_KANA_DAYS),
    ),
    rule("ja.ago", "ja", NUM + r"\s*" + UNIT + r"\s*(?:ほど|くらい|ぐらい)?\s*前", _ago),
    rule("ja.last_n", "ja", r"(?:過去|最近|ここ|直近|この)\s*" + NUM + r"\s*" + UNIT + r"(?:間)?", _last_n),
    rule(
        "ja.weekday",
        "ja",
        r"(?P<mode>この前の|この間の|前の)?\s*(?P<wd>[月火水木金土日])曜(?P<day>日)?",
        lambda m, _c: (WeekdayP(WEEKDAYS[m.group("wd")], "last" if m.group("mode") else "bare"),),
        guard=_weekday_guard,
    ),
    rule(
        "ja.date",
        "ja",
        # 3月号 (a magazine's March issue) and 3月生まれ (born in March) are about March, not a time to search
        rf"(?<!\d)(?:(?P<y>\d{{4}})\s*年\s*)?(?P<mo>{_DIGITS})\s*月(?!曜|号|生まれ)"
        rf"(?:\s*(?P<d>{_DIGITS})\s*日)?",
        _date,
    ),
    rule(
        "ja.year",
        "ja",
        r"(?<!\d)(?P<y>\d{4})\s*年(?!\s*\d{1,2}\s*月|\s*(?:度|代|間|前|後))",
        lambda m, _c: (YearP(int(m.group("y"))),),
    ),
    rule("ja.dom", "ja", rf"(?<!\d)(?P<d>{_DIGITS})\s*日(?!\s*(?:前|間|目|後|曜|本|中))", _dom, strong=False),
    rule(
        "ja.part",
        "ja",
        "(?P<p>" + "|".join(sorted(PART_NAMES, key=len, reverse=True)) + ")",
        lambda m, _c: (PartP(PARTS[PART_NAMES[m.group("p")]]),),
        strong=part_strong,
        guard=_part_guard,
    ),
    rule(
        "ja.clock",
        "ja",
        rf"(?<!\d)(?P<h>{_DIGITS})\s*時(?!間|代|点|期|刻|計)"
        rf"(?:\s*(?P<m>\d{{1,2}}|{KANJI_NUMBER_PATTERN})\s*分(?!\s*(?:前|間|後))|(?P<half>半))?",
        _clock,
    ),
]
