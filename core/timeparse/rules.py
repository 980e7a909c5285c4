"""The rule machinery shared by the language modules.

A :class:`Rule` is a regular expression over the normalized text (lower case, NFKC) and a builder
that turns a match into pieces (:mod:`core.timeparse.pieces`). A rule also says whether its match may
stand alone (``strong``) or only beside another time expression (a bare "March" or "night" is weak:
"the march of progress", "good night"), and may carry a ``guard`` that rejects a match outright from
its surroundings ("朝" in "朝日新聞", "오늘" in "오늘날"). Guards see every raw match, so a boundary
between two time words ("지난주화요일", "昨日夜") is not mistaken for a word that continues.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import cache

from core.timeparse import ranges
from core.timeparse.model import TimeRange, instant
from core.timeparse.parts import PARTS
from core.timeparse.pieces import Context, DayP, MonthP, PartP, Piece, RangeP, WeekendP, WeekP, YearP

START = r"(?<!\w)"  # not inside a word
STOP = r"(?!\w)"


@dataclass
class Scan:
    """What guards and strength checks may look at: the normalized text, the original, and where
    every raw match starts and ends."""

    text: str
    original: str
    origin: tuple[int, ...]
    starts: set[int] = field(default_factory=set)
    ends: set[int] = field(default_factory=set)

    def before(self, start: int, width: int = 40) -> str:
        return self.text[max(0, start - width) : start]

    def after(self, end: int, width: int = 40) -> str:
        return self.text[end : end + width]

    def prev_word(self, start: int) -> str:
        """The word just before ``start`` (letters only), or ``""``."""
        found = re.search(r"([a-z']+)[\s-]+$", self.before(start))
        return found.group(1) if found else ""

    def time_follows(self, end: int, gap: str = r"[\s,]*") -> bool:
        """Another raw time match starts after ``end`` and ``gap`` ("Christmas Eve night", "summer 2025")."""
        skipped = re.match(gap, self.text[end : end + 12])
        return (end + (skipped.end() if skipped else 0)) in self.starts

    def original_at(self, index: int) -> str:
        return self.original[self.origin[index]] if index < len(self.text) else ""


_TEXT_ONLY = re.compile(r"^[\s?.!,。？！、]*$")


def alone(view: Scan, found: re.Match[str], particles: tuple[str, ...] = ()) -> bool:
    """Nothing but punctuation (or one of ``particles``) around the match: the query is only this word."""
    before, after = view.text[: found.start()], view.text[found.end() :]
    for particle in particles:
        if after.startswith(particle):
            after = after[len(particle) :]
            break
    return bool(_TEXT_ONLY.match(before)) and bool(_TEXT_ONLY.match(after))


Builder = Callable[[re.Match[str], Context], tuple[Piece, ...] | None]
Check = Callable[[Scan, re.Match[str]], bool]


@dataclass(frozen=True)
class Rule:
    name: str
    lang: str  # "en", "ko", "ja", or "*" for forms every language shares (ISO dates)
    source: str  # the regular expression, compiled on first use so importing the package stays cheap
    build: Builder
    strong: bool | Check = True
    guard: Check | None = None
    # Literals of which the text must hold one for the rule to match at all: a cheap test that skips the
    # regular expression on most queries (empty: always run).
    needs: tuple[str, ...] = ()

    @property
    def pattern(self) -> re.Pattern[str]:
        return _compiled(self.source)


def rule(
    name: str,
    lang: str,
    pattern: str,
    build: Builder,
    strong: bool | Check = True,
    guard: Check | None = None,
    needs: tuple[str, ...] = (),
) -> Rule:
    return Rule(name, lang, pattern, build, strong, guard, needs)


@cache
def _compiled(source: str) -> re.Pattern[str]:
    return re.compile(source)


@dataclass(frozen=True)
class Atom:
    """One accepted match: normalized offsets, its pieces, and whether it may stand alone."""

    start: int
    end: int
    pieces: tuple[Piece, ...]
    strong: bool
    rule: str


@dataclass(frozen=True)
class Compiled:
    """Rules with their compiled patterns, and every literal some rule ``needs``: which of them a text
    holds is looked up once per text, not once per rule."""

    rules: tuple[tuple[Rule, re.Pattern[str]], ...]
    literals: tuple[str, ...]


def compiled(rules: list[Rule]) -> Compiled:
    """The rules ready for :func:`scan` (built once per rule set, not per query)."""
    literals = sorted({literal for item in rules for literal in item.needs})
    return Compiled(tuple((item, item.pattern) for item in rules), tuple(literals))


def scan(rules: Compiled, view: Scan, ctx: Context) -> list[Atom]:
    """Every rule's matches, guarded, then the longest non-overlapping ones in text order."""
    raw: list[tuple[Rule, re.Match[str]]] = []
    present = frozenset(filter(view.text.__contains__, rules.literals))
    for item, pattern in rules.rules:
        if item.needs and present.isdisjoint(item.needs):
            continue
        for found in pattern.finditer(view.text):
            if found.end() > found.start():
                raw.append((item, found))
    view.starts = {found.start() for _, found in raw}
    view.ends = {found.end() for _, found in raw}
    atoms: list[Atom] = []
    for item, found in raw:
        if item.guard is not None and not item.guard(view, found):
            continue
        try:
            pieces = item.build(found, ctx)
        except (ValueError, OverflowError):  # 30 February, a year 99999 days ago
            pieces = None
        if not pieces:
            continue
        strong = item.strong if isinstance(item.strong, bool) else item.strong(view, found)
        atoms.append(Atom(found.start(), found.end(), pieces, strong, item.name))
    return _longest(atoms)


