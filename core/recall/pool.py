"""Candidates: index hits with their turns and memories, and the gate every candidate must pass.

The index bounds each search to the time range and applies the filters it knows (core.index.Filters).
The gate re-checks the range and the turn filters for session neighbours (which come from a session
lookup, not a bounded search) and applies what the index cannot: a sharing profile's sources and
allowed tags. Denied wins: a profile only ever narrows what the person's own filters allow.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from core.config import SharingProfile
from core.index import Filters, Hit, MemoryDoc, SearchIndex
from core.recall.scoring import Scores
from core.tags import normalize_tag
from core.timeparse import TimeRange
from core.turns import Turn, format_ts

NEIGHBOUR_REACH = 2  # session neighbours looked up on each side of a turn


@dataclass(frozen=True)
class Gate:
    """What may be returned. ``start`` / ``end`` are log timestamps (``None``: open)."""

    filters: Filters = field(default_factory=Filters)
    start: str | None = None
    end: str | None = None
    sources: tuple[str, ...] = ()  # a profile's turn sources (empty: any), see :func:`source_shared`
    allow_tags: tuple[str, ...] = ()  # a profile's allowed memory tags (empty: any not denied), normalized
    deny_tags: frozenset[str] = frozenset()  # a profile's denied memory tags, normalized
    # turns said outside the range that speak of a time inside it (core.index.mentions): ids and docs
    told: frozenset[str] = frozenset()
    told_docs: tuple[int, ...] = ()

    @classmethod
    def build(cls, filters: Filters | None, rng: TimeRange | None, profile: SharingProfile | None) -> Gate:
        base = filters or Filters()
        start = format_ts(rng.start) if rng is not None else None
        end = format_ts(rng.end) if rng is not None else None
        if profile is None:
            return cls(base, start, end)
        kinds = tuple(base.kinds)
        if not profile.include_turns:
            kinds = tuple(k for k in kinds if k != "turn")
        reviewed = base.reviewed
        if profile.reviewed_only:
            if reviewed is False:
                kinds = tuple(k for k in kinds if k != "memory")
            reviewed = True
        deny = frozenset(normalize_tag(t) for t in profile.deny_tags)
        narrowed = replace(
            base,
            kinds=kinds,
            exclude_tags=tuple(dict.fromkeys([*base.exclude_tags, *profile.deny_tags, *sorted(deny)])),
            reviewed=reviewed,
        )
        allow = tuple(dict.fromkeys(normalize_tag(t) for t in profile.allow_tags))
        return cls(narrowed, start, end, tuple(profile.sources), allow, deny)

    @property
    def empty(self) -> bool:
        """Nothing can pass (every kind excluded)."""
        return not (self.filters.wants_turns or self.filters.wants_memories)

    def in_range(self, ts: str) -> bool:
        return (self.start is None or ts >= self.start) and (self.end is None or ts < self.end)

    def turn_ok(self, turn: Turn) -> bool:
        if not self.filters.wants_turns or not (self.in_range(turn.ts) or turn.id in self.told):
            return False
        if not self.shares_source(turn.source):
            return False
        return all(getattr(turn, column) in values for column, values in self.filters.turn_fields.items())

    def memory_ok(self, memory: MemoryDoc) -> bool:
        f = self.filters
        if not f.wants_memories or not self.in_range(memory.ts):
            return False
        tags = set(memory.tags)
        if f.reviewed is not None and memory.reviewed != f.reviewed:
            return False
        if not set(f.tags) <= tags or tags & set(f.exclude_tags):
            return False
        return self.shares_tags(memory.tags)

    def shares_source(self, source: str | None) -> bool:
        """Whether the profile shares turns of ``source`` (:func:`source_shared`)."""
        return source_shared(source, self.sources)

    def shares_tags(self, tags: Iterable[str]) -> bool:
        """Whether the profile shares a memory carrying ``tags``: none denied and, with allowed tags,
        one of them; compared without case and surrounding space (``Private`` is ``private``)."""
        carried = {normalize_tag(t) for t in tags}
        if carried & self.deny_tags:
            return False
        return not self.allow_tags or bool(carried & set(self.allow_tags))


def source_shared(source: str | None, sources: Sequence[str]) -> bool:
    """Whether a turn of ``source`` passes a profile's ``sources`` (empty: every source). An entry
    names an importer (``claude-code`` matches ``claude-code:/path/x.jsonl``) or one exact source."""
    if not sources:
        return True
    return bool(source) and any(source == s or str(source).startswith(f"{s}:") for s in sources)


@dataclass
class Pool:
    """The candidates met so far in one search, by id."""

    index: SearchIndex
    gate: Gate
    turns: dict[str, Turn] = field(default_factory=dict)
    memories: dict[str, MemoryDoc] = field(default_factory=dict)
    _near: dict[str, list[tuple[str, int]]] = field(default_factory=dict)

    def admit(self, hits: Sequence[Hit]) -> Scores:
        """Fetch the documents of ``hits`` and return the scores of those that pass the gate."""
        want_turns = [h.id for h in hits if h.kind == "turn" and h.id not in self.turns]
        want_memories = [h.id for h in hits if h.kind == "memory" and h.id not in self.memories]
        if want_turns:
            self.turns.update((t.id, t) for t in self.index.get_turns(want_turns) if self.gate.turn_ok(t))
        if want_memories:
            self.memories.update((m.id, m) for m in self.index.get_memories(want_memories) if self.gate.memory_ok(m))
        scores: Scores = {}
        for hit in hits:
            if hit.id in self.turns or hit.id in self.memories:
                scores[hit.id] = max(scores.get(hit.id, float("-inf")), float(hit.score))
        return scores

    def add_turns(self, turns: Iterable[Turn]) -> None:
        for turn in turns:
            if turn.id not in self.turns and self.gate.turn_ok(turn):
                self.turns[turn.id] = turn

    def neighbours(self, sources: Iterable[str]) -> dict[str, list[tuple[str, int]]]:
        """Turn id → (neighbour id, signed distance: < 0 before it) for the turns of its session up
        to :data:`NEIGHBOUR_REACH` away that pass the gate (they join the pool)."""
        out: dict[str, list[tuple[str, int]]] = {}
        for source in sources:
            if source not in self.turns:
                continue
            if source not in self._near:
                context = self.index.session_context(source, NEIGHBOUR_REACH, NEIGHBOUR_REACH)
                self.add_turns(context)
                ids = [t.id for t in context]
                here = ids.index(source) if source in ids else -1
                self._near[source] = [
                    (other, pos - here) for pos, other in enumerate(ids)
                    if here >= 0 and other != source and other in self.turns
                ]
            out[source] = self._near[source]
        return out

    def asking(self, ids: Iterable[str]) -> set[str]:
        """The turns among ``ids`` that ask something (a question mark in their text)."""
        return {i for i in ids if i in self.turns and ("?" in self.turns[i].text or "？" in self.turns[i].text)}

    def actors(self, ids: Iterable[str] | None = None) -> set[str]:
        keys = self.turns.keys() if ids is None else ids
        return {self.turns[i].actor for i in keys if i in self.turns}

    def ts(self, key: str) -> str:
        if key in self.turns:
            return self.turns[key].ts
        return self.memories[key].ts
