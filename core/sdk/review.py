"""The review workflow's value objects in the DiaryVault Memory Layer v0.4 shape.

``Suggestion``, ``ReviewDecision``, ``DecisionOutcome`` and ``Revision`` are the vault's own
(``core.vault.review``), and so are the rules over them: the invariants (``check_decided``), what is
pending, which values were accepted, the history steps. :class:`ReviewDraft` is the draft upstream's
API publishes: frozen, every transition returns a new draft, upstream's errors (``ValueError``,
``TypeError``, ``KeyError``) and JSON form. It keeps only the state that API needs and the vault's
draft has no field for: the ``rejected`` state and ``completed_by``/``completed_at``.
:class:`core.sdk.vault.MemoryVault` stores it as a vault draft through :mod:`core.sdk.drafts`.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from core import clock
from core.frozen import thaw
from core.typed import convert_as_python, to_builtins
from core.vault.review import (
    DecisionOutcome,
    ReviewDecision,
    Revision,
    Suggestion,
    accepted_values,
    check_decided,
    decision_fields,
    find_decision,
    find_suggestion,
    review_steps,
    undecided,
)

__all__ = ["DecisionOutcome", "ReviewDecision", "ReviewDraft", "ReviewState", "Revision", "Suggestion"]

_UNSET: Any = object()


def _new_id() -> str:
    return str(uuid.uuid4())


def _text(value: Any, name: str) -> None:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{name} must not be empty")


class ReviewState(StrEnum):
    """A draft's state. A ``str`` enum: ``state="open"`` and ``draft.state == "open"`` both work."""

    OPEN = "open"
    APPROVED = "approved"
    REJECTED = "rejected"


