"""The SDK's JSON forms, byte for byte: a review draft (``to_json``, and the sealed copy of a rejected
draft holds ``to_dict``), a memory view and its ``.dvmem`` document, the context protocol's request and
response, and the knowledge graph. Written from fixed instances against the exact text an earlier
version wrote; the same documents load back into equal objects, and a broken one fails with the
upstream SDK's errors (``KeyError`` for a missing key, ``TypeError`` for a wrong type or an unknown
field, ``ValueError`` for a broken invariant)."""

from __future__ import annotations

import json

import pytest

from core.sdk.context import ContextRequest, ContextResponse, SharedMemory
from core.sdk.export import KnowledgeEdge, KnowledgeGraph, KnowledgeNode
from core.sdk.models import Memory, MemoryAnchor, MemoryMetadata, MemoryStatus
from core.sdk.review import DecisionOutcome, ReviewDecision, ReviewDraft, ReviewState, Suggestion

DRAFT_JSON = (
    '{\n'
    '  "draft_id": "draft-1",\n'
    '  "content": "She laughed when the dog sneezed. 강아지",\n'
    '  "tags": [\n'
    '    "family"\n'
    '  ],\n'
    '  "suggestions": [\n'
    '    {\n'
    '      "suggestion_id": "s-loc",\n'
    '      "field_name": "location",\n'
    '      "value": "Seoul",\n'
    '      "source": "echo",\n'
    '      "model": "m-1",\n'
    '      "process_version": "v2",\n'
    '      "confidence": 0.875,\n'
    '      "created_at": "2026-11-03T10:01:00.000000+00:00"\n'
    '    },\n'
    '    {\n'
    '      "suggestion_id": "s-ppl",\n'
    '      "field_name": "people",\n'
    '      "value": {\n'
    '        "people": [\n'
    '          "Mina",\n'
    '          "Joon"\n'
    '        ],\n'
    '        "n": 2\n'
    '      },\n'
    '      "source": "echo",\n'
    '      "model": null,\n'
    '      "process_version": null,\n'
    '      "confidence": null,\n'
    '      "created_at": "2026-11-03T10:02:00.000000+00:00"\n'
    '    }\n'
    '  ],\n'
    '  "decisions": [\n'
    '    {\n'
    '      "suggestion_id": "s-loc",\n'
    '      "outcome": "accepted",\n'
    '      "reviewer": "parent",\n'
    '      "accepted_value": "Seoul, Mapo",\n'
    '      "decided_at": "2026-11-03T10:03:00.000000+00:00"\n'
    '    },\n'
    '    {\n'
    '      "suggestion_id": "s-ppl",\n'
    '      "outcome": "rejected",\n'
    '      "reviewer": "parent",\n'
    '      "accepted_value": null,\n'
    '      "decided_at": "2026-11-03T10:04:00.000000+00:00"\n'
    '    }\n'
    '  ],\n'
    '  "state": "approved",\n'
    '  "completed_by": "parent",\n'
    '  "completed_at": "2026-11-03T10:05:00.000000+00:00",\n'
    '  "created_at": "2026-11-03T10:00:00.000000+00:00"\n'
    '}'
)

HISTORY = [{'action': 'draft_created',
  'actor': None,
  'field_name': None,
  'occurred_at': '2026-11-03T10:00:00.000000+00:00',
  'suggestion_id': None,
  'value': None},
 {'action': 'suggestion_added',
  'actor': 'echo',
  'field_name': 'location',
  'occurred_at': '2026-11-03T10:01:00.000000+00:00',
  'suggestion_id': 's-loc',
  'value': 'Seoul'},
 {'action': 'suggestion_added',
  'actor': 'echo',
  'field_name': 'people',
  'occurred_at': '2026-11-03T10:02:00.000000+00:00',
  'suggestion_id': 's-ppl',
  'value': {'n': 2, 'people': ['Mina', 'Joon']}},
 {'action': 'suggestion_accepted',
  'actor': 'parent',
  'field_name': 'location',
  'occurred_at': '2026-11-03T10:03:00.000000+00:00',
  'suggestion_id': 's-loc',
  'value': 'Seoul, Mapo'},
 {'action': 'suggestion_rejected',
  'actor': 'parent',
  'field_name': 'people',
  'occurred_at': '2026-11-03T10:04:00.000000+00:00',
  'suggestion_id': 's-ppl',
  'value': None},
 {'action': 'draft_approved',
  'actor': 'parent',
  'field_name': None,
  'occurred_at': '2026-11-03T10:05:00.000000+00:00',
  'suggestion_id': None,
  'value': None}]