def _longest(atoms: list[Atom]) -> list[Atom]:
    """Longest first; a match that overlaps one already taken is dropped. Linear in the text length."""
    chosen: list[Atom] = []
    taken = bytearray(max((atom.end for atom in atoms), default=0))
    for atom in sorted(atoms, key=lambda a: (-(a.end - a.start), a.start, not a.strong)):
        if not any(taken[atom.start : atom.end]):
            chosen.append(atom)
            taken[atom.start : atom.end] = b"\x01" * (atom.end - atom.start)
    return sorted(chosen, key=lambda a: a.start)


# Builders shared by the languages ----------------------------------------------------------------


def relative(offsets: dict[str, int], maker: Callable[[int], Builder], group: str = "which") -> Builder:
    """A builder for "last/this/next X": ``offsets`` maps the word in ``group`` to ``maker``'s offset."""
    return lambda found, ctx: maker(offsets[found.group(group)])(found, ctx)


def day_and_part(offset: int, part: str) -> Builder:
    """A day counted from today with a part of it: "last night", 어젯밤, 今朝."""
    return lambda _m, ctx: (DayP(ctx.today + timedelta(days=offset)), PartP(PARTS[part]))


def days_from_today(offset: int) -> Builder:
    return lambda _m, ctx: (DayP(ctx.today + timedelta(days=offset)),)


def weeks_from_this(offset: int) -> Builder:
    return lambda _m, ctx: (WeekP(ranges.monday_of(ctx.today) + timedelta(days=7 * offset)),)


def weekend_from_this(offset: int) -> Builder:
    return lambda _m, ctx: (WeekendP(ranges.monday_of(ctx.today) + timedelta(days=7 * offset)),)


def recent_weekend(_m: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    """The latest weekend that has begun: this one on a Saturday or Sunday, else the last one."""
    monday = ranges.monday_of(ctx.today)
    return (WeekendP(monday if ctx.today.weekday() >= 5 else monday - timedelta(days=7)),)


def months_from_this(offset: int) -> Builder:
    def build(_m: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
        year, month = ranges.add_months(ctx.today.year, ctx.today.month, offset)
        return (MonthP(year, month),)

    return build


def years_from_this(offset: int) -> Builder:
    return lambda _m, ctx: (YearP(ctx.today.year + offset),)


def ago(count: int, unit: str, ctx: Context) -> tuple[Piece, ...]:
    """``count`` units before now, at the grain of the unit: "3 days ago" is that day, "2 weeks ago"
    that Monday-to-Sunday week, "3 hours ago" that clock hour."""
    today = ctx.today
    if unit == "hour":
        moment = ranges.elapsed(ctx.now, timedelta(hours=-count)).replace(minute=0, second=0, microsecond=0)
        return (RangeP(TimeRange(moment, ranges.elapsed(moment, timedelta(hours=1)), "hour")),)
    if unit == "day":
        return (DayP(today - timedelta(days=count)),)
    if unit == "week":
        return (WeekP(ranges.monday_of(today - timedelta(days=7 * count))),)
    if unit == "month":
        return (MonthP(*ranges.add_months(today.year, today.month, -count)),)
    return (YearP(today.year - count),)


def last_n(count: int, unit: str, ctx: Context) -> tuple[Piece, ...] | None:
    """ "In the last ``count`` units", up to now. Hours are elapsed time; longer units start at the
    midnight ``count`` days, weeks, months or years back, so the whole of the first day is in."""
    if count <= 0:
        return None
    today = ctx.today
    if unit == "hour":
        return (RangeP(ranges.span(ranges.elapsed(ctx.now, timedelta(hours=-count)), ctx.now)),)
    if unit == "day":
        first = today - timedelta(days=count)
    elif unit == "week":
        first = today - timedelta(days=7 * count)
    else:
        months = count if unit == "month" else 12 * count
        year, month = ranges.add_months(today.year, today.month, -months)
        first = date(year, month, min(today.day, ranges.days_in_month(year, month)))
    start = ranges.midnight(first, ctx.zone)
    return (RangeP(ranges.span(start, ctx.now)),) if instant(start) < instant(ctx.now) else None
