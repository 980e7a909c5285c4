"""Query analysis: the time range (core.timeparse), the rest of the query, its terms, and names.

``analyze`` is pure and cheap (no index, no model): it cleans the query, finds the first time
expression in the person's timezone, and keeps the rest for ranking. Names are resolved later, once
the candidates are known (:func:`named_actors`), because a name only matters if it is the name of
someone who speaks in the searched turns.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo

from core.recall.text import _listed, clean_query, query_words, search_terms
from core.timeparse import LANGUAGES, TimeParseError, TimeRange, parse_time
from core.timeparse.model import TimeParse

_NAME_TOKEN = re.compile(r"[^\W_]+")
# How a question starts in English (the first word of what is ranked) ...
_EN_QUESTION_STARTS = frozenset(_listed(
    "what when where who whom whose which why how did do does is are was were can could would should "
    "has have had will any tell remind"
))
# ... and words that make a Korean or Japanese query a question wherever they stand.
_CJK_QUESTION = re.compile(r"뭐|무엇|무슨|언제|어디|누구|누가|어떻게|어떤|왜|얼마|몇|했지|했나|였지|"
                           r"何|なに|なん|いつ|どこ|誰|だれ|どう|なぜ|どんな|どの|っけ|ですか|ますか")


@dataclass(frozen=True)
class QueryPlan:
    """How one query will be searched."""

    query: str  # as cleaned
    range: TimeRange | None
    expression: str | None
    rest: str  # the query without its time expression: what is ranked
    terms: tuple[str, ...]  # search terms of ``rest`` (stop words out, particles off)
    words: tuple[str, ...]  # every word of ``rest`` (for names)
    notes: tuple[str, ...] = ()  # what the time parser says of the query ("read 'yesturday' as yesterday")
    # the speakers the query names however it spells them (core.recall.names): (actor, word) pairs
    people: tuple[tuple[str, str], ...] = ()
    # of those, the ones read only second: the word names someone else as written ("Jon" read as John)
    second: frozenset[str] = frozenset()

    @property
    def is_question(self) -> bool:
        """Whether what is ranked is asked as a question ("what did Kate paint", "민지가 뭐라고 했지",
        "何を決めた?") rather than typed as keywords ("Kate skiing")."""
        text = self.rest.strip()
        if text.endswith(("?", "？")):
            return True
        first = _NAME_TOKEN.search(text.casefold())
        return (first is not None and first.group() in _EN_QUESTION_STARTS) or bool(_CJK_QUESTION.search(text))

    def semantic_text(self, names: Iterable[str] = ()) -> str:
        """The rest of the query for the embedding model, without the names of people who speak in
        the searched turns (on LoCoMo a name in the query pulls the vector towards every turn that
        mentions that person: dense R@10 .35 with names, .65 without; the speaker boost takes over)."""
        text = self.rest
        for name in sorted(set(names), key=len, reverse=True):
            text = re.sub(rf"(?i)(?<![^\W_]){re.escape(name)}(?:'s|’s)?(?![^\W_])", " ", text)
            if not text.strip():
                break
        cleaned = " ".join(text.split())
        return cleaned if any(ch.isalnum() for ch in cleaned) else self.rest


def analyze(query: str, now: datetime, zone: tzinfo, languages: Sequence[str] = LANGUAGES, *,
            fiscal_year_start: int = 1) -> QueryPlan:
    """Clean ``query``, find its time range in ``zone`` as of ``now``, and list its search terms
    (``fiscal_year_start``: the month "FY2023" starts in, ``timeparse.fiscal_year_start``)."""
    text = clean_query(query)
    if now.tzinfo is None or now.utcoffset() is None:
        raise TimeParseError("now must be a timezone-aware datetime")
    parsed = (parse_time(text, now.astimezone(zone), zone, languages, fiscal_year_start=fiscal_year_start)
              if text else TimeParse(None, None, ""))
    rest = parsed.rest if parsed.range is not None else text
    return QueryPlan(
        query=text,
        range=parsed.range,
        expression=parsed.expression,
        rest=rest,
        terms=tuple(search_terms(rest)),
        words=tuple(query_words(rest)),
        notes=parse_notes(parsed),
    )


def parse_notes(parsed: object) -> tuple[str, ...]:
    """The time parser's notes as one-line strings (none when the parse carries no ``notes``)."""
    raw = getattr(parsed, "notes", None) or ()
    if isinstance(raw, str):
        raw = (raw,)
    return tuple(dict.fromkeys(" ".join(str(n).split()) for n in raw if str(n).strip()))


def actor_keys(actor: str) -> set[str]:
    """The forms in which a query may name ``actor``: the whole name and its first word, case folded
    (``Kate Smith`` → ``kate smith``, ``kate``). Names of one character are ignored."""
    folded = " ".join(actor.casefold().split())
    tokens = _NAME_TOKEN.findall(folded)
    keys = {folded} if len(folded) >= 2 else set()
    if tokens and len(tokens[0]) >= 2:
        keys.add(tokens[0])
    return keys


def named_actors(plan: QueryPlan, actors: Iterable[str]) -> dict[str, str]:
    """Actors the query names → the word that named them, case folded (for removal from the
    semantic text and from exact search): by their names as written, and by the readings the plan
    holds (``people``: misspelt and transliterated names, core.recall.names)."""
    words = set(plan.words)
    folded_rest = " ".join(plan.rest.casefold().split())
    among = set(actors)
    found: dict[str, str] = {}
    for actor in among:
        for key in sorted(actor_keys(actor), key=len, reverse=True):
            if key in words or (" " in key and key in folded_rest):
                found[actor] = key
                break
    for actor, word in plan.people:
        if actor in among and actor not in found:
            found[actor] = word.casefold()
    return found


def name_words(plan: QueryPlan) -> list[str]:
    """The words of what is ranked, as typed (for reading names and saying how they were read)."""
    return _NAME_TOKEN.findall(plan.rest)
