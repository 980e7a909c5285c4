"""HomeExporter: provenance-aware exports of finalized memories (never drafts).

RAG chunks, generic JSONL, conversation history and knowledge-graph memory nodes carry the review
summary (``{"reviewed": False}`` for memories stored without review) and a ``verified`` flag that is
the result of a real check: the record's signature, ciphertext and content hash, and its checksum
against the ledger. OpenAI and Anthropic fine-tuning formats stay schema-clean: no extra fields, so
they cannot carry the flag; they refuse NOT VERIFIED memories instead (:class:`UnverifiedMemories`),
unless the caller asks for them (``include_unverified``), and then each such example's system message
says so (``UNVERIFIED_NOTE``): nothing a model is trained on passes for checked when it was not.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from core.errors import ReverieError
from core.frozen import thaw
from core.typed import to_builtins
from core.vault.records import MemoryRecord
from core.vault.store import MemoryStore

JSONL_FORMATS = ("generic", "openai", "anthropic")
CHUNK_WORDS = 300
FINE_TUNE_SYSTEM = "You are a personal assistant. Answer from the user's own confirmed memories."
UNVERIFIED_NOTE = " (This memory is NOT VERIFIED: its record does not match the signed ledger.)"


class UnverifiedMemories(ReverieError):
    """A fine-tuning export met memories that do not verify; nothing was exported."""

    exit_code = 1


@dataclass(frozen=True)
class RagChunk:
    chunk_id: str
    text: str
    metadata: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """The published form (a line of ``reverie export rag``), by msgspec."""
        return to_builtins(self)


class GraphNode(msgspec.Struct, frozen=True, rename={"node_id": "id", "node_type": "type"}):
    """A node of the exported graph; written as ``id, type, label, properties`` (msgspec renames)."""

    node_id: str
    node_type: str  # memory | tag | person | location
    label: str
    properties: dict[str, Any] = msgspec.field(default_factory=dict)


class GraphEdge(msgspec.Struct, frozen=True):
    source: str
    target: str
    relation: str  # tagged | mentions | located_at


@dataclass
class ExportGraph:
    nodes: list[GraphNode] = field(default_factory=list)
    edges: list[GraphEdge] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The published form (``reverie export graph``), by msgspec."""
        return to_builtins(self)


def _chunks(text: str, words: int = CHUNK_WORDS) -> list[str]:
    """Paragraph-aligned pieces of at most about ``words`` words (a longer paragraph is cut by words)."""
    pieces: list[str] = []
    current: list[str] = []
    for paragraph in [p.strip() for p in text.split("\n\n") if p.strip()]:
        tokens = paragraph.split()
        if current and len(" ".join(current).split()) + len(tokens) > words:
            pieces.append("\n\n".join(current))
            current = []
        while len(tokens) > words:
            pieces.append(" ".join(tokens[:words]))
            tokens = tokens[words:]
        current.append(" ".join(tokens) if len(paragraph.split()) > words else paragraph)
    if current:
        pieces.append("\n\n".join(current))
    return pieces or [text]


