"""Numeric forms every language writes the same way: 2026-11-03, 2026-11-03T14:00(+09:00),
2026/11/03, 2026.11.03 (Korean 2026. 11. 3.), 2026-11 (a month)."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

from core.timeparse import ranges
from core.timeparse.model import TimeRange
from core.timeparse.pieces import ClockP, Context, DayP, MonthP, Piece, RangeP
from core.timeparse.rules import Rule, rule

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


RULES: list[Rule] = [
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
