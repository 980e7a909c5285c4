"""What recall answers: the range it searched, the mode that produced the results, and the results."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import msgspec

from core.errors import ReverieError
from core.timeparse import TimeRange

Mode = Literal["auto", "exact", "semantic", "hybrid"]
MODES: tuple[str, ...] = ("auto", "exact", "semantic", "hybrid")


class RecallError(ReverieError):
    """A search that cannot be run as asked (unknown mode, no vectors for semantic search…)."""


class ItemForm(msgspec.Struct, frozen=True):
    """One result as every interface publishes it (``search --json``, ``context --json``, MCP, REST),
    keys in this order; ``reviewed`` is None for a turn except through a sharing profile (False)."""

    id: str
    ts: str
    text: str
    session: str | None
    actor: str | None
    role: str | None
    kind: str
    reviewed: bool | None
    score: float


class ResultForm(msgspec.Struct, frozen=True):
    """A recall answer as published: ``{"range": {start, end, grain} | null, "mode", "results"}``."""

    range: dict[str, str] | None
    mode: str
    results: list[ItemForm]


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

    def form(self) -> ItemForm:
        """The published form (score rounded to six places, no ``tags`` or ``source``)."""
        return ItemForm(self.id, self.ts, self.text, self.session, self.actor, self.role, self.kind, self.reviewed,
                        round(self.score, 6))


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

    def form(self) -> ResultForm:
        """The published form: the range, the mode and the results (the rest reach interfaces through
        ``notes`` and the search answer)."""
        return ResultForm(self.range.to_dict() if self.range is not None else None, self.mode,
                          [item.form() for item in self.results])
