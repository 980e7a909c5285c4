"""English words and guards the rule tables share (weekday names and abbreviations, prepositions of
time).

Guards against words that only look like time: "we", "sat", "sun" and other weekday abbreviations
count only after last/this/next, inside a full date like "Tue 24 Nov", or right before a part of the
day ("sat night", but not in "we sat night after night"; ``weekdays`` reads "on Sat"); a month name
alone needs a preposition before it ("in March", "since May", "early June") or a day or year beside
it, so "may I" and "the march of progress" stay words, and "the March 2024 issue" is a magazine's;
"second", "minute" and "moment" are never time here; a part of day alone needs "in the" / "at" ("good
morning" is a greeting), or a day beside it ("Tuesday night").
"""

from __future__ import annotations

import re

from core.timeparse.pieces import Context, Piece, WeekdayP
from core.timeparse.rules import Scan

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


def alternatives(words: dict[str, int]) -> str:
    return "|".join(sorted(words, key=len, reverse=True))


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


def weekday_of(token: str) -> int:
    token = token.rstrip(".")
    return WEEKDAYS[token] if token in WEEKDAYS else WEEKDAY_ABBR[token]


# Words before "sat", "sun" or "wed" that make it the verb or the noun: "we sat night after night", "they
# wed that morning", "the sun morning glow".
_WORD_BEFORE = frozenset(
    {"i", "we", "you", "he", "she", "they", "it", "who", "that", "and", "then", "just", "had", "have", "has", "was"}
    | {"the", "a", "an", "my", "our", "your", "his", "her", "their"}
)


_PART_REPEATED = re.compile(r"\s+(?P<part>morning|afternoon|evening|night)\s+(?:after|and|to|by)\s+(?P=part)")


_PREPOSITION_AHEAD = re.compile(r"\s+(?:in\s+the|at)\s")


def abbr_beside_guard(view: Scan, found: re.Match[str]) -> bool:
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


def abbr_weekday(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    return (WeekdayP(weekday_of(found.group("wd"))),)


ONLY_PUNCT = re.compile(r"[\s?.!,]*")
