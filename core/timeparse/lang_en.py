"""English rules.

Guards against words that only look like time: "we", "sat", "sun" and other weekday abbreviations
count only after last/this/next, inside a full date like "Tue 24 Nov", or right before a part of the
day ("sat night", but not in "we sat night after night"; ``spoken`` reads "on Sat"); a month name
alone needs a preposition before it ("in March", "since May", "early June") or a day or year beside
it, so "may I" and "the march of progress" stay words, and "the March 2024 issue" is a magazine's;
"second", "minute" and "moment" are never time here; a part of day alone needs "in the" / "at" ("good
morning" is a greeting), or a day beside it ("Tuesday night").
"""

from __future__ import annotations

import re
from datetime import date, timedelta

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
    START,
    STOP,
    Builder,
    Rule,
    Scan,
    ago,
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
from core.timeparse.text import EN_NUMBER_PATTERN, number

WEEKDAYS = {"monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5, "sunday": 6}
WEEKDAY_ABBR = {
    "mon": 0,
    "tue": 1,
    "tues": 1,
    "wed": 2,
    "weds": 2,
    "thu": 3,
    "thur": 3,
    "thurs": 3,
    "fri": 4,
    "sat": 5,
    "sun": 6,
}
# Abbreviations that are English words too ("I sat down", "the sun", "they wed in June", "she weds him").
ABBR_WORDS = frozenset({"sat", "sun", "wed", "weds"})
_ABBR_NOT_WORDS = {abbr: day for abbr, day in WEEKDAY_ABBR.items() if abbr not in ABBR_WORDS}
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


def _alternatives(words: dict[str, int]) -> str:
    return "|".join(sorted(words, key=len, reverse=True))


MONTH = rf"(?P<month>{_alternatives(MONTHS)})(?:\.|(?![a-z]))"
ANY_WEEKDAY = rf"(?P<wd>{_alternatives(WEEKDAYS)}|{_alternatives(WEEKDAY_ABBR)})\.?"
NUM = rf"(?P<n>{EN_NUMBER_PATTERN})"
UNIT = r"(?P<unit>hour|day|week|month|year|fortnight)s?"
_YEAR_AFTER = r"(?:,?\s+(?P<year>(?:19|20|21)\d\d)|,?\s+'(?P<yy>\d\d))?"
# Words after which a month name or a year means time ("in March", "since 2024", "mid-May").
TIME_PREPOSITIONS = frozenset(
    {
        "in",
        "during",
        "since",
        "from",
        "until",
        "till",
        "by",
        "before",
        "after",
        "early",
        "late",
        "mid",
        "throughout",
        "between",
        "of",
        "last",
        "this",
        "next",
        "around",
        "on",
        "year",
    }
)
MODES = {"last": "last", "past": "last", "previous": "last", "this": "this", "next": "next", None: "bare"}


def _weekday_of(token: str) -> int:
    token = token.rstrip(".")
    return WEEKDAYS[token] if token in WEEKDAYS else WEEKDAY_ABBR[token]


def _with_weekday(found: re.Match[str], pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    wd = found.group("wd")
    return (*pieces, WeekdayP(_weekday_of(wd))) if wd else pieces


def _date(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    month, day = MONTHS[found.group("month")], int(found.group("day"))
    year = found.group("year") or (f"20{found.group('yy')}" if found.group("yy") else None)
    main: Piece = DayP(date(int(year), month, day)) if year else MonthDayP(month, day)
    if not year:
        date(2000, month, day)  # raises for 31 April and the like (2000 is a leap year)
    return _with_weekday(found, (main,))


def _date_strong(view: Scan, found: re.Match[str]) -> bool:
    """ "may 3" in lower case without a year or an ordinal could be the verb; everything else is a date."""
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


def _weekday(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    return (WeekdayP(_weekday_of(found.group("wd")), MODES[found.group("mode")]),)


_PART_AHEAD = r"\s+(?:(?:in\s+the|at)\s+)?(?:(?:early|late)\s+)?(?:morning|afternoon|evening|night)(?!\w)"
_CLOCK_AHEAD = r"\s+(?:at\s+|around\s+)?\d{1,2}(?:[:.]\d{2})?\s*(?:a\.m\.|p\.m\.|am|pm)(?!\w)"
# Words before "sat", "sun" or "wed" that make it the verb or the noun: "we sat night after night", "they
# wed that morning", "the sun morning glow".
_WORD_BEFORE = frozenset(
    {"i", "we", "you", "he", "she", "they", "it", "who", "that", "and", "then", "just", "had", "have", "has", "was"}
    | {"the", "a", "an", "my", "our", "your", "his", "her", "their"}
)
_PART_REPEATED = re.compile(r"\s+(?P<part>morning|afternoon|evening|night)\s+(?:after|and|to|by)\s+(?P=part)")
_PREPOSITION_AHEAD = re.compile(r"\s+(?:in\s+the|at)\s")


def _abbr_beside_guard(view: Scan, found: re.Match[str]) -> bool:
    """ "sat night", "fri morning", "thurs 3pm": an abbreviated weekday right before a part of the day
    (or, for abbreviations that are no English word, a clock time). Not the verb ("I sat night after
    night", "we sat morning and evening", "the sun morning glow"), not "c'mon", not the SAT (the exam,
    in capitals)."""
    token, start = found.group("wd"), found.start()
    if start > 0 and view.text[start - 1] in "'’":
        return False
    if token == "sat" and view.original[view.origin[start] : view.origin[start] + 3] == "SAT":
        return False
    if token in ABBR_WORDS and (
        view.prev_word(start) in _WORD_BEFORE or _PREPOSITION_AHEAD.match(view.text, found.end())
    ):
        return False  # "Kate sat in the morning sun", "we sat at night"
    return _PART_REPEATED.match(view.text, found.end()) is None


def _abbr_weekday(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    return (WeekdayP(_weekday_of(found.group("wd"))),)


def _part(name: str) -> PartP:
    return PartP(PARTS[name])


_PART_WORDS = {"morning": "morning", "afternoon": "afternoon", "evening": "evening", "night": "night"}
_EARLY_LATE = {
    ("early", "morning"): "early_morning",
    ("late", "afternoon"): "late_afternoon",
    ("late", "night"): "late_night",
}


def _part_word(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    word = found.group("part")
    name = _EARLY_LATE.get((found.group("early"), word), _PART_WORDS[word])
    return (_part(name),)


def _today_part(offset: int, name: str | None = None) -> Builder:
    def build(found: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
        part = name or _PART_WORDS[found.group("part")]
        return DayP(ctx.today + timedelta(days=offset)), _part(part)

    return build


def _clock(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    groups = found.groupdict()
    hour, minute = int(groups["h"]), int(groups.get("m") or 0)
    meridiem = (found.groupdict().get("mer") or "").replace(".", "")
    by = groups.get("prep") in ("by", "before", "until", "till")
    after = groups.get("prep") == "after"
    if meridiem:
        if not 1 <= hour <= 12 or minute > 59:
            return None
        return (ClockP(hour, minute, meridiem, by=by, after=after),)
    if hour > 23 or minute > 59:
        return None
    explicit = hour == 0 or hour > 12 or found.group("h").startswith("0")
    return (ClockP(hour, minute, "24h" if explicit else None, by=by, after=after),)


_ONLY_PUNCT = re.compile(r"[\s?.!,]*")


def _clock_strong(view: Scan, found: re.Match[str]) -> bool:
    """ "at 4:23", "15:30", "09:05" count alone; "4:23" only when it is all the query says."""
    hour = found.group("h")
    if found.groupdict().get("prep") or hour.startswith("0") or int(hour) > 12:
        return True
    return bool(_ONLY_PUNCT.fullmatch(view.text[: found.start()]) and _ONLY_PUNCT.fullmatch(view.text[found.end() :]))


def _only_this(view: Scan, found: re.Match[str]) -> bool:
    """Nothing but punctuation around the match: the query is only "the 3rd"."""
    return bool(_ONLY_PUNCT.fullmatch(view.text[: found.start()]) and _ONLY_PUNCT.fullmatch(view.text[found.end() :]))


def _ago(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count, unit = number(found.group("n")), found.group("unit")
    if count is None:
        return None
    if unit == "fortnight":
        count, unit = count * 2, "week"
    return ago(count, unit, ctx)


def _last_n(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = number(found.group("n")) if found.groupdict().get("n") else 1
    unit = found.group("unit")
    if count is None:
        return None
    if unit == "fortnight":
        count, unit = count * 14, "day"
    return last_n(count, unit, ctx)


def _year(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    return (YearP(int(found.group("year"))),)


def _month_year(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    return (MonthP(int(found.group("year")), MONTHS[found.group("month")]),)


_WHICH = {"last": -1, "previous": -1, "this": 0, "next": 1}
WHICH = r"(?P<which>last|previous|this|next)"

RULES: list[Rule] = [
    rule("en.day_before_yesterday", "en", START + r"(?:the\s+)?day\s+before\s+yesterday" + STOP, days_from_today(-2)),
    rule("en.day_after_tomorrow", "en", START + r"(?:the\s+)?day\s+after\s+tomorrow" + STOP, days_from_today(2)),
    rule("en.yesterday", "en", START + r"yesterday" + STOP, days_from_today(-1)),
    rule("en.today", "en", START + r"today" + STOP, days_from_today(0)),
    rule("en.tomorrow", "en", START + r"tomorrow" + STOP, days_from_today(1)),
    rule("en.tonight", "en", START + r"tonight" + STOP, _today_part(0, "night")),
    rule("en.last_night", "en", START + r"last\s+night" + STOP, _today_part(-1, "night")),
    rule("en.late_last_night", "en", START + r"late\s+last\s+night" + STOP, _today_part(-1, "late_night")),
    rule(
        # "late on Tuesday", "late yesterday": that day's night; "early Monday": its forenoon. Only right before
        # a day word that names no part itself ("late Tuesday night" is the night, "early Monday morning" the
        # morning): alone, "late" and "early" are no time.
        "en.edge_of_day",
        "en",
        START
        + r"(?P<edge>late|early)(?:\s+on)?"
        + STOP
        + rf"(?=\s+(?:(?:last|this|past|previous)\s+)?(?:{_alternatives(WEEKDAYS)}|yesterday)\b"
        r"(?!\s+(?:in\s+the\s+)?(?:morning|afternoon|evening|night)))",
        lambda m, _c: (_part("night" if m.group("edge") == "late" else "forenoon"),),
        strong=False,
        needs=("late", "early"),
    ),
    rule("en.night_before_last", "en", START + r"(?:the\s+)?night\s+before\s+last" + STOP, _today_part(-2, "night")),
    rule("en.this_part", "en", START + r"this\s+(?P<part>morning|afternoon|evening)" + STOP, _today_part(0)),
    rule(
        "en.part",
        "en",
        START + r"(?:(?P<prep>in|during)\s+the\s+)?(?:(?P<early>early|late)\s+)?"
        r"(?P<part>morning|afternoon|evening|night)" + STOP,
        _part_word,
        strong=lambda _v, m: bool(m.group("prep")),
    ),
    rule(
        "en.at_night",
        "en",
        START + r"(?:(?P<late>late\s+)?at\s+night|overnight)" + STOP,
        lambda m, _c: (_part("late_night" if m.group("late") else "night"),),
    ),
    rule(
        "en.dawn",
        "en",
        START + r"(?:at\s+|before\s+)?dawn" + STOP,
        lambda _m, _c: (_part("dawn"),),
        strong=lambda _v, m: m.group(0) != "dawn",
    ),
    rule(
        "en.lunch",
        "en",
        START + r"(?P<prep>(?:at|over|during|after|before)\s+)?(?:lunch\s*time|lunch)" + STOP,
        lambda _m, _c: (_part("midday"),),
        strong=lambda _v, m: bool(m.group("prep")) or "time" in m.group(0),
    ),
    rule(
        "en.noon",
        "en",
        START + r"(?:at\s+|around\s+|(?P<by>by|before|until|till)\s+)?(?:noon|midday)(?:-?ish)?" + STOP,
        lambda m, _c: (ClockP(12, 0, "24h", by=bool(m.group("by"))),),
    ),
    rule("en.week_before_last", "en", START + r"(?:the\s+)?week\s+before\s+last" + STOP, weeks_from_this(-2)),
    rule("en.week_after_next", "en", START + r"(?:the\s+)?week\s+after\s+next" + STOP, weeks_from_this(2)),
    rule("en.week", "en", START + WHICH + r"\s+week" + STOP, relative(_WHICH, weeks_from_this)),
    rule("en.weekend", "en", START + WHICH + r"\s+weekend" + STOP, relative(_WHICH, weekend_from_this)),
    rule("en.past_weekend", "en", START + r"(?:(?:this|the)\s+)?past\s+weekend" + STOP, weekend_from_this(-1)),
    rule(
        "en.weekend_before_last",
        "en",
        START + r"(?:the\s+)?weekend\s+before\s+last" + STOP,
        weekend_from_this(-2),
    ),
    rule(
        "en.weekends_ago",
        "en",
        START + NUM + r"\s+weekends?\s+(?:ago|back)" + STOP,
        lambda m, c: weekend_from_this(-n)(m, c) if (n := number(m.group("n")) or 0) > 0 else None,
    ),
    rule(
        "en.the_weekend",
        "en",
        START + r"(?:(?P<prep>on|over|at|during)\s+)?the\s+weekend" + STOP,
        recent_weekend,
        # "the weekend" after a preposition, alone or ending the query counts; "the weekend deadline" is a
        # noun phrase
        strong=lambda v, m: (
            bool(m.group("prep"))
            or v.prev_word(m.start()) in TIME_PREPOSITIONS
            or bool(_ONLY_PUNCT.fullmatch(v.text[m.end() :]))
        ),
    ),
    rule("en.month_before_last", "en", START + r"(?:the\s+)?month\s+before\s+last" + STOP, months_from_this(-2)),
    rule("en.month", "en", START + WHICH + r"\s+month" + STOP, relative(_WHICH, months_from_this)),
    rule("en.year_before_last", "en", START + r"(?:the\s+)?year\s+before\s+last" + STOP, years_from_this(-2)),
    rule("en.year", "en", START + WHICH + r"\s+year" + STOP, relative(_WHICH, years_from_this)),
    rule("en.ago", "en", START + NUM + r"\s+" + UNIT + r"\s+(?:or\s+so\s+)?(?:ago|back)" + STOP, _ago),
    rule(
        "en.last_n",
        "en",
        START
        + r"(?:(?:in|over|during|for|within)\s+)?(?:the\s+)?(?:last|past|previous)\s+"
        + NUM
        + r"\s+"
        + UNIT
        + STOP,
        _last_n,
    ),
    # "the past week", "in the last month": the trailing period up to now ("last month" alone is October).
    rule(
        "en.past_unit",
        "en",
        START + r"(?:(?:(?:in|over|during|for|within)\s+)?(?:the|this)\s+past|"
        r"(?:in|over|during|for|within)\s+the\s+last)\s+(?P<unit>hour|day|week|month|year|fortnight)" + STOP,
        _last_n,
    ),
    rule(
        "en.weekday",
        "en",
        START + r"(?:(?P<mode>last|past|previous|this|next)\s+)?"
        rf"(?P<wd>{_alternatives(WEEKDAYS)})" + STOP + r"(?!\s+night\s+football)",
        _weekday,
    ),
    rule(
        "en.weekday_abbr",
        "en",
        START + r"(?P<mode>last|this|next)\s+"
        rf"(?P<wd>{_alternatives(WEEKDAY_ABBR)})\.?" + STOP,
        _weekday,
    ),
    # "sat night", "fri morning", "thurs evening": an abbreviated weekday before a part of the day; "fri 3pm",
    # "tues at 9am" before a clock time when the abbreviation is no English word.
    rule(
        "en.weekday_abbr_part",
        "en",
        START + rf"(?P<wd>{_alternatives(WEEKDAY_ABBR)})\.?(?={_PART_AHEAD})",
        _abbr_weekday,
        guard=_abbr_beside_guard,
        needs=("morning", "afternoon", "evening", "night"),
    ),
    rule(
        "en.weekday_abbr_clock",
        "en",
        START + rf"(?P<wd>{_alternatives(_ABBR_NOT_WORDS)})\.?(?={_CLOCK_AHEAD})",
        _abbr_weekday,
        guard=_abbr_beside_guard,
        needs=("am", "pm", "a.m", "p.m"),
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
        START + rf"(?:{ANY_WEEKDAY},?\s+)?" + MONTH + r"\s+(?:the\s+)?(?P<day>\d{1,2})"
        r"(?P<ord>st|nd|rd|th)?" + _YEAR_AFTER + r"(?![\w:])",
        _date,
        strong=_date_strong,
    ),
    rule(
        "en.day_month",
        "en",
        START + rf"(?:{ANY_WEEKDAY},?\s+)?(?:the\s+)?(?P<day>\d{{1,2}})(?P<ord>st|nd|rd|th)?"
        r"\s+(?:of\s+)?" + MONTH + _YEAR_AFTER + r"(?!\w)",
        _date,
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
    rule(
        "en.clock_meridiem",
        "en",
        START + r"(?:(?P<prep>at|around|about|by|before|after|from|until|till)\s+)?"
        r"(?P<h>\d{1,2})(?:[:.](?P<m>\d{2})(?::\d{2})?)?\s*(?P<mer>a\.m\.|p\.m\.|am|pm)(?:-?ish)?(?!\w)",
        _clock,
    ),
    # "9ish", "at 4ish": like "at 9" (beside a day or a part of the day).
    rule(
        "en.clock_ish",
        "en",
        START + r"(?:(?:at|around|about)\s+)?(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*-?ish" + STOP,
        _clock,
        strong=False,
        needs=("ish",),
    ),
    # "8 this morning", "11 last night": an hour just before the day part it belongs to.
    rule(
        "en.clock_before_part",
        "en",
        START + r"(?P<h>\d{1,2})(?::(?P<m>\d{2}))?"
        r"(?=\s+(?:(?:this|yesterday|tomorrow)\s+(?:morning|afternoon|evening|night)|tonight|last\s+night))",
        _clock,
        strong=False,
    ),
    # "at 9" only beside a day or a part of the day ("last Monday at 9", "yesterday evening around 8").
    rule(
        "en.clock_bare",
        "en",
        START + r"(?:at|around|about)\s+(?P<h>\d{1,2})(?:\s*o'clock)?(?![\w:.,/%])",
        _clock,
        strong=False,
    ),
    rule(
        "en.clock_24h",
        "en",
        START + r"(?:(?P<prep>at|around|about|by|before|after|from|until|till)\s+)?"
        r"(?P<h>\d{1,2}):(?P<m>\d{2})(?::\d{2})?(?![\d:]|\s*(?:am|pm|a\.m|p\.m))",
        _clock,
        strong=_clock_strong,
    ),
]
