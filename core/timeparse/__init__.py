"""The temporal backbone: time expressions in English, Korean and Japanese → half-open ranges.

``parse_time("what did we decide last Tuesday night?", now, zone)`` gives the range (Tue 18:00 – Wed
04:00, grain ``part_of_day``), the expression read, the rest of the query, and notes (a typo read).

Where each kind of expression is read (each module holds its English, Korean and Japanese tables):
``clock`` (clock times: "3pm", 세 시 반, 午後3時, "3pm PST"); ``dates`` (dates and numeric forms:
2026-11-03, 11월 3일, "the 3rd", 令和7年); ``relative`` (days, weeks, months, years named from today:
yesterday, 엊그제, 先々月); ``counts`` ("3 days ago", 며칠 전, 数日前); ``moments`` ("just now", 아까);
``weekdays`` ("last Friday", "the last Friday of October"); ``periods`` (quarters, decades, ISO weeks,
연말, "early 2019", "month to date"); ``dayparts`` (night, 어젯밤, 今朝; boundaries in ``parts``);
``intervals`` ("3-4pm", "20-22 November"); ``seasons``, ``holidays``, ``movable`` (Easter, 설날, 추석)
and ``annual`` (which occurrence is meant); ``fiscal`` ("FY2023", 今年度); ``typos`` (read with a
note); ``hints`` (time-like words left unread, noted); ``fallback`` (lazy dateparser).

The machinery: ``text`` (normalization, number words), ``lang_en``/``lang_ko``/``lang_ja`` (shared
words and guards), ``rules`` (rules, guards, scanning), ``pieces`` and ``resolve`` (meanings and how
they combine), ``ranges`` (DST-correct arithmetic), ``compose`` (neighbours, "since", "between"),
``anchor`` (relative words read from a date beside them), ``parse`` (entry points, the rest of the
query). The conventions a person sees are in ``reverie when --help``.
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
