"""Counts of units back or ahead: "3 days ago", 3일 전, 三日前, 사흘 전; "in 3 days", 글피, しあさって;
"the last 3 days", 지난 2주간, 過去2週間; "a few days ago", 며칠 전, 数日前; "2 or 3 days ago"; "a week
and a half ago", 1년 반 전, 十数年前; "two weekends ago".

A count is read at the grain of its unit ("2 weeks ago" is that Monday-to-Sunday week, "3 months ago"
that calendar month); "the last N units" is rolling, from the midnight N units back up to now; "a few"
is two to five units back. Sino-Korean numerals (삼일 전, 이주 전) count only with a unit after them and
전 or 지난/최근/과거 around them, so words made of the same syllables (삼일절, 오일, "이 일 전에") stay
words. The conventions are listed in ``reverie when --help``.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from core.timeparse import ranges
from core.timeparse.lang_ja import kanji_int
from core.timeparse.lang_ko import word_bounded, word_ends
from core.timeparse.model import TimeRange
from core.timeparse.pieces import Context, DayP, MonthP, Piece, RangeP, WeekP, YearP
from core.timeparse.relative import same_day_back, same_day_months_back, shift
from core.timeparse.rules import (
    START,
    STOP,
    Rule,
    Scan,
    ago,
    alone,
    days_from_today,
    last_n,
    rule,
    weekend_from_this,
    years_from_this,
)
from core.timeparse.text import (
    EN_NUMBER_PATTERN,
    KANJI_NUMBER_PATTERN,
    KO_DAY_COUNTS,
    KO_NATIVE,
    KO_NATIVE_PATTERN,
    KO_SINO_PATTERN,
    ko_sino_number,
    number,
)

EN_NUM = rf"(?P<n>{EN_NUMBER_PATTERN})"


EN_UNIT = r"(?P<unit>hour|day|week|month|year|fortnight)s?"


def count_of(text: str) -> int | None:
    text = " ".join(text.split())
    if text in ("a couple", "couple"):
        return 2
    return number(text)


def _en_ago(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count, unit = number(found.group("n")), found.group("unit")
    if count is None:
        return None
    if unit == "fortnight":
        count, unit = count * 2, "week"
    return ago(count, unit, ctx)


def _en_last_n(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = number(found.group("n")) if found.groupdict().get("n") else 1
    unit = found.group("unit")
    if count is None:
        return None
    if unit == "fortnight":
        count, unit = count * 14, "day"
    return last_n(count, unit, ctx)


KO_UNITS = {
    "시간": "hour",
    "일": "day",
    "주일": "week",
    "주": "week",
    "달": "month",
    "개월": "month",
    "년": "year",
    "해": "year",
}


COUNT = rf"(?P<n>\d{{1,4}}|{KO_NATIVE_PATTERN})"


KO_UNIT = r"(?P<unit>시간|주일|개월|일|주|달|년|해)"


SINO = rf"(?P<n>{KO_SINO_PATTERN})(?P<sp>\s*)(?P<unit>주일|개월|일|주|년)"


# Oil words before a spaced 오일 ("엔진 오일 전에"): there 오일 is oil, not five days.
_OIL_WORDS = ("엔진", "올리브", "식용", "에센셜", "코코넛", "헤어", "바디", "아로마", "베이비", "미션")


def _count(found: re.Match[str]) -> int | None:
    return number(found.group("n"))


def _ko_ago(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = _count(found)
    return ago(count, KO_UNITS[found.group("unit")], ctx) if count is not None else None


def _ko_last_n(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    groups = found.groupdict()
    if groups.get("days"):
        return last_n(KO_DAY_COUNTS[groups["days"]], "day", ctx)
    if groups.get("week"):
        return last_n(1, "week", ctx)
    count = _count(found)
    return last_n(count, KO_UNITS[found.group("unit")], ctx) if count is not None else None


def _sino_count(found: re.Match[str]) -> int | None:
    """The count of a Sino-Korean numeral before its unit, or None when the syllables mean something else."""
    numeral, unit = found.group("n"), found.group("unit")
    if numeral == "이" and found.group("sp") and unit in ("일", "주"):
        return None  # "이 일", "이 주": this work, this week
    return ko_sino_number(numeral)


def _sino_guard(view: Scan, found: re.Match[str]) -> bool:
    if (
        found.group("n") == "오"
        and found.group("unit") == "일"
        and view.before(found.start()).rstrip().endswith(_OIL_WORDS)
    ):
        return False
    return word_bounded(view, found)


def _ago_sino(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = _sino_count(found)
    return ago(count, KO_UNITS[found.group("unit")], ctx) if count is not None else None


def _last_n_sino(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = _sino_count(found)
    if count is None or (found.group("unit") in ("일", "주") and not found.group("dur")):
        return None
    return last_n(count, KO_UNITS[found.group("unit")], ctx)


JA_UNITS = {
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


JA_NUM = rf"(?P<n>\d{{1,4}}|{KANJI_NUMBER_PATTERN})"


JA_UNIT = r"(?P<unit>時間|週間|か月|ヶ月|カ月|ケ月|ヵ月|箇月|日|週|年)"


def _ja_ago(found: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    return ago(kanji_int(found.group("n")), JA_UNITS[found.group("unit")], ctx)


def _ja_last_n(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    return last_n(kanji_int(found.group("n")), JA_UNITS[found.group("unit")], ctx)


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


_EN_UNITS = {
    "hour": "hour",
    "hr": "hour",
    "h": "hour",
    "day": "day",
    "d": "day",
    "week": "week",
    "wk": "week",
    "w": "week",
    "month": "month",
    "mo": "month",
    "year": "year",
    "yr": "year",
    "y": "year",
    "fortnight": "fortnight",
}


_EN_UNIT = r"(?P<unit>hour|hr|day|week|wk|month|mo|year|yr|fortnight)s?"


_EN_COUNT = rf"(?P<n>{EN_NUMBER_PATTERN}|a\s+couple|couple)"


def _en_from_now(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = count_of(found.group("n"))
    if count is None or count <= 0:
        return None
    unit = _EN_UNITS[found.group("unit")]
    if found.group("base") == "today" and unit in ("week", "fortnight", "month", "year"):
        return tuple(DayP(piece.day) for piece in same_day_back(unit, -count, ctx) if isinstance(piece, DayP))
    return shift(unit, count, ctx)


def _en_ago_today(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = count_of(found.group("n"))
    if count is None or count <= 0:
        return None
    return same_day_back(_EN_UNITS[found.group("unit")], count, ctx)


def _en_ago_more(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    """ "a couple weeks ago", "3 hrs ago", "2 wks ago", "a decade ago"."""
    count = count_of(found.group("n"))
    if count is None or count <= 0:
        return None
    unit = found.group("unit")
    if unit.startswith("decade"):
        return (YearP(ctx.today.year - 10 * count),)
    return shift(_EN_UNITS[unit.rstrip("s")], -count, ctx)


def hour_around(minutes: int, ctx: Context, within: int = 72 * 60) -> tuple[Piece, ...] | None:
    """The hour around the moment ``minutes`` before now, 30 minutes either side ("20 minutes ago",
    20분 전, "two and a half hours ago"); None beyond ``within`` minutes."""
    if not 0 < minutes <= within:
        return None
    moment = ranges.elapsed(ctx.now, timedelta(minutes=-minutes))
    start = ranges.elapsed(moment, timedelta(minutes=-30))
    return (RangeP(TimeRange(start, ranges.elapsed(start, timedelta(hours=1)), "hour")),)


def _en_and_half(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = count_of(found.group("n"))
    return None if count is None else hour_around(60 * count + 30, ctx)


def _en_last_few(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    word = " ".join(found.group("few").split())
    count = 2 if "couple" in word else 5
    unit = found.group("unit")
    return last_n(count, unit, ctx)


def _latest_saturday(ctx: Context) -> date:
    monday = ranges.monday_of(ctx.today)
    saturday = monday + timedelta(days=5)
    return saturday if saturday <= ctx.today else saturday - timedelta(days=7)


def _en_last_weekends(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = count_of(found.group("n")) if found.group("n") else 1
    if count is None or not 0 < count <= 52:
        return None
    first = _latest_saturday(ctx) - timedelta(days=7 * (count - 1))
    return (RangeP(ranges.span(ranges.midnight(first, ctx.zone), ctx.now)),)


def _alone_or_after(words: tuple[str, ...]):
    def check(view: Scan, found: re.Match[str]) -> bool:

        return alone(view, found) or view.prev_word(found.start()) in words

    return check


EN_PAST_PREFIX = r"(?:(?:in|over|during|for|within)\s+)?(?:the\s+)?(?:last|past|previous)\s+"


_KO_AFTER_UNITS = {"일": "day", "주": "week", "주일": "week", "달": "month", "개월": "month", "년": "year"}


_JA_AFTER_UNITS = {"日": "day", "週間": "week", "か月": "month", "ヶ月": "month", "カ月": "month", "年": "year"}


def _ko_after(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    if found.group("week"):
        return shift("week", 1, ctx)
    count = number(found.group("n"))
    if count is None or not 0 < count <= 100:
        return None
    return shift(_KO_AFTER_UNITS[found.group("unit")], count, ctx)


def _ja_after(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = number(found.group("n"))
    if count is None or not 0 < count <= 100:
        return None
    return shift(_JA_AFTER_UNITS[found.group("unit")], count, ctx)


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
        "en.from_now",
        "en",
        START + _EN_COUNT + r"\s+" + _EN_UNIT + r"\s+from\s+(?P<base>now|today)" + STOP,
        _en_from_now,
        needs=("from",),
    ),
    rule(
        "en.in_count",
        "en",
        START + r"in\s+(?P<n>" + EN_NUMBER_PATTERN + r")\s+(?P<unit>day|week|month|year)s?(?:['’]?\s+time)?"
        r"(?=\s*(?:$|[?.!,]|from\s+now))",
        lambda m, c: None if (n := count_of(m.group("n"))) is None or n <= 0 else shift(m.group("unit"), n, c),
        strong=_alone_or_after(()),
        needs=("in ",),
    ),
    rule(
        "en.ago_today",
        "en",
        START + _EN_COUNT + r"\s+" + _EN_UNIT + r"\s+ago\s+today" + STOP,
        _en_ago_today,
        needs=("ago today",),
    ),
    rule(
        "en.ago_more",
        "en",
        START + r"(?P<n>\d{1,4}|a\s+couple|couple|a|an|one|two|three|four|five|six|seven|eight|nine|ten)\s*"
        r"(?P<unit>decades?|hrs?|wks?|yrs?|mos)\s+(?:or\s+so\s+)?(?:ago|back)" + STOP,
        _en_ago_more,
        needs=("ago", "back"),
    ),
    rule("en.ago_letter", "en", START + r"(?P<n>\d{1,4})(?P<unit>h|d|w|y)\s+ago" + STOP, _en_ago_more, needs=("ago",)),
    rule(
        "en.couple_ago",
        "en",
        START
        + r"(?P<n>a\s+couple|couple)(?:\s+of)?\s+(?P<unit>(?:hour|day|week|month|year)s)\s+(?:or\s+so\s+)?(?:ago|back)"
        + STOP,
        _en_ago_more,
        needs=("ago", "back"),
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
        "en.last_weekends",
        "en",
        START + EN_PAST_PREFIX + r"(?P<n>" + EN_NUMBER_PATTERN + r")\s+weekends" + STOP,
        _en_last_weekends,
        needs=("weekends",),
    ),
    rule(
        "en.few_ago",
        "en",
        START + r"(?:a\s+few|several|some)\s+(?P<unit>hour|day|week|month|year)s\s+(?:or\s+so\s+)?(?:ago|back)" + STOP,
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
        "en.weekends_ago",
        "en",
        START + EN_NUM + r"\s+weekends?\s+(?:ago|back)" + STOP,
        lambda m, c: weekend_from_this(-n)(m, c) if (n := number(m.group("n")) or 0) > 0 else None,
    ),
    rule("en.ago", "en", START + EN_NUM + r"\s+" + EN_UNIT + r"\s+(?:or\s+so\s+)?(?:ago|back)" + STOP, _en_ago),
    rule(
        "en.last_n",
        "en",
        START
        + r"(?:(?:in|over|during|for|within)\s+)?(?:the\s+)?(?:last|past|previous)\s+"
        + EN_NUM
        + r"\s+"
        + EN_UNIT
        + STOP,
        _en_last_n,
    ),
    # "the past week", "in the last month": the trailing period up to now ("last month" alone is October).
    rule(
        "en.past_unit",
        "en",
        START + r"(?:(?:(?:in|over|during|for|within)\s+)?(?:the|this)\s+past|"
        r"(?:in|over|during|for|within)\s+the\s+last)\s+(?P<unit>hour|day|week|month|year|fortnight)" + STOP,
        _en_last_n,
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
    rule(
        "ko.after",
        "ko",
        r"(?<![\d가-힣])(?:(?P<n>\d{1,3}|한|두|세|네|다섯|여섯|일곱|여덟|아홉|열)\s*(?P<unit>주일|개월|일|주|달|년)|(?P<week>일주일))"
        r"\s*(?:후|뒤)",
        _ko_after,
        guard=word_ends,
        needs=("후", "뒤"),
    ),
    rule("ko.three_days_ahead", "ko", r"(?<![가-힣])글피", days_from_today(3), guard=word_ends, needs=("글피",)),
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
    rule("ko.three_years_ago", "ko", r"재재작년|삼\s*년\s*전", years_from_this(-3), guard=word_bounded),
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
        guard=word_ends,
    ),
    rule(
        "ko.weekends_ago",
        "ko",
        r"(?<!\d)(?P<n>\d{1,2}|[한두세네])\s*주\s*전\s*주말",
        lambda m, c: weekend_from_this(-(int(m.group("n")) if m.group("n").isdigit() else KO_NATIVE[m.group("n")]))(
            m, c
        ),
        guard=word_ends,
    ),
    rule("ko.ago", "ko", COUNT + r"\s*" + KO_UNIT + r"\s*(?:쯤|정도|가량)?\s*전", _ko_ago, guard=word_ends),
    rule(
        "ko.ago_days",
        "ko",
        r"(?P<days>" + "|".join(KO_DAY_COUNTS) + r")\s*전",
        lambda m, c: ago(KO_DAY_COUNTS[m.group("days")], "day", c),
        guard=word_ends,
    ),
    rule("ko.ago_sino", "ko", SINO + r"\s*전", _ago_sino, guard=_sino_guard),
    rule(
        "ko.last_n_sino",
        "ko",
        r"(?:지난|최근|과거)\s*" + SINO + r"(?P<dur>\s*(?:간|동안))?",
        _last_n_sino,
        guard=word_ends,
    ),
    rule("ko.ago_week", "ko", r"일주일\s*전", lambda _m, c: ago(1, "week", c), guard=word_ends),
    rule(
        "ko.last_n",
        "ko",
        r"(?:지난|최근|과거)\s*(?:(?P<week>일주일)|(?P<days>"
        + "|".join(KO_DAY_COUNTS)
        + r")|"
        + COUNT
        + r"\s*"
        + KO_UNIT
        + r")(?:\s*(?:간|동안))?",
        _ko_last_n,
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
    rule(
        "ja.after",
        "ja",
        r"(?<![\d一二三四五六七八九十])(?P<n>\d{1,3}|[一二三四五六七八九十]{1,3})\s*(?P<unit>週間|か月|ヶ月|カ月|日|年)\s*後(?![\u4e00-\u9fff])",
        _ja_after,
        needs=("後",),
    ),
    rule("ja.three_days_ahead", "ja", r"しあさって|明明後日|明々後日", days_from_today(3), needs=("しあさって", "明")),
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
    rule(
        "ja.three_days_ago",
        "ja",
        r"一昨昨日|さきおととい|先一昨日",
        lambda _m, c: (DayP(c.today - timedelta(days=3)),),
    ),
    rule("ja.half_month_ago", "ja", r"半月前", lambda _m, c: (DayP(c.today - timedelta(days=15)),)),
    rule("ja.three_years_ago", "ja", r"一昨々年|一昨昨年|さきおととし", years_from_this(-3)),
    rule(
        "ja.few_ago",
        "ja",
        r"数\s*(?P<unit>時間|日|週間|週|か月|ヶ月|カ月|年)\s*前",
        lambda m, c: few_ago(_JA_FEW_UNITS[m.group("unit")], c),
    ),
    rule(
        "ja.kana_days",
        "ja",
        r"(?<![\u3041-\u309f])(?P<k>" + "|".join(_KANA_DAYS) + r")\s*(?:ほど|くらい|ぐらい)?\s*(?P<dir>前|まえ|後)",
        _kana_days,
        needs=tuple(_KANA_DAYS),
    ),
    rule("ja.ago", "ja", JA_NUM + r"\s*" + JA_UNIT + r"\s*(?:ほど|くらい|ぐらい)?\s*前", _ja_ago),
    rule("ja.last_n", "ja", r"(?:過去|最近|ここ|直近|この)\s*" + JA_NUM + r"\s*" + JA_UNIT + r"(?:間)?", _ja_last_n),
]

RULES: dict[str, list[Rule]] = {"en": EN, "ko": KO, "ja": JA}
