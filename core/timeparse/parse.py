"""The public entry: :func:`parse_time` for a query, :func:`find_time_expressions` for a longer text."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, tzinfo
from functools import lru_cache
from zoneinfo import ZoneInfo

from core.timeparse import (
    anchor,
    approximate,
    clock,
    counts,
    dates,
    dayparts,
    fallback,
    fiscal,
    hints,
    holidays,
    intervals,
    moments,
    periods,
    ranges,
    relative,
    seasons,
    typos,
    weekdays,
)
from core.timeparse.compose import Found, expressions, join
from core.timeparse.model import TimeMatch, TimeParse, TimeParseError
from core.timeparse.pieces import Context
from core.timeparse.rules import Compiled, Scan, compiled, scan
from core.timeparse.text import Normalized, normalize

LANGUAGES = ("en", "ko", "ja")
# One table per kind of expression. Among equally long matches the earlier rule wins, so the order
# matters where two kinds read the same words: "last Friday of October" is an ordinal weekday, not
# "last Friday".
_KINDS = (intervals, weekdays, periods, moments, approximate, counts, relative, dayparts, dates, clock, seasons,
          holidays, fiscal)
_RULES = {lang: [item for kind in _KINDS for item in kind.RULES.get(lang, [])] for lang in ("en", "ko", "ja")}

# English words before an expression that belong to it ("on Monday", "in mid-March", "earlier today").
# "early", "mid" and "late" narrow a month; the range stays the whole month, which still holds it.
_EN_LEAD = re.compile(
    r"(?<!\w)(?:(?:on|in|at|during|over|for|within|around|from|by)\s+(?:the\s+)?)?"
    r"(?:(?:early|mid|late)(?:\s+|-)|(?:earlier|later)\s+)?$"
)
_EN_THE_PART = re.compile(r"(?<!\w)(?:(?:on|in|during|over)\s+)?the\s+$")
_EN_PART_OF = re.compile(r"(?:morning|afternoon|evening|night|small\s+hours)\s+of\s")
# Particles glued after an expression that go with it when the rest is formed (어제는, 昨日の).
_KO_PARTICLE = re.compile(
    r"(?:때에는|때에|때|에는|에도|에서|에|엔|은|는|이|가|도|의|쯤에|쯤|께|경에|경|만|중에|날)(?![가-힣])"
)
_JA_PARTICLE = re.compile(r"(?:には|では|にも|ごろ|頃|の|に|は|も|で|、)")


def parse_time(
    query: str,
    now: datetime,
    zone: ZoneInfo | tzinfo,
    languages: Sequence[str] = LANGUAGES,
    *,
    fiscal_year_start: int = 1,
) -> TimeParse:
    """The first time expression in ``query`` as a half-open range in ``zone``, the text that meant
    it, and the query without it. No expression: ``range`` and ``expression`` are None and ``rest``
    is the tidied query. A time word with a typo is read and noted ("read 'yesturday' as yesterday"),
    and time-like words that could not be read are noted too (see :attr:`TimeParse.notes`).
    ``fiscal_year_start`` is the month a fiscal year starts in ("FY2023", 회계연도; see ``fiscal``)."""
    found = find_time_expressions(query, now, zone, languages, fiscal_year_start=fiscal_year_start)
    langs = _languages(languages)
    notes: list[str] = []
    typo_first = _with_typos(query, found, now, zone, langs, fiscal_year_start)
    if typo_first is not None:
        first, corrected, spans = typo_first
        notes.extend(f"read '{written}' as {word}" for written, word in corrected)
    elif found:
        first, spans = found[0], [(match.start, match.end) for match in found]
    else:
        first, spans = None, []
    repeats = hints.repeating(query, langs)
    notes.extend(
        f"'{query[start:end]}' repeats: not read as one time range"
        for start, end in repeats
        if not _GENERIC_REPEAT.fullmatch(query[start:end].lower())
    )
    unread = hints.unread(query, spans + repeats, langs)
    if unread:
        tail = "" if first is not None else "; searched without a time range"
        notes.extend(f"could not read '{snippet}' as a time{tail}" for snippet in unread)
    if first is None:
        return TimeParse(None, None, tidy(query), tuple(notes))
    return TimeParse(first.range, first.expression, rest_without(query, first.start, first.end), tuple(notes))


# "every day", 매일, 毎日: a frequency, not a time the person would expect read; no note.
_GENERIC_REPEAT = re.compile(r"(?:every|each)\s+(?:day|week|month|year)|매(?:일|주|달|월|년|해)|毎(?:日|週|月|年)")


def _with_typos(
    query: str,
    found: list[TimeMatch],
    now: datetime,
    zone: ZoneInfo | tzinfo,
    langs: tuple[str, ...],
    fiscal_year_start: int,
) -> tuple[TimeMatch, list[tuple[str, str]], list[tuple[int, int]]] | None:
    """The first expression when typos of time words are corrected, if it holds a correction (and
    comes no later than what was read as written): the match in ``query``'s offsets, the corrections
    it used (as written, as read), and every expression's span."""
    norm = normalize(query)
    fixes = []
    for fix in typos.corrections(norm.text, langs):
        begin, end = norm.span(fix.start, fix.end)
        if not any(match.start < end and begin < match.end for match in found):
            fixes.append(typos.Correction(begin, end, query[begin:end], fix.word))
    if not fixes:
        return None
    text, segments = typos.apply(query, fixes)
    again = find_time_expressions(text, now, zone, langs, fiscal_year_start=fiscal_year_start)
    if not again:
        return None
    first = again[0]
    start = typos.map_back(first.start, segments, at_end=False)
    end = typos.map_back(first.end, segments, at_end=True)
    used = [fix for fix in fixes if start <= fix.start and fix.end <= end]
    if not used or (found and found[0].start < start):
        return None
    spans = [
        (typos.map_back(m.start, segments, at_end=False), typos.map_back(m.end, segments, at_end=True)) for m in again
    ]
    match = TimeMatch(first.range, query[start:end], start, end)
    return match, [(fix.written, fix.word) for fix in used], spans


