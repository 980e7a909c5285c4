"""Numeric forms every language writes the same way: 2026-11-03, 2026-11-03T14:00(+09:00),
2026/11/03, 2026.11.03 (Korean 2026. 11. 3.), 2026-11 (a month); 5.3.2026 (day first, as dotted dates
with the year last are written), 3/5 and 3/5/26 (month first; alone "3/5" counts only as the whole
query or after a preposition of time, so "3/5 of the team" stays a fraction)."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

from core.timeparse import ranges
from core.timeparse.model import TimeRange
from core.timeparse.pieces import ClockP, Context, DayP, MonthDayP, MonthP, Piece, RangeP
from core.timeparse.rules import Rule, Scan, rule

_OFFSET = re.compile(r"([+-])(\d\d):?(\d\d)")


def _iso(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    day = date(int(found.group("y")), int(found.group("mo")), int(found.group("d")))
    if found.group("h") is None:
        return (DayP(day),)
    hour, minute = int(found.group("h")), int(found.group("mi"))
    if hour > 23 or minute > 59:
        return None
    offset = found.group("tz")
    if not offset:
        return DayP(day), ClockP(hour, minute, "24h")
    if offset == "z":
        zone_offset = timedelta(0)
    else:
        parts = _OFFSET.fullmatch(offset)
        if parts is None:
            return None
        sign, hh, mm = parts.groups()
        zone_offset = (1 if sign == "+" else -1) * timedelta(hours=int(hh), minutes=int(mm))
    moment = datetime(day.year, day.month, day.day, hour, minute, tzinfo=UTC) - zone_offset
    start = moment.astimezone(ctx.zone)
    return (RangeP(TimeRange(start, ranges.elapsed(start, timedelta(hours=1)), "hour")),)


def _ymd(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    return (DayP(date(int(found.group("y")), int(found.group("mo")), int(found.group("d")))),)


def _ym(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    month = int(found.group("mo"))
    return (MonthP(int(found.group("y")), month),) if 1 <= month <= 12 else None


def _dmy(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    return (DayP(date(int(found.group("y")), int(found.group("mo")), int(found.group("d")))),)


def _md(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    month, day, year = int(found.group("mo")), int(found.group("d")), found.group("y")
    if year:
        return (DayP(date(int(year) + (2000 if len(year) == 2 else 0), month, day)),)
    date(2000, month, day)  # raises for 31 April
    return (MonthDayP(month, day),)


# A number right after one of these names a version, not a date ("version 1.2.2026", "v2.1.3",
# "release 3/5"); the fallback (core.timeparse.fallback) refuses the same.
VERSION_BEFORE = re.compile(r"(?:\b(?:version|ver|release|build|rev)\.?\s*|\bv\.?\s*)\Z", re.IGNORECASE)


def not_a_version(view: Scan, found: re.Match[str]) -> bool:
    return VERSION_BEFORE.search(view.before(found.start(), 12)) is None


_MD_PREPOSITIONS = re.compile(r"(?:^|\s)(?:on|since|from|until|till|by|before|after)\s+$")
_ONLY_PUNCT = re.compile(r"[\s?.!,]*")


def _md_strong(view: Scan, found: re.Match[str]) -> bool:
    """ "3/5" counts with a year, a preposition of time before it, or alone ("3/5 of the team" is a
    fraction); beside a time it joins ("3/5 at 2pm")."""
    if found.group("y") or _MD_PREPOSITIONS.search(view.before(found.start(), 12)):
        return True
    return bool(_ONLY_PUNCT.fullmatch(view.text[: found.start()]) and _ONLY_PUNCT.fullmatch(view.text[found.end() :]))


RULES: list[Rule] = [
    # 5.3.2026, 05.03.2026: day first, as every language that writes dots before the year does.
    rule(
        "dmy.dotted",
        "*",
        r"(?<![\d./-])(?P<d>\d{1,2})\.(?P<mo>\d{1,2})\.(?P<y>(?:19|20)\d\d)(?![\d]|\.\d)",
        _dmy,
        guard=not_a_version,
    ),
    # 3/5, 3/5/26, 03/05/2026: month first (US, Korean and Japanese order).
    rule(
        "md.slashed",
        "*",
        r"(?<![\d./-])(?P<mo>1[0-2]|0?[1-9])/(?P<d>3[01]|[12]\d|0?[1-9])(?:/(?P<y>(?:19|20)\d\d|\d\d))?(?![\d/])",
        _md,
        strong=_md_strong,
        guard=not_a_version,
    ),
    rule(
        "iso.datetime",
        "*",
        r"(?<![\d.:/-])(?P<y>\d{4})-(?P<mo>\d{1,2})-(?P<d>\d{1,2})"
        r"(?:[t ](?P<h>\d{1,2}):(?P<mi>\d{2})(?::\d{2}(?:\.\d+)?)?(?P<tz>z|[+-]\d\d:?\d\d)?)?(?![\d:])",
        _iso,
    ),
    rule(
        "iso.slashed",
        "*",
        r"(?<![\d./-])(?P<y>\d{4})\s?(?P<sep>[./])\s?(?P<mo>\d{1,2})\s?(?P=sep)\s?"
        r"(?P<d>\d{1,2})(?:\.(?!\d))?(?![\d/])",
        _ymd,
    ),
    rule("iso.month", "*", r"(?<![\d./:-])(?P<y>\d{4})-(?P<mo>\d{2})(?![\d:-])", _ym),
]
