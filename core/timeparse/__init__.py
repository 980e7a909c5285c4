"""The temporal backbone: time expressions in English, Korean and Japanese → half-open ranges.

    from core.timeparse import parse_time
    tp = parse_time("what did we decide last Tuesday night?", now, ZoneInfo("Asia/Seoul"))
    tp.range        # TimeRange(Tue 24 Nov 18:00 +09:00, Wed 25 Nov 04:00 +09:00, "part_of_day")
    tp.expression   # "last Tuesday night"
    tp.rest         # "what did we decide?"
    tp.notes        # () here; ("read 'tuesdya' as tuesday",) for "last tuesdya night"

How it is built, one concern per module: ``text`` (normalization, number words), ``lang_en`` /
``lang_ko`` / ``lang_ja`` / ``lang_common`` (the rules of each language, with their guards), ``rules``
(the rule machinery), ``seasons`` and ``holidays`` (the rules for seasons and holidays in all three
languages), ``movable`` (Easter, Thanksgiving, 설날, 추석, 旧正月 ... computed per year, lunar dates from the
calendar packages), ``clock`` (clock times, written-out hours, "a quarter to noon", "3-4pm", "by 2pm"),
``periods`` (quarters and halves, now and just now, 엊그제, ordinal weekdays, the beginning or end of a
period, decades, "in 1/4 h"), ``pieces`` and ``resolve`` (meanings and how they combine), ``annual``
(which occurrence of a season or holiday is meant), ``parts`` (the part-of-day boundaries), ``ranges``
(DST-correct range arithmetic), ``compose`` (joining neighbours, "since", "between"), ``anchor``
(relative words read from a date written beside them: "last week, as of 6 November 2023",
2023年11月6日の前日), ``fiscal`` ("FY2023", 회계연도, 今年度), ``fallback`` (lazy dateparser for absolute dates the
rules miss), ``typos`` (time words with a typo, read with a note), ``hints`` (time-like words that could
not be read, noted), ``parse`` (the entry points and the rest of the query). The conventions a person
sees are in ``reverie when --help``.
"""

from core.timeparse.model import GRAINS, TimeMatch, TimeParse, TimeParseError, TimeRange
from core.timeparse.parse import LANGUAGES, find_time_expressions, parse_time

__all__ = [
    "GRAINS",
    "LANGUAGES",
    "TimeMatch",
    "TimeParse",
    "TimeParseError",
    "TimeRange",
    "find_time_expressions",
    "parse_time",
]