def find_time_expressions(
    text: str,
    now: datetime,
    zone: ZoneInfo | tzinfo,
    languages: Sequence[str] = LANGUAGES,
    *,
    fiscal_year_start: int = 1,
    fallback: bool = True,
) -> list[TimeMatch]:
    """Every time expression in ``text``, in order, with the same rules and guards as :func:`parse_time`.
    ``fallback=False``: the rules only, without dateparser for the absolute dates they miss (reading
    many texts, core.index.mentions: dateparser's first call costs about a second)."""
    ctx = _context(now, zone, fiscal_year_start)
    langs = _languages(languages)
    if not isinstance(text, str):
        raise TimeParseError(f"a query must be text, got {type(text).__name__}")
    norm = normalize(text)
    view = Scan(norm.text, norm.original, norm.origin)
    atoms = scan(_rules_for(_scripts(norm.text, langs)), view, ctx)
    found = expressions(join(atoms, norm.text, ctx), norm.text, ctx, langs)
    matches = [_match(norm, item, "en" in langs) for item in found]
    extra = _fallback(text, matches, ctx, langs) if fallback else []
    if extra:
        matches = sorted(matches + extra, key=lambda match: match.start)
    if matches:  # "last Friday, on 23 January, 2022", "2023年11月6日の前日": counted from that date
        matches = anchor.anchored(
            text,
            matches,
            ctx.now,
            ctx.zone,
            lambda part, then: find_time_expressions(
                part, then, zone, langs, fiscal_year_start=fiscal_year_start, fallback=fallback
            ),
        )
    if "week" in norm.text:
        matches = [_week_of(text, match, ctx) for match in matches]
    repeats = hints.repeating(text, langs)
    if repeats:  # "every Monday" is no one Monday
        matches = [m for m in matches if not any(start < m.end and m.start < end for start, end in repeats)]
    return matches


_WEEK_OF = re.compile(r"(?:the\s+)?week\s+of\s+$", re.IGNORECASE)
_HOLIDAY_WEEK = re.compile(r"\s+week(?!\w)", re.IGNORECASE)
_WEEK_HOLIDAYS = re.compile(r"christmas|xmas|thanksgiving|easter|new\s+year", re.IGNORECASE)


def _week_of(text: str, match: TimeMatch, ctx: Context) -> TimeMatch:
    """ "the week of March 3", "Christmas week": the Monday-to-Sunday week that holds that day."""
    if match.range.grain != "day":
        return match
    lead = _WEEK_OF.search(text[max(0, match.start - 16) : match.start])
    start, end = match.start, match.end
    if lead is not None:
        start -= len(lead.group(0))
    else:
        tail = _HOLIDAY_WEEK.match(text, match.end)
        if tail is None or _WEEK_HOLIDAYS.search(match.expression) is None:
            return match
        end = tail.end()
    monday = ranges.monday_of(match.range.start.date())
    return TimeMatch(ranges.week_range(monday, ctx.zone), text[start:end].strip(), start, end)