class HomeExporter:
    """Exports of a vault's finalized memories. ``include`` narrows them (a sharing profile)."""

    def __init__(self, vault: MemoryStore, include: Callable[[MemoryRecord], bool] | None = None) -> None:
        self.vault = vault
        self.include = include

    def _memories(self) -> tuple[list[MemoryRecord], set[str]]:
        memories = [m for m in self.vault.list_memories() if self.include is None or self.include(m)]
        return memories, self.vault.verified_ids()

    @staticmethod
    def _facts(memory: MemoryRecord) -> dict[str, Any]:
        """The facts every exported row publishes about its memory (part of a JSON row, so a dict)."""
        meta = memory.metadata
        return {
            "memory_id": memory.memory_id,
            "tags": list(meta.tags),
            "occurred_at": meta.occurred_at,
            "location": meta.location,
            "title": meta.title,
            "people": list(meta.people),
            "created_at": memory.created_at,
            "content_sha256": memory.content_sha256,
        }

    def to_rag_chunks(self) -> list[RagChunk]:
        chunks: list[RagChunk] = []
        memories, verified = self._memories()
        for memory in memories:
            pieces = _chunks(memory.content)
            for index, piece in enumerate(pieces):
                metadata = {
                    **self._facts(memory),
                    "chunk_index": index,
                    "chunk_count": len(pieces),
                    "review": memory.review_summary(),
                    "verified": memory.memory_id in verified,
                }
                chunks.append(RagChunk(f"{memory.memory_id}#{index}", piece, metadata))
        return chunks

    def to_jsonl(self, format: str = "generic", *, include_unverified: bool = False) -> list[dict[str, Any]]:
        """Generic JSONL (each record says ``verified``), or OpenAI / Anthropic fine-tuning examples, which
        refuse NOT VERIFIED memories unless ``include_unverified`` (then their system message says so)."""
        if format not in JSONL_FORMATS:
            raise ReverieError(f"format: must be one of {', '.join(JSONL_FORMATS)}, got {format!r}")
        memories, verified = self._memories()
        unverified = [m.memory_id for m in memories if m.memory_id not in verified]
        if format != "generic" and unverified and not include_unverified:
            shown = ", ".join(unverified[:3]) + (f" and {len(unverified) - 3} more" if len(unverified) > 3 else "")
            raise UnverifiedMemories(
                f"{len(unverified)} memor{'y is' if len(unverified) == 1 else 'ies are'} NOT VERIFIED ({shown}); "
                "nothing was exported: run `reverie verify`, or pass --include-unverified to export them marked")
        if format == "generic":
            return [
                {
                    "id": m.memory_id,
                    "content": m.content,
                    **{k: v for k, v in self._facts(m).items() if k != "memory_id"},
                    "confirmed_fields": thaw(m.metadata.confirmed_fields),
                    "review": m.review_summary(),
                    "verified": m.memory_id in verified,
                }
                for m in memories
            ]
        records = []
        for m in memories:
            exchange = [
                {"role": "user", "content": _question_for(m)},
                {"role": "assistant", "content": m.content},
            ]
            system = FINE_TUNE_SYSTEM + ("" if m.memory_id in verified else UNVERIFIED_NOTE)
            if format == "openai":
                records.append({"messages": [{"role": "system", "content": system}, *exchange]})
            else:
                records.append({"system": system, "messages": exchange})
        return records

    def to_conversation_history(self) -> list[dict[str, Any]]:
        memories, verified = self._memories()
        return [
            {
                "role": "user",
                "content": m.content,
                "metadata": {
                    **self._facts(m),
                    "timestamp": m.time,
                    "review": m.review_summary(),
                    "verified": m.memory_id in verified,
                },
            }
            for m in memories
        ]

    def to_knowledge_graph(self) -> ExportGraph:
        graph = ExportGraph()
        seen: set[str] = set()
        memories, verified = self._memories()

        def node(node_id: str, node_type: str, label: str) -> str:
            if node_id not in seen:
                seen.add(node_id)
                graph.nodes.append(GraphNode(node_id, node_type, label))
            return node_id

        for m in memories:
            graph.nodes.append(
                GraphNode(
                    m.memory_id,
                    "memory",
                    m.metadata.title or m.content[:60],
                    {**self._facts(m), "review": m.review_summary(), "verified": m.memory_id in verified},
                )
            )
            seen.add(m.memory_id)
            for tag in m.metadata.tags:
                graph.edges.append(GraphEdge(m.memory_id, node(f"tag:{tag}", "tag", tag), "tagged"))
            for person in m.metadata.people:
                graph.edges.append(GraphEdge(m.memory_id, node(f"person:{person}", "person", person), "mentions"))
            if m.metadata.location:
                loc = m.metadata.location
                graph.edges.append(GraphEdge(m.memory_id, node(f"location:{loc}", "location", loc), "located_at"))
        return graph


def _question_for(memory: MemoryRecord) -> str:
    meta = memory.metadata
    subject = meta.title or (", ".join(meta.tags) if meta.tags else "this")
    when = f" from {meta.occurred_at[:10]}" if meta.occurred_at else ""
    return f"What do you remember about {subject}{when}?"
