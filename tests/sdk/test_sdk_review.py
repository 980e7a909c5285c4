"""The review workflow through the SDK: the value objects' invariants, drafts in the vault, and
finalization at most once (also across restarts)."""

from __future__ import annotations

import json
from types import MappingProxyType

import pytest

from core.paths import HomePaths
from core.sdk import DecisionOutcome, MemoryVault, ReviewDecision, ReviewDraft, ReviewState, Revision, Suggestion
from tests.sdk.conftest import open_vault


def two_suggestions(draft: ReviewDraft) -> ReviewDraft:
    draft = draft.add_suggestion("location", "Seoul", "echo", model="example-model", process_version="memory-card-v1",
                                 confidence=0.88, suggestion_id="suggestion-location")
    return draft.add_suggestion("title", "The first laugh", "echo", suggestion_id="suggestion-title")


def reviewed(draft: ReviewDraft) -> ReviewDraft:
    draft = two_suggestions(draft).accept("suggestion-location", reviewer="parent", value="Seoul Forest")
    return draft.reject_suggestion("suggestion-title", reviewer="parent").approve(reviewer="parent")


# -- value objects ----------------------------------------------------------------------------------


def test_state_is_a_str_enum_and_accepts_plain_strings() -> None:
    draft = ReviewDraft(content="x", state="open")
    assert draft.state is ReviewState.OPEN and draft.state == "open" and isinstance(draft.state, str)
    assert ReviewDecision("s", "rejected", "me").outcome is DecisionOutcome.REJECTED


def test_suggestions_stay_unconfirmed_until_a_person_decides() -> None:
    draft = two_suggestions(ReviewDraft(content="She laughed.", tags=("family",)))
    assert draft.pending_suggestion_ids == ("suggestion-location", "suggestion-title")
    assert draft.resolved_fields() == {"content": "She laughed.", "tags": ["family"]}
    with pytest.raises(ValueError, match="all suggestions must be accepted or rejected"):
        draft.approve(reviewer="parent")
    draft = draft.accept("suggestion-location", reviewer="parent")
    assert draft.resolved_fields()["location"] == "Seoul" and "title" not in draft.resolved_fields()
    assert draft.pending_suggestion_ids == ("suggestion-title",)


def test_transition_errors_follow_the_upstream_types() -> None:
    draft = two_suggestions(ReviewDraft(content="x"))
    with pytest.raises(KeyError):
        draft.accept("no-such-suggestion", reviewer="parent")
    with pytest.raises(ValueError, match="reviewer"):
        draft.accept("suggestion-location", reviewer=" ")
    draft = draft.accept("suggestion-location", reviewer="parent")
    with pytest.raises(ValueError, match="already been reviewed"):
        draft.reject_suggestion("suggestion-location", reviewer="parent")
    with pytest.raises(ValueError, match="duplicate suggestion_id"):
        draft.add_suggestion("mood", "happy", "echo", suggestion_id="suggestion-title")
    second = draft.add_suggestion("location", "Busan", "echo", suggestion_id="other-location")
    with pytest.raises(ValueError, match="already accepted for field 'location'"):
        second.accept("other-location", reviewer="parent")
    done = draft.reject_suggestion("suggestion-title", reviewer="parent").approve(reviewer="parent")
    with pytest.raises(ValueError, match="already approved"):
        done.add_suggestion("mood", "happy", "echo")
    with pytest.raises(TypeError):
        ReviewDraft(content=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        ReviewDraft(content="x", tags="family")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="confidence"):
        Suggestion("location", "Seoul", "echo", confidence=1.5)


def test_review_objects_are_frozen_all_the_way_down() -> None:
    draft = ReviewDraft(content="x").add_suggestion("people", {"people": ["Mina"]}, "echo", suggestion_id="p")
    with pytest.raises(AttributeError):
        draft.suggestions[0].value["people"].append("Someone else")
    with pytest.raises(TypeError):
        draft.suggestions[0].value["people"] = ["Someone else"]  # type: ignore[index]
    with pytest.raises(AttributeError):
        draft.content = "changed"  # type: ignore[misc]
    assert isinstance(draft.suggestions[0].value, MappingProxyType)
    assert draft.to_dict()["suggestions"][0]["value"] == {"people": ["Mina"]}