@dataclass(frozen=True)
class ReviewDraft:
    """A proposed memory under review: the person's content and tags, suggestions and decisions (the
    vault's types, checked by its rules). Beside them it keeps what upstream's API has and the vault's
    draft does not: the ``rejected`` state and ``completed_by``/``completed_at``."""

    content: str
    tags: tuple[str, ...] = ()
    draft_id: str = field(default_factory=_new_id)
    suggestions: tuple[Suggestion, ...] = ()
    decisions: tuple[ReviewDecision, ...] = ()
    state: ReviewState = ReviewState.OPEN
    completed_by: str | None = None
    completed_at: str | None = None
    created_at: str = field(default_factory=clock.utc_now_iso)

    def __post_init__(self) -> None:
        if not isinstance(self.content, str):
            raise TypeError("content must be a string")
        _text(self.draft_id, "draft_id")
        if isinstance(self.tags, str):
            raise TypeError("tags must be a sequence of strings, not a string")
        object.__setattr__(self, "tags", tuple(self.tags))
        for tag in self.tags:
            _text(tag, "tag")
        object.__setattr__(self, "state", ReviewState(self.state))
        object.__setattr__(self, "suggestions", tuple(self.suggestions))
        object.__setattr__(self, "decisions", tuple(self.decisions))
        self._check()

    def _check(self) -> None:
        pending = check_decided(self.suggestions, self.decisions, f"draft {self.draft_id!r}")
        if self.state is ReviewState.OPEN:
            if self.completed_by is not None or self.completed_at is not None:
                raise ValueError("open drafts must not carry completion metadata")
        else:
            _text(self.completed_by, "completed_by")
            _text(self.completed_at, "completed_at")
        if self.state is ReviewState.APPROVED and pending:
            raise ValueError("approved drafts must have every suggestion reviewed")

    # -- reading ------------------------------------------------------------------------------------

    @property
    def pending_suggestion_ids(self) -> tuple[str, ...]:
        """Ids of the suggestions nobody has accepted or rejected yet, in the order added."""
        return tuple(s.suggestion_id for s in undecided(self.suggestions, self.decisions))

    def _suggestion(self, suggestion_id: str) -> Suggestion:
        found = find_suggestion(self.suggestions, suggestion_id)
        if found is None:
            raise KeyError(f"unknown suggestion: {suggestion_id}")
        return found

    def resolved_fields(self) -> dict[str, Any]:
        """The person's content and tags plus every explicitly accepted value, as the plain dict of JSON
        values upstream's API returns. A suggestion nobody accepted never appears here."""
        accepted = thaw(accepted_values(self.suggestions, self.decisions))
        return {"content": self.content, "tags": list(self.tags), **accepted}

    def revision_history(self) -> tuple[Revision, ...]:
        """Creation, each suggestion, each decision and the terminal step, in time order."""
        steps = [Revision(action="draft_created", occurred_at=self.created_at),
                 *review_steps(self.suggestions, self.decisions, lambda s: s.source)]
        if self.state is not ReviewState.OPEN:
            action = "draft_approved" if self.state is ReviewState.APPROVED else "draft_rejected"
            steps.append(Revision(action, str(self.completed_at), self.completed_by))
        return tuple(sorted(steps, key=lambda step: step.occurred_at))

    # -- transitions --------------------------------------------------------------------------------

    def _require_open(self) -> None:
        if self.state is not ReviewState.OPEN:
            raise ValueError(f"draft is already {self.state.value}")

    def _require_undecided(self, suggestion_id: str) -> None:
        if find_decision(self.decisions, suggestion_id) is not None:
            raise ValueError(f"suggestion has already been reviewed: {suggestion_id}")

    def add_suggestion(
        self,
        field_name: str,
        value: Any,
        source: str,
        *,
        model: str | None = None,
        process_version: str | None = None,
        confidence: float | None = None,
        suggestion_id: str | None = None,
    ) -> ReviewDraft:
        """A new draft with one more unconfirmed suggestion."""
        self._require_open()
        suggestion = Suggestion(
            field_name=field_name,
            value=value,
            source=source,
            suggestion_id=suggestion_id or _new_id(),
            model=model,
            process_version=process_version,
            confidence=confidence,
        )
        if find_suggestion(self.suggestions, suggestion.suggestion_id) is not None:
            raise ValueError(f"duplicate suggestion_id: {suggestion.suggestion_id}")
        return replace(self, suggestions=(*self.suggestions, suggestion))

    def accept(self, suggestion_id: str, reviewer: str, *, value: Any = _UNSET) -> ReviewDraft:
        """A new draft in which ``reviewer`` accepted the suggestion, as proposed or with their edit
        (``value``); the suggestion itself stays as it was, as provenance."""
        self._require_open()
        _text(reviewer, "reviewer")
        suggestion = self._suggestion(suggestion_id)
        self._require_undecided(suggestion_id)
        if suggestion.field_name in accepted_values(self.suggestions, self.decisions):
            raise ValueError(f"another suggestion is already accepted for field {suggestion.field_name!r}")
        confirmed = suggestion.value if value is _UNSET else value
        decision = ReviewDecision(suggestion_id, DecisionOutcome.ACCEPTED, reviewer, accepted_value=thaw(confirmed))
        return replace(self, decisions=(*self.decisions, decision))

    def reject_suggestion(self, suggestion_id: str, reviewer: str) -> ReviewDraft:
        """A new draft in which ``reviewer`` rejected the suggestion."""
        self._require_open()
        _text(reviewer, "reviewer")
        self._suggestion(suggestion_id)
        self._require_undecided(suggestion_id)
        decision = ReviewDecision(suggestion_id, DecisionOutcome.REJECTED, reviewer)
        return replace(self, decisions=(*self.decisions, decision))

    def approve(self, reviewer: str) -> ReviewDraft:
        """The approved draft; every suggestion must have been accepted or rejected first."""
        self._require_open()
        _text(reviewer, "reviewer")
        if self.pending_suggestion_ids:
            raise ValueError("all suggestions must be accepted or rejected")
        return replace(self, state=ReviewState.APPROVED, completed_by=reviewer, completed_at=clock.utc_now_iso())

    def reject(self, reviewer: str) -> ReviewDraft:
        """The draft rejected as a whole (terminal: it can never be finalized)."""
        self._require_open()
        _text(reviewer, "reviewer")
        return replace(self, state=ReviewState.REJECTED, completed_by=reviewer, completed_at=clock.utc_now_iso())

    # -- serialisation ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Upstream's published JSON form: the fields by msgspec, the id first and each suggestion and
        decision in that form."""
        return {"draft_id": self.draft_id, **to_builtins(self), "suggestions": [s.to_dict() for s in self.suggestions],
                "decisions": [d.to_dict() for d in self.decisions]}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=2)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ReviewDraft:
        """Rebuild a draft by msgspec; the same invariants as construction apply. A missing key is a
        ``KeyError`` (only the empty ones may be left out: tags, suggestions, decisions, completion),
        a wrong type a ``TypeError``, as upstream."""
        if isinstance(data, dict) and isinstance(data.get("decisions"), list):
            data = {**data, "decisions": [decision_fields(d) for d in data["decisions"]]}
        return convert_as_python(data, cls, "draft", complete=True)

    @classmethod
    def from_json(cls, value: str) -> ReviewDraft:
        return cls.from_dict(json.loads(value))