def _context(now: datetime, zone: ZoneInfo | tzinfo, fiscal_year_start: int = 1) -> Context:
    if not isinstance(now, datetime) or now.tzinfo is None or now.utcoffset() is None:
        raise TimeParseError("now must be a timezone-aware datetime")
    if not isinstance(zone, tzinfo):
        raise TimeParseError(f"zone must be a ZoneInfo (a tzinfo), got {type(zone).__name__}")
    if isinstance(fiscal_year_start, bool) or fiscal_year_start not in range(1, 13):
        raise TimeParseError(f"fiscal_year_start must be a month number 1-12, got {fiscal_year_start!r}")
    return Context(now.astimezone(zone), zone, fiscal_year_start)


def _languages(languages: Sequence[str]) -> tuple[str, ...]:
    if isinstance(languages, str):
        languages = (languages,)
    unknown = [lang for lang in languages if lang not in LANGUAGES]
    if unknown:
        raise TimeParseError(f"unknown language {unknown[0]!r} (known: {', '.join(LANGUAGES)})")
    return tuple(lang for lang in LANGUAGES if lang in languages)


_HANGUL = re.compile(r"[\uac00-\ud7a3\u3131-\u318e]")
_KANA_KANJI = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff々]")
_LATIN_OR_DIGIT = re.compile(r"[a-z0-9]")


def _scripts(text: str, langs: tuple[str, ...]) -> tuple[str, ...]:
    """The languages whose rules can match ``text`` at all: Korean rules need Hangul, Japanese ones
    kana or kanji, English ones a Latin letter or a digit (a Korean-only query skips the English
    rules, and the other way round; the result is the same, the scan is shorter)."""
    present = {
        "en": _LATIN_OR_DIGIT.search(text) is not None,
        "ko": _HANGUL.search(text) is not None,
        "ja": _KANA_KANJI.search(text) is not None,
    }
    return tuple(lang for lang in langs if present[lang])


@lru_cache(maxsize=16)
def _rules_for(langs: tuple[str, ...]) -> Compiled:
    rules = list(dates.COMMON)
    for lang in langs:
        rules.extend(_RULES[lang])
    return compiled(rules)


def _match(norm: Normalized, item: Found, english: bool) -> TimeMatch:
    start = item.start
    if english:
        lead = _EN_LEAD.search(norm.text[max(0, start - 24) : start])
        if lead is not None:
            start -= len(lead.group(0))
        if lead is None or not lead.group(0):
            the = _EN_THE_PART.search(norm.text[max(0, start - 12) : start])
            if the is not None and _EN_PART_OF.match(norm.text, start):  # "the night of the 5th"
                start -= len(the.group(0))
    begin, end = norm.span(start, item.end)
    return TimeMatch(item.range, norm.original[begin:end], begin, end)


def _fallback(text: str, found: list[TimeMatch], ctx: Context, langs: tuple[str, ...]) -> list[TimeMatch]:
    """dateparser (see :mod:`core.timeparse.fallback`) over each line the rules found nothing in."""
    matches: list[TimeMatch] = []
    offset = 0
    for line in text.splitlines(keepends=True) or [text]:
        line_end = offset + len(line)
        if not any(offset <= match.start < line_end for match in found):
            for start, end, rng in fallback.search(line, ctx, langs):
                matches.append(TimeMatch(rng, line[start:end], offset + start, offset + end))
        offset = line_end
    return matches


def rest_without(query: str, start: int, end: int) -> str:
    """``query`` without ``[start, end)`` and a particle glued after it, tidied."""
    before, after = query[:start], query[end:]
    glued = _KO_PARTICLE.match(after) or _JA_PARTICLE.match(after)
    if glued is not None:
        after = after[glued.end() :]
    return tidy(f"{before} {after}")


_SPACES = re.compile(r"\s+")
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([?.!,;:？。、！，])")
_EDGE_PUNCT = re.compile(r"^[\s,;:、，]+|[\s,;:、，]+$")


def tidy(text: str) -> str:
    """One space between words, none before punctuation, no stray commas at the ends."""
    text = _SPACES.sub(" ", text).strip()
    text = _SPACE_BEFORE_PUNCT.sub(r"\1", text)
    return _EDGE_PUNCT.sub("", text)
