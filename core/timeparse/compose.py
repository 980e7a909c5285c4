"""From accepted matches to time expressions: join neighbours, then read "since", "until" and "between".

Neighbouring matches join when only a light connector separates them ("last Tuesday night", "先週の
火曜日の夜", "March last year") and the pieces make sense together (:mod:`core.timeparse.resolve`).
"since X" runs from X's start to now; "until X" is open at the start (:data:`~core.timeparse.model.OPEN_START`)
up to X's end; "between X and Y" / "from X to Y" / 3~5日 runs from X's start to Y's end (an hour as the
end stops at that hour; a bare day number borrows its month from the start; hours without a day take
it from a day beside them). An expression made only of weak matches (a bare month name, "night") is
dropped: that is the guard.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass, replace
from datetime import date, timedelta, tzinfo

from core.timeparse import ranges
from core.timeparse.model import TimeRange, instant
from core.timeparse.pieces import ClockP, ClockSpanP, Context, DomP, PartP, Piece
from core.timeparse.resolve import resolve
from core.timeparse.rules import Atom
from core.timeparse.text import number

_CONNECTOR = re.compile(r"[\s,]*(?:(?:at|on|in|of|during|around|about|the)\s+){0,3}|\s*(?:의|에|の|、|,)?\s*")
_MAX_GAP = 24

_SINCE_BEFORE = {"en": re.compile(r"(?<!\w)(?:since|starting(?:\s+(?:from|on))?|ever\s+since)\s+$")}
_SINCE_AFTER = {"ko": re.compile(r"\s*(?:부터|이후로|이후)"), "ja": re.compile(r"\s*(?:から|以降|以来)")}
# "through" is left out: "what did she go through last week" is no "until".
_UNTIL_BEFORE = {"en": re.compile(r"(?<!\w)(?:up\s+)?(?:until|till|til)\s+$|(?<!\w)up\s+to\s+$")}
_UNTIL_AFTER = {"ko": re.compile(r"\s*까지"), "ja": re.compile(r"\s*まで(?:に)?")}
_OPENER = re.compile(r"(?<!\w)(?P<word>between|from)\s+$")
_EN_SEPARATORS = {
    "between": re.compile(r"\s*(?:and|&)\s+"),
    "from": re.compile(r"\s*(?:to|until|till|through|thru|-|–|—)\s*"),
    None: re.compile(r"\s*(?:to|until|till|through|thru|-|–|—)\s*"),
}
_KO_SEPARATOR = re.compile(r"\s*(?P<sep>부터|에서|~|〜|-)\s*")
_JA_SEPARATOR = re.compile(r"\s*(?P<sep>から|~|〜|-|ー)\s*")
_KO_CLOSER = re.compile(r"\s*(?:까지|사이에|사이)")
_JA_CLOSER = re.compile(r"\s*(?:まで|の間)")
_BARE_DAY = re.compile(r"(?:the\s+)?(?P<d>\d{1,2})(?:st|nd|rd|th|\s*일|\s*日)?(?![\d:])")


@dataclass(frozen=True)
class Compound:
    atoms: tuple[Atom, ...]
    pieces: tuple[Piece, ...]

    @property
    def start(self) -> int:
        return self.atoms[0].start

    @property
    def end(self) -> int:
        return self.atoms[-1].end

    @property
    def strong(self) -> bool:
        """Any member may stand alone, or a part of day names its day of the month ("the night of the
        5th", 5일 밤, 5日の夜): two weak words that together are plainly a time. In English the part comes
        first ("the 5th night of the festival" is a count)."""
        if any(atom.strong for atom in self.atoms):
            return True
        if len(self.atoms) != 2 or {type(piece) for piece in self.pieces} != {PartP, DomP}:
            return False
        return isinstance(self.atoms[0].pieces[0], PartP) or self.atoms[0].rule in ("ko.dom", "ja.dom")


@dataclass(frozen=True)
class Found:
    """A finished expression: normalized offsets and its range."""

    start: int
    end: int
    range: TimeRange


def join(atoms: list[Atom], text: str, ctx: Context) -> list[Compound]:
    """Join each run of neighbouring atoms whose pieces fit together."""
    compounds: list[Compound] = []
    index = 0
    while index < len(atoms):
        members = [atoms[index]]
        pieces = list(atoms[index].pieces)
        index += 1
        while index < len(atoms) and _connects(text[members[-1].end : atoms[index].start]):
            candidate = pieces + list(atoms[index].pieces)
            if resolve(candidate, ctx) is None:
                break
            members.append(atoms[index])
            pieces = candidate
            index += 1
        compounds.append(Compound(tuple(members), tuple(pieces)))
    return compounds


def _connects(gap: str) -> bool:
    return len(gap) <= _MAX_GAP and _CONNECTOR.fullmatch(gap) is not None


def expressions(compounds: list[Compound], text: str, ctx: Context, languages: Collection[str]) -> list[Found]:
    """Apply "between" and "since" and drop what is only weak."""
    found: list[Found] = []
    plain: Compound | None = None  # the compound behind found[-1], when it was taken as it is
    index = 0
    while index < len(compounds):
        first = compounds[index]
        index += 1
        if not first.strong and next(_separators(first, text, languages), None) is None:
            continue  # weak and opening no range: nothing to do
        first_range = resolve(first.pieces, ctx)
        if first_range is None:
            continue
        following = compounds[index] if index < len(compounds) else None
        between = _between(first, first_range, following, plain, text, ctx, languages)
        if between is not None:
            result, used_next, used_before = between
            index += 1 if used_next else 0
            if used_before:
                found.pop()
            found.append(result)
            plain = None
            continue
        if not first.strong:
            continue
        result = _since_or_until(first, first_range, text, ctx, languages)
        found.append(result)
        plain = first if (result.start, result.end) == (first.start, first.end) else None
    return _anchored(found, text, ctx) if "en" in languages else found


_EN_COUNT = (
    r"(?:\d{1,3}|a\s+few|a\s+couple\s+of|a|an|one|two|three|four|five|six|seven|eight|nine|ten|"
    r"eleven|twelve)"
)
_EN_WEEKDAY = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_EN_OFFSET = re.compile(
    rf"(?<![\w])(?:(?:the|last)\s+)?(?:(?P<count>{_EN_COUNT})\s+)?"
    rf"(?P<unit>days?|weeks?|weekend|{_EN_WEEKDAY})\s+(?P<dir>before|after|prior\s+to|following)\s+$"
)
_EN_EDGE = re.compile(
    rf"(?<![\w])(?:the\s+)?(?P<edge>last|final|first)\s+(?:(?P<count>{_EN_COUNT})\s+)?(?P<unit>days?|weeks?|weekend)"
    r"\s+of\s+(?:the\s+)?$"
)
_FEW = {"a few": 3, "a couple of": 2}
_WEEKDAY_NUMBER = {name: number for number, name in enumerate(_EN_WEEKDAY.split("|"))}


def _count(raw: str | None) -> int | None:
    if raw is None:
        return 1
    token = " ".join(raw.split())
    return _FEW.get(token) or number(token)


def _anchored(found: list[Found], text: str, ctx: Context) -> list[Found]:
    """Expressions counted from another one rather than from now: "the week before 9 June 2023",
    "two days after May 5", "the Monday before July 24, 2023", "the weekend after Easter", "last
    week before 23 January" (the week before it), and the edge of a period: "the last two weeks of
    August 2023", "the first week of May". An expression the lead words held ("the Monday", "last
    week", read from now) gives way to the anchored one."""
    out: list[Found] = []
    for item in found:
        before = text[max(0, item.start - 48) : item.start]
        offset = _EN_OFFSET.search(before)
        edge = None if offset is not None else _EN_EDGE.search(before)
        hit = offset or edge
        count = _count(hit.group("count")) if hit is not None else None
        if hit is None or count is None or not 1 <= count <= 366:
            out.append(item)
            continue
        zone = ctx.zone
        first = item.range.start.date()
        last = (instant(item.range.end) - timedelta(microseconds=1)).astimezone(zone).date()
        unit = hit.group("unit")
        if offset is not None:
            rng = _offset_range(unit, count, offset.group("dir") in ("before", "prior to"), first, last, zone)
        else:
            assert edge is not None
            found_edge = _edge_range(unit, count, edge.group("edge") == "first", first, last, zone)
            if found_edge is None:
                out.append(item)
                continue
            rng = found_edge
        start = item.start - (len(before) - hit.start())
        while out and out[-1].end > start:  # "the Monday" or "last week", read on its own
            out.pop()
        out.append(Found(start, item.end, rng))
    return out


def _edge_range(unit: str, count: int, opening: bool, first: date, last: date, zone: tzinfo) -> TimeRange | None:
    """The first (``opening``) or last ``count`` days or weeks of the period ``first``–``last``, or its
    first or last weekend (Saturday and Sunday both inside it); ``None`` when they do not fit in it."""
    if unit == "weekend":
        if count != 1:
            return None
        day = first if opening else last - timedelta(days=1)
        while day.weekday() != 5:
            day += timedelta(days=1 if opening else -1)
        if not first <= day <= last - timedelta(days=1):
            return None
        return ranges.span(ranges.midnight(day, zone), ranges.midnight(day + timedelta(days=2), zone))
    days = count * (7 if unit.startswith("week") else 1)
    if days > (last - first).days + 1:
        return None
    begin = first if opening else last + timedelta(days=1 - days)
    if days == 1:
        return ranges.day_range(begin, zone)
    return ranges.span(ranges.midnight(begin, zone), ranges.midnight(begin + timedelta(days=days), zone))


def _offset_range(unit: str, count: int, back: bool, first: date, last: date, zone: tzinfo) -> TimeRange:
    """``count`` ``unit`` before ``first`` (``back``) or after ``last``: a day, a week of seven days,
    the Saturday–Sunday weekend, or a weekday (the ``count``-th one, strictly before or after)."""
    step = -1 if back else 1
    edge = first if back else last
    if unit.startswith("day"):
        return ranges.day_range(edge + timedelta(days=step * count), zone)
    if unit.startswith("week") and unit != "weekend":
        near = edge + timedelta(days=step * 7 * (count - 1)) if back else edge + timedelta(days=7 * (count - 1) + 1)
        begin = near - timedelta(days=7) if back else near
        return ranges.span(ranges.midnight(begin, zone), ranges.midnight(begin + timedelta(days=7), zone))
    target = 5 if unit == "weekend" else _WEEKDAY_NUMBER[unit]
    length = 2 if unit == "weekend" else 1
    day = edge
    for _ in range(count):
        day += timedelta(days=step)
        while day.weekday() != target or (back and day + timedelta(days=length - 1) >= first):
            day += timedelta(days=step)
    return (
        ranges.span(ranges.midnight(day, zone), ranges.midnight(day + timedelta(days=length), zone))
        if length > 1
        else ranges.day_range(day, zone)
    )


def _since_or_until(first: Compound, rng: TimeRange, text: str, ctx: Context, languages: Collection[str]) -> Found:
    """``first`` with the "since" or "until" words around it: from its start up to now ("since
    Monday"), or from the open start up to its end ("until yesterday"); as it is without them."""
    since = _marked(first, text, languages, _SINCE_BEFORE, _SINCE_AFTER)
    if since is not None:
        return Found(*since, ranges.span(rng.start, ctx.now) if instant(rng.start) < instant(ctx.now) else rng)
    until = _marked(first, text, languages, _UNTIL_BEFORE, _UNTIL_AFTER)
    if until is None:
        return Found(first.start, first.end, rng)
    if any(isinstance(piece, ClockP) for piece in first.pieces):  # "up to 3pm" as "until 3pm": that day's
        by = resolve(tuple(replace(p, by=True) if isinstance(p, ClockP) else p for p in first.pieces), ctx)
        return Found(*until, by) if by is not None else Found(first.start, first.end, rng)
    open_range = ranges.up_to(rng.end, ctx.zone)
    return Found(*until, open_range) if open_range is not None else Found(first.start, first.end, rng)


def _marked(
    first: Compound,
    text: str,
    languages: Collection[str],
    before_words: dict[str, re.Pattern[str]],
    after_words: dict[str, re.Pattern[str]],
) -> tuple[int, int] | None:
    """Where ``first`` starts and ends with a marker word before it ("since", "until") or after it
    (부터, 까지, から, まで), or None without one."""
    start, end = first.start, first.end
    before = text[max(0, start - 24) : start]
    for lang, pattern in before_words.items():
        hit = pattern.search(before) if lang in languages else None
        if hit:
            return start - (len(before) - hit.start()), end
    for lang, pattern in after_words.items():
        hit = pattern.match(text, end) if lang in languages else None
        if hit:
            return start, hit.end()
    return None


def _between(
    first: Compound,
    first_range: TimeRange,
    following: Compound | None,
    before: Compound | None,
    text: str,
    ctx: Context,
    languages: Collection[str],
) -> tuple[Found, bool, bool] | None:
    """``first`` as the start of a range whose end follows it: the range, whether the end part used
    ``following``, and whether a day just ``before`` it was used ("yesterday from 3pm to 5pm")."""
    for start, sep_end, closer, required, opened in _separators(first, text, languages):
        end_pieces, end_pos, used_next = _range_end(first, following, sep_end, text)
        if end_pieces is None:
            continue
        closing = closer.match(text, end_pos) if closer is not None else None
        if closing is not None:
            end_pos = closing.end()
        elif required and not (_hours_only(first.pieces) and _hours_only(end_pieces)):
            continue  # "3시부터 5시", "3時から5時": two hours make a range without 까지 / まで
        if not (opened or first.strong or (used_next and following is not None and following.strong)):
            continue
        start_pieces, day_before = first.pieces, False
        if not _anchors(first.pieces):  # only hours or parts of a day: the day comes from a neighbour
            context = _anchors(end_pieces)
            if not context and before is not None and _connects(text[before.end : start]):
                context, day_before = _anchors(before.pieces), bool(_anchors(before.pieces))
            start_pieces = first.pieces + context
            if not _anchors(end_pieces):
                end_pieces = end_pieces + context
        start_range = resolve(start_pieces, ctx) if start_pieces != first.pieces else first_range
        if start_range is None:
            continue
        last = resolve(end_pieces, ctx, after=start_range.start.date())
        if last is None:
            continue
        end = last.start if last.grain == "hour" and instant(last.start) > instant(start_range.start) else last.end
        if instant(end) <= instant(start_range.start):
            continue
        begin = before.start if day_before and before is not None else start
        return Found(begin, end_pos, ranges.span(start_range.start, end)), used_next, day_before
    return None


def _hours_only(pieces: tuple[Piece, ...]) -> bool:
    """A clock time, with a part of the day at most ("3시", "午後5時"): no day, no span."""
    return any(isinstance(piece, ClockP) for piece in pieces) and all(
        isinstance(piece, (ClockP, PartP)) for piece in pieces
    )


def _anchors(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """The pieces that name a day or longer (not a part of the day, not an hour)."""
    return tuple(piece for piece in pieces if not isinstance(piece, (PartP, ClockP, ClockSpanP)))


Reading = tuple[int, int, re.Pattern[str] | None, bool, bool]


def _separators(first: Compound, text: str, languages: Collection[str]) -> Iterator[Reading]:
    """Each way ``first`` can open a range: (expression start, where the end part begins, the closer
    that may follow the end part, whether that closer is required, whether an explicit marker
    ("between", 부터…까지, から…まで, ~) makes even weak parts a range: "between the 3rd and the 5th",
    "3일부터 5일까지")."""
    if "en" in languages:
        before = text[max(0, first.start - 12) : first.start]
        opener = _OPENER.search(before)
        word = opener.group("word") if opener else None
        separator = _EN_SEPARATORS[word].match(text, first.end)
        if separator is not None:
            start = first.start - (len(before) - opener.start()) if opener else first.start
            yield start, separator.end(), None, False, opener is not None
    for lang, pattern, closer in (("ko", _KO_SEPARATOR, _KO_CLOSER), ("ja", _JA_SEPARATOR, _JA_CLOSER)):
        separator = pattern.match(text, first.end) if lang in languages else None
        if separator is not None:
            yield first.start, separator.end(), closer, separator.group("sep") in ("부터", "에서", "から"), True


_DAY_NUMBER_RULES = frozenset(
    {"en.month_day", "en.day_month", "en.dom", "ko.date", "ko.dom", "ja.date", "ja.dom", "iso.datetime", "iso.slashed"}
)


def _range_end(
    first: Compound, following: Compound | None, position: int, text: str
) -> tuple[tuple[Piece, ...] | None, int, bool]:
    """The end part of a range at ``position``: the next expression, or a bare day number when the start
    names a day of the month ("November 3-5", "11월 3일부터 5일까지")."""
    if following is not None and following.start == position:
        return following.pieces, following.end, True
    bare = _BARE_DAY.match(text, position)
    if (
        bare is not None
        and 1 <= int(bare.group("d")) <= 31
        and any(atom.rule in _DAY_NUMBER_RULES for atom in first.atoms)
    ):
        return (DomP(int(bare.group("d"))),), bare.end(), False
    return None, position, False
