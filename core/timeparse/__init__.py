"""The temporal backbone: time expressions in English, Korean and Japanese → half-open ranges.

    from core.timeparse import parse_time
    tp = parse_time("what did we decide last Tuesday night?", now, ZoneInfo("Asia/Seoul"))
    tp.range        # TimeRange(Tue 24 Nov 18:00 +09:00, Wed 25 Nov 04:00 +09:00, "part_of_day")
    tp.expression   # "last Tuesday night"
    tp.rest         # "what did we decide?"
    tp.notes        # () here; ("read 'tuesdya' as tuesday",) for "last tuesdya night"

Where each kind of expression is read (each module holds its English, Korean and Japanese tables):

- ``clock``: clock times ("3pm", "a quarter to noon", 세 시 반, 午後3時, "by 2pm", "3pm PST");
- ``dates``: dates and numeric forms (2026-11-03, 3/5, "3 November", 11월 3일, "the 3rd", "in 1987",
  令和7年, '98);
- ``relative``: days, weeks, months and years named from today (yesterday, last week, 엊그제, 先々月);
- ``counts``: counts back or ahead ("3 days ago", "in 2 weeks", "the last 3 days", 며칠 전, 数日前);
- ``moments``: now and moments ago ("just now", "20 minutes ago", 아까, 昨日の今頃);
- ``weekdays``: weekdays and ordinal weekdays ("last Friday", "the last Friday of October");
- ``periods``: named periods and their edges (quarters, halves, decades, centuries, ISO weeks, 연말,
  "early 2019", "month to date");
- ``dayparts``: parts of the day (night, 어젯밤, 今朝, "over breakfast"; boundaries in ``parts``);
- ``intervals``: one expression from … to … ("3-4pm", "20-22 November", "2019-21");
- ``seasons``, ``holidays`` and ``movable`` (Easter, 설날, 추석 ... computed per year), ``annual``
  (which occurrence of a season or holiday is meant), ``fiscal`` ("FY2023", 회계연도, 今年度);
- ``typos`` (time words with a typo, read with a note), ``hints`` (time-like words left unread, noted),
  ``fallback`` (lazy dateparser for absolute dates the rules miss).

The machinery: ``text`` (normalization, number words), ``lang_en`` / ``lang_ko`` / ``lang_ja`` (words
and guards the tables share), ``rules`` (rules, guards, scanning), ``pieces`` and ``resolve`` (meanings
and how they combine), ``ranges`` (DST-correct arithmetic), ``compose`` (joining neighbours, "since",
"between"), ``anchor`` (relative words read from a date written beside them), ``parse`` (the entry
points and the rest of the query). The conventions a person sees are in ``reverie when --help``.
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
