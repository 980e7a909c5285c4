"""Finalized memories and their sealed on-disk form.

On disk a memory is a sealed envelope (``core.vault.sealed``): no plaintext content or sensitive
metadata. The ciphertext covers the whole memory (content, its SHA-256, tags, times, location,
confirmed fields, review provenance), bound to the memory id and record version; the HMAC covers
every other field.

Unlike the seed's design, the content hash is not written in the clear: a bare SHA-256 of a short
diary sentence is a guessing oracle for anyone holding a copy. It sits inside the ciphertext and is
rechecked against the decrypted content on every load.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from core.errors import RecordError
from core.frozen import FrozenDict, freeze, thaw
from core.turns import TurnError, parse_ts
from core.vault.canonical import sha256_hex
from core.vault.crypto import VaultKeys
from core.vault.review import review_summary
from core.vault.sealed import SwappedRecord, seal, unseal

MEMORY_FORMAT = "reverie.memory"


def content_sha256(content: str) -> str:
    """SHA-256 of the content exactly as written (UTF-8, no normalisation)."""
    return sha256_hex(content.encode("utf-8"))


@dataclass(frozen=True)
class MemoryMetadata:
    tags: tuple[str, ...] = ()
    occurred_at: str | None = None
    location: str | None = None
    title: str | None = None
    people: tuple[str, ...] = ()
    confirmed_fields: FrozenDict = field(default_factory=FrozenDict)  # every accepted field → value
    custom: FrozenDict = field(default_factory=FrozenDict)  # custom["review"]: the full review record

    def to_dict(self) -> dict[str, Any]:
        return {
            "tags": list(self.tags),
            "occurred_at": self.occurred_at,
            "location": self.location,
            "title": self.title,
            "people": list(self.people),
            "confirmed_fields": thaw(self.confirmed_fields),
            "custom": thaw(self.custom),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str) -> MemoryMetadata:
        try:
            return cls(
                tags=tuple(data.get("tags") or ()),
                occurred_at=data.get("occurred_at"),
                location=data.get("location"),
                title=data.get("title"),
                people=tuple(data.get("people") or ()),
                confirmed_fields=freeze(data.get("confirmed_fields") or {}, f"{where}.confirmed_fields"),
                custom=freeze(data.get("custom") or {}, f"{where}.custom"),
            )
        except (ValueError, TypeError, AttributeError) as exc:
            raise RecordError(f"{where}: metadata malformed: {exc}") from exc


@dataclass(frozen=True)
class Memory:
    memory_id: str
    content: str
    metadata: MemoryMetadata
    created_at: str  # when it was finalized (or imported)
    record_version: int = 1
    content_sha256: str = ""

    def __post_init__(self) -> None:
        digest = content_sha256(self.content)
        if not self.content_sha256:
            object.__setattr__(self, "content_sha256", digest)
        elif self.content_sha256 != digest:
            raise RecordError(f"memory {self.memory_id}: content does not match its SHA-256")

    @property
    def review(self) -> Mapping[str, Any] | None:
        review = self.metadata.custom.get("review")
        return review if isinstance(review, Mapping) else None

    @property
    def reviewed(self) -> bool:
        review = self.review
        return bool(review and review.get("approved_by") and review.get("approved_at"))

    def review_summary(self) -> dict[str, Any]:
        return review_summary(thaw(self.review) if self.review else None)

    @property
    def time(self) -> str:
        """When it happened if the person confirmed it, else when it was finalized."""
        return self.metadata.occurred_at or self.created_at

    def payload(self) -> dict[str, Any]:
        return {
            "memory_id": self.memory_id,
            "content": self.content,
            "content_sha256": self.content_sha256,
            "created_at": self.created_at,
            "metadata": self.metadata.to_dict(),
        }


def seal_memory(memory: Memory, keys: VaultKeys) -> bytes:
    """Hash → encrypt → sign: the record file's bytes."""
    return seal(MEMORY_FORMAT, memory.memory_id, memory.record_version, memory.payload(), keys)


def open_memory(data: bytes, keys: VaultKeys, where: str, expected_id: str | None = None) -> Memory:
    """Verify and decrypt a record; ``RecordError`` (``SwappedRecord``, ``SignatureMismatch``) says
    what failed. The decrypted content is rechecked against its SHA-256."""
    envelope = unseal(data, MEMORY_FORMAT, keys, where, expected_id, exact_bytes=True)
    return memory_from_payload(envelope.payload, where, envelope.record_id, envelope.record_version)


def memory_from_payload(payload: dict[str, Any], where: str, record_id: str, record_version: int) -> Memory:
    """Rebuild a memory from its decrypted payload; the content is rechecked against its SHA-256."""
    if payload.get("memory_id") != record_id:
        raise SwappedRecord(f"{where}: payload belongs to {payload.get('memory_id')!r} (swapped)")
    meta = payload.get("metadata")
    if not isinstance(meta, dict):
        raise RecordError(f"{where}: field 'metadata' malformed")
    content, created, digest = payload.get("content"), payload.get("created_at"), payload.get("content_sha256")
    if not isinstance(content, str) or not isinstance(created, str) or not isinstance(digest, str):
        raise RecordError(f"{where}: fields 'content', 'created_at' and 'content_sha256' must be strings")
    for name, value in (("created_at", created), ("metadata.occurred_at", meta.get("occurred_at"))):
        if value is None and name != "created_at":
            continue
        try:
            parse_ts(value)
        except (TurnError, TypeError) as exc:
            raise RecordError(f"{where}: field {name!r} is not an ISO-8601 time with a timezone") from exc
    return Memory(
        memory_id=record_id,
        content=content,
        metadata=MemoryMetadata.from_dict(meta, where),
        created_at=created,
        record_version=record_version,
        content_sha256=digest,
    )
