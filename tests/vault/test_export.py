"""Provenance-aware exports: review summaries everywhere they belong, schema-clean fine-tuning
formats, a verified flag that is a real verification, drafts never exported."""

from __future__ import annotations

import json

from core.export import HomeExporter
from core.paths import HomePaths
from tests.helpers.vault import SENTENCES, populated


def test_rag_chunks_carry_the_review_summary(paths: HomePaths) -> None:
    vault, memories = populated(paths)
    vault.create_draft("a draft must never be exported")
    chunks = HomeExporter(vault).to_rag_chunks()
    assert [c.text for c in chunks] == [m.content for m in vault.list_memories()]
    by_id = {c.metadata["memory_id"]: c for c in chunks}
    reviewed = by_id[memories[0].memory_id].metadata["review"]
    assert reviewed == {
        "reviewed": True, "approved_by": "parent", "approved_at": reviewed["approved_at"],
        "suggestion_count": 2, "accepted_count": 1, "rejected_count": 1, "edited_count": 1,
        "confirmed_fields": ["location"],
    }
    assert by_id[memories[3].memory_id].metadata["review"] == {"reviewed": False}
    assert all(c.metadata["verified"] for c in chunks)


def test_long_memories_are_chunked_with_positions(paths: HomePaths) -> None:
    vault, _ = populated(paths)
    long_text = "\n\n".join(f"Paragraph {i}. " + "word " * 120 for i in range(6))
    memory = vault.add_memory(long_text, ["long"])
    chunks = [c for c in HomeExporter(vault).to_rag_chunks() if c.metadata["memory_id"] == memory.memory_id]
    assert len(chunks) >= 2
    assert [c.metadata["chunk_index"] for c in chunks] == list(range(len(chunks)))
    assert " ".join(" ".join(c.text.split()) for c in chunks) == " ".join(long_text.split())


def test_verified_flag_is_a_real_verification(paths: HomePaths) -> None:
    vault, memories = populated(paths)
    from core.vault.records import seal_memory

    # a validly signed record whose bytes differ from what the ledger sealed
    vault.memory_path(memories[1].memory_id).write_bytes(seal_memory(memories[1], vault.keys))
    flags = {c.metadata["memory_id"]: c.metadata["verified"] for c in HomeExporter(vault).to_rag_chunks()}
    assert flags[memories[1].memory_id] is False
    assert flags[memories[0].memory_id] is True


def test_generic_jsonl_carries_content_and_confirmation(paths: HomePaths) -> None:
    vault, memories = populated(paths)
    rows = HomeExporter(vault).to_jsonl(format="generic")
    assert {r["content"] for r in rows} == set(SENTENCES)
    first = next(r for r in rows if r["id"] == memories[0].memory_id)
    assert first["review"]["reviewed"] is True and first["location"] == "Seoul Forest"
    assert first["confirmed_fields"] == {"location": "Seoul Forest"}
    json.dumps(rows)  # serialisable as is


def test_fine_tune_formats_stay_schema_clean(paths: HomePaths) -> None:
    vault, _ = populated(paths)
    exporter = HomeExporter(vault)
    for row in exporter.to_jsonl(format="openai"):
        assert set(row) == {"messages"}
        assert [m["role"] for m in row["messages"]] == ["system", "user", "assistant"]
        assert all(set(m) == {"role", "content"} for m in row["messages"])
    for row in exporter.to_jsonl(format="anthropic"):
        assert set(row) == {"system", "messages"}
        assert [m["role"] for m in row["messages"]] == ["user", "assistant"]
        assert all(set(m) == {"role", "content"} for m in row["messages"])
    assert "review" not in json.dumps(exporter.to_jsonl(format="openai"))


def test_conversation_history_metadata_has_review(paths: HomePaths) -> None:
    vault, memories = populated(paths)
    history = HomeExporter(vault).to_conversation_history()
    assert history[0]["metadata"]["review"]["reviewed"] in (True, False)
    by_id = {h["metadata"]["memory_id"]: h for h in history}
    assert by_id[memories[0].memory_id]["metadata"]["review"]["reviewed"] is True
    assert by_id[memories[3].memory_id]["metadata"]["review"] == {"reviewed": False}


def test_knowledge_graph_memory_nodes_keep_provenance(paths: HomePaths) -> None:
    vault, memories = populated(paths)
    graph = HomeExporter(vault).to_knowledge_graph()
    memory_nodes = [n for n in graph.nodes if n.node_type == "memory"]
    assert len(memory_nodes) == 4
    reviewed = {n.node_id: n.properties["review"]["reviewed"] for n in memory_nodes}
    assert reviewed[memories[0].memory_id] is True and reviewed[memories[3].memory_id] is False
    assert any(n.node_type == "location" and n.label == "Seoul Forest" for n in graph.nodes)
    assert any(e.relation == "tagged" and e.target == "tag:family" for e in graph.edges)
    json.dumps(graph.to_dict())


def test_include_filter_narrows_every_export(paths: HomePaths) -> None:
    vault, memories = populated(paths)
    exporter = HomeExporter(vault, include=lambda m: "winter" not in m.metadata.tags)
    assert memories[3].memory_id not in {c.metadata["memory_id"] for c in exporter.to_rag_chunks()}
    assert memories[3].memory_id not in {n.node_id for n in exporter.to_knowledge_graph().nodes}
    assert len(exporter.to_jsonl("openai")) == 3
