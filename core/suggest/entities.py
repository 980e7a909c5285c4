"""People and places the person confirmed before, found again in a new draft.

Only what the person confirmed counts: the ``people`` and ``location`` of memories approved through
the review workflow (an assistant's suggestion that was never accepted is not a known name). A name is
looked for as a whole word (:mod:`core.suggest.names`); how each confidence is computed:
:class:`PeopleSuggester`, :class:`PlaceSuggester`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from core.suggest.cues import mentions_future, place_role
from core.suggest.names import NameMatch, find_name, is_cjk
from core.suggest.suggester import Proposal, SuggestContext
from core.timeparse.model import instant
from core.vault.review import StoredDraft

WHOLE_EXACT = 0.90
WHOLE_EXACT_SHORT = 0.80
WHOLE_FOLDED = 0.50
FIRST_NAME_UNIQUE = 0.70
FIRST_NAME_SHARED = 0.40
OTHER_PLACE_FACTOR = 0.75
ROLE_FACTOR = {"locative": 1.0, "none": 1.0, "direction": 0.75, "topic": 0.5}
PLAN_FACTOR = 0.6


def known_people(ctx: SuggestContext) -> Counter[str]:
    """Person → how many confirmed memories name them."""
    counts: Counter[str] = Counter()
    for memory in ctx.confirmed():
        counts.update({p.strip() for p in memory.metadata.people if p.strip()})
    return counts


def known_places(ctx: SuggestContext) -> Counter[str]:
    counts: Counter[str] = Counter()
    for memory in ctx.confirmed():
        place = (memory.metadata.location or "").strip()
        if place:
            counts[place] += 1
    return counts


def _whole_confidence(match: NameMatch) -> float:
    if match.quality == "folded":
        return WHOLE_FOLDED
    short = not is_cjk(match.name) and len(match.name) <= 3
    return WHOLE_EXACT_SHORT if short else WHOLE_EXACT


def _usable(name: str) -> bool:
    return len(name) >= 2 if is_cjk(name) else len(name) >= 2 and any(ch.isalpha() for ch in name)


@dataclass
class PeopleSuggester:
    """Known people in the text, as one ``people`` suggestion listing every person whose confidence
    clears ``threshold`` (in the order they appear; its confidence is the lowest of theirs). One name:
    the whole name as confirmed, same case .90 (.80 for a Latin name of three letters or fewer); in
    another case only .50 (Rose / rose, Bill / bill, Park / park are words too); a person's first name
    alone, same case, three letters or more, .70 when no other known person has that first name, else
    .40 (which Kate?)."""

    name: str = "people"
    source: str = "local:people"
    process_version: str = "people-1"
    threshold: float = 0.6

    def model_name(self, ctx: SuggestContext) -> str:
        return "confirmed-names"

    def propose(self, draft: StoredDraft, ctx: SuggestContext) -> list[Proposal]:
        people = known_people(ctx)
        firsts = Counter(p.split()[0] for p in people if len(p.split()) > 1)
        found: list[tuple[int, str, float, str]] = []  # (position, person, confidence, as written)
        for person in people:
            if not _usable(person):
                continue
            match = find_name(draft.content, person)
            if match is not None:
                found.append((match.start, person, _whole_confidence(match), match.found))
                continue
            words = person.split()
            if len(words) > 1 and len(words[0]) >= 3:
                first = find_name(draft.content, words[0])
                if first is not None and first.quality == "exact":
                    conf = FIRST_NAME_UNIQUE if firsts[words[0]] == 1 else FIRST_NAME_SHARED
                    found.append((first.start, person, conf, first.found))
        kept = sorted((f for f in found if f[2] >= self.threshold), key=lambda f: f[0])
        proposals = []
        if kept:
            names = list(dict.fromkeys(person for _, person, _, _ in kept))
            confidence = min(conf for _, _, conf, _ in kept)
            why = "confirmed before: " + ", ".join(f"{p} (as “{w}”)" for _, p, _, w in kept)
            proposals.append(Proposal("people", names, round(confidence, 3), why))
        for _, person, conf, written in found:  # below threshold: reported, never attached
            if conf < self.threshold:
                proposals.append(Proposal("people", [person], round(conf, 3), f"“{written}” may be {person}",
                                          attach=False))
        return proposals


@dataclass
class PlaceSuggester:
    """One known place: the best matched, then longest, found in the text (Seoul Forest rather than
    Seoul), its confidence as a name's (:class:`PeopleSuggester`) times 0.75 when the text names another,
    separate known place. How the place is written matters too (:mod:`.cues`): a place one goes *to*
    (fly to Jeju, 부산으로) times 0.75, a place talked *about* times 0.5, and any place in a text about a
    plan (will, going to, 예정, only future dates) times 0.6: the memory did not happen there (yet)."""

    name: str = "places"
    source: str = "local:places"
    process_version: str = "places-1"
    threshold: float = 0.6

    def model_name(self, ctx: SuggestContext) -> str:
        return "confirmed-names"

    def propose(self, draft: StoredDraft, ctx: SuggestContext) -> list[Proposal]:
        text = draft.content
        matches = [m for place in known_places(ctx) if _usable(place)
                   for m in [find_name(text, place)] if m is not None]
        if not matches:
            return []
        matches.sort(key=lambda m: (-_whole_confidence(m), -len(m.name), m.start))
        best = matches[0]
        separate = [m for m in matches[1:] if m.end <= best.start or m.start >= best.end]
        role = place_role(text, best.start, best.end, best.found)
        plan = is_plan(draft, ctx)
        confidence = _whole_confidence(best) * ROLE_FACTOR[role] * (OTHER_PLACE_FACTOR if separate else 1.0)
        confidence *= PLAN_FACTOR if plan else 1.0
        why = f"confirmed before, written “{best.found}”"
        if role in ("direction", "topic"):
            why += f" (a place {'gone to' if role == 'direction' else 'talked about'})"
        if separate:
            why += f"; the text also names {separate[0].name}"
        if plan:
            why += "; the text is about a plan"
        return [Proposal("location", best.name, round(confidence, 3), why, attach=confidence >= self.threshold)]


def is_plan(draft: StoredDraft, ctx: SuggestContext) -> bool:
    """The text speaks of the future: a future marker, or time expressions that all lie ahead."""
    if mentions_future(draft.content):
        return True
    now = ctx.written_at(draft)
    found = ctx.time_expressions(draft)
    return bool(found) and all(instant(m.range.start) > instant(now) for m in found)
