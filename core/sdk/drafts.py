"""Where the SDK's review drafts live: in the data home's own draft store, as Reverie drafts.

An SDK :class:`~core.sdk.review.ReviewDraft` and a Reverie :class:`core.vault.review.ReviewDraft`
describe the same thing in two shapes. The conversion goes through Reverie's serialised form (the
on-disk contract), so the TUI and CLI list, review and finalize drafts an application made through the
SDK, and the SDK reads drafts made in the TUI:

* a decision's ``outcome``/``accepted_value`` is Reverie's ``action``/``value`` (``edited`` when the
  confirmed value differs from the suggestion's);
* ``completed_by``/``completed_at`` of an approved draft is Reverie's ``approval``;
* a Reverie draft marked ``finalized`` reads as ``approved`` (the upstream SDK has no finalized state;
  ``MemoryVault.finalized_memory_id`` says it was finalized);
* Reverie's ``created_by`` and ``supersedes``, which the SDK shape lacks, are kept from the stored draft.

Reverie drafts have no *rejected* state. A draft rejected as a whole (``draft.reject``) is terminal,
so it leaves the review queue: it is sealed (encrypted and signed like every draft) under
``<home>/sdk/rejected/`` and its open copy is removed from ``drafts/``. Nothing is lost.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.errors import ReverieError
from core.frozen import thaw
from core.fsutil import atomic_write_bytes
from core.paths import HomePaths
from core.sdk.review import DecisionOutcome, ReviewDecision, ReviewDraft, ReviewState
from core.vault.crypto import VaultKeys
from core.vault.review import ReviewDraft as StoredDraft
from core.vault.sealed import seal, unseal

REJECTED_FORMAT = "reverie.sdk.rejected-draft"


def to_stored(draft: ReviewDraft, stored: StoredDraft | None) -> StoredDraft:
    """The Reverie draft for ``draft`` (open or approved); ``stored`` is the draft on disk, if any.
    A value Reverie refuses (a field name it reserves, a time without timezone) is a ``ValueError``."""
    if draft.state is ReviewState.REJECTED:
        raise ValueError(f"draft {draft.draft_id!r}: a rejected draft is not stored in the review queue")
    suggestions = {s.suggestion_id: s for s in draft.suggestions}
    decisions = []
    for d in draft.decisions:
        accepted = d.outcome is DecisionOutcome.ACCEPTED
        decisions.append({
            "suggestion_id": d.suggestion_id,
            "action": d.outcome.value,
            "reviewer": d.reviewer,
            "decided_at": d.decided_at,
            "value": thaw(d.accepted_value) if accepted else None,
            "edited": accepted and d.accepted_value != suggestions[d.suggestion_id].value,
        })
    approved = draft.state is ReviewState.APPROVED
    before = stored.to_dict() if stored is not None else {}
    data: dict[str, Any] = {
        "draft_id": draft.draft_id,
        "content": draft.content,
        "tags": list(draft.tags),
        "created_at": draft.created_at,
        "created_by": before.get("created_by", "me"),
        "suggestions": [s.to_dict() for s in draft.suggestions],
        "decisions": decisions,
        "state": "approved" if approved else "open",
        "approval": {"reviewer": draft.completed_by, "approved_at": draft.completed_at} if approved else None,
        "finalized_memory_id": None,
        "finalized_at": None,
        "supersedes": list(before.get("supersedes", [])),
    }
    try:
        return StoredDraft.from_dict(data)
    except ReverieError as exc:
        raise ValueError(str(exc)) from exc


def from_stored(stored: StoredDraft) -> ReviewDraft:
    """The SDK view of a Reverie draft (``finalized`` reads as ``approved``)."""
    data = stored.to_dict()
    approval = data.get("approval") or {}
    state = ReviewState.OPEN if data["state"] == "open" else ReviewState.APPROVED
    return ReviewDraft(
        draft_id=data["draft_id"],
        content=data["content"],
        tags=tuple(data["tags"]),
        suggestions=stored.suggestions,
        decisions=tuple(
            ReviewDecision(
                suggestion_id=d["suggestion_id"],
                outcome=DecisionOutcome(d["action"]),
                reviewer=d["reviewer"],
                accepted_value=d["value"] if d["action"] == "accepted" else None,
                decided_at=d["decided_at"],
            )
            for d in data["decisions"]
        ),
        state=state,
        completed_by=approval.get("reviewer") if state is ReviewState.APPROVED else None,
        completed_at=approval.get("approved_at") if state is ReviewState.APPROVED else None,
        created_at=data["created_at"],
    )


def check_no_loss(stored: StoredDraft, draft: ReviewDraft) -> None:
    """A rejection made from an older read would drop what was added since: refuse it."""
    before = stored.to_dict()
    ids = {s.suggestion_id for s in draft.suggestions}
    decided = {d.suggestion_id for d in draft.decisions}
    missing = [s["suggestion_id"] for s in before["suggestions"] if s["suggestion_id"] not in ids]
    undecided = [d["suggestion_id"] for d in before["decisions"] if d["suggestion_id"] not in decided]
    if missing or undecided or before["state"] != "open":
        what = (f"suggestion {missing[0]!r} was added" if missing else
                f"suggestion {undecided[0]!r} was decided" if undecided else f"it was {before['state']}")
        raise ValueError(f"draft {draft.draft_id!r} changed since it was read ({what}); nothing was written")


class RejectedDrafts:
    """Sealed, terminal drafts rejected as a whole: ``<home>/sdk/rejected/<draft_id>.json``."""

    def __init__(self, paths: HomePaths, keys: VaultKeys) -> None:
        self.folder = paths.root / "sdk" / "rejected"
        self.keys = keys

    def path(self, draft_id: str) -> Path:
        if not draft_id or "/" in draft_id or "\\" in draft_id or draft_id.startswith("."):
            raise KeyError(f"unknown draft: {draft_id}")
        return self.folder / f"{draft_id}.json"

    def get(self, draft_id: str) -> ReviewDraft | None:
        try:
            path = self.path(draft_id)
        except KeyError:
            return None  # no file can have that name
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        try:
            envelope = unseal(data, REJECTED_FORMAT, self.keys, str(path), draft_id, exact_bytes=True)
            return ReviewDraft.from_dict(envelope.payload["draft"])
        except ReverieError as exc:
            raise ValueError(str(exc)) from exc
        except (KeyError, TypeError) as exc:
            raise ValueError(f"{path}: not a rejected draft: {exc}") from exc

    def put(self, draft: ReviewDraft) -> None:
        data = seal(REJECTED_FORMAT, draft.draft_id, 1, {"draft": draft.to_dict()}, self.keys)
        atomic_write_bytes(self.path(draft.draft_id), data)

    def all(self) -> list[ReviewDraft]:
        found = []
        for path in sorted(self.folder.glob("*.json")):
            draft = self.get(path.stem)
            if draft is not None:
                found.append(draft)
        return found

    def delete(self, draft_id: str) -> bool:
        try:
            self.path(draft_id).unlink()
        except (FileNotFoundError, KeyError):
            return False
        return True
