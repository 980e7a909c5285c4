"""Where the SDK's review drafts live: in the data home's own draft store, as vault drafts.

An SDK :class:`~core.sdk.review.ReviewDraft` holds the vault's own suggestions and decisions; the draft
around them is mapped here both ways, so the TUI and CLI see drafts made through the SDK and the other
way round: ``completed_by``/``completed_at`` is the vault's ``approval``; ``finalized`` reads as
``approved`` (``MemoryVault.finalized_memory_id`` says it was finalized); the vault's ``created_by`` and
``supersedes`` are kept from the stored draft; a decision's ``edited`` is worked out from its
suggestion (false in the SDK's view).

The vault has no *rejected* state. A draft rejected as a whole is terminal, so it leaves the review
queue: it is sealed like every draft under ``<home>/sdk/rejected/`` and its open copy is removed from
``drafts/``. Nothing is lost.
"""

from __future__ import annotations

from pathlib import Path

from msgspec.structs import replace

from core.errors import ReverieError
from core.fsutil import atomic_write_bytes
from core.paths import HomePaths
from core.sdk.review import DecisionOutcome, ReviewDraft, ReviewState
from core.vault.crypto import VaultKeys
from core.vault.review import Approval, StoredDraft, is_draft_id, lost_update
from core.vault.scan import record_names
from core.vault.sealed import seal, unseal

REJECTED_FORMAT = "reverie.sdk.rejected-draft"


def to_stored(draft: ReviewDraft, stored: StoredDraft | None) -> StoredDraft:
    """The Reverie draft for ``draft`` (open or approved); ``stored`` is the draft on disk, if any.
    A value Reverie refuses (a field name it reserves, a time without timezone) is a ``ValueError``."""
    if draft.state is ReviewState.REJECTED:
        raise ValueError(f"draft {draft.draft_id!r}: a rejected draft is not stored in the review queue")
    suggestions = {s.suggestion_id: s for s in draft.suggestions}
    decisions = tuple(  # an edit is known from the suggestion (a draft loaded from upstream JSON has no flag)
        replace(d, edited=d.outcome is DecisionOutcome.ACCEPTED
                and d.accepted_value != suggestions[d.suggestion_id].value)
        for d in draft.decisions
    )
    approved = draft.state is ReviewState.APPROVED
    try:
        return StoredDraft(
            draft_id=draft.draft_id,
            content=draft.content,
            tags=draft.tags,
            created_at=draft.created_at,
            created_by=stored.created_by if stored is not None else "me",
            suggestions=draft.suggestions,
            decisions=decisions,
            state="approved" if approved else "open",
            approval=Approval(str(draft.completed_by), str(draft.completed_at)) if approved else None,
            supersedes=stored.supersedes if stored is not None else (),
        )
    except ReverieError as exc:
        raise ValueError(str(exc)) from exc


def from_stored(stored: StoredDraft) -> ReviewDraft:
    """The SDK view of a Reverie draft (``finalized`` reads as ``approved``)."""
    approved = stored.approval if stored.state != "open" else None
    return ReviewDraft(
        draft_id=stored.draft_id,
        content=stored.content,
        tags=stored.tags,
        suggestions=stored.suggestions,
        decisions=tuple(replace(d, edited=False) for d in stored.decisions),  # upstream drafts have no such flag
        state=ReviewState.APPROVED if approved is not None else ReviewState.OPEN,
        completed_by=approved.reviewer if approved is not None else None,
        completed_at=approved.approved_at if approved is not None else None,
        created_at=stored.created_at,
    )


def check_no_loss(stored: StoredDraft, draft: StoredDraft) -> None:
    """A rejection made from an older read would drop what was added since (the vault's
    :func:`~core.vault.review.lost_update`, ``draft`` in its open form) or undo an approval: refuse it."""
    what = lost_update(stored, draft) or (None if stored.state == "open" else f"it was {stored.state}")
    if what:
        raise ValueError(f"draft {draft.draft_id!r} changed since it was read ({what}); nothing was written")


class RejectedDrafts:
    """Sealed, terminal drafts rejected as a whole: ``<home>/sdk/rejected/<draft_id>.json``."""

    def __init__(self, paths: HomePaths, keys: VaultKeys) -> None:
        self.folder = paths.root / "sdk" / "rejected"
        self.keys = keys

    def path(self, draft_id: str) -> Path:
        """The file of ``draft_id``; ``KeyError`` when it is no draft id (the vault's grammar), so no name
        from outside reaches another file."""
        if not is_draft_id(draft_id):
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
        for name in record_names(self.folder):
            draft = self.get(name.removesuffix(".json"))
            if draft is not None:
                found.append(draft)
        return found

    def delete(self, draft_id: str) -> bool:
        try:
            self.path(draft_id).unlink()
        except (FileNotFoundError, KeyError):
            return False
        return True
