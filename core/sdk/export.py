"""``VaultExporter``: the SDK's AI-ready exports of finalized memories (never drafts).

RAG chunks, generic JSONL, conversation history and knowledge-graph memory nodes carry the review
summary (``{"reviewed": False}`` for memories stored without review, else who approved, when, how many
suggestions were accepted, rejected or edited, and which fields were confirmed) and a ``verified``
flag that is the result of a real check of the record against the vault and the ledger. OpenAI and
Anthropic fine-tuning records stay schema-clean. Content and hashes come from the sealed records, not
from views a caller may have changed in memory.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from core.frozen import thaw
from core.fsutil import atomic_write_text
from core.sdk.common import Published
from core.typed import to_builtins
from core.vault.records import MemoryRecord
from core.vault.review import review_summary

if TYPE_CHECKING:
    from core.sdk.vault import MemoryVault

FORMATS = ("openai", "anthropic", "generic")
DEFAULT_SYSTEM_PROMPT = (
    "You are a personal assistant who knows the user from their own memories. "
    "Answer as someone who remembers what they confirmed."
)
# First matching tag → the question a fine-tuning example asks of that memory.
_QUESTIONS = (
    ("preference", "What do I prefer?"),
    ("health", "What do you know about my health?"),
    ("work", "What is happening at my work?"),
    ("financial", "What do you know about my finances?"),
    ("personal", "Tell me something personal about me."),
)


@dataclass
class RAGChunk(Published):
    """One memory ready for embedding: content, tags, time, hash and metadata (``review``,
    ``verified``)."""

    id: str
    content: str
    tags: list[str]
    created_at: str
    hash: str
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass
class KnowledgeNode(Published):
    """A node: ``memory``, ``tag``, ``date``, ``entity``, ``person`` or ``location``."""

    id: str
    label: str
    node_type: str
    properties: dict[str, Any] = field(default_factory=dict)


@dataclass
class KnowledgeEdge(Published):
    """An edge: ``tagged_with``, ``created_on``, ``mentions`` or ``located_at``."""

    source: str
    target: str
    relation: str
    properties: dict[str, Any] = field(default_factory=dict)


@dataclass
class KnowledgeGraph:
    """Upstream's graph of memories, tags, dates and entities (Reverie's own export is
    ``core.export.ExportGraph``, in Reverie's published form)."""

    nodes: list[KnowledgeNode] = field(default_factory=list)
    edges: list[KnowledgeEdge] = field(default_factory=list)

    @property
    def node_count(self) -> int:
        return len(self.nodes)

    @property
    def edge_count(self) -> int:
        return len(self.edges)

    def to_dict(self) -> dict[str, Any]:
        """Upstream's published JSON form: the fields by msgspec and the counts (``stats``)."""
        return {**to_builtins(self), "stats": {"node_count": self.node_count, "edge_count": self.edge_count}}

    def to_json(self, indent: int = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)


@dataclass(frozen=True)
class _Item:
    """One memory as exported: the vault's record, its review summary and the vault's verdict."""

    record: MemoryRecord
    review: dict[str, Any]
    verified: bool

    @property
    def tags(self) -> list[str]:
        return list(self.record.metadata.tags)


