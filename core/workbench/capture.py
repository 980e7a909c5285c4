"""Capture: a new draft from what the person wrote, after the near-duplicate check, with the local
suggesters' suggestions attached when asked.

One flow for every interface. It runs in two steps when a near duplicate is found and the person
has not said what to do yet: the first call writes nothing and returns the duplicate (``needs_choice``);
the interface asks (a prompt, a dialog) and calls again with the choice (replace, keep both, cancel).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from core.duplicates import DuplicateCheck, DuplicateDecision, DuplicateMatch
    from core.vault.review import StoredDraft, Suggestion

DuplicateChoice = Literal["ask", "replace", "keep_both", "cancel"]
CHOICES: tuple[DuplicateChoice, ...] = ("ask", "replace", "keep_both", "cancel")


@dataclass(frozen=True)
class CaptureOutcome:
    """What a capture did. ``draft`` is None when nothing was written: the person cancelled, or a
    near duplicate waits for a choice (``needs_choice``)."""

    draft: StoredDraft | None
    check: DuplicateCheck | None = None  # None: the check was skipped
    decision: DuplicateDecision | None = None
    suggestions: tuple[Suggestion, ...] = ()
    notes: tuple[str, ...] = field(default=())  # what the person should know (index busy, model notes)

    @property
    def duplicate(self) -> DuplicateMatch | None:
        return self.check.duplicate if self.check is not None else None

    @property
    def needs_choice(self) -> bool:
        return self.draft is None and self.decision is None and self.duplicate is not None

    @property
    def cancelled(self) -> bool:
        return self.decision is not None and not self.decision.keep_new