@pytest.mark.parametrize(
    "breaks",
    [
        lambda d: d["suggestions"].append(dict(d["suggestions"][0])),  # duplicate suggestion id
        lambda d: d["decisions"][0].update(suggestion_id="ghost"),  # unknown suggestion
        lambda d: d["decisions"].append(dict(d["decisions"][0])),  # two decisions for one suggestion
        lambda d: d["decisions"][1].update(outcome="rejected", accepted_value="x"),  # rejected with a value
        lambda d: d.update(state="approved", decisions=d["decisions"][:1]),  # approved with one pending
        lambda d: d.update(state="open"),  # open with completion metadata
        lambda d: d.update(state="finalised"),  # no such state
    ],
)
def test_loading_json_enforces_the_same_invariants(breaks) -> None:  # type: ignore[no-untyped-def]
    data = json.loads(reviewed(ReviewDraft(content="x")).to_json())
    assert ReviewDraft.from_dict(json.loads(json.dumps(data))).state is ReviewState.APPROVED
    breaks(data)
    with pytest.raises(ValueError):
        ReviewDraft.from_json(json.dumps(data))


def test_accepting_two_values_for_one_field_is_refused_on_load() -> None:
    draft = ReviewDraft(content="x").add_suggestion("location", "A", "echo", suggestion_id="a")
    draft = draft.add_suggestion("location", "B", "echo", suggestion_id="b").accept("a", reviewer="me")
    data = draft.to_dict()
    data["decisions"].append({**data["decisions"][0], "suggestion_id": "b", "accepted_value": "B"})
    with pytest.raises(ValueError, match="multiple accepted suggestions"):
        ReviewDraft.from_dict(data)


def test_revision_history_is_derived_in_time_order() -> None:
    draft = reviewed(ReviewDraft(content="x"))
    history = draft.revision_history()
    assert [r.action for r in history] == ["draft_created", "suggestion_added", "suggestion_added",
                                           "suggestion_accepted", "suggestion_rejected", "draft_approved"]
    assert history[3] == Revision("suggestion_accepted", history[3].occurred_at, "parent", "location",
                                  "Seoul Forest", "suggestion-location")
    assert history[1].actor == "echo" and history[-1].actor == "parent"
    rejected = ReviewDraft(content="y").reject(reviewer="parent")
    assert rejected.revision_history()[-1].action == "draft_rejected"


# -- drafts in the vault ----------------------------------------------------------------------------


def test_save_draft_returns_the_saved_draft(vault: MemoryVault) -> None:
    draft = vault.create_draft("She laughed when the dog sneezed.", tags=["family"])
    assert vault.get_draft(draft.draft_id) == draft and draft.state is ReviewState.OPEN
    draft = two_suggestions(draft)
    saved = vault.save_draft(draft)
    assert saved == draft and saved.pending_suggestion_ids == ("suggestion-location", "suggestion-title")
    assert vault.get_draft("draft_missing") is None
    with pytest.raises(TypeError):
        vault.save_draft({"draft_id": "x"})  # type: ignore[arg-type]
    raw = (vault.storage_dir / "drafts" / f"{draft.draft_id}.json").read_bytes()
    assert b"dog sneezed" not in raw and b"Seoul" not in raw  # drafts are encrypted at rest


def test_a_draft_built_outside_the_vault_can_be_saved(vault: MemoryVault) -> None:
    draft = reviewed(ReviewDraft(content="Built by the application.", tags=("family",)))
    assert vault.save_draft(draft) == draft
    assert vault.list_drafts(state="approved") == [draft]


