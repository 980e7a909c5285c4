"""One model of each thing: the SDK's suggestions, decisions and revisions are the vault's own types,
each with one stored form (the vault's, byte for byte) and the DiaryVault API's form beside it."""

from __future__ import annotations

import pytest

import core.sdk
from core.errors import ReviewError
from core.frozen import thaw
from core.sdk import MemoryVault, ReviewDraft
from core.typed import to_builtins
from core.vault import review


def test_the_sdk_names_are_the_vault_types() -> None:
    for name in ("Suggestion", "ReviewDecision", "DecisionOutcome", "Revision"):
        assert getattr(core.sdk, name) is getattr(review, name), name


def test_a_broken_invariant_is_both_a_review_error_and_the_upstream_error() -> None:
    with pytest.raises(ReviewError) as caught:
        review.Suggestion("location", "Seoul", "echo", confidence=1.5)
    assert isinstance(caught.value, ValueError) and "confidence must be between 0 and 1" in str(caught.value)
    with pytest.raises(ReviewError) as wrong_type:
        review.Suggestion("location", "Seoul", "echo", confidence="high")  # type: ignore[arg-type]
    assert isinstance(wrong_type.value, TypeError)
    draft = ReviewDraft(content="x").add_suggestion("title", "A", "echo", suggestion_id="a")
    draft = draft.add_suggestion("title", "B", "echo", suggestion_id="b").accept("a", reviewer="me")
    twice = draft.decisions[0].to_dict() | {"suggestion_id": "b"}
    with pytest.raises(ReviewError, match="multiple accepted suggestions"):  # the vault's check, in the SDK
        ReviewDraft.from_dict({**draft.to_dict(), "decisions": [*draft.to_dict()["decisions"], twice]})


def test_a_decision_has_the_stored_form_and_the_upstream_form() -> None:
    at = "2026-11-03T10:00:00+00:00"
    decision = review.ReviewDecision("s1", "accepted", "me", {"people": ["Mina"]}, at, edited=True)
    assert decision.action == "accepted" and thaw(decision.value) == {"people": ["Mina"]}
    assert to_builtins(decision) == {"suggestion_id": "s1", "action": "accepted", "reviewer": "me",
                                     "value": {"people": ["Mina"]}, "decided_at": at, "edited": True}
    assert decision.to_dict() == {"suggestion_id": "s1", "outcome": "accepted", "reviewer": "me",
                                  "accepted_value": {"people": ["Mina"]}, "decided_at": at}
    assert review.ReviewDecision.from_dict(decision.to_dict()) == review.ReviewDecision(
        "s1", "accepted", "me", {"people": ["Mina"]}, at)  # upstream's form carries no edit flag
    with pytest.raises(KeyError, match="outcome"):
        review.ReviewDecision.from_dict({"suggestion_id": "s1", "reviewer": "me", "decided_at": at})


def test_the_vault_stores_the_objects_the_sdk_made(vault: MemoryVault) -> None:
    draft = vault.create_draft("A picnic.").add_suggestion("location", "Seoul", "echo", suggestion_id="loc")
    draft = vault.save_draft(draft.accept("loc", reviewer="parent", value="Seoul Forest"))
    stored = vault.store.get_draft(draft.draft_id)
    assert stored.suggestions == draft.suggestions
    assert stored.decisions[0].edited and not draft.decisions[0].edited  # Reverie's flag, not upstream's
    history = stored.revision_history()
    assert type(history[0]) is type(draft.revision_history()[0]) is review.Revision
    assert stored.revision_detail(history[-1]) == "location = 'Seoul Forest' (edited)"
