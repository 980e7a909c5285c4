"""The temporal backbone: time expressions in English, Korean and Japanese → half-open ranges.

``parse_time("what did we decide last Tuesday night?", now, zone)`` gives the range (Tue 18:00 – Wed
04:00, grain ``part_of_day``), the expression read, the rest of the query, and notes (a typo read).
One module per kind of expression, each with its English, Korean and Japanese tables: ``clock``,
``dates``, ``relative``, ``counts``, ``approximate``, ``moments``, ``weekdays``, ``periods``, ``dayparts`` (boundaries
in ``parts``), ``intervals``, ``seasons``, ``holidays``, ``movable``, ``annual``, ``fiscal``, ``typos``,
``hints`` (time-like words left unread) and ``fallback`` (dateparser). The machinery: ``text``,
``lang_en``/``lang_ko``/``lang_ja``, ``rules``, ``pieces``, ``resolve``, ``ranges`` (DST-correct
arithmetic), ``compose``, ``anchor`` and ``parse`` (entry points). The conventions a person sees are in
``reverie when --help``.
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
