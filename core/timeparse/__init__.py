"""The temporal backbone: time expressions in English, Korean and Japanese → half-open ranges.

    from core.timeparse import parse_time
    tp = parse_time("what did we decide last Tuesday night?", now, ZoneInfo("Asia/Seoul"))
    tp.range        # TimeRange(Tue 24 Nov 18:00 +09:00, Wed 25 Nov 04:00 +09:00, "part_of_day")
    tp.expression   # "last Tuesday night"
    tp.rest         # "what did we decide?"

How it is built, one concern per module: ``text`` (normalization, number words), ``lang_en`` /
``lang_ko`` / ``lang_ja`` / ``lang_common`` (the rules of each language, with their guards), ``rules``
(the rule machinery), ``seasons`` and ``holidays`` (the rules for seasons and fixed-date holidays in
all three languages), ``pieces`` and ``resolve`` (meanings and how they combine), ``annual`` (which
occurrence of a season or holiday is meant), ``parts`` (the
part-of-day boundaries), ``ranges`` (DST-correct range arithmetic), ``compose`` (joining neighbours,
"since", "between"), ``fallback`` (lazy dateparser for absolute dates the rules miss), ``parse`` (the
entry points and the rest of the query).
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