def test_list_drafts_by_state(vault: MemoryVault) -> None:
    kept_open = vault.create_draft("open one")
    approved = vault.save_draft(vault.create_draft("approved one").approve(reviewer="parent"))
    rejected = vault.save_draft(vault.create_draft("rejected one").reject(reviewer="parent"))
    assert vault.list_drafts() == [kept_open, approved, rejected]
    assert vault.list_drafts(state="open") == [kept_open]
    assert vault.list_drafts(state=ReviewState.APPROVED) == [approved]
    assert vault.list_drafts(state="rejected") == [rejected]
    with pytest.raises(ValueError):
        vault.list_drafts(state="finalised")


def test_a_rejected_draft_is_terminal_sealed_and_out_of_the_queue(vault: MemoryVault) -> None:
    draft = two_suggestions(vault.create_draft("Not worth keeping."))
    vault.save_draft(draft)
    rejected = vault.save_draft(draft.reject(reviewer="parent"))
    assert rejected.state is ReviewState.REJECTED and vault.get_draft(draft.draft_id) == rejected
    assert vault.store.list_drafts() == []  # the TUI's review queue no longer offers it
    sealed = (vault.storage_dir / "sdk" / "rejected" / f"{draft.draft_id}.json").read_bytes()
    assert b"Not worth keeping" not in sealed
    with pytest.raises(ValueError, match="rejected"):
        vault.save_draft(draft)
    with pytest.raises(ValueError, match="only approved drafts can be finalized"):
        vault.finalize_draft(rejected)
    vault.delete_draft(draft.draft_id)
    assert vault.get_draft(draft.draft_id) is None


def test_a_save_from_an_older_read_is_refused(vault: MemoryVault) -> None:
    draft = vault.create_draft("Two windows.")
    stale = vault.get_draft(draft.draft_id)
    assert stale is not None
    vault.save_draft(draft.add_suggestion("title", "A title", "echo", suggestion_id="t"))
    with pytest.raises(ValueError, match="changed since it was read"):
        vault.save_draft(stale.approve(reviewer="parent"))
    with pytest.raises(ValueError, match="changed since it was read"):
        vault.save_draft(stale.reject(reviewer="parent"))
    current = vault.get_draft(draft.draft_id)
    assert current is not None and current.pending_suggestion_ids == ("t",)


def test_delete_draft(vault: MemoryVault) -> None:
    draft = vault.create_draft("Short-lived.")
    assert vault.delete_draft(draft.draft_id) is True
    assert vault.get_draft(draft.draft_id) is None and vault.list_drafts() == []
    assert vault.delete_draft(draft.draft_id) is False  # nothing left to delete: said, not raised


def test_delete_draft_says_whether_it_deleted_a_rejected_draft_too(vault: MemoryVault) -> None:
    rejected = vault.save_draft(vault.create_draft("Thrown away.").reject(reviewer="parent"))
    assert vault.delete_draft(rejected.draft_id) is True
    assert vault.get_draft(rejected.draft_id) is None
    assert vault.delete_draft(rejected.draft_id) is False
    assert vault.delete_draft("never-made") is False


def test_finalize_draft_takes_a_draft_or_its_id(vault: MemoryVault, isolated_home: HomePaths) -> None:
    approved = vault.save_draft(reviewed(vault.create_draft("Finalized by id.")))
    memory = vault.finalize_draft(approved.draft_id)
    assert memory.content == "Finalized by id." and vault.verify(memory)
    assert vault.finalized_memory_id(approved.draft_id) == memory.id
    with pytest.raises(ValueError, match=memory.id):  # once only, by id too, and names the memory
        vault.finalize_draft(approved.draft_id)
    with pytest.raises(ValueError, match=memory.id):
        open_vault(isolated_home).finalize_draft(approved.draft_id)
    with pytest.raises(ValueError, match="no draft 'missing'"):
        vault.finalize_draft("missing")
    still_open = vault.create_draft("Not approved yet.")
    with pytest.raises(ValueError, match="only approved drafts"):
        vault.finalize_draft(still_open.draft_id)
    rejected = vault.save_draft(vault.create_draft("Rejected.").reject(reviewer="parent"))
    with pytest.raises(ValueError, match="only approved drafts"):
        vault.finalize_draft(rejected.draft_id)
    with pytest.raises(TypeError, match="draft id"):
        vault.finalize_draft(42)  # type: ignore[arg-type]
    assert len(vault) == 1


