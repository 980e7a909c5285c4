"""The review workflow's value objects: transitions, invariants at construction and load, deep
immutability, derived history."""

from __future__ import annotations

import copy
from types import MappingProxyType

import pytest

from core.errors import ReviewError
from core.frozen import FrozenDict
from core.typed import to_builtins
from core.vault.canonical import canonical_json
from core.vault.review import StoredDraft, draft_from_capture, review_record, review_summary


def seeded_draft() -> StoredDraft:
    draft = draft_from_capture("She laughed when the dog sneezed.", ["family"])
    draft = draft.add_suggestion(
        "location", "Seoul", "echo", model="example-model", process_version="memory-card-v1",
        confidence=0.88, suggestion_id="suggestion-location",
    )
    return draft.add_suggestion("title", "The first laugh", "echo", suggestion_id="suggestion-title")


def test_suggestions_are_not_resolved_until_accepted() -> None:
    draft = seeded_draft()
    assert dict(draft.resolved_fields()) == {}
    draft = draft.accept("suggestion-title", reviewer="parent")
    assert dict(draft.resolved_fields()) == {"title": "The first laugh"}


def test_edited_value_is_confirmed_and_the_suggestion_stays_as_provenance() -> None:
    draft = seeded_draft().accept("suggestion-location", reviewer="parent", value="Seoul Forest")
    assert draft.resolved_fields()["location"] == "Seoul Forest"
    assert draft.suggestion("suggestion-location").value == "Seoul"
    decision = draft.decision_for("suggestion-location")
    assert decision is not None and decision.edited and decision.reviewer == "parent"


def test_accepting_with_the_same_value_is_not_an_edit() -> None:
    draft = seeded_draft().accept("suggestion-location", reviewer="parent", value="Seoul")
    assert draft.decision_for("suggestion-location").edited is False  # type: ignore[union-attr]


def test_approval_needs_every_suggestion_decided_and_records_who_and_when() -> None:
    draft = seeded_draft().accept("suggestion-location", reviewer="parent")
    with pytest.raises(ReviewError, match="pending"):
        draft.approve(reviewer="parent")
    approved = draft.reject_suggestion("suggestion-title", reviewer="parent").approve(reviewer="parent")
    assert approved.state == "approved"
    assert approved.approval is not None and approved.approval.reviewer == "parent"
    assert approved.approval.approved_at


def test_transitions_return_new_drafts_and_leave_the_old_untouched() -> None:
    draft = seeded_draft()
    accepted = draft.accept("suggestion-title", reviewer="me")
    assert draft.decisions == () and len(accepted.decisions) == 1


@pytest.mark.parametrize("action", ["add", "accept", "reject", "approve"])
def test_nothing_changes_an_approved_draft(action: str) -> None:
    draft = seeded_draft().reject_suggestion("suggestion-title", reviewer="me")
    draft = draft.reject_suggestion("suggestion-location", reviewer="me").approve(reviewer="me")
    with pytest.raises(ReviewError, match="approved"):
        if action == "add":
            draft.add_suggestion("mood", "happy", "echo")
        elif action == "accept":
            draft.accept("suggestion-title", reviewer="me")
        elif action == "reject":
            draft.reject_suggestion("suggestion-title", reviewer="me")
        else:
            draft.approve(reviewer="me")


def test_a_suggestion_is_decided_once() -> None:
    draft = seeded_draft().accept("suggestion-title", reviewer="me")
    with pytest.raises(ReviewError, match="already decided"):
        draft.reject_suggestion("suggestion-title", reviewer="me")
    with pytest.raises(ReviewError, match="no suggestion"):
        draft.accept("nope", reviewer="me")


def _mutated(change) -> dict:  # type: ignore[no-untyped-def]
    data = copy.deepcopy(seeded_draft().accept("suggestion-location", reviewer="me").to_dict())
    change(data)
    return data


