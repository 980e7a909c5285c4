"""dateparser as a fallback for absolute dates the rules do not cover ("11/03/2026", "3rd Nov '26").

Imported lazily (never when :mod:`core.timeparse` is imported), always with ``languages=`` (without
it ``search_dates`` costs 1.5 s), and only asked about a text that has a digit in a date-like shape,
so ordinary queries never reach it. What it returns must pass our own guard: the matched text holds a
digit, and dateparser read at least a month and a day or a year from it; its point in time becomes
the range of its period (day, month, year). Anything dateparser raises means "no date".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from core.timeparse import ranges
from core.timeparse.dates import VERSION_BEFORE
from core.timeparse.model import TimeRange
from core.timeparse.pieces import Context

MAX_LENGTH = 300  # dateparser's search is slow on long texts; longer ones are searched piecewise
# Year-first numeric dates belong to the rules: one they rejected (2026-13-01) is no date at all.
_YEAR_FIRST = re.compile(r"\d{4}\s*[/.\-]\s*\d{1,2}\s*[/.\-]\s*\d{1,2}")
_CJK_DATE = re.compile(r"\d\s*[年년]|\d\s*[月월]\s*\d+\s*[日일]")
_NUMERIC_DATE = re.compile(r"\d{1,4}\s*[/.\-]\s*\d{1,2}")
_MONTH_WORD = re.compile(
    r"(?<![a-z])(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?![a-z])|\d\s*[월月]", re.IGNORECASE
)
_AMOUNT_AFTER = re.compile(
    r"\s*(?:h|hrs?|hours?|mins?|minutes?|secs?|seconds?|cups?|times|people|persons?|players?|percent|reps|sets|pages|"
    r"tsp|tbsp|teaspoons?|tablespoons?|inch(?:es)?|"
    r"of|kg|g|lbs?|miles?|km|m|mi|pounds?|lit(?:er|re)s?|l|ml|oz|pieces?|slices?|days?|weeks?|months?|years?|"
    r"시간|분|컵|개|時間|分|杯|個)(?![a-z])",
    re.IGNORECASE,
)
# Words dateparser reads as dates and we do not (MEASUREMENTS: "we" becomes Wednesday).
SKIP_TOKENS = ["t", "we", "may", "march", "mar", "second", "sun", "sat", "wed", "mon", "a", "an", "now", "on"]


def worth_trying(text: str) -> bool:
    """Short, and holding a numeric date (11/03/2026) or a month beside a number: a date's shape."""
    return len(text) <= MAX_LENGTH and _date_shaped(text)


def _date_shaped(text: str) -> bool:
    return _NUMERIC_DATE.search(text) is not None or (
        _MONTH_WORD.search(text) is not None and any(char.isdigit() for char in text)
    )


def search(text: str, ctx: Context, languages: Sequence[str]) -> list[tuple[int, int, TimeRange]]:
    """Absolute dates dateparser finds in ``text``: (start, end, range), original offsets."""
    if not worth_trying(text):
        return []
    try:
        return _search(text, ctx, languages)
    except Exception:  # a third-party parser failing on odd input means "no date here"
        return []


def _settings(ctx: Context) -> dict[str, Any]:
    """dateparser's settings, in the plain mapping its API takes."""
    return {
        "RELATIVE_BASE": ctx.now.replace(tzinfo=None),
        "PREFER_DATES_FROM": "past",
        "RETURN_AS_TIMEZONE_AWARE": False,
        "SKIP_TOKENS": SKIP_TOKENS,
    }


def _search(text: str, ctx: Context, languages: Sequence[str]) -> list[tuple[int, int, TimeRange]]:
    from dateparser.date import DateDataParser  # heavy: dateparser, ~1 s on first use; only when the rules miss
    from dateparser.search import search_dates  # heavy: as above

    settings = _settings(ctx)
    hits = search_dates(text, languages=list(languages), settings=settings) or []
    parser = DateDataParser(languages=list(languages), settings=settings)
    results: list[tuple[int, int, TimeRange]] = []
    cursor = 0
    for substring, _point in hits:
        where = text.find(substring, cursor)
        if where < 0 or not _date_shaped(substring) or _YEAR_FIRST.search(substring):
            continue
        if _CJK_DATE.search(substring):
            continue  # 2023年2月30日, 令和5年2月30日: the rules read (or rejected) CJK dates; dateparser garbles them
        numeric = _NUMERIC_DATE.search(substring)
        if numeric is not None and _AMOUNT_AFTER.match(text, where + numeric.end()):
            continue  # "in 1/4 h", "1/2 cup", "30-60 seconds": an amount of something, not a date
        if numeric is not None and VERSION_BEFORE.search(text, 0, where + numeric.start()):
            continue  # "version 1.2.2026": as the rules' numeric dates, a version is no date
        data = parser.get_date_data(substring)
        parts = set(getattr(data, "parts", None) or ())
        point: datetime | None = data.date_obj
        period = data.period or "day"
        if point is None or "month" not in parts or not parts & {"day", "year"}:
            continue
        rng = _range(point.date(), period, ctx)
        if rng is not None:
            results.append((where, where + len(substring), rng))
            cursor = where + len(substring)
    return results


def _range(day: date, period: str, ctx: Context) -> TimeRange | None:
    if period == "month":
        return ranges.month_range(day.year, day.month, ctx.zone)
    if period == "year":
        return ranges.year_range(day.year, ctx.zone)
    if period in ("day", "time", "week"):
        return ranges.day_range(day, ctx.zone)
    return None
