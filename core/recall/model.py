"""What recall answers: the range it searched, the mode that produced the results, and the results."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from core.errors import ReverieError
from core.timeparse import TimeRange

Mode = Literal["auto", "exact", "semantic", "hybrid"]
MODES: tuple[str, ...] = ("auto", "exact", "semantic", "hybrid")


class RecallError(ReverieError):
    """A search that cannot be run as asked (unknown mode, no vectors for semantic search…)."""


@dataclass(frozen=True)
class RecallItem:
    """One result: a conversation turn or a finalized memory, with its original text."""

    id: str
    ts: str
    text: str
    kind: Literal["turn", "memory"]
    score: float
    session: str | None = None  # turns only
    actor: str | None = None  # turns only
    role: str | None = None  # turns only
    reviewed: bool | None = None  # memories only: approved through the review workflow
    tags: tuple[str, ...] = ()  # memories only (not part of the JSON answer)
    source: str | None = None  # turns only (not part of the JSON answer)

    def to_dict(self) -> dict[str, Any]:
        """The published form, written out: its key order (``id, ts, text, session, actor, role,
        kind, reviewed, score``, which interfaces and tests fix) is not the fields' order, which the
        ranking's constructors follow, and ``tags`` and ``source`` are left out."""
        return {
            "id": self.id,
            "ts": self.ts,
            "text": self.text,
            "session": self.session,
            "actor": self.actor,
            "role": self.role,
            "kind": self.kind,
            "reviewed": self.reviewed,
            "score": round(self.score, 6),
        }


@dataclass(frozen=True)
class RecallResult:
    """The answer to one query. ``mode`` is the mode that produced ``results`` (auto never appears:
    it resolves to exact, or to semantic / hybrid when exact found too little); ``note`` says why
    when that is not obvious (a fallback, an empty range, nothing to search for) and repeats the time
    parser's ``notes`` (a typo read as a time word, time-like words it could not read), so every
    interface that shows ``note`` shows them too."""

    range: TimeRange | None
    expression: str | None
    rest: str
    mode: str
    results: list[RecallItem] = field(default_factory=list)
    note: str | None = None
    exact_hits: int = 0  # documents the exact index matched (before neighbours were added)
    notes: tuple[str, ...] = ()  # the time parser's notes on the query, in order

    def to_dict(self) -> dict[str, Any]:
        """Exactly ``{"range": {start, end, grain} | null, "mode": ..., "results": [...]}``: a view of
        three of the fields (the rest reach interfaces through ``notes`` and the search answer)."""
        return {
            "range": self.range.to_dict() if self.range is not None else None,
            "mode": self.mode,
            "results": [item.to_dict() for item in self.results],
        }