INVALID = {
    "duplicate suggestion id": lambda d: d["suggestions"].append(dict(d["suggestions"][0])),
    "decision on unknown suggestion": lambda d: d["decisions"].append(
        {"suggestion_id": "ghost", "action": "rejected", "reviewer": "me", "decided_at": d["created_at"],
         "value": None, "edited": False}),
    "two decisions for one suggestion": lambda d: d["decisions"].append(
        {**d["decisions"][0], "action": "rejected", "value": None}),
    "two accepted values for one field": lambda d: (
        d["suggestions"].append({**d["suggestions"][0], "suggestion_id": "second-location", "value": "Busan"}),
        d["decisions"].append({**d["decisions"][0], "suggestion_id": "second-location", "value": "Busan"}),
    ),
    "approved with pending suggestions": lambda d: d.update(
        state="approved", approval={"reviewer": "me", "approved_at": d["created_at"]}),
    "open draft with completion metadata": lambda d: d.update(
        approval={"reviewer": "me", "approved_at": d["created_at"]}),
    "open draft naming a memory": lambda d: d.update(finalized_memory_id="mem_x", finalized_at=d["created_at"]),
    "rejected decision carrying a value": lambda d: d["decisions"][0].update(action="rejected"),
    "unknown field": lambda d: d.update(surprise=1),
    "bad confidence": lambda d: d["suggestions"][0].update(confidence=1.5),
    "naive timestamp": lambda d: d.update(created_at="2026-11-03T10:00:00"),
    "occurred_at not a time": lambda d: d["suggestions"].append(
        {**d["suggestions"][1], "suggestion_id": "s-time", "field_name": "occurred_at", "value": "last tuesday"}),
    "reserved field name": lambda d: d["suggestions"][1].update(field_name="review"),
    "state unknown": lambda d: d.update(state="done"),
    "content empty": lambda d: d.update(content="  "),
}


@pytest.mark.parametrize("case", sorted(INVALID))
def test_invariants_hold_on_load_from_json(case: str) -> None:
    with pytest.raises(ReviewError):
        StoredDraft.from_dict(_mutated(INVALID[case]))


def test_invariants_hold_at_construction() -> None:
    draft = seeded_draft()
    with pytest.raises(ReviewError, match="duplicate suggestion id"):
        StoredDraft(draft_id="d1", content="x", created_at=draft.created_at,
                    suggestions=(draft.suggestions[0], draft.suggestions[0]))
    with pytest.raises(ReviewError, match="approval"):
        StoredDraft(draft_id="d1", content="x", created_at=draft.created_at, state="approved")


def test_round_trip_through_json_is_exact() -> None:
    draft = seeded_draft().accept("suggestion-location", reviewer="p", value="Seoul Forest")
    assert StoredDraft.from_dict(draft.to_dict()) == draft


def test_nested_values_are_frozen_all_the_way_down() -> None:
    draft = draft_from_capture("Picnic by the river.")
    draft = draft.add_suggestion("scene", {"people": ["Mina"], "weather": {"sky": "clear"}}, "vision",
                                 suggestion_id="s1")
    value = draft.suggestions[0].value
    assert isinstance(value, MappingProxyType)  # one Suggestion type, the DiaryVault API's read-only views
    with pytest.raises(AttributeError):
        value["people"].append("Someone else")
    with pytest.raises(TypeError):
        value["weather"]["sky"] = "rain"  # type: ignore[index]
    with pytest.raises(AttributeError):
        draft.suggestions[0].value = {}  # type: ignore[misc]
    people = ["Mina"]
    draft2 = draft.add_suggestion("people", people, "vision", suggestion_id="s2")
    people.append("Leaked")
    assert draft2.suggestion("s2").value == ("Mina",)
    assert draft2.to_dict()["suggestions"][1]["value"] == ["Mina"]


def test_revision_history_is_derived_from_timestamps_in_order() -> None:
    draft = seeded_draft().accept("suggestion-location", reviewer="parent", value="Seoul Forest")
    draft = draft.reject_suggestion("suggestion-title", reviewer="parent").approve(reviewer="parent")
    actions = [r.action for r in draft.revision_history()]
    assert actions == ["draft_created", "suggestion_added", "suggestion_added", "suggestion_accepted",
                       "suggestion_rejected", "draft_approved"]
    times = [r.occurred_at for r in draft.revision_history()]
    assert times == sorted(times)
    assert "revision" not in str(draft.to_dict())  # nothing stored separately
    assert draft.revision_history()[1].actor == "example-model"


def test_review_summary_counts_and_unreviewed_marker() -> None:
    draft = seeded_draft().accept("suggestion-location", reviewer="parent", value="Seoul Forest")
    draft = draft.reject_suggestion("suggestion-title", reviewer="parent").approve(reviewer="parent")
    summary = review_summary(to_builtins(review_record(draft)))
    assert summary["reviewed"] is True and summary["approved_by"] == "parent"
    assert summary["suggestion_count"] == 2 and summary["accepted_count"] == 1
    assert summary["confirmed_fields"] == ["location"]
    assert review_summary(None) == {"reviewed": False}


