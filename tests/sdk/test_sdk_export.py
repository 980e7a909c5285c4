"""SDK exports: upstream shapes, with the review summary and a real verification flag."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.sdk import KnowledgeGraph, MemoryVault, RAGChunk, VaultExporter


@pytest.fixture
def filled(vault: MemoryVault) -> MemoryVault:
    draft = vault.create_draft("She laughed when the dog sneezed in Seoul Forest.", tags=["family"])
    draft = draft.add_suggestion("location", "Seoul", "echo", suggestion_id="loc")
    draft = draft.add_suggestion("title", "The first laugh", "echo", suggestion_id="title")
    draft = draft.accept("loc", reviewer="parent", value="Seoul Forest").reject_suggestion("title", reviewer="parent")
    vault.finalize_draft(draft.approve(reviewer="parent"))
    vault.create("I prefer morning meetings before 10am.", tags=["preference"])
    vault.create_draft("A draft nobody approved.", tags=["family"])
    return vault


def test_rag_chunks_carry_the_review_summary(filled: MemoryVault) -> None:
    chunks = VaultExporter(filled).to_rag_chunks()
    assert [type(c) for c in chunks] == [RAGChunk, RAGChunk]
    reviewed, plain = chunks
    assert reviewed.metadata["review"] == {
        "reviewed": True, "approved_by": "parent", "approved_at": reviewed.metadata["review"]["approved_at"],
        "suggestion_count": 2, "accepted_count": 1, "confirmed_fields": ["location"],
    }
    assert plain.metadata["review"] == {"reviewed": False}
    assert all(c.metadata["verified"] and c.metadata["encrypted_at_rest"] for c in chunks)
    assert reviewed.metadata["source"] == "diaryvault" and reviewed.metadata["store"] == "reverie"
    assert VaultExporter(filled).to_rag_chunks(tags=["preference"], include_hash=False)[0].hash == ""


def test_exports_use_the_records_and_flag_a_changed_one(filled: MemoryVault) -> None:
    memory = filled.list(tags=["preference"])[0]
    memory.content = "I prefer meetings at midnight."  # a view changed in memory
    chunk = VaultExporter(filled).to_rag_chunks(tags=["preference"])[0]
    assert chunk.content == "I prefer morning meetings before 10am." and not chunk.metadata["verified"]


def test_jsonl_formats(filled: MemoryVault, tmp_path: Path) -> None:
    exporter = VaultExporter(filled)
    generic = exporter.to_jsonl(format="generic")
    assert [g["review"]["reviewed"] for g in generic] == [True, False] and all(g["verified"] for g in generic)
    openai = exporter.to_jsonl(str(tmp_path / "out.jsonl"), format="openai", tags=["preference"])
    assert openai[0]["messages"][1] == {"role": "user", "content": "What do I prefer?"}
    assert set(openai[0]) == {"messages"}  # schema-clean: no review fields
    anthropic = exporter.to_jsonl(format="anthropic", system_prompt="Be brief.")
    assert anthropic[0]["system"] == "Be brief." and set(anthropic[0]) == {"messages", "system"}
    lines = (tmp_path / "out.jsonl").read_text().splitlines()
    assert [json.loads(line) for line in lines] == openai
    assert (tmp_path / "out.jsonl").stat().st_mode & 0o077 == 0
    with pytest.raises(ValueError, match="format"):
        exporter.to_jsonl(format="csv")  # type: ignore[arg-type]


def test_conversation_history_and_summary(filled: MemoryVault) -> None:
    exporter = VaultExporter(filled)
    history = exporter.to_conversation_history(tags=["family"])
    assert len(history) == 1 and history[0]["role"] == "user" and "[family]" in history[0]["content"]
    assert history[0]["metadata"]["review"]["approved_by"] == "parent" and history[0]["metadata"]["verified"]
    summary = exporter.summary()
    assert summary["total_memories"] == 2 and summary["reviewed_memories"] == 1
    assert summary["unreviewed_memories"] == 1 and summary["unique_tags"] == ["family", "preference"]


def test_knowledge_graph(filled: MemoryVault) -> None:
    graph = VaultExporter(filled).to_knowledge_graph()
    assert isinstance(graph, KnowledgeGraph)
    memory_nodes = [n for n in graph.nodes if n.node_type == "memory"]
    assert len(memory_nodes) == 2 and memory_nodes[0].properties["review"]["reviewed"]
    ids = {n.id for n in graph.nodes}
    assert "tag_family" in ids and "location_seoul_forest" in ids and "entity_seoul" in ids  # "Forest." is no word
    relations = {(e.source, e.relation, e.target) for e in graph.edges}
    assert (memory_nodes[0].id, "located_at", "location_seoul_forest") in relations
    assert all(e.source in ids and e.target in ids for e in graph.edges)
    data = json.loads(graph.to_json())
    assert data["stats"] == {"node_count": graph.node_count, "edge_count": graph.edge_count}
    bare = VaultExporter(filled).to_knowledge_graph(tags=["family"], extract_entities=False)
    assert not [n for n in bare.nodes if n.node_type == "entity"]


def test_entities_are_capitalised_runs_after_the_first_word() -> None:
    from core.sdk.export import _entities

    assert _entities("We walked in Seoul Forest with Mina today") == ["Seoul Forest", "Mina"]
    assert _entities("Mina laughed at Mina, and Jo") == []  # the first word, punctuation, too short
    assert _entities("met Kate and kate KATE") == ["Kate"]