def test_a_memory_finalized_from_review_says_so(vault: MemoryVault, isolated_home: HomePaths) -> None:
    draft = vault.create_draft("A moment.")
    draft = draft.add_suggestion("title", "A title", "echo", suggestion_id="suggestion-title")
    memory = vault.finalize_draft(draft.accept("suggestion-title", reviewer="parent").approve(reviewer="parent"))
    assert memory.metadata.source == "review"
    assert memory.metadata.custom["confirmed_fields"] == {"title": "A title"}
    reread = open_vault(isolated_home).get(memory.id)
    assert reread is not None and reread.metadata.source == "review"
    assert reread.metadata.custom["confirmed_fields"] == {"title": "A title"}
    plain = vault.finalize_draft(vault.create_draft("Nothing suggested.").approve(reviewer="parent"))
    assert plain.metadata.source == "review" and "confirmed_fields" not in plain.metadata.custom
    assert vault.create("Stored without review.").metadata.source == "manual"
    with pytest.raises(ValueError, match="confirmed_fields"):  # nobody claims confirmation without review
        vault.create("Claims a review.", metadata={"confirmed_fields": {"title": "forged"}})


def test_finalize_carries_the_review_record(vault: MemoryVault) -> None:
    draft = vault.create_draft("She laughed when the dog sneezed.", tags=["family"])
    draft = vault.save_draft(reviewed(draft))
    memory = vault.finalize_draft(draft)
    assert vault.verify(memory) and vault.get(memory.id) is memory
    assert vault.finalized_memory_id(draft.draft_id) == memory.id
    assert memory.content == "She laughed when the dog sneezed." and memory.metadata.tags == ["family"]
    assert memory.metadata.location == "Seoul Forest" and memory.metadata.ai_enriched
    review = memory.metadata.custom["review"]
    assert review["draft_id"] == draft.draft_id and review["state"] == "approved"
    assert review["completed_by"] == "parent" and review["approved_by"] == "parent"
    assert len(review["suggestions"]) == 2 and len(review["decisions"]) == 2
    accepted = next(d for d in review["decisions"] if d["suggestion_id"] == "suggestion-location")
    assert accepted["outcome"] == "accepted" and accepted["accepted_value"] == "Seoul Forest" and accepted["edited"]
    original = next(s for s in review["suggestions"] if s["suggestion_id"] == "suggestion-location")
    assert original["value"] == "Seoul" and original["model"] == "example-model"  # provenance kept as proposed
    assert memory.metadata.source == "review"
    # location is the view's own metadata; the rejected title is confirmed nowhere
    assert "confirmed_fields" not in memory.metadata.custom


def test_a_draft_without_accepted_suggestions_is_not_ai_enriched(vault: MemoryVault) -> None:
    draft = vault.create_draft("A plain moment", tags=["family"]).approve(reviewer="parent")
    memory = vault.finalize_draft(draft)
    assert not memory.metadata.ai_enriched and memory.metadata.custom["review"]["suggestions"] == []


def test_only_an_approved_draft_is_finalized_and_only_once(vault: MemoryVault, isolated_home: HomePaths) -> None:
    draft = two_suggestions(vault.create_draft("Once only."))
    with pytest.raises(ValueError, match="only approved drafts"):
        vault.finalize_draft(draft)
    approved = reviewed(vault.create_draft("Once only, really."))
    memory = vault.finalize_draft(approved)
    with pytest.raises(ValueError, match="already finalized"):
        vault.finalize_draft(approved)
    restarted = open_vault(isolated_home)  # a new process: the ledger still knows
    with pytest.raises(ValueError, match="already finalized"):
        restarted.finalize_draft(approved)
    with pytest.raises(ValueError, match="cannot be replaced"):
        restarted.save_draft(approved)
    with pytest.raises(ValueError, match="cannot be deleted"):
        restarted.delete_draft(approved.draft_id)
    assert restarted.finalized_memory_id(approved.draft_id) == memory.id
    assert restarted.get_draft(approved.draft_id) == approved  # still readable, as provenance
    assert len(restarted.list(tags=None)) == 1