def test_the_stored_shapes_have_the_fields_of_the_objects_in_order() -> None:
    """One model: the review objects are msgspec structs that decode their own stored form (no second
    set of shape classes to keep in step); the stored form's keys are the objects' fields, in order."""
    import msgspec

    from core.vault import review

    draft = seeded_draft().accept("suggestion-location", reviewer="p").reject_suggestion("suggestion-title",
                                                                                        reviewer="p")
    draft = draft.approve(reviewer="p")
    for cls, stored in ((review.Suggestion, draft.to_dict()["suggestions"][0]),
                        (review.ReviewDecision, draft.to_dict()["decisions"][0]),
                        (review.Approval, draft.to_dict()["approval"]), (StoredDraft, draft.to_dict())):
        assert issubclass(cls, msgspec.Struct), cls.__name__
        # a suggestion's stored form names its id first; its fields keep the DiaryVault API's positional order
        fields = cls.__struct_encode_fields__  # a decision is stored as action/value (outcome/accepted_value)
        if cls is review.Suggestion:
            fields = ("suggestion_id", *(f for f in fields if f != "suggestion_id"))
        assert tuple(stored) == fields, cls.__name__
    assert not [name for name in vars(review) if name.startswith("_") and name.endswith("Data")]
    stored = msgspec.json.encode({"draft": draft.to_dict()})
    assert msgspec.json.decode(stored, type=review._DraftPayload).draft == draft
    with pytest.raises(ReviewError, match="missing required field `created_at`"):
        StoredDraft.from_dict({k: v for k, v in draft.to_dict().items() if k != "created_at"})


def test_load_errors_name_the_field_on_one_line() -> None:
    data = seeded_draft().to_dict()
    broken = copy.deepcopy(data)
    broken["suggestions"][1]["confidence"] = "high"
    with pytest.raises(ReviewError, match=r"suggestions\[1\]\.confidence") as caught:
        StoredDraft.from_dict(broken)
    assert "\n" not in str(caught.value) and str(caught.value).startswith(f"draft {data['draft_id']!r}")
    missing = copy.deepcopy(data)
    del missing["suggestions"][0]["source"]
    with pytest.raises(ReviewError, match=r"missing required field `source` - at `\$\.suggestions\[0\]`"):
        StoredDraft.from_dict(missing)
    with pytest.raises(ReviewError, match="unknown field `surprise`"):
        StoredDraft.from_dict({**data, "surprise": 1})
    with pytest.raises(ReviewError, match="draft: Expected `object`"):
        StoredDraft.from_dict(["not", "a", "draft"])


def test_json_load_equals_dict_load_and_keeps_the_invariants() -> None:
    import json

    from core.vault.review import draft_from_json

    draft = seeded_draft().accept("suggestion-location", reviewer="p", value="Seoul Forest")
    payload = json.dumps({"draft": draft.to_dict()}).encode()
    assert draft_from_json(payload, "drafts/x.json") == draft == StoredDraft.from_dict(draft.to_dict())
    twice = draft.to_dict()
    twice["decisions"].append({**twice["decisions"][0]})
    with pytest.raises(ReviewError, match="more than one decision"):
        draft_from_json(json.dumps({"draft": twice}).encode(), "drafts/x.json")
    with pytest.raises(ReviewError, match=r"^drafts/x.json: the decrypted payload is not JSON"):
        draft_from_json(b'{"draft": NaN}', "drafts/x.json")


def test_frozen_values_adopted_from_a_decoder_are_frozen_and_equal() -> None:
    import msgspec

    from core.frozen import adopt_decoded, freeze, thaw

    raw = b'{"people": ["Mina", {"age": 7}], "weather": {"sky": "clear", "wind": [1, 2.5]}, "n": null}'
    adopted, walked = adopt_decoded(msgspec.json.decode(raw)), freeze(msgspec.json.decode(raw))
    assert adopted == walked and walked == adopted and hash(adopted) == hash(walked)
    assert thaw(adopted) == msgspec.json.decode(raw) and repr(adopted) == repr(walked)
    assert isinstance(adopted["weather"], FrozenDict) and adopted["people"][1] == {"age": 7}
    with pytest.raises(AttributeError):
        adopted["people"].append("x")
    with pytest.raises(TypeError):
        adopted["weather"]["sky"] = "rain"  # type: ignore[index]
    with pytest.raises(ValueError, match=r"^value\.a\[1\]\.b: nan is not a JSON number$"):
        freeze({"a": [1, {"b": float("nan")}]})
    with pytest.raises(ValueError, match=r"^custom\.a: key 2 is not a string$"):
        freeze({"a": {2: 3}}, "custom")


