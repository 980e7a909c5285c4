"""Whole counts of units back or ahead: "3 days ago", 3일 전, 三日前, 사흘 전, みっか前; "in 3 days",
"3 weeks from now", 3일 후, 글피, しあさって; "the last 3 days", "the past week", 지난 2주간, 過去2週間; "a
week ago today"; "two weekends ago"; "in 15 minutes", "in half an hour".

A count is read at the grain of its unit ("2 weeks ago" is that Monday-to-Sunday week, "3 months ago"
that calendar month); "the last N units" is rolling, from the midnight N units back up to now.
Sino-Korean numerals (삼일 전, 이주 전) count only with a unit after them and 전 or 지난/최근/과거 around
them, so words made of the same syllables (삼일절, 오일, "이 일 전에") stay words. Approximate and
fractional counts ("a few", "2 or 3", "and a half") are in :mod:`core.timeparse.approximate`.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from core.timeparse import ranges
from core.timeparse.lang_ja import kanji_int
from core.timeparse.lang_ko import word_bounded, word_ends
from core.timeparse.model import TimeRange
from core.timeparse.pieces import Context, DayP, Piece, RangeP, YearP
from core.timeparse.relative import same_day_back, shift
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


EN: list[Rule] = [
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
        "en.last_weekends",
        "en",
        START + EN_PAST_PREFIX + r"(?P<n>" + EN_NUMBER_PATTERN + r")\s+weekends" + STOP,
        _en_last_weekends,
        needs=("weekends",),
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
        "ko.after",
        "ko",
        r"(?<![\d가-힣])(?:(?P<n>\d{1,3}|한|두|세|네|다섯|여섯|일곱|여덟|아홉|열)\s*(?P<unit>주일|개월|일|주|달|년)|(?P<week>일주일))"
        r"\s*(?:후|뒤)",
        _ko_after,
        guard=word_ends,
        needs=("후", "뒤"),
    ),
    rule("ko.three_days_ahead", "ko", r"(?<![가-힣])글피", days_from_today(3), guard=word_ends, needs=("글피",)),
    rule("ko.three_years_ago", "ko", r"재재작년|삼\s*년\s*전", years_from_this(-3), guard=word_bounded),
    rule(
        "ko.three_days_ago",
        "ko",
        r"그끄저께|그끄제",
        lambda _m, c: (DayP(c.today - timedelta(days=3)),),
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
        "ja.after",
        "ja",
        r"(?<![\d一二三四五六七八九十])(?P<n>\d{1,3}|[一二三四五六七八九十]{1,3})\s*(?P<unit>週間|か月|ヶ月|カ月|日|年)\s*後(?![\u4e00-\u9fff])",
        _ja_after,
        needs=("後",),
    ),
    rule("ja.three_days_ahead", "ja", r"しあさって|明明後日|明々後日", days_from_today(3), needs=("しあさって", "明")),
    rule(
        "ja.three_days_ago",
        "ja",
        r"一昨昨日|さきおととい|先一昨日",
        lambda _m, c: (DayP(c.today - timedelta(days=3)),),
    ),
    rule("ja.three_years_ago", "ja", r"一昨々年|一昨昨年|さきおととし", years_from_this(-3)),
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