MEMORY_JSON = (
    '{\n'
    '  "id": "mem-1",\n'
    '  "version": "1.0.0",\n'
    '  "content": "Dog sneezed",\n'
    '  "content_type": "text/plain",\n'
    '  "hash": "abababababababababababababababababababababababababababababababab",\n'
    '  "encrypted_content": "0001fe",\n'
    '  "signature": "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd",\n'
    '  "nonce": "101010101010101010101010",\n'
    '  "created_at": "2026-11-03T10:00:00.000000+00:00",\n'
    '  "updated_at": null,\n'
    '  "status": "verified",\n'
    '  "metadata": {\n'
    '    "tags": [\n'
    '      "family"\n'
    '    ],\n'
    '    "location": "Seoul",\n'
    '    "mood": null,\n'
    '    "source": "api",\n'
    '    "agent_id": null,\n'
    '    "ai_enriched": false,\n'
    '    "custom": {\n'
    '      "review": {\n'
    '        "reviewed": true\n'
    '      }\n'
    '    }\n'
    '  },\n'
    '  "anchors": [\n'
    '    {\n'
    '      "backend": "local",\n'
    '      "transaction_id": "tx-1",\n'
    '      "block_number": 7,\n'
    '      "anchored_at": "2026-11-03T10:06:00Z",\n'
    '      "url": null\n'
    '    }\n'
    '  ],\n'
    '  "merkle_root": "efefefefefefefefefefefefefefefefefefefefefefefefefefefefefefefef",\n'
    '  "merkle_proof": [\n'
    '    "0101010101010101010101010101010101010101010101010101010101010101"\n'
    '  ]\n'
    '}'
)

DVMEM = (
    '{\n'
    '  "dvmem_version": "1.0",\n'
    '  "encoding": "utf-8",\n'
    '  "payload": {\n'
    '    "id": "mem-1",\n'
    '    "version": "1.0.0",\n'
    '    "content": "Dog sneezed",\n'
    '    "content_type": "text/plain",\n'
    '    "hash": "abababababababababababababababababababababababababababababababab",\n'
    '    "encrypted_content": "0001fe",\n'
    '    "signature": "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd",\n'
    '    "nonce": "101010101010101010101010",\n'
    '    "created_at": "2026-11-03T10:00:00.000000+00:00",\n'
    '    "updated_at": null,\n'
    '    "status": "verified",\n'
    '    "metadata": {\n'
    '      "tags": [\n'
    '        "family"\n'
    '      ],\n'
    '      "location": "Seoul",\n'
    '      "mood": null,\n'
    '      "source": "api",\n'
    '      "agent_id": null,\n'
    '      "ai_enriched": false,\n'
    '      "custom": {\n'
    '        "review": {\n'
    '          "reviewed": true\n'
    '        }\n'
    '      }\n'
    '    },\n'
    '    "anchors": [\n'
    '      {\n'
    '        "backend": "local",\n'
    '        "transaction_id": "tx-1",\n'
    '        "block_number": 7,\n'
    '        "anchored_at": "2026-11-03T10:06:00Z",\n'
    '        "url": null\n'
    '      }\n'
    '    ],\n'
    '    "merkle_root": "efefefefefefefefefefefefefefefefefefefefefefefefefefefefefefefef",\n'
    '    "merkle_proof": [\n'
    '      "0101010101010101010101010101010101010101010101010101010101010101"\n'
    '    ]\n'
    '  },\n'
    '  "verification": {\n'
    '    "hash": "abababababababababababababababababababababababababababababababab",\n'
    '    "signature": "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd",\n'
    '    "anchors": [\n'
    '      {\n'
    '        "backend": "local",\n'
    '        "transaction_id": "tx-1",\n'
    '        "block_number": 7,\n'
    '        "anchored_at": "2026-11-03T10:06:00Z",\n'
    '        "url": null\n'
    '      }\n'
    '    ]\n'
    '  }\n'
    '}'
)

RESPONSE_JSON = (
    '{\n'
    '  "request_id": "req-1",\n'
    '  "agent_id": "agent-1",\n'
    '  "vault_merkle_root": "efefefefefefefefefefefefefefefefefefefefefefefefefefefefefefefef",'
    '\n'
    '  "shared_memories": [\n'
    '    {\n'
    '      "memory_id": "mem-1",\n'
    '      "content": "Dog sneezed",\n'
    '      "tags": [\n'
    '        "family"\n'
    '      ],\n'
    '      "hash": "abababababababababababababababababababababababababababababababab",\n'
    '      "signature": "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd",\n'
    '      "created_at": "2026-11-03T10:00:00.000000+00:00",\n'
    '      "verified": true\n'
    '    }\n'
    '  ],\n'
    '  "scope_granted": [\n'
    '    "family"\n'
    '  ],\n'
    '  "scope_denied": [\n'
    '    "health"\n'
    '  ],\n'
    '  "responded_at": "2026-11-03T10:07:00.000000+00:00",\n'
    '  "response_id": "resp-1",\n'
    '  "purpose": "birthday",\n'
    '  "scope_requested": [\n'
    '    "family",\n'
    '    "health"\n'
    '  ]\n'
    '}'
)