class VaultExporter:
    """Exports of an SDK ``MemoryVault``'s memories in upstream's AI-ready formats, made from the vault's
    records and its verdicts (no state but the vault)."""

    def __init__(self, vault: MemoryVault) -> None:
        self._vault = vault

    def _items(self, tags: list[str] | None) -> list[_Item]:
        wanted = set(tags or ())
        items = []
        for _view, record, verified in self._vault._export_records():
            if wanted and not wanted & set(record.metadata.tags):
                continue
            review = record.metadata.custom.get("review")
            items.append(_Item(record, _summary(thaw(review) if review else None), verified))
        return items

    def to_jsonl(
        self,
        path: str | None = None,
        format: Literal["openai", "anthropic", "generic"] = "openai",
        system_prompt: str | None = None,
        tags: list[str] | None = None,
    ) -> list[dict[str, Any]]:
        """Fine-tuning examples (``openai``/``anthropic``: schema-clean) or ``generic`` records with the
        review summary and verification; written one per line to ``path`` (0600) when given."""
        if format not in FORMATS:
            raise ValueError(f"format: must be one of {', '.join(FORMATS)}, got {format!r}")
        system = system_prompt or DEFAULT_SYSTEM_PROMPT
        examples: list[dict[str, Any]] = []
        for item in self._items(tags):
            question = _question(item.tags)
            if format == "openai":
                examples.append({"messages": [
                    {"role": "system", "content": system},
                    {"role": "user", "content": question},
                    {"role": "assistant", "content": item.record.content},
                ]})
            elif format == "anthropic":
                examples.append({
                    "messages": [
                        {"role": "user", "content": question},
                        {"role": "assistant", "content": item.record.content},
                    ],
                    "system": system,
                })
            else:
                examples.append({
                    "input": question,
                    "output": item.record.content,
                    "tags": item.tags,
                    "created_at": item.record.created_at,
                    "hash": item.record.content_sha256,
                    "review": item.review,
                    "verified": item.verified,
                })
        if path:
            text = "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in examples)
            atomic_write_text(Path(os.fspath(path)), text)
        return examples

    def to_rag_chunks(self, tags: list[str] | None = None, include_hash: bool = True) -> list[RAGChunk]:
        """One chunk per memory, oldest first; ``metadata["review"]`` is the review summary."""
        return [
            RAGChunk(
                id=item.record.memory_id,
                content=item.record.content,
                tags=item.tags,
                created_at=item.record.created_at,
                hash=item.record.content_sha256 if include_hash else "",
                metadata={
                    "source": "diaryvault",
                    "store": "reverie",
                    "verified": item.verified,
                    "encrypted_at_rest": True,
                    "review": item.review,
                },
            )
            for item in self._items(tags)
        ]

    def to_knowledge_graph(self, tags: list[str] | None = None, extract_entities: bool = True) -> KnowledgeGraph:
        """Memory, tag and date nodes (and entity, person and location nodes), with edges between
        them; memory nodes carry the review summary and verification."""
        graph = KnowledgeGraph()
        known: set[str] = set()

        def node(node_id: str, label: str, node_type: str) -> str:
            if node_id not in known:
                known.add(node_id)
                graph.nodes.append(KnowledgeNode(node_id, label, node_type))
            return node_id

        for item in self._items(tags):
            record = item.record
            label = record.content if len(record.content) <= 60 else record.content[:60] + "..."
            graph.nodes.append(KnowledgeNode(record.memory_id, label, "memory", {
                "full_content": record.content,
                "hash": record.content_sha256,
                "created_at": record.created_at,
                "review": item.review,
                "verified": item.verified,
            }))
            known.add(record.memory_id)
            for tag in item.tags:
                graph.edges.append(KnowledgeEdge(record.memory_id, node(f"tag_{tag}", tag, "tag"), "tagged_with"))
            day = record.created_at[:10]
            graph.edges.append(KnowledgeEdge(record.memory_id, node(f"date_{day}", day, "date"), "created_on"))
            for person in record.metadata.people:
                target = node(f"person_{_slug(person)}", person, "person")
                graph.edges.append(KnowledgeEdge(record.memory_id, target, "mentions"))
            if record.metadata.location:
                location = record.metadata.location
                target = node(f"location_{_slug(location)}", location, "location")
                graph.edges.append(KnowledgeEdge(record.memory_id, target, "located_at"))
            if extract_entities:
                for entity in _entities(record.content):
                    target = node(f"entity_{_slug(entity)}", entity, "entity")
                    graph.edges.append(KnowledgeEdge(record.memory_id, target, "mentions"))
        return graph

    def to_conversation_history(self, tags: list[str] | None = None) -> list[dict[str, Any]]:
        """User turns for a model's context, each saying when, which tags, and whether reviewed."""
        return [
            {
                "role": "user",
                "content": f"[{item.record.created_at[:10]}] [{', '.join(item.tags)}] {item.record.content}",
                "metadata": {
                    "memory_id": item.record.memory_id,
                    "hash": item.record.content_sha256,
                    "verified": item.verified,
                    "review": item.review,
                },
            }
            for item in self._items(tags)
        ]

    def summary(self, tags: list[str] | None = None) -> dict[str, Any]:
        """Counts of what an export would hold (reviewed and unreviewed memories among them), as the
        plain dict upstream's API returns."""
        items = self._items(tags)
        days = sorted({i.record.created_at[:10] for i in items})
        characters = sum(len(i.record.content) for i in items)
        reviewed = sum(1 for i in items if i.review.get("reviewed"))
        return {
            "total_memories": len(items),
            "reviewed_memories": reviewed,
            "unreviewed_memories": len(items) - reviewed,
            "unique_tags": sorted({t for i in items for t in i.tags}),
            "total_characters": characters,
            "date_range": {"earliest": days[0] if days else None, "latest": days[-1] if days else None},
            "avg_memory_length": characters // max(len(items), 1),
            "export_formats": ["openai_jsonl", "anthropic_jsonl", "generic_jsonl", "rag_chunks",
                               "knowledge_graph", "conversation_history"],
        }


def _summary(review: dict[str, Any] | None) -> dict[str, Any]:
    """The compact review summary of the upstream exports, published in their JSON (Reverie's own exports
    add the rejected and edited counts): ``{"reviewed": False}`` without review."""
    full = review_summary(review)
    if not full["reviewed"]:
        return {"reviewed": False}
    keys = ("reviewed", "approved_by", "approved_at", "suggestion_count", "accepted_count", "confirmed_fields")
    return {key: full[key] for key in keys}


def _question(tags: list[str]) -> str:
    for tag, question in _QUESTIONS:
        if tag in tags:
            return question
    return "What do you remember about me?"


def _slug(text: str) -> str:
    return "_".join(text.casefold().split())


def _entities(content: str) -> list[str]:
    """Runs of capitalised alphabetic words, the first of more than two letters and not the text's
    first word (a cheap stand-in for named-entity recognition); case-insensitively unique."""
    words = content.split()
    found: dict[str, str] = {}
    i = 1
    while i < len(words):
        if words[i][0].isupper() and words[i].isalpha() and len(words[i]) > 2:
            end = i + 1
            while end < len(words) and words[end][0].isupper() and words[end].isalpha():
                end += 1
            name = " ".join(words[i:end])
            found.setdefault(name.casefold(), name)
            i = end
        else:
            i += 1
    return list(found.values())