def test_the_stored_form_keeps_its_fixed_layout() -> None:
    """Drafts and review provenance are signed records: their stored form, now written by msgspec, is
    the written-out form it always was (keys in this order, lists not tuples, frozen values thawed)."""
    from core.vault.canonical import canonical_json
    from core.vault.review import Approval, ReviewDecision, Suggestion

    at = "2026-11-03T10:00:00+00:00"
    scene = Suggestion("scene", {"people": ["Mina"], "sky": {"clear": True}}, "vision", suggestion_id="s1",
                       model="m", process_version="v1", confidence=1, created_at=at)
    title = Suggestion("title", "A title", "echo", suggestion_id="s2", created_at=at)
    draft = StoredDraft(draft_id="draft_x", content="Picnic.", tags=("family",), created_at=at, created_by="me",
                        suggestions=(scene, title),
                        decisions=(ReviewDecision("s1", "accepted", "p", {"people": ["Mina", "Jun"]}, at, edited=True),
                                   ReviewDecision("s2", "rejected", "p", decided_at=at)),
                        state="finalized", approval=Approval("p", at), finalized_memory_id="mem_0123456789abcdef",
                        finalized_at=at, supersedes=("mem_00aa",))
    expected = {
        "draft_id": "draft_x", "content": "Picnic.", "tags": ["family"], "created_at": at, "created_by": "me",
        "suggestions": [
            {"suggestion_id": "s1", "field_name": "scene", "value": {"people": ["Mina"], "sky": {"clear": True}},
             "source": "vision", "model": "m", "process_version": "v1", "confidence": 1.0, "created_at": at},
            {"suggestion_id": "s2", "field_name": "title", "value": "A title", "source": "echo", "model": None,
             "process_version": None, "confidence": None, "created_at": at},
        ],
        "decisions": [
            {"suggestion_id": "s1", "action": "accepted", "reviewer": "p", "decided_at": at,
             "value": {"people": ["Mina", "Jun"]}, "edited": True},
            {"suggestion_id": "s2", "action": "rejected", "reviewer": "p", "decided_at": at, "value": None,
             "edited": False},
        ],
        "state": "finalized", "approval": {"reviewer": "p", "approved_at": at},
        "finalized_memory_id": "mem_0123456789abcdef", "finalized_at": at, "supersedes": ["mem_00aa"],
    }
    stored = draft.to_dict()
    assert stored == expected and list(stored) == list(expected)
    assert [list(s) for s in stored["suggestions"]] == [list(s) for s in expected["suggestions"]]
    assert type(stored["tags"]) is list and type(stored["suggestions"][0]["value"]["people"]) is list
    assert type(stored["suggestions"][0]["confidence"]) is float
    assert canonical_json(stored) == canonical_json(expected)
    assert StoredDraft.from_dict(stored) == draft
    assert draft.revision_history()[0].to_dict() == {"action": "draft_created", "occurred_at": at, "actor": "me",
                                                     "field_name": None, "value": None, "suggestion_id": None}


def test_the_review_provenance_keeps_its_fixed_layout() -> None:
    """A memory's review provenance is sealed with it: the typed record's stored form is, byte for byte
    once canonical, the written-out form it always was."""
    from core.vault.review import Approval, ReviewDecision, Suggestion

    at = "2026-11-03T10:00:00+00:00"
    scene = Suggestion("scene", {"people": ["Mina"]}, "vision", suggestion_id="s1", model="m", confidence=1,
                       created_at=at)
    title = Suggestion("title", "A title", "echo", suggestion_id="s2", created_at=at)
    draft = StoredDraft(draft_id="draft_x", content="Picnic.", created_at=at, created_by="me",
                        suggestions=(scene, title),
                        decisions=(ReviewDecision("s1", "accepted", "p", {"people": ["Jun"]}, at, edited=True),
                                   ReviewDecision("s2", "rejected", "p", decided_at=at)),
                        state="approved", approval=Approval("p", at), supersedes=("mem_00aa",))
    expected = {
        "draft_id": "draft_x", "original_content": "Picnic.", "created_at": at, "created_by": "me",
        "suggestions": [
            {"suggestion_id": "s1", "field_name": "scene", "value": {"people": ["Mina"]}, "source": "vision",
             "model": "m", "process_version": None, "confidence": 1.0, "created_at": at},
            {"suggestion_id": "s2", "field_name": "title", "value": "A title", "source": "echo", "model": None,
             "process_version": None, "confidence": None, "created_at": at},
        ],
        "decisions": [
            {"suggestion_id": "s1", "action": "accepted", "reviewer": "p", "value": {"people": ["Jun"]},
             "decided_at": at, "edited": True},
            {"suggestion_id": "s2", "action": "rejected", "reviewer": "p", "value": None, "decided_at": at,
             "edited": False},
        ],
        "approved_by": "p", "approved_at": at, "confirmed_fields": ["scene"], "supersedes": ["mem_00aa"],
    }
    stored = to_builtins(review_record(draft))
    assert stored == expected and canonical_json(stored) == canonical_json(expected)
    assert list(stored) == list(expected)
