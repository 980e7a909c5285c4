"""Everyday forms the other rule sets leave out, probed language by language (round 3 of issue 13).

Conventions (stated in ``reverie when --help`` too):

- "early/mid/late 2019" (and "early last year", "mid-this year") are thirds of the year: January –
  April, May – August, September – December; "early/mid/late 90s", 90년대 초반/중반/후반, 90年代前半/
  半ば/後半: years 0 – 3, 3 – 6, 6 – 9 of the decade (1990 – 1993, 1993 – 1996, 1996 – 1999, ends
  included); "the nineties" is the decade;
- counts ahead go forward at their grain: "3 weeks from now" is that Monday-to-Sunday week, "a week
  from today" that day, "in 3 days"/"3일 후"/"3日後" that day, 글피 and しあさって three days ahead;
- "a week ago today", "a month ago today": that very day;
- "the last few days/weeks", ここ数日, 최근 며칠: rolling, the last five units up to now (as "a few
  days ago" is two to five days back); "the last hour", "the last 30 minutes": elapsed time;
- "two and a half hours ago", 1時間半前, 세 시간 반 전: the hour around that moment, as "20 minutes ago";
- "a decade ago": the year ten years back; 半年前, 반년 전, "half a year ago": the month six back;
- "two Mondays ago": the Monday before last Monday; "the last 3 weekends": from the Saturday of the
  third latest weekend that has begun up to now;
- meals: breakfast is the morning, dinner and supper the evening, 昼休み and 점심시간 midday;
- Japanese eras: 令和 (2019 = 元年), 平成 (1989), 昭和 (1926), 大正 (1912), with month and day;
- a day of the month alone, 15日に, 二十三日, 15일에: the latest such day that has begun;
- round 5: "Tuesday the 3rd" the latest Tuesday that is a 3rd; "this day last year" that very day;
  "month to date", "so far this week": from the unit's start to now; "midweek": Wednesday – Thursday;
  작년 연말, 去年の年末: that year's end; 十数年前, 십여 년 전: 11 – 19 years back; 98年に (a two-digit
  year only before に, 頃, から, まで ...: 10年は長い is ten years); the wee hours (dawn), the dead of
  night (late night), 밤늦게, 아침 일찍, 昼過ぎ (12 – 15), 昼前 (9 – 12), 夕暮れ (16 – 19).
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from core.timeparse import lang_ja, lang_ko, ranges
from core.timeparse.lang_en import ABBR_WORDS, WEEKDAY_ABBR, WEEKDAYS
from core.timeparse.model import TimeRange
from core.timeparse.parts import PARTS
from core.timeparse.periods import few_ago, quarter_range
from core.timeparse.pieces import (
    ClockP,
    ClockSpanP,
    Context,
    DayP,
    DomP,
    EdgeP,
    MonthP,
    PartP,
    Piece,
    RangeP,
    WeekdayP,
    WeekP,
    YearP,
)
from core.timeparse.rules import START, STOP, Rule, Scan, last_n, rule, weekend_from_this
from core.timeparse.text import EN_NUMBER_PATTERN, number

# Thirds of a year and of a decade -------------------------------------------------------------------

_THIRDS = {"early": 0, "beginning": 0, "mid": 1, "middle": 1, "late": 2, "end": 2}


def _year_third(year: int, third: int, ctx: Context) -> tuple[Piece, ...]:
    first = date(year, 1 + 4 * third, 1)
    end = date(year + 1, 1, 1) if third == 2 else date(year, 5 + 4 * third, 1)
    return (RangeP(ranges.span(ranges.midnight(first, ctx.zone), ranges.midnight(end, ctx.zone))),)


def _decade_third(start_year: int, third: int, ctx: Context) -> tuple[Piece, ...]:
    first = date(start_year + 3 * third, 1, 1)
    end = date(start_year + 3 * third + 4, 1, 1)
    return (RangeP(ranges.span(ranges.midnight(first, ctx.zone), ranges.midnight(end, ctx.zone))),)


def _short_decade(digit: int, ctx: Context) -> int:
    """ "90s" → 1990, "20s" → 2020 when that has begun (as :mod:`core.timeparse.periods` reads them)."""
    year = 2000 + digit * 10
    return year if year <= ctx.today.year else year - 100


_EN_DECADE_WORDS = {"sixties": 6, "seventies": 7, "eighties": 8, "nineties": 9}
# With its century spoken ("the nineteen-nineties", "twenty-twenties") every decade word is plain.
_EN_CENTURY_WORDS = {"nineteen": 1900, "twenty": 2000}
_EN_DECADE_WORDS_WITH_CENTURY = _EN_DECADE_WORDS | {"tens": 1, "twenties": 2, "thirties": 3, "forties": 4, "fifties": 5}


def _en_year_third(found: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    which = found.group("which")
    year = int(found.group("year")) if found.group("year") else ctx.today.year + {"last": -1, "this": 0}[which]
    return _year_third(year, _THIRDS[found.group("edge")], ctx)


def _en_decade(found: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    if found.group("c"):
        start = int(found.group("c")) * 100 + int(found.group("d")) * 10
    elif found.group("dd"):
        start = _short_decade(int(found.group("dd")), ctx)
    elif found.group("cw"):
        start = _EN_CENTURY_WORDS[found.group("cw")] + 10 * _EN_DECADE_WORDS_WITH_CENTURY[found.group("cword")]
    else:
        start = 1900 + 10 * _EN_DECADE_WORDS[found.group("word")]
    edge = found.group("edge")
    if edge is None:
        end = ranges.midnight(date(start + 10, 1, 1), ctx.zone)
        return (RangeP(ranges.span(ranges.midnight(date(start, 1, 1), ctx.zone), end)),)
    return _decade_third(start, _THIRDS[edge], ctx)


_KO_DECADE_EDGES = {"초반": 0, "초": 0, "중반": 1, "후반": 2, "말": 2}
_JA_DECADE_EDGES = {"前半": 0, "初め": 0, "初頭": 0, "半ば": 1, "中頃": 1, "後半": 2, "末": 2, "終わり": 2}


def _cjk_decade_edge(table: dict[str, int]):
    def build(found: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
        start = (
            int(found.group("c")) * 100 + int(found.group("d")) * 10
            if found.group("c")
            else _short_decade(int(found.group("d")), ctx)
        )
        return _decade_third(start, table[found.group("edge")], ctx)

    return build


# Counts ahead and back ---------------------------------------------------------------------------------

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


def _count_of(text: str) -> int | None:
    text = " ".join(text.split())
    if text in ("a couple", "couple"):
        return 2
    return number(text)


def _shift(unit: str, count: int, ctx: Context) -> tuple[Piece, ...] | None:
    """``count`` units from today (negative: back), at the unit's grain."""
    today = ctx.today
    if unit == "fortnight":
        unit, count = "week", 2 * count
    if unit == "hour":
        moment = ranges.elapsed(ctx.now, timedelta(hours=count)).replace(minute=0, second=0, microsecond=0)
        return (RangeP(TimeRange(moment, ranges.elapsed(moment, timedelta(hours=1)), "hour")),)
    if unit == "day":
        return (DayP(today + timedelta(days=count)),)
    if unit == "week":
        return (WeekP(ranges.monday_of(today + timedelta(days=7 * count))),)
    if unit == "month":
        return (MonthP(*ranges.add_months(today.year, today.month, count)),)
    return (YearP(today.year + count),)


