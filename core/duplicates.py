"""The near-duplicate check when a memory is captured: first look for a similar memory that exists.

The finalized memories most like the new one are found in the index (nearest vectors and exact
matches, so memories not embedded yet are found too, or from a list the caller passes) and compared
by cosine recomputed in float32 from the texts, so a threshold of 0.95 means 0.95. One at or above
``recall.duplicate_threshold`` is a near duplicate and the person chooses ``replace`` (the decision
names the memory it supersedes; the caller retires it, restorably), ``keep_both`` or ``cancel``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from core.embed.protocol import Embedder
from core.errors import ReverieError
from core.index import Filters, MemoryDoc, SearchIndex
from core.typed import to_builtins

Choice = Literal["replace", "keep_both", "cancel"]
CHOICES: tuple[str, ...] = ("replace", "keep_both", "cancel")
CANDIDATES = 8  # memories compared exactly per check
EPSILON = 1e-6  # float32 rounding: a similarity of exactly the threshold must count


class DuplicateError(ReverieError):
    """A duplicate check or decision that cannot be made as asked."""


@dataclass(frozen=True)
class DuplicateMatch:
    memory_id: str
    text: str
    similarity: float  # cosine, float32
    reviewed: bool
    ts: str

    def to_dict(self) -> dict[str, Any]:
        """The fields by msgspec, the similarity rounded to four places: a float32 measurement shown as
        far as it means something, a rounding msgspec does not do (pinned in test_duplicates_stored_form)."""
        return {**to_builtins(self), "similarity": round(self.similarity, 4)}


@dataclass(frozen=True)
class DuplicateCheck:
    """The closest finalized memories (best first) and which of them are near duplicates."""

    threshold: float
    matches: list[DuplicateMatch] = field(default_factory=list)

    @property
    def duplicates(self) -> list[DuplicateMatch]:
        return [m for m in self.matches if m.similarity >= self.threshold - EPSILON]

    @property
    def duplicate(self) -> DuplicateMatch | None:
        """The nearest duplicate, or None: no choice to ask for."""
        found = self.duplicates
        return found[0] if found else None


@dataclass(frozen=True)
class DuplicateDecision:
    """What the person chose, as instructions for the caller. Nothing has been changed yet."""

    choice: Choice
    keep_new: bool
    supersedes: str | None  # the memory the new one replaces (to be archived by the caller), if any


def _cosines(embedder: Embedder, text: str, others: Sequence[str]) -> np.ndarray:
    vectors = np.asarray(embedder.embed([text, *others]), dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1)
    norms[norms == 0] = 1.0
    unit = vectors / norms[:, None]
    return unit[1:] @ unit[0]


def candidates_from_index(index: SearchIndex, text: str, embedder: Embedder | None,
                          limit: int = CANDIDATES) -> list[MemoryDoc]:
    """The finalized memories most like ``text``: nearest vectors (when the index has them for this
    model) and best exact matches."""
    only_memories = Filters(kinds=("memory",))
    ids: list[str] = []
    recorded = index.vector_model()
    if embedder is not None and recorded is not None and recorded.name == embedder.name:
        vector = np.asarray(embedder.embed([text]), dtype=np.float32)[0]
        ids += [h.id for h in index.vector_search(vector, k=limit, filters=only_memories)]
    ids += [h.id for h in index.exact_search(text, limit=limit, filters=only_memories)]
    return index.get_memories(list(dict.fromkeys(ids)))


def check_duplicate(text: str, embedder: Embedder, *, threshold: float = 0.95,
                    index: SearchIndex | None = None, memories: Sequence[MemoryDoc] | None = None,
                    exclude: Sequence[str] = ()) -> DuplicateCheck:
    """Compare ``text`` with the finalized memories of ``index`` (or the given ``memories``).

    ``exclude``: memory ids not to compare with (the memory being edited, say).
    """
    if not isinstance(text, str) or not text.strip():
        raise DuplicateError("duplicate check: the new memory's text is empty")
    if not 0 < threshold <= 1:
        raise DuplicateError(f"duplicate check: threshold must be in (0, 1], got {threshold}")
    if memories is None:
        if index is None:
            raise DuplicateError("duplicate check: give an index or a list of memories to compare with")
        memories = candidates_from_index(index, text, embedder)
    pool = [m for m in memories if m.id not in set(exclude)]
    if not pool:
        return DuplicateCheck(threshold)
    sims = _cosines(embedder, text, [m.text for m in pool])
    matches = [DuplicateMatch(m.id, m.text, float(s), m.reviewed, m.ts) for m, s in zip(pool, sims, strict=True)]
    matches.sort(key=lambda m: (-m.similarity, m.memory_id))
    return DuplicateCheck(threshold, matches[:CANDIDATES])


def decide(check: DuplicateCheck, choice: str) -> DuplicateDecision:
    """The person's answer to a near duplicate, as instructions (nothing is deleted or changed here)."""
    if choice not in CHOICES:
        raise DuplicateError(f"choice: must be one of {', '.join(CHOICES)}, got {choice!r}")
    best = check.duplicate
    if choice == "cancel":
        return DuplicateDecision("cancel", keep_new=False, supersedes=None)
    if choice == "replace":
        if best is None:
            raise DuplicateError("replace: there is no near-duplicate memory to replace")
        return DuplicateDecision("replace", keep_new=True, supersedes=best.memory_id)
    return DuplicateDecision("keep_both", keep_new=True, supersedes=None)
