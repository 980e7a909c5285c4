"""Relative words anchored to a date written elsewhere in the same text, not to now.

- "last Friday, on 23 January, 2022", "yesterday, as mentioned on November 6, 2023", "last week, as of
  6 November 2023", "2023년 11월 6일 기준 지난주", "2023年11月6日時点で先週": the relative words are read
  as if today were that date ("last Friday" is the latest Friday before it, a week earlier when the
  date is itself a Friday; "last week" the calendar week before the one holding it). A span that runs
  up to now ("the last 3 days, as of ...") runs to the end of that date.
- "2023年11月6日の前の週", "の前日", "の翌日", "2023년 11월 6일 전날", "다음 날", "전주": counted from that date,
  as "the week before 9 June 2023" is (the seven days before it; the day before or after it).

The date must be a whole day that does not depend on now (a year is written); the relative words must
be ones that do (read again against the date, they change). Anything else is left as it was found.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta, tzinfo

from core.timeparse import ranges
from core.timeparse.model import TimeMatch, TimeRange, instant

Reparse = Callable[[str, datetime], list[TimeMatch]]

# Between the relative words and the date that anchors them: "as of", "as mentioned" ... ("on" before
# the date belongs to the date's match). A bare comma is not enough: "yesterday, 5 May 2023" may name
# the same day twice.
_EN_GAP = re.compile(
    r"[\s,;]*(?:as\s+(?:of|at|mentioned|noted|said|written|stated)|counting\s+from|relative\s+to|"
    r"mentioned|said|written|noted)\s*(?:on\s+)?[\s,]*"
)
_EN_BARE_GAP = re.compile(r"[\s,;]*")
_EN_ON = re.compile(r"on\s", re.IGNORECASE)
# Between the date and the relative words that follow it (Korean, Japanese).
_CJK_GAP = re.compile(
    r"\s*(?:을|를)?\s*(?:기준(?:으로|으로\s*한|에서|,)?|현재)\s*,?\s*"
    r"|\s*(?:時点で(?:の)?|時点の|を基準に(?:して)?|基準で)\s*、?\s*"
)
# Offsets written after the date: (days before the date's first day, length in days); after: + from its end.
_OFFSETS = re.compile(
    r"(?:\s*の\s*|\s*)(?P<w>前の週|前週|翌週|次の週|前日|前の日|翌日|次の日|"
    r"전날|전\s*주|다음\s*날|이튿날|다음\s*주|그\s*다음\s*날)(?![가-힣\u3040-\u30ff\u4e00-\u9fff])"
)
_OFFSET_DAYS = {
    "前の週": (-7, 7),
    "前週": (-7, 7),
    "翌週": (1, 7),
    "次の週": (1, 7),
    "前日": (-1, 1),
    "前の日": (-1, 1),
    "翌日": (1, 1),
    "次の日": (1, 1),
    "전날": (-1, 1),
    "전주": (-7, 7),
    "다음날": (1, 1),
    "이튿날": (1, 1),
    "다음주": (1, 7),
    "그다음날": (1, 1),
}


def anchored(text: str, matches: list[TimeMatch], now: datetime, zone: tzinfo, reparse: Reparse) -> list[TimeMatch]:
    """``matches`` with each relative expression that a written date anchors read from that date, the
    two (and the words between them) as one expression."""
    out: list[TimeMatch] = []
    index = 0
    while index < len(matches):
        match = matches[index]
        following = matches[index + 1] if index + 1 < len(matches) else None
        joined = None
        if following is not None:
            gap = text[match.end : following.start]
            english = _EN_GAP.fullmatch(gap) or (_EN_BARE_GAP.fullmatch(gap) and _EN_ON.match(following.expression))
            if english and _absolute(following, now, reparse):
                joined = _from_date(text, match, following, match, zone, reparse)
            elif _CJK_GAP.fullmatch(gap) and _absolute(match, now, reparse):
                joined = _from_date(text, following, match, match, zone, reparse)
        if joined is not None:
            out.append(joined)
            index += 2
            continue
        offset = _offset(text, match, now, zone, reparse)
        out.append(offset or match)
        index += 1
    return out


def _absolute(match: TimeMatch, now: datetime, reparse: Reparse) -> bool:
    """A whole day that reads the same however far now moves."""
    if match.range.grain != "day":
        return False
    again = reparse(match.expression, now + timedelta(days=800))
    return len(again) == 1 and again[0].range == match.range


def _from_date(
    text: str, relative: TimeMatch, date_match: TimeMatch, first: TimeMatch, zone: tzinfo, reparse: Reparse
) -> TimeMatch | None:
    day = date_match.range.start.date()
    then = datetime(day.year, day.month, day.day, 12, tzinfo=zone)
    again = reparse(relative.expression, then)
    if len(again) != 1 or again[0].range == relative.range:
        return None  # not relative words, or not one expression on their own
    rng = again[0].range
    if instant(rng.end) == instant(then):  # "the last 3 days": up to the end of that date
        rng = ranges.span(rng.start, date_match.range.end)
    last = date_match if first is relative else relative
    return TimeMatch(rng, text[first.start : last.end], first.start, last.end)


def _offset(text: str, match: TimeMatch, now: datetime, zone: tzinfo, reparse: Reparse) -> TimeMatch | None:
    """ "2023年11月6日の前日", "2023년 11월 6일 다음 날": the day or week before or after that date."""
    found = _OFFSETS.match(text, match.end)
    if found is None or not _absolute(match, now, reparse):
        return None
    shift, length = _OFFSET_DAYS["".join(found.group("w").split())]
    day = match.range.start.date()
    begin = day + timedelta(days=shift)
    if length == 1:
        rng: TimeRange = ranges.day_range(begin, zone)
    else:
        rng = ranges.span(ranges.midnight(begin, zone), ranges.midnight(begin + timedelta(days=length), zone))
    return TimeMatch(rng, text[match.start : found.end()], match.start, found.end())
