"""Named periods and their edges: quarters and halves (Q3, 상반기, 今四半期), thirds of a year or a decade
("early 2019", 90년대 초반), decades and centuries ("the 90s", 19세기, 前世紀), ISO weeks and weeks of a
month (W10, 10주차, "the first week of March"), the beginning / middle / end of a period (초순, 下旬,
연말, "the end of the month"), "the last day of the month", "month to date", "midweek".

A quarter is a calendar quarter, alone the latest that has begun; the beginning / middle / end of a
year is January – February / May – August / November – December, of a month days 1 – 10 / 11 – 20 /
21 to the end; "early/mid/late 2019" are thirds of the year; ISO weeks run Monday to Sunday, week 1
holding the year's first Thursday; "the 19th century" is 1800 – 1899. The full list is in
``reverie when --help``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta

from core.timeparse import ranges
from core.timeparse.lang_ja import kanji_at, particle_follows
from core.timeparse.lang_ko import part_strong, word_bounded, word_ends
from core.timeparse.model import TimeRange
from core.timeparse.pieces import Context, EdgeP, MonthP, PeriodP, Piece, RangeP, WeekP, YearP
from core.timeparse.relative import unit_now
from core.timeparse.rules import (
    START,
    STOP,
    Builder,
    Rule,
    Scan,
    alone,
    months_from_this,
    rule,
    weeks_from_this,
    years_from_this,
)
from core.timeparse.weekdays import JA_NTH


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


def _half(index: int, this_year: bool, ctx: Context) -> tuple[Piece, ...]:
    return (PeriodP(index, 6), YearP(ctx.today.year)) if this_year else (PeriodP(index, 6),)


def _decade_of_short(found: re.Match[str], ctx: Context, group: str = "dd") -> tuple[Piece, ...]:
    """ "the 90s", 90년대, 90年代: 19x0 or 20x0, whichever has begun most recently."""
    year = 2000 + int(found.group(group)) * 10
    return _decade(year if year <= ctx.today.year else year - 100, ctx)


def _decade(start_year: int, ctx: Context) -> tuple[Piece, ...]:
    start = ranges.midnight(date(start_year, 1, 1), ctx.zone)
    return (RangeP(ranges.span(start, ranges.midnight(date(start_year + 10, 1, 1), ctx.zone))),)


def _decade_of(found: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    return _decade(int(found.group("c")) * 100 + int(found.group("d")) * 10, ctx)


_EN_NTH_WEEK = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_EN_NTH_WEEK |= {"last": -1, "final": -1}


_KO_NTH_WEEK = {"첫째": 1, "첫": 1, "첫번째": 1, "둘째": 2, "두번째": 2, "셋째": 3, "세번째": 3, "넷째": 4}
_KO_NTH_WEEK |= {"네번째": 4, "마지막": -1}


_KANJI_QUARTER = {"1": 1, "2": 2, "3": 3, "4": 4, "一": 1, "二": 2, "三": 3, "四": 4}


def _after_time(view: Scan, found: re.Match[str]) -> bool:
    """The match follows another time word directly (or after one space / の): 작년 말, 先月の末."""
    start = found.start()
    return start in view.ends or (start - 1 in view.ends and view.text[start - 1] in " の")


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


_EN_UNIT_BARE = {"week": weeks_from_this(0), "month": months_from_this(0), "year": years_from_this(0)}


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


_EN_CENTURY_ORDINALS = {"eighteenth": 18, "nineteenth": 19, "twentieth": 20, "twenty-first": 21, "twenty first": 21}


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
_EN_DECADE_CENTURIES = {"nineteen": 1900, "twenty": 2000}


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
        start = _EN_DECADE_CENTURIES[found.group("cw")] + 10 * _EN_DECADE_WORDS_WITH_CENTURY[found.group("cword")]
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


def _year_to_date(_m: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    start = ranges.midnight(date(ctx.today.year, 1, 1), ctx.zone)
    return (RangeP(ranges.span(start, ctx.now)),)


def _this_year_edge(edge: str):

    return lambda _m, ctx: (YearP(ctx.today.year), EdgeP(edge))


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


def _quarter_q(quarter: int, year: int | None, ctx: Context) -> tuple[Piece, ...] | None:
    if year is None:
        year = ctx.today.year if 3 * quarter - 2 <= ctx.today.month else ctx.today.year - 1
    return (RangeP(quarter_range(year, quarter, ctx)),)


EN: list[Rule] = [
    rule(
        "en.earlier_in_the",
        "en",
        START + r"(?:earlier|later)\s+in\s+the\s+(?P<unit>week|month|year)" + STOP,
        lambda m, c: unit_now(m.group("unit"))(m, c),
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
        "en.quarter_q",
        "en",
        r"(?<![\w.])(?P<q>[1-4])q(?:\s*(?P<y>(?:19|20)\d\d))?(?![\w])",
        lambda m, c: _quarter_q(int(m.group("q")), int(m.group("y")) if m.group("y") else None, c),
        strong=lambda v, m: bool(m.group("y")) or alone(v, m) or v.prev_word(m.start()) in ("in", "during", "since"),
    ),
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
            or bool(m.group("cw") and alone(v, m))
        ),
        needs=("0s", "0's", "0’s", "ties", "tens"),
    ),
    rule("en.year_to_date", "en", START + r"(?:year\s+to\s+date|ytd)" + STOP, _year_to_date, needs=("to date", "ytd")),
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
        START + r"(?:the\s+)?(?:(?P<n>\d{1,2})(?:st|nd|rd|th)|(?P<nw>eighteenth|nineteenth|twentieth|twenty[\s-]first))"
        r"\s+century" + STOP,
        lambda m, c: _century(
            int(m.group("n"))
            if m.group("n")
            else _EN_CENTURY_ORDINALS[m.group("nw").replace("-", " ").replace("twenty first", "twenty-first")],
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
            _en_quarter_n(m, c) if not m.group("y3") else _numbered_quarter(int(m.group("q")), int(m.group("y3")), c)
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
        "en.decade",
        "en",
        START + r"(?:the\s+)?(?:(?P<c>19|20)(?P<d>\d)0|['’]?(?P<dd>\d)0)['’]?s" + STOP,
        lambda m, c: _decade_of(m, c) if m.group("c") else _decade_of_short(m, c),
        strong=lambda v, m: m.group(0).startswith("the") or v.prev_word(m.start()) in ("in", "since", "during"),
    ),
    rule(
        "en.nth_week",
        "en",
        START + r"(?:the\s+)?(?P<nth>first|1st|second|2nd|third|3rd|fourth|4th|last|final)\s+week\s+(?:of|in)" + STOP,
        lambda m, _c: (EdgeP(f"week:{_EN_NTH_WEEK[m.group('nth')]}"),),
    ),
    rule(
        "en.first_last_day",
        "en",
        START + r"(?:the\s+)?(?P<which>first|last|final)\s+day\s+of" + STOP,
        lambda m, _c: (EdgeP("day:1" if m.group("which") == "first" else "day:-1"),),
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
        "en.edge",
        "en",
        START + r"(?:(?:at|in|by|towards?|near|around|from|since|until|till)\s+)?(?:the\s+)?(?:very\s+)?"
        r"(?P<edge>beginning|start|middle|end)\s+of" + STOP,
        _edge_of(_EN_EDGES),
    ),
]


KO: list[Rule] = [
    rule(
        "ko.year_edge",
        "ko",
        r"(?P<y>작년|지난해|재작년|올해)\s*(?P<e>연말|연초)",
        _year_edge,
        guard=word_ends,
    ),
    rule(
        "ko.this_year_start",
        "ko",
        r"(?<![가-힣])올\s*초",
        _this_year_edge("beginning"),
        guard=word_ends,
        needs=("올",),
    ),
    rule(
        "ko.decade_edge",
        "ko",
        r"(?<!\d)(?:(?P<c>19|20)?(?P<d>\d)0)\s*년대\s*(?P<edge>초반|중반|후반|초|말)",
        _cjk_decade_edge(_KO_DECADE_EDGES),
        guard=word_ends,
        needs=("년대",),
    ),
    rule(
        "ko.iso_week",
        "ko",
        r"(?:(?P<y>\d{4})\s*년\s*|(?P<ly>올해|금년|작년|지난해|내년)\s*)?(?<!\d)(?P<w>\d{1,2})\s*주\s*차",
        lambda m, c: _iso_week(int(m.group("w")), _week_year(m, c), c),
        strong=lambda v, m: _has_week_year(m) or alone(v, m, ("에", "에는", "의")),
        guard=lambda v, m: word_ends(v, m) and not re.search(r"(?:월|달)\s*$", v.before(m.start(), 4)),
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
        strong=lambda v, m: alone(v, m, ("에", "에는", "의", "까지", "부터")) or part_strong(v, m),
        guard=word_ends,
        needs=("세기",),
    ),
    rule(
        "ko.this_century",
        "ko",
        r"(?P<which>지난|이번|전|금)\s*세기",
        lambda m, c: _this_century(0 if m.group("which") in ("이번", "금") else -1)(m, c),
        guard=word_bounded,
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
        guard=lambda v, m: _after_time(v, m) and word_ends(v, m),
    ),
    rule(
        "ko.month_last_day",
        "ko",
        r"말일",
        _this_with_edge("month", "day:-1"),
        guard=lambda v, m: not _after_time(v, m) and word_bounded(v, m),
    ),
    rule(
        "ko.edge",
        "ko",
        r"(?P<edge>초순|중순|하순|초반|중반|후반|말경|말(?!이야|이지|이에요|이죠|인데|이다)|초)",
        _edge_of(_KO_EDGES),
        guard=lambda v, m: _after_time(v, m) and word_ends(v, m),
    ),
    rule("ko.year_end", "ko", r"연말|년말", _this_with_edge("year", "end"), guard=word_bounded),
    rule("ko.year_start", "ko", r"연초|년초", _this_with_edge("year", "beginning"), guard=word_bounded),
    rule("ko.month_end", "ko", r"월말", _this_with_edge("month", "end"), guard=word_bounded),
    rule("ko.month_start", "ko", r"월초", _this_with_edge("month", "beginning"), guard=word_bounded),
]


JA: list[Rule] = [
    rule("ja.year_edge", "ja", r"(?P<y>去年|昨年|一昨年|今年)の?(?P<e>年末|年始|年初)(?!年始)", _year_edge),
    rule(
        "ja.decade_edge",
        "ja",
        r"(?<!\d)(?:(?P<c>19|20)?(?P<d>\d)0)\s*年代\s*の?\s*(?P<edge>前半|初め|初頭|半ば|中頃|後半|末|終わり)",
        _cjk_decade_edge(_JA_DECADE_EDGES),
        needs=("年代",),
    ),
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
        strong=lambda v, m: alone(v, m, ("に", "は", "の")) or particle_follows(v, m.end()),
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
        lambda m, c: _numbered_quarter(_KANJI_QUARTER[m.group("q")], int(m.group("y")) if m.group("y") else None, c),
    ),
    rule(
        "ja.half",
        "ja",
        r"(?P<h>上|下)(?:半)?期",
        lambda m, _c: (PeriodP(1 if m.group("h") == "上" else 2, 6),),
        guard=lambda v, m: (not kanji_at(v, m.end()) and not kanji_at(v, m.start() - 1)) or m.start() in v.ends,
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
        lambda m, _c: (EdgeP("week:-1" if m.group("last") else f"week:{JA_NTH[m.group('n')]}"),),
        guard=_after_time,
    ),
    rule(
        "ja.first_last_day",
        "ja",
        r"(?P<which>最終日|初日|最後の日|最初の日)",
        lambda m, _c: (EdgeP("day:1" if m.group("which") in ("初日", "最初の日") else "day:-1"),),
        guard=_after_time,
    ),
    rule(
        "ja.edge",
        "ja",
        r"(?P<edge>初め|始め|はじめ|初旬|上旬|中旬|下旬|半ば|終わり|末|頭)",
        _edge_of(_JA_EDGES),
        guard=lambda v, m: _after_time(v, m) and not kanji_at(v, m.end()),
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
]

RULES: dict[str, list[Rule]] = {"en": EN, "ko": KO, "ja": JA}