REQUEST_JSON = (
    '{\n'
    '  "agent_id": "agent-1",\n'
    '  "scope": [\n'
    '    "family"\n'
    '  ],\n'
    '  "purpose": "birthday",\n'
    '  "max_memories": 3,\n'
    '  "request_id": "req-1",\n'
    '  "requested_at": "2026-11-03T10:07:00.000000+00:00"\n'
    '}'
)

GRAPH_JSON = (
    '{\n'
    '  "nodes": [\n'
    '    {\n'
    '      "id": "mem-1",\n'
    '      "label": "Dog",\n'
    '      "node_type": "memory",\n'
    '      "properties": {\n'
    '        "verified": true\n'
    '      }\n'
    '    }\n'
    '  ],\n'
    '  "edges": [\n'
    '    {\n'
    '      "source": "mem-1",\n'
    '      "target": "tag:family",\n'
    '      "relation": "tagged_with",\n'
    '      "properties": {}\n'
    '    }\n'
    '  ],\n'
    '  "stats": {\n'
    '    "node_count": 1,\n'
    '    "edge_count": 1\n'
    '  }\n'
    '}'
)

DRAFT = ReviewDraft(
    content="She laughed when the dog sneezed. 강아지", tags=("family",), draft_id="draft-1",
    created_at="2026-11-03T10:00:00.000000+00:00",
    suggestions=(
        Suggestion("location", "Seoul", "echo", suggestion_id="s-loc", model="m-1", process_version="v2",
                   confidence=0.875, created_at="2026-11-03T10:01:00.000000+00:00"),
        Suggestion("people", {"people": ["Mina", "Joon"], "n": 2}, "echo", suggestion_id="s-ppl",
                   created_at="2026-11-03T10:02:00.000000+00:00"),
    ),
    decisions=(
        ReviewDecision("s-loc", DecisionOutcome.ACCEPTED, "parent", accepted_value="Seoul, Mapo",
                       decided_at="2026-11-03T10:03:00.000000+00:00"),
        ReviewDecision("s-ppl", DecisionOutcome.REJECTED, "parent", decided_at="2026-11-03T10:04:00.000000+00:00"),
    ),
    state=ReviewState.APPROVED, completed_by="parent", completed_at="2026-11-03T10:05:00.000000+00:00",
)
MEMORY = Memory(
    id="mem-1", content="Dog sneezed", hash="ab" * 32, encrypted_content=b"\x00\x01\xfe", signature="cd" * 32,
    nonce=b"\x10" * 12, created_at="2026-11-03T10:00:00.000000+00:00", updated_at=None,
    status=MemoryStatus.VERIFIED,
    metadata=MemoryMetadata(tags=["family"], location="Seoul", source="api", custom={"review": {"reviewed": True}}),
    anchors=[MemoryAnchor("local", transaction_id="tx-1", block_number=7, anchored_at="2026-11-03T10:06:00Z")],
    merkle_root="ef" * 32, merkle_proof=["01" * 32],
)
RESPONSE = ContextResponse(
    request_id="req-1", agent_id="agent-1", vault_merkle_root="ef" * 32,
    shared_memories=[SharedMemory("mem-1", "Dog sneezed", ["family"], "ab" * 32, "cd" * 32,
                                  "2026-11-03T10:00:00.000000+00:00", True)],
    scope_granted=["family"], scope_denied=["health"], responded_at="2026-11-03T10:07:00.000000+00:00",
    response_id="resp-1", purpose="birthday", scope_requested=["family", "health"],
)
REQUEST = ContextRequest(agent_id="agent-1", scope=["family"], purpose="birthday", max_memories=3,
                         request_id="req-1", requested_at="2026-11-03T10:07:00.000000+00:00")


def test_a_draft_is_unchanged_and_loads_back() -> None:
    assert DRAFT.to_json() == DRAFT_JSON
    loaded = ReviewDraft.from_json(DRAFT_JSON)
    assert loaded == DRAFT and loaded.to_json() == DRAFT_JSON
    assert loaded.decisions[0].outcome is DecisionOutcome.ACCEPTED and loaded.state is ReviewState.APPROVED
    assert [Suggestion.from_dict(s) for s in json.loads(DRAFT_JSON)["suggestions"]] == list(DRAFT.suggestions)
    assert [ReviewDecision.from_dict(d) for d in json.loads(DRAFT_JSON)["decisions"]] == list(DRAFT.decisions)