def test_drafts_never_appear_among_memories_or_shares(vault: MemoryVault) -> None:
    vault.create_draft("Only a draft.", tags=["family"])
    from core.sdk import ContextRequest, VaultExporter

    assert vault.list() == [] and vault.search("draft") == []
    assert vault.share(ContextRequest(agent_id="a", scope=["family"])).memory_count == 0
    assert VaultExporter(vault).to_rag_chunks() == []


def test_a_finalization_a_crash_interrupted_is_finished_by_the_next_call(vault: MemoryVault,
                                                                        isolated_home: HomePaths) -> None:
    from core.vault.records import seal_memory

    approved = vault.save_draft(reviewed(vault.create_draft("Interrupted by a crash.")))
    store = vault.store
    stored = store.get_draft(approved.draft_id)
    half = store._memory_from_draft(stored, store.memory_id_for_draft(approved.draft_id))
    store.memory_path(half.memory_id).write_bytes(seal_memory(half, store.keys))  # step 1 only: no ledger entry
    restarted = open_vault(isolated_home)
    assert restarted.finalized_memory_id(approved.draft_id) is None
    memory = restarted.finalize_draft(approved)
    assert memory.id == half.memory_id and restarted.verify(memory)
    assert restarted.finalized_memory_id(approved.draft_id) == memory.id
    with pytest.raises(ValueError, match="already finalized"):
        restarted.finalize_draft(approved)
    assert restarted.batch_verify()["valid"] == 1


def test_two_open_vaults_finalize_a_draft_once(vault: MemoryVault, isolated_home: HomePaths) -> None:
    other = open_vault(isolated_home)
    approved = vault.save_draft(reviewed(vault.create_draft("Seen by two processes.")))
    first = other.finalize_draft(approved)
    with pytest.raises(ValueError, match="already finalized"):
        vault.finalize_draft(approved)
    assert vault.get(first.id) is not None and len(vault) == 1


def test_a_rejected_draft_is_checked_like_any_stored_draft(vault: MemoryVault) -> None:
    bad = ReviewDraft(content="When?", created_at="yesterday").reject(reviewer="parent")
    with pytest.raises(ValueError, match="created_at"):
        vault.save_draft(bad)
    assert vault.list_drafts() == [] and vault.get_draft("../escape") is None
    assert vault.delete_draft("../escape") is False


def test_a_tampered_draft_is_reported_never_loaded(vault: MemoryVault) -> None:
    kept = vault.create_draft("Kept.")
    hit = vault.create_draft("Will be tampered with.")
    path = vault.storage_dir / "drafts" / f"{hit.draft_id}.json"
    path.write_bytes(path.read_bytes().replace(b'"record_version": 1', b'"record_version": 7'))
    with pytest.raises(ValueError, match=f"{hit.draft_id}.json"):
        vault.get_draft(hit.draft_id)
    assert vault.list_drafts() == [kept]  # left out here; `reverie verify` names it


@pytest.mark.parametrize("bad", ["../x", "..", ".hidden", "a/b", "a\\b", "", "x\x00y", "a" * 300])
def test_a_draft_id_from_outside_names_no_file(vault: MemoryVault, bad: str) -> None:
    """Any id, also one no file can have, is simply not a draft: nothing is read, deleted or raised."""
    draft = vault.create_draft("Kept.")
    assert vault.get_draft(bad) is None
    assert vault.delete_draft(bad) is False
    assert vault.get_draft(draft.draft_id) == draft