def _same_day(unit: str, count: int, ctx: Context) -> tuple[Piece, ...]:
    """The very day ``count`` units back: "a week ago today", "a month ago today"."""
    today = ctx.today
    if unit == "fortnight":
        unit, count = "day", 14 * count
    if unit == "day":
        return (DayP(today - timedelta(days=count)),)
    if unit == "week":
        return (DayP(today - timedelta(days=7 * count)),)
    return (DayP(_same_day_months_back(count if unit == "month" else 12 * count, ctx)),)


def _same_day_months_back(months: int, ctx: Context) -> date:
    """Today's day of the month ``months`` back (the month's last day when it is shorter)."""
    year, month = ranges.add_months(ctx.today.year, ctx.today.month, -months)
    return date(year, month, min(ctx.today.day, ranges.days_in_month(year, month)))


def _en_from_now(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = _count_of(found.group("n"))
    if count is None or count <= 0:
        return None
    unit = _EN_UNITS[found.group("unit")]
    if found.group("base") == "today" and unit in ("week", "fortnight", "month", "year"):
        return tuple(DayP(piece.day) for piece in _same_day(unit, -count, ctx) if isinstance(piece, DayP))
    return _shift(unit, count, ctx)


def _en_ago_today(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = _count_of(found.group("n"))
    if count is None or count <= 0:
        return None
    return _same_day(_EN_UNITS[found.group("unit")], count, ctx)


def _en_ago_more(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    """ "a couple weeks ago", "3 hrs ago", "2 wks ago", "a decade ago"."""
    count = _count_of(found.group("n"))
    if count is None or count <= 0:
        return None
    unit = found.group("unit")
    if unit.startswith("decade"):
        return (YearP(ctx.today.year - 10 * count),)
    return _shift(_EN_UNITS[unit.rstrip("s")], -count, ctx)


def _moment_hour(minutes: int, ctx: Context) -> tuple[Piece, ...] | None:
    """The hour around ``minutes`` before now (as "20 minutes ago" is read)."""
    if not 0 < minutes <= 72 * 60:
        return None
    moment = ranges.elapsed(ctx.now, timedelta(minutes=-minutes))
    start = ranges.elapsed(moment, timedelta(minutes=-30))
    return (RangeP(TimeRange(start, ranges.elapsed(start, timedelta(hours=1)), "hour")),)


def _en_and_half(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = _count_of(found.group("n"))
    return None if count is None else _moment_hour(60 * count + 30, ctx)


def _en_last_few(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    word = " ".join(found.group("few").split())
    count = 2 if "couple" in word else 5
    unit = found.group("unit")
    return last_n(count, unit, ctx)


def _en_last_minutes(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = _count_of(found.group("n")) if found.group("n") else 60
    if count is None or not 0 < count <= 24 * 60:
        return None
    start = ranges.elapsed(ctx.now, timedelta(minutes=-count))
    return (RangeP(ranges.span(start, ctx.now)),)


def _en_last_hour(_m: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    return (RangeP(ranges.span(ranges.elapsed(ctx.now, timedelta(hours=-1)), ctx.now)),)


def _en_weekdays_ago(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = _count_of(found.group("n"))
    if count is None or count <= 0 or count > 52:
        return None
    weekday = WEEKDAYS[found.group("wd")]
    back = (ctx.today.weekday() - weekday) % 7 or 7  # the latest such weekday before today
    return (DayP(ctx.today - timedelta(days=back + 7 * (count - 1))),)


def _latest_saturday(ctx: Context) -> date:
    monday = ranges.monday_of(ctx.today)
    saturday = monday + timedelta(days=5)
    return saturday if saturday <= ctx.today else saturday - timedelta(days=7)


def _en_last_weekends(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = _count_of(found.group("n")) if found.group("n") else 1
    if count is None or not 0 < count <= 52:
        return None
    first = _latest_saturday(ctx) - timedelta(days=7 * (count - 1))
    return (RangeP(ranges.span(ranges.midnight(first, ctx.zone), ctx.now)),)


def _en_to_noon(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    h, m, mer = ("h", "m", "mer") if found.group("h") else ("h2", "m2", "mer2")
    hour, minute = int(found.group(h)), int(found.group(m) or 0)
    meridiem = (found.group(mer) or "").replace(".", "") or None
    if minute > 59 or not 0 <= hour <= 23 or (meridiem and not 1 <= hour <= 12):
        return None
    end = ClockP(12, 0, "24h") if found.group("t") == "noon" else ClockP(0, 0, "24h")
    if meridiem is None:
        meridiem = "24h" if hour == 0 or hour > 12 else ("am" if found.group("t") == "noon" else "pm")
    start = ClockP(hour, minute, meridiem)
    return (ClockSpanP(start, end),)


def _abbr_guard(view: Scan, found: re.Match[str]) -> bool:
    """ "on Thu", "since Tues", "until Fri": an abbreviation after a preposition; "sat", "sun" and "wed"
    only when written with a capital ("on Sat")."""
    token = found.group("wd")
    return token not in ABBR_WORDS or view.original_at(found.start("wd")).isupper()


def _weekday_abbr(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    return (WeekdayP(WEEKDAY_ABBR[found.group("wd")]),)


def _part(name: str):
    return lambda _m, _c: (PartP(PARTS[name]),)


def _last_evening(_m: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    return DayP(ctx.today - timedelta(days=1)), PartP(PARTS["evening"])


def _days(offset: int):
    return lambda _m, ctx: (DayP(ctx.today + timedelta(days=offset)),)


def _prior(found: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    return _shift(found.group("unit"), -1, ctx) or ()


def _year_to_date(_m: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    start = ranges.midnight(date(ctx.today.year, 1, 1), ctx.zone)
    return (RangeP(ranges.span(start, ctx.now)),)


def _only(view: Scan, found: re.Match[str]) -> bool:
    from core.timeparse.periods import alone

    return alone(view, found)


def _alone_or_after(words: tuple[str, ...]):
    def check(view: Scan, found: re.Match[str]) -> bool:
        from core.timeparse.periods import alone

        return alone(view, found) or view.prev_word(found.start()) in words

    return check


_NUMBER_WORD = EN_NUMBER_PATTERN
_PAST = r"(?:(?:in|over|during|for|within)\s+)?(?:the\s+)?(?:last|past|previous)\s+"

_EN_RULES: list[Rule] = [
    rule(
        "en.year_third",
        "en",
        START + r"(?:(?:in|during|by|around)\s+)?(?:the\s+)?(?P<edge>early|mid|late)(?:\s+|-)"
        r"(?:(?P<year>(?:19|20|21)\d\d)|(?P<which>last|this)\s+year)(?![\w'’])",
        _en_year_third,
        needs=("early", "mid", "late"),
    ),
    rule(
        "en.decade_words",
        "en",
        START + r"(?:(?:in|during|from)\s+)?(?:the\s+)?(?:(?P<edge>early|mid|late)(?:\s+|-))?"
        r"(?:(?P<c>19|20)(?P<d>\d)0['’]?s|['’]?(?P<dd>\d)0['’]?s|(?P<word>sixties|seventies|eighties|nineties)"
        r"|(?P<cw>nineteen|twenty)[\s-](?P<cword>tens|twenties|thirties|forties|fifties|sixties|seventies|eighties"
        r"|nineties))" + STOP,
        _en_decade,
        strong=lambda v, m: (
            bool(m.group("edge") or ((m.group("word") or m.group("cw")) and "the" in m.group(0)))
            or m.group(0).startswith(("in ", "during ", "from ", "the "))
            or v.prev_word(m.start()) == "since"  # "since" is read around it (core.timeparse.compose)
            or bool(m.group("cw") and _only(v, m))
        ),
        needs=("0s", "0's", "0’s", "ties", "tens"),
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
        START + r"in\s+(?P<n>" + _NUMBER_WORD + r")\s+(?P<unit>day|week|month|year)s?(?:['’]?\s+time)?"
        r"(?=\s*(?:$|[?.!,]|from\s+now))",
        lambda m, c: None if (n := _count_of(m.group("n"))) is None or n <= 0 else _shift(m.group("unit"), n, c),
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
        START + r"(?P<n>" + _NUMBER_WORD + r")\s+and\s+a\s+half\s+hours?\s+ago" + STOP,
        _en_and_half,
        needs=("half",),
    ),
    rule(
        "en.last_few",
        "en",
        START + _PAST + r"(?P<few>few|several|couple\s+of|couple)\s+(?P<unit>hour|day|week|month|year)s" + STOP,
        _en_last_few,
        needs=("few", "several", "couple"),
    ),
    rule(
        "en.last_minutes",
        "en",
        START + _PAST + r"(?P<n>" + _NUMBER_WORD + r")\s+(?:minutes?|mins?)" + STOP,
        _en_last_minutes,
        needs=("min",),
    ),
    rule(
        "en.last_hour",
        "en",
        START + r"(?:(?:in|over|during|for|within)\s+)?the\s+last\s+hour" + STOP,
        _en_last_hour,
        needs=("last hour",),
    ),
    rule(
        "en.weekdays_ago",
        "en",
        START + r"(?P<n>two|three|four|five|\d{1,2})\s+(?P<wd>" + "|".join(WEEKDAYS) + r")s\s+ago" + STOP,
        _en_weekdays_ago,
        needs=("s ago",),
    ),
    rule(
        "en.last_weekends",
        "en",
        START + _PAST + r"(?P<n>" + _NUMBER_WORD + r")\s+weekends" + STOP,
        _en_last_weekends,
        needs=("weekends",),
    ),
    rule(
        "en.to_noon",
        "en",
        START + r"(?:(?:from|between)\s+(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*(?P<mer>a\.m\.|p\.m\.|am|pm)?\s+"
        r"|(?P<h2>\d{1,2})(?::(?P<m2>\d{2}))?\s*(?P<mer2>a\.m\.|am)\s*)"
        r"(?:to|until|till|til|and|-|–)\s*(?P<t>noon|midnight)" + STOP,
        _en_to_noon,
        needs=("noon", "midnight"),
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
    rule("en.last_evening", "en", START + r"last\s+evening" + STOP, _last_evening, needs=("last evening",)),
    rule(
        "en.meal_morning",
        "en",
        START + r"(?:at|over|during|after|before)\s+breakfast" + STOP,
        _part("morning"),
        needs=("breakfast",),
    ),
    rule(
        "en.meal_evening",
        "en",
        START + r"(?:at|over|during|after|before)\s+(?:dinner|supper)" + STOP,
        _part("evening"),
        needs=("dinner", "supper"),
    ),
    rule("en.previous_day", "en", START + r"the\s+(?:previous|prior)\s+day" + STOP, _days(-1), needs=(" day",)),
    rule(
        "en.prior_unit",
        "en",
        START + r"the\s+(?:prior\s+(?P<unit>week|month|year)|(?P<unit2>week|month|year)\s+prior)" + STOP,
        lambda m, c: _shift(m.group("unit") or m.group("unit2"), -1, c),
        needs=("prior",),
    ),
    rule(
        "en.previous_unit",
        "en",
        START + r"the\s+previous\s+(?P<unit>week|month|year)" + STOP,
        lambda m, c: _shift(m.group("unit"), -1, c),
        needs=("previous",),
    ),
    rule("en.year_to_date", "en", START + r"(?:year\s+to\s+date|ytd)" + STOP, _year_to_date, needs=("to date", "ytd")),
]

# Korean and Japanese -------------------------------------------------------------------------------

_KO_AFTER_UNITS = {"일": "day", "주": "week", "주일": "week", "달": "month", "개월": "month", "년": "year"}
_JA_AFTER_UNITS = {"日": "day", "週間": "week", "か月": "month", "ヶ月": "month", "カ月": "month", "年": "year"}


def _ko_after(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    if found.group("week"):
        return _shift("week", 1, ctx)
    count = number(found.group("n"))
    if count is None or not 0 < count <= 100:
        return None
    return _shift(_KO_AFTER_UNITS[found.group("unit")], count, ctx)


def _ja_after(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = number(found.group("n"))
    if count is None or not 0 < count <= 100:
        return None
    return _shift(_JA_AFTER_UNITS[found.group("unit")], count, ctx)


def _half_year_ago(_m: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    return (MonthP(*ranges.add_months(ctx.today.year, ctx.today.month, -6)),)


def _ko_and_half(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = number(found.group("n"))
    return None if count is None else _moment_hour(60 * count + 30, ctx)


def _ja_and_half(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = number(found.group("n"))
    return None if count is None else _moment_hour(60 * count + 30, ctx)


def _last_five(unit: str):
    return lambda _m, ctx: last_n(5, unit, ctx)


_ERAS = {"令和": 2018, "平成": 1988, "昭和": 1925, "大正": 1911}
_ERA_LAST = {"令和": 99, "平成": 31, "昭和": 64, "大正": 15}


def _ja_number(text: str) -> int | None:
    return 1 if text == "元" else number(text)


def _ja_era(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    era = found.group("era")
    count = _ja_number(found.group("y"))
    if count is None or not 1 <= count <= _ERA_LAST[era]:
        return None
    year = _ERAS[era] + count
    if not found.group("mo"):
        return (YearP(year),)
    month = number(found.group("mo"))
    if month is None or not 1 <= month <= 12:
        return None
    if not found.group("d"):
        return (MonthP(year, month),)
    day = number(found.group("d"))
    return None if day is None else (DayP(date(year, month, day)),)


_KANJI_DIGIT_YEAR = {"〇": "0", "零": "0", "一": "1", "二": "2", "三": "3", "四": "4"}
_KANJI_DIGIT_YEAR |= {"五": "5", "六": "6", "七": "7", "八": "8", "九": "9"}


def _ja_kanji_year(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    year = int("".join(_KANJI_DIGIT_YEAR[char] for char in found.group("y")))
    if not 1900 <= year <= 2199:
        return None
    if not found.group("mo"):
        return (YearP(year),)
    month = number(found.group("mo"))
    if month is None or not 1 <= month <= 12:
        return None
    if not found.group("d"):
        return (MonthP(year, month),)
    day = number(found.group("d"))
    return None if day is None else (DayP(date(year, month, day)),)


def _dom(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    day = number(found.group("d"))
    return (DomP(day),) if day is not None and 1 <= day <= 31 else None


# "3일에 한 번", "1일에 2회", "3일에 걸쳐", "3日に1回": a rate or a duration, not a day of the month.
_KO_PER = re.compile(r"\s*에?\s*(?:한\s*번|두\s*번|걸쳐|\d+\s*(?:회|번|개|시간|잔|알|정))")
_JA_PER = re.compile(r"\s*に?\s*(?:一度|一回|[\d一二三四五六七八九十]+\s*(?:回|度|個|時間|錠))")


def _ja_dom_guard(view: Scan, found: re.Match[str]) -> bool:
    """二十三日に, 15日は: a day of the month; not 15日間 (fifteen days), 3日目, 月 before it (a date rule
    reads that), nor a kanji or digit glued before."""
    start = found.start()
    if start > 0 and (view.text[start - 1].isdigit() or lang_ja.kanji_at(view, start - 1)):
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

_KO_RULES: list[Rule] = [
    rule(
        "ko.after",
        "ko",
        r"(?<![\d가-힣])(?:(?P<n>\d{1,3}|한|두|세|네|다섯|여섯|일곱|여덟|아홉|열)\s*(?P<unit>주일|개월|일|주|달|년)|(?P<week>일주일))"
        r"\s*(?:후|뒤)",
        _ko_after,
        guard=lang_ko.word_ends,
        needs=("후", "뒤"),
    ),
    rule("ko.three_days_ahead", "ko", r"(?<![가-힣])글피", _days(3), guard=lang_ko.word_ends, needs=("글피",)),
    rule("ko.half_year_ago", "ko", r"(?<![가-힣])반\s*년\s*전", _half_year_ago, guard=lang_ko.word_ends, needs=("반",)),
    rule(
        "ko.and_half_ago",
        "ko",
        r"(?<![\d가-힣])(?P<n>\d{1,2}|한|두|세|네|다섯|여섯|일곱|여덟|아홉|열)\s*시간\s*반\s*전",
        _ko_and_half,
        guard=lang_ko.word_ends,
        needs=("반",),
    ),
    rule(
        "ko.last_few_days",
        "ko",
        r"(?<![가-힣])(?:최근|지난|요\s*)\s*(?:며칠|몇\s*일)(?:\s*(?:간|동안|사이))?",
        _last_five("day"),
        guard=lang_ko.word_ends,
        needs=("며칠", "몇"),
    ),
    rule(
        "ko.last_few_weeks",
        "ko",
        r"(?<![가-힣])(?:최근|지난)\s*몇\s*주(?:\s*(?:간|동안|사이))?",
        _last_five("week"),
        guard=lang_ko.word_ends,
        needs=("몇",),
    ),
    rule(
        "ko.lunch_time",
        "ko",
        r"(?<![가-힣])점심\s*(?:때|시간)",
        _part("midday"),
        guard=lang_ko.word_ends,
        needs=("점심",),
    ),
    rule(
        "ko.decade_edge",
        "ko",
        r"(?<!\d)(?:(?P<c>19|20)?(?P<d>\d)0)\s*년대\s*(?P<edge>초반|중반|후반|초|말)",
        _cjk_decade_edge(_KO_DECADE_EDGES),
        guard=lang_ko.word_ends,
        needs=("년대",),
    ),
    rule("ko.dom", "ko", _KO_DAY_NUM + r"\s*일(?=에|날)", _dom, guard=_ko_dom_guard, needs=("일",)),
]

_JA_RULES: list[Rule] = [
    rule(
        "ja.after",
        "ja",
        r"(?<![\d一二三四五六七八九十])(?P<n>\d{1,3}|[一二三四五六七八九十]{1,3})\s*(?P<unit>週間|か月|ヶ月|カ月|日|年)\s*後(?![\u4e00-\u9fff])",
        _ja_after,
        needs=("後",),
    ),
    rule("ja.three_days_ahead", "ja", r"しあさって|明明後日|明々後日", _days(3), needs=("しあさって", "明")),
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
        "ja.lunch_break",
        "ja",
        r"昼休み|ランチタイム|お昼時",
        _part("midday"),
        needs=("昼休み", "ランチタイム", "お昼時"),
    ),
    rule(
        "ja.decade_edge",
        "ja",
        r"(?<!\d)(?:(?P<c>19|20)?(?P<d>\d)0)\s*年代\s*の?\s*(?P<edge>前半|初め|初頭|半ば|中頃|後半|末|終わり)",
        _cjk_decade_edge(_JA_DECADE_EDGES),
        needs=("年代",),
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
        _dom,
        guard=_ja_dom_guard,
        needs=("日",),
    ),
]


# Round 3, second probe ---------------------------------------------------------------------------------

_EN_UNIT_PLURAL = r"(?P<unit>day|week|month|year)s"


def _between_ago(unit: str, low: int, high: int, ctx: Context) -> tuple[Piece, ...] | None:
    """ "2 or 3 days ago", 이삼 일 전, 二、三日前: from the start of the older unit to the end of the newer."""
    if not 0 < low < high <= low + 5:
        return None
    older, newer = _shift(unit, -high, ctx), _shift(unit, -low, ctx)
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
    low, high = _count_of(found.group("a")), _count_of(found.group("b"))
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
    count = _count_of(found.group("n")) if found.groupdict().get("n") else 1
    return None if count is None else _year_and_half_ago_n(count, ctx)


def _coming_weekday(found: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    """ "this coming Monday": the next one after today (explicit future)."""
    ahead = (WEEKDAYS[found.group("wd")] - ctx.today.weekday()) % 7 or 7
    return (DayP(ctx.today + timedelta(days=ahead)),)


def _weekday_before_last(found: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    """ "Tuesday before last": the one before the latest Tuesday before today."""
    back = (ctx.today.weekday() - WEEKDAYS[found.group("wd")]) % 7 or 7
    return (DayP(ctx.today - timedelta(days=back + 7)),)


_EN_FINE_PARTS = {
    ("mid", "morning"): "mid_morning",
    ("late", "morning"): "late_morning",
    ("early", "afternoon"): "early_afternoon",
    ("mid", "afternoon"): "afternoon",
    ("late", "evening"): "late_evening",
    ("early", "evening"): "evening",
    ("mid", "evening"): "evening",
    ("early", "morning"): "early_morning",
    ("late", "afternoon"): "late_afternoon",
}


def _en_fine_part(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    name = _EN_FINE_PARTS.get((found.group("edge"), found.group("part")))
    return (PartP(PARTS[name]),) if name else None


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
    from core.timeparse.lang_en import MONTHS

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


def _clock_h(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    hour, minute = int(found.group("h")), int(found.group("m"))
    if hour > 23 or minute > 59:
        return None
    return (ClockP(hour, minute, "24h"),)


def _minutes_to(hour: int | None, minute: int) -> tuple[Piece, ...] | None:
    """ "3시 10분 전", "3時10分前": ten minutes to three (2:50); a bare 1-6 stays p.m. as everywhere."""
    if hour is None or not 1 <= hour <= 24 or not 0 < minute < 60:
        return None
    total = hour * 60 - minute
    new_hour, new_minute = divmod(total, 60)
    explicit = hour > 12 or hour == 24
    if explicit:
        return (ClockP(new_hour % 24, new_minute, "24h"),)
    return (ClockP(new_hour or 12, new_minute, None),)


def _ko_minutes_to(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    hour = {"열한": 11, "열두": 12}.get(found.group("h")) or number(found.group("h"))
    return _minutes_to(hour, int(found.group("m")))


def _ja_minutes_to(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    return _minutes_to(number(found.group("h")), number(found.group("m")) or 0)


def _ja_fiscal_year(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    """ "2022年度", "令和7年度": the Japanese fiscal year, 1 April to 31 March."""
    if found.group("era"):
        count = _ja_number(found.group("n"))
        if count is None or not 1 <= count <= _ERA_LAST[found.group("era")]:
            return None
        year = _ERAS[found.group("era")] + count
    else:
        year = int(found.group("y"))
    start = ranges.midnight(date(year, 4, 1), ctx.zone)
    return (RangeP(ranges.span(start, ranges.midnight(date(year + 1, 4, 1), ctx.zone))),)


def _this_year_edge(edge: str):
    from core.timeparse.pieces import EdgeP

    return lambda _m, ctx: (YearP(ctx.today.year), EdgeP(edge))


_EN_MONTH_NAMES = (
    r"(?P<month>january|february|march|april|may|june|july|august|september|october|november|december|"
    r"jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.?"
)


def _month_short_year(found: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    from core.timeparse.lang_en import MONTHS

    value = int(found.group("yy"))
    year = 2000 + value if 2000 + value <= ctx.today.year + 1 else 1900 + value
    return (MonthP(year, MONTHS[found.group("month")]),)


def _before_last(unit: str):
    """저저번 주, 先先週: the week (month) before last, as 지지난주 and 先々週."""
    return lambda _m, ctx: _shift(unit, -2, ctx)


_MORE_EN: list[Rule] = [
    rule(
        "en.month_short_year",
        "en",
        START + _EN_MONTH_NAMES + r"\s+['’](?P<yy>\d\d)" + STOP,
        _month_short_year,
        needs=("'", "’"),
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
        "en.fine_part",
        "en",
        START
        + r"(?:(?:in|during)\s+the\s+)?(?P<edge>mid|late|early)(?:\s+|-)(?P<part>morning|afternoon|evening)"
        + STOP,
        _en_fine_part,
        strong=lambda v, m: m.group(0).startswith(("in ", "during ")) or _only(v, m),
        needs=("morning", "afternoon", "evening"),
    ),
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
        r"\s+(?:of\s+)?" + _EN_MONTH_NAMES + r"(?:,?\s+(?P<year>(?:19|20)\d\d))?" + STOP,
        _day_range_month,
        needs=("-", "–", " to "),
    ),
    rule(
        "en.clock_h",
        "en",
        r"(?<![\w:.])(?P<h>\d{1,2})h(?P<m>\d{2})(?![\w:])",
        _clock_h,
        needs=tuple(f"{digit}h" for digit in "0123456789"),
    ),
]

_MORE_KO: list[Rule] = [
    rule("ko.week_before_last", "ko", r"(?<![가-힣])저저번\s*주(?!말)", _before_last("week"), needs=("저저번",)),
    rule("ko.weekend_before_last", "ko", r"(?<![가-힣])저저번\s*주말", weekend_from_this(-2), needs=("저저번",)),
    rule("ko.month_before_last", "ko", r"(?<![가-힣])저저번\s*달", _before_last("month"), needs=("저저번",)),
    rule(
        "ko.between_ago",
        "ko",
        r"(?<![\d가-힣])(?:(?P<a>\d)\s*[,~-]\s*(?P<b>\d)\s*|(?P<pair>이삼|삼사|사오|오륙|두세|서너|두어|한두)\s*)"
        r"(?P<unit>일|주|달|개월|년|해)\s*전"
        r"|(?<![가-힣])(?P<pair2>사나흘)\s*전",
        lambda m, c: _ko_between_ago(m, c) if not m.group("pair2") else _between_ago("day", 3, 4, c),
        guard=lang_ko.word_ends,
        needs=("전",),
    ),
    rule(
        "ko.year_and_half_ago",
        "ko",
        r"(?<![\d가-힣])(?P<n>\d{1,2}|일|한)\s*년\s*반\s*전",
        lambda m, c: _year_and_half_ago_n(1 if m.group("n") in ("일", "한") else int(m.group("n")), c),
        guard=lang_ko.word_ends,
        needs=("반",),
    ),
    rule(
        "ko.few_years_ago",
        "ko",
        r"(?<![가-힣])수\s*(?P<unit>년|개월|일|주)\s*전",
        lambda m, c: few_ago({"년": "year", "개월": "month", "일": "day", "주": "week"}[m.group("unit")], c),
        guard=lang_ko.word_ends,
        needs=("수",),
    ),
    rule(
        "ko.last_few_months",
        "ko",
        r"(?<![가-힣])(?:최근|지난)\s*몇\s*(?:달|개월)(?:\s*(?:간|동안|사이))?",
        _last_five("month"),
        guard=lang_ko.word_ends,
        needs=("몇",),
    ),
    rule(
        "ko.this_year_start",
        "ko",
        r"(?<![가-힣])올\s*초",
        _this_year_edge("beginning"),
        guard=lang_ko.word_ends,
        needs=("올",),
    ),
    rule(
        "ko.fine_part",
        "ko",
        r"(?<![가-힣])(?P<w>이른\s*아침|늦은\s*밤|늦은\s*오후|늦은\s*저녁)",
        lambda m, _c: (PartP(PARTS[_KO_FINE[" ".join(m.group("w").split()).replace(" ", "")]]),),
        guard=lang_ko.word_ends,
        needs=("이른", "늦은"),
    ),
    rule(
        "ko.minutes_to",
        "ko",
        r"(?<![\d가-힣])(?P<h>\d{1,2}|한|두|세|네|다섯|여섯|일곱|여덟|아홉|열|열한|열두)\s*시\s*(?P<m>\d{1,2})\s*분\s*전(?:에)?"
        r"(?!\s*까지)",
        _ko_minutes_to,
        guard=lang_ko.word_ends,
        needs=("분",),
    ),
]

_KO_FINE = {
    "이른아침": "early_morning",
    "늦은밤": "late_night",
    "늦은오후": "late_afternoon",
    "늦은저녁": "late_evening",
}

_MORE_JA: list[Rule] = [
    rule("ja.week_before_last", "ja", r"先先週", _before_last("week"), needs=("先先",)),
    rule("ja.month_before_last", "ja", r"先先月", _before_last("month"), needs=("先先",)),
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
        "ja.minutes_to",
        "ja",
        r"(?<![\d一二三四五六七八九十])(?P<h>\d{1,2}|[一二三四五六七八九十]{1,3})\s*時\s*(?P<m>\d{1,2}|[一二三四五六七八九十]{1,3})\s*分\s*前(?:に)?"
        r"(?!まで)",
        _ja_minutes_to,
        needs=("分前",),
    ),
    rule(
        "ja.fiscal_year",
        "ja",
        r"(?:(?P<era>令和|平成|昭和)\s*(?P<n>元|\d{1,2}|[一二三四五六七八九十]{1,3})|(?P<y>(?:19|20)\d\d))\s*年度",
        _ja_fiscal_year,
        needs=("年度",),
    ),
]


def _year_and_half_ago_n(count: int, ctx: Context) -> tuple[Piece, ...] | None:
    if not 0 < count <= 50:
        return None
    return (MonthP(*ranges.add_months(ctx.today.year, ctx.today.month, -(12 * count + 6))),)


# Round 5: forms read from a probe list written by hand -------------------------------------------------


def _to_date(unit: str):
    """ "month to date", "so far this week", "this year so far": from the start of the unit up to now."""

    def build(_m: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
        today = ctx.today
        if unit == "week":
            first = ranges.monday_of(today)
        elif unit == "month":
            first = today.replace(day=1)
        else:
            first = date(today.year, 1, 1)
        return (RangeP(ranges.span(ranges.midnight(first, ctx.zone), ctx.now)),)

    return build


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


def _unit_now(unit: str, offset: int = 0):
    def build(_m: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
        today = ctx.today
        if unit == "week":
            return (WeekP(ranges.monday_of(today) + timedelta(days=7 * offset)),)
        if unit == "month":
            return (MonthP(*ranges.add_months(today.year, today.month, offset)),)
        return (YearP(today.year + offset),)

    return build


def _midweek(found: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    """ "midweek", "mid-week last week": Wednesday and Thursday of that week (the middle of a week)."""
    offset = {"last": -1, "this": 0, "next": 1, None: 0}[found.group("which")]
    wednesday = ranges.monday_of(ctx.today) + timedelta(days=7 * offset + 2)
    start = ranges.midnight(wednesday, ctx.zone)
    return (RangeP(ranges.span(start, ranges.midnight(wednesday + timedelta(days=2), ctx.zone))),)


_YEAR_WORDS = {"작년": -1, "지난해": -1, "재작년": -2, "올해": 0, "去年": -1, "昨年": -1, "一昨年": -2, "今年": 0}
_YEAR_EDGES = {"연말": "end", "연초": "beginning", "年末": "end", "年始": "beginning", "年初": "beginning"}


def _year_edge(found: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    """작년 연말, 去年の年末: that year's end (November – December) or beginning (January – February)."""
    return YearP(ctx.today.year + _YEAR_WORDS[found.group("y")]), EdgeP(_YEAR_EDGES[found.group("e")])


def _teens_of_years_ago(_m: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    """十数年前, 십여 년 전: eleven to nineteen years back (whole years)."""
    first = ranges.midnight(date(ctx.today.year - 19, 1, 1), ctx.zone)
    return (RangeP(ranges.span(first, ranges.midnight(date(ctx.today.year - 10, 1, 1), ctx.zone))),)


_JA_SHORT_YEAR_AFTER = re.compile(r"(?:に|頃|ごろ|から|まで|当時|以降)")


def _ja_short_year_strong(view: Scan, found: re.Match[str]) -> bool:
    """98年に, 98年頃, 98年の夏 count; "10年は長い" (ten years are long) and 10年も do not."""
    return bool(_JA_SHORT_YEAR_AFTER.match(view.text, found.end())) or view.time_follows(found.end(), "の?")


def _d_mon_y(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    from core.timeparse.lang_en import MONTHS

    return (DayP(date(int(found.group("y")), MONTHS[found.group("mon")], int(found.group("d")))),)


# Round 6: "and a half" counts of weeks and months ---------------------------------------------------


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
        first, last = _same_day_months_back(count + 1, ctx), _same_day_months_back(count, ctx)
    return (RangeP(ranges.span(ranges.midnight(first, ctx.zone), ranges.midnight(last, ctx.zone))),)


_HALF_UNITS = {"week": "week", "weeks": "week", "month": "month", "months": "month", "years": "year"}
_HALF_UNITS |= {"주": "week", "주일": "week", "달": "month", "개월": "month"}
_HALF_UNITS |= {"週間": "week", "か月": "month", "ヶ月": "month", "カ月": "month", "ケ月": "month", "ヵ月": "month"}


def _en_and_half_units_ago(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = _count_of(found.group("n") or found.group("n2"))
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
    return _moment_hour(12 * 60, ctx)


_R6_EN: list[Rule] = [
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
]

_R6_KO: list[Rule] = [
    rule(
        "ko.and_half_units_ago",
        "ko",
        r"(?<![\d가-힣])(?:(?P<week>일주일)|(?P<n>\d{1,2}|한|두|세|네|다섯)\s*(?P<unit>주일|주|달|개월))\s*반\s*(?:쯤|정도)?\s*전",
        _ko_and_half_units_ago,
        guard=lang_ko.word_ends,
        needs=("반",),
    ),
]

_R6_JA: list[Rule] = [
    rule(
        "ja.and_half_units_ago",
        "ja",
        r"(?<![\d一二三四五六七八九十])(?P<n>\d{1,2}|[一二三四五六七八九十]{1,2})\s*"
        r"(?P<unit>週間|か月|ヶ月|カ月|ケ月|ヵ月)\s*半\s*(?:ほど|くらい|ぐらい)?\s*前",
        lambda m, c: _and_half_ago(_HALF_UNITS[m.group("unit")], number(m.group("n")), c),
        needs=("半",),
    ),
]


_R5_EN: list[Rule] = [
    rule(
        "en.d_mon_y",
        "en",
        START
        + r"(?P<d>\d{1,2})[-/](?P<mon>jan|feb|mar|apr|may|jun|jul|aug|sept|sep|oct|nov|dec)[-/](?P<y>(?:19|20)\d\d)"
        + STOP,
        _d_mon_y,
    ),
    rule(
        "en.this_day_last_year",
        "en",
        START + r"(?:on\s+)?this\s+(?:day|date)\s+(?P<n>last|a)\s+year(?:\s+ago)?" + STOP,
        lambda _m, c: _same_day("year", 1, c),
        needs=("this da",),
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
        "en.earlier_in_the",
        "en",
        START + r"(?:earlier|later)\s+in\s+the\s+(?P<unit>week|month|year)" + STOP,
        lambda m, c: _unit_now(m.group("unit"))(m, c),
        needs=("in the",),
    ),
    rule(
        "en.midweek",
        "en",
        START + r"mid-?\s?week(?:\s+(?P<which>last|this|next)\s+week)?" + STOP,
        _midweek,
        needs=("week",),
    ),
    rule(
        "en.to_date",
        "en",
        START + r"(?:(?P<unit>month|week)\s+to\s+date|(?P<short>mtd|wtd))" + STOP,
        lambda m, c: _to_date(m.group("unit") or ("month" if m.group("short") == "mtd" else "week"))(m, c),
        needs=("to date", "mtd", "wtd"),
    ),
    rule(
        "en.so_far",
        "en",
        START + r"(?:so\s+far\s+this\s+(?P<u1>week|month|year)|this\s+(?P<u2>week|month|year)\s+so\s+far)" + STOP,
        lambda m, c: _to_date(m.group("u1") or m.group("u2"))(m, c),
        needs=("so far",),
    ),
    rule(
        "en.wee_hours",
        "en",
        START + r"(?:(?:in|during)\s+)?the\s+(?:wee|small)\s+hours(?:\s+of\s+the\s+morning)?" + STOP,
        lambda _m, _c: (PartP(PARTS["dawn"]),),
        needs=("hours",),
    ),
    rule(
        "en.dead_of_night",
        "en",
        START + r"(?:(?:in|at)\s+)?the\s+dead\s+of\s+(?:the\s+)?night" + STOP,
        lambda _m, _c: (PartP(PARTS["late_night"]),),
        needs=("dead of",),
    ),
    rule(
        "en.quarter_q",
        "en",
        r"(?<![\w.])(?P<q>[1-4])q(?:\s*(?P<y>(?:19|20)\d\d))?(?![\w])",
        lambda m, c: _quarter_q(int(m.group("q")), int(m.group("y")) if m.group("y") else None, c),
        strong=lambda v, m: bool(m.group("y")) or _only(v, m) or v.prev_word(m.start()) in ("in", "during", "since"),
    ),
]

_R5_KO: list[Rule] = [
    rule(
        "ko.day_range_month",
        "ko",
        r"(?<!\d)(?:(?P<year>\d{4})\s*년\s*)?(?P<month>\d{1,2})\s*월\s*(?P<d1>\d{1,2})\s*(?:일\s*)?(?:~|〜|-|–)\s*"
        r"(?P<d2>\d{1,2})\s*일",
        _day_range_month,
    ),
    rule(
        "ko.year_edge",
        "ko",
        r"(?P<y>작년|지난해|재작년|올해)\s*(?P<e>연말|연초)",
        _year_edge,
        guard=lang_ko.word_ends,
    ),
    rule(
        "ko.this_month_short",
        "ko",
        r"(?<![가-힣])이달",
        lambda _m, c: _unit_now("month")(_m, c),
        guard=lang_ko.word_ends,
    ),
    rule("ko.teens_of_years_ago", "ko", r"십여\s*년\s*전", _teens_of_years_ago, guard=lang_ko.word_ends),
    rule(
        "ko.fine_part",
        "ko",
        r"(?<![가-힣])(?P<p>밤\s*늦게|아침\s*일찍|이른\s*아침|대낮|해\s*질\s*녘|저녁\s*무렵|새벽\s*녘)",
        lambda m, _c: (PartP(PARTS[_KO_R5_PARTS["".join(m.group("p").split())]]),),
        guard=lang_ko.word_ends,
    ),
]
_KO_R5_PARTS = {
    "밤늦게": "late_night",
    "아침일찍": "early_morning",
    "이른아침": "early_morning",
    "대낮": "daytime",
    "해질녘": "late_afternoon",
    "저녁무렵": "evening",
    "새벽녘": "dawn",
}

_R5_JA: list[Rule] = [
    rule(
        "ja.day_range_month",
        "ja",
        r"(?<!\d)(?:(?P<year>\d{4})\s*年\s*)?(?P<month>\d{1,2})\s*月\s*(?P<d1>\d{1,2})\s*(?:日\s*)?(?:~|〜|-|–|から)\s*"
        r"(?P<d2>\d{1,2})\s*日(?:\s*まで)?",
        _day_range_month,
    ),
    rule("ja.year_edge", "ja", r"(?P<y>去年|昨年|一昨年|今年)の?(?P<e>年末|年始|年初)(?!年始)", _year_edge),
    rule("ja.teens_of_years_ago", "ja", r"十数\s*年\s*前", _teens_of_years_ago),
    rule(
        "ja.short_year",
        "ja",
        r"(?<![\d'’])['’]?(?P<yy>\d{2})\s*年(?![前間後生代度目ぶ\d])",
        lambda m, c: (YearP(_two_digit_year_ja(m.group("yy"), c)),),
        strong=_ja_short_year_strong,
    ),
    rule(
        "ja.fine_part",
        "ja",
        r"(?P<p>朝早く|昼過ぎ|昼すぎ|昼前|昼頃|昼ごろ|夕暮れ|日暮れ|白昼)",
        lambda m, _c: (PartP(PARTS[_JA_R5_PARTS[m.group("p")]]),),
        guard=lambda v, m: not lang_ja.kanji_at(v, m.start() - 1) or m.start() in v.ends,
    ),
]
_JA_R5_PARTS = {
    "朝早く": "early_morning",
    "昼過ぎ": "early_afternoon",
    "昼すぎ": "early_afternoon",
    "昼前": "late_morning",
    "昼頃": "midday",
    "昼ごろ": "midday",
    "夕暮れ": "late_afternoon",
    "日暮れ": "late_afternoon",
    "白昼": "daytime",
}


def _two_digit_year_ja(text: str, ctx: Context) -> int:
    year = 2000 + int(text)
    return year if year <= ctx.today.year + 1 else year - 100


def _quarter_q(quarter: int, year: int | None, ctx: Context) -> tuple[Piece, ...] | None:
    if year is None:
        year = ctx.today.year if 3 * quarter - 2 <= ctx.today.month else ctx.today.year - 1
    return (RangeP(quarter_range(year, quarter, ctx)),)


RULES: dict[str, list[Rule]] = {
    "en": _R6_EN + _R5_EN + _MORE_EN + _EN_RULES,
    "ko": _R6_KO + _R5_KO + _MORE_KO + _KO_RULES,
    "ja": _R6_JA + _R5_JA + _MORE_JA + _JA_RULES,
}