def test_the_revision_history_keeps_its_form() -> None:
    history = [step.to_dict() for step in DRAFT.revision_history()]
    assert history == HISTORY
    assert list(history[0]) == ["action", "occurred_at", "actor", "field_name", "value", "suggestion_id"]


def test_an_open_draft_without_optional_keys_loads() -> None:
    data = {"draft_id": "d", "content": "x", "state": "open", "created_at": "2026-11-03T10:00:00+00:00"}
    draft = ReviewDraft.from_dict(data)
    assert (draft.tags, draft.suggestions, draft.decisions, draft.completed_by) == ((), (), (), None)


@pytest.mark.parametrize("key", ["draft_id", "content", "state", "created_at"])
def test_a_draft_missing_a_key_is_a_key_error(key: str) -> None:
    data = json.loads(DRAFT_JSON)
    del data[key]
    with pytest.raises(KeyError, match=key):
        ReviewDraft.from_dict(data)


@pytest.mark.parametrize("key", ["suggestion_id", "field_name", "value", "source", "created_at"])
def test_a_suggestion_missing_a_key_is_a_key_error(key: str) -> None:
    data = json.loads(DRAFT_JSON)
    del data["suggestions"][0][key]
    with pytest.raises(KeyError, match=key):
        ReviewDraft.from_dict(data)


def test_a_wrong_type_is_a_type_error_and_a_bad_state_a_value_error() -> None:
    data = json.loads(DRAFT_JSON)
    with pytest.raises(TypeError):
        ReviewDraft.from_dict({**data, "content": 3})
    with pytest.raises(TypeError):
        ReviewDraft.from_dict([data])  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ReviewDraft.from_dict({**data, "state": "finalised"})
    broken = json.loads(DRAFT_JSON)
    broken["suggestions"][0]["confidence"] = 1.5
    with pytest.raises(ValueError, match="confidence must be between 0 and 1"):
        ReviewDraft.from_dict(broken)


def test_a_memory_view_is_unchanged_and_loads_back() -> None:
    assert MEMORY.to_json() == MEMORY_JSON
    assert MEMORY.to_dvmem() == DVMEM
    loaded = Memory.from_dict(json.loads(MEMORY_JSON))
    assert loaded == MEMORY and loaded.to_json() == MEMORY_JSON
    assert loaded.status is MemoryStatus.VERIFIED and loaded.encrypted_content == b"\x00\x01\xfe"
    assert isinstance(loaded.metadata, MemoryMetadata) and isinstance(loaded.anchors[0], MemoryAnchor)
    assert Memory.from_dvmem(DVMEM) == MEMORY


def test_a_broken_memory_document_names_the_field() -> None:
    data = json.loads(MEMORY_JSON)
    with pytest.raises(TypeError, match="unknown field 'colour'"):
        Memory.from_dict({**data, "colour": "red"})
    with pytest.raises(TypeError, match=r"memory: unknown field 'metadata\.mood_score'"):
        Memory.from_dict({**data, "metadata": {**data["metadata"], "mood_score": 3}})
    with pytest.raises(ValueError, match=r"memory\.nonce: not hex"):
        Memory.from_dict({**data, "nonce": "zz"})
    with pytest.raises(ValueError):
        Memory.from_dict({**data, "status": "lost"})
    assert Memory.from_dict({"content": "minimal"}).content == "minimal"


def test_the_context_protocol_is_unchanged_and_loads_back() -> None:
    assert RESPONSE.to_json() == RESPONSE_JSON
    assert REQUEST.to_json() == REQUEST_JSON
    response = ContextResponse.from_json(RESPONSE_JSON)
    assert response == RESPONSE and isinstance(response.shared_memories[0], SharedMemory)
    assert ContextRequest.from_json(REQUEST_JSON) == REQUEST
    with pytest.raises(TypeError, match="unknown field 'secret'"):
        ContextRequest.from_dict({**json.loads(REQUEST_JSON), "secret": 1})
    with pytest.raises(TypeError, match=r"unknown field 'shared_memories\[0\]\.key'"):
        ContextResponse.from_dict({**json.loads(RESPONSE_JSON), "shared_memories": [
            {**RESPONSE.shared_memories[0].to_dict(), "key": "k"}]})


def test_the_knowledge_graph_is_unchanged() -> None:
    graph = KnowledgeGraph(nodes=[KnowledgeNode("mem-1", "Dog", "memory", {"verified": True})],
                           edges=[KnowledgeEdge("mem-1", "tag:family", "tagged_with")])
    assert graph.to_json() == GRAPH_JSON


def test_a_context_document_missing_a_required_field_is_a_type_error() -> None:
    """As ``ContextRequest(**data)`` raised it before."""
    data = json.loads(REQUEST_JSON)
    del data["agent_id"]
    with pytest.raises(TypeError, match="agent_id"):
        ContextRequest.from_dict(data)
