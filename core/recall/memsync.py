"""Finalized vault memories into the search index, beside the turns.

The vault is encrypted, so only a caller holding the keys can hand memories over. Only memories that
verify (their record and the ledger agree: ``MemoryStore.verified_ids``) are indexed; a tampered or
damaged record is left out (``reverie verify`` names it). Drafts are never memories and never reach
the index. The index compares each memory by id with what it holds, so a sync only rewrites (and
re-embeds) the memories that were added or changed, and drops those that left the vault.
"""

from __future__ import annotations

from datetime import UTC, datetime, time, tzinfo

from core.embed.protocol import Embedder
from core.index import MemoryDoc, MemorySync, SearchIndex
from core.turns import format_ts
from core.vault.records import MemoryRecord
from core.vault.store import MemoryStore


def memory_time(memory: MemoryRecord, zone: tzinfo) -> str:
    """When the memory happened (``occurred_at``, a date or a time; read in ``zone`` when it carries no
    offset), else when it was finalized, as a log timestamp."""
    for value in (memory.metadata.occurred_at, memory.created_at):
        if not value:
            continue
        try:
            moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            continue
        if moment.tzinfo is None:
            if len(value.strip()) <= 10:  # a date alone: that day's start in the person's zone
                moment = datetime.combine(moment.date(), time(0))
            moment = moment.replace(tzinfo=zone)
        return format_ts(moment)
    return format_ts(datetime.now(UTC))


def memory_doc(memory: MemoryRecord, zone: tzinfo) -> MemoryDoc:
    """The index's view of a memory: its original content, tags, time and review state."""
    return MemoryDoc(
        id=memory.memory_id,
        ts=memory_time(memory, zone),
        text=memory.content,
        tags=tuple(memory.metadata.tags),
        reviewed=memory.reviewed,
    )


def vault_docs(vault: MemoryStore, zone: tzinfo) -> list[MemoryDoc]:
    """Every memory of the vault that verifies, as index documents (usable as a reindex memory source)."""
    verified = vault.verified_ids()
    return [memory_doc(m, zone) for m in vault.list_memories() if m.memory_id in verified]


def sync_vault(index: SearchIndex, vault: MemoryStore, zone: tzinfo,
               embedder: Embedder | None = None) -> MemorySync:
    """Make the index's memories those of the vault. With ``embedder`` (the index's model), new and
    changed memories get their vectors now; otherwise at the next reindex."""
    return index.sync_memories(vault_docs(vault, zone), embedder)
