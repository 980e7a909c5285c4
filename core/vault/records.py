"""Finalized memories and their sealed on-disk form.

On disk a memory is a sealed envelope (``core.vault.sealed``): no plaintext content or sensitive
metadata. The ciphertext covers the whole memory (content, its SHA-256, tags, times, location,
confirmed fields, review provenance), bound to the memory id and record version; the HMAC covers
every other field.

Unlike a design that signs a content hash kept beside the ciphertext, the content hash is not
written in the clear: a bare SHA-256 of a short diary sentence is a guessing oracle for anyone
holding a copy. It sits inside the ciphertext and is rechecked against the decrypted content on
every load.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec

from core.errors import RecordError
from core.frozen import FrozenDict, adopt_decoded, freeze, thaw
from core.turns import TurnError, parse_ts
from core.typed import to_builtins
from core.vault.canonical import sha256_hex
from core.vault.crypto import VaultKeys
from core.vault.review import StoredDraft, draft_from_json, review_summary
from core.vault.sealed import SwappedRecord, Unsealed, decode_payload, one_line, seal, unseal_plaintext

MEMORY_FORMAT = "reverie.memory"
DRAFT_FORMAT = "reverie.draft"


# A memory id: ``mem_`` then 1 to 96 ASCII letters, digits, ``_`` or ``-`` (finalize makes ``mem_`` + 24
# hex digits, add and import ``mem_`` + 16, the SDK's import ``mem_`` + a UUID). Nothing else can name a
# memory: no dot, path separator, control character or NUL reaches a file name, a ledger line or a terminal.
MEMORY_ID = re.compile(r"mem_[A-Za-z0-9][A-Za-z0-9_-]{0,95}")


def is_memory_id(value: object) -> bool:
    return isinstance(value, str) and MEMORY_ID.fullmatch(value) is not None


def check_memory_id(value: object, where: str) -> str:
    """``value`` if it is a memory id (:data:`MEMORY_ID`), else ``RecordError`` naming ``where``."""
    if not is_memory_id(value):
        shown = repr(value)
        if isinstance(value, str) and len(value) > 40:
            shown = f"{value[:40]!r}… ({len(value):,} characters)"
        raise RecordError(f"{where}: {shown} is not a memory id (mem_ then 1 to 96 letters, digits, _ or -)")
    return str(value)


def content_sha256(content: str) -> str:
    """SHA-256 of the content exactly as written (UTF-8, no normalisation)."""
    return sha256_hex(content.encode("utf-8"))


class _MetadataData(msgspec.Struct, forbid_unknown_fields=True):
    """The stored shape of :class:`RecordMetadata` (msgspec checks types and unknown keys)."""

    tags: tuple[str, ...] | None = ()
    occurred_at: str | None = None
    location: str | None = None
    title: str | None = None
    people: tuple[str, ...] | None = ()
    confirmed_fields: dict[str, Any] | None = None
    custom: dict[str, Any] | None = None

    def build(self, where: str, *, decoded: bool = False) -> RecordMetadata:
        """The metadata; ``decoded``: this came straight from msgspec's JSON decoder, whose output is
        a JSON value by construction, so the nested values are adopted (``adopt_decoded``), not walked."""
        if decoded:
            return RecordMetadata(tags=self.tags or (), occurred_at=self.occurred_at, location=self.location,
                                  title=self.title, people=self.people or (),
                                  confirmed_fields=adopt_decoded(self.confirmed_fields or {}),
                                  custom=adopt_decoded(self.custom or {}))
        try:
            return RecordMetadata(
                tags=self.tags or (),
                occurred_at=self.occurred_at,
                location=self.location,
                title=self.title,
                people=self.people or (),
                confirmed_fields=freeze(self.confirmed_fields or {}, f"{where}.confirmed_fields"),
                custom=freeze(self.custom or {}, f"{where}.custom"),
            )
        except ValueError as exc:
            raise RecordError(f"{where}: metadata malformed: {one_line(str(exc))}") from exc


class _MemoryPayload(msgspec.Struct):
    """The decrypted payload of a memory record, as :meth:`MemoryRecord.payload` writes it."""

    content: str
    content_sha256: str
    created_at: str
    metadata: _MetadataData
    memory_id: Any = None  # compared with the record's id: a swap is named as a swap


@dataclass(frozen=True)
class RecordMetadata:
    tags: tuple[str, ...] = ()
    occurred_at: str | None = None
    location: str | None = None
    title: str | None = None
    people: tuple[str, ...] = ()
    confirmed_fields: FrozenDict = field(default_factory=FrozenDict)  # every accepted field → value
    custom: FrozenDict = field(default_factory=FrozenDict)  # custom["review"]: the full review record

    def to_dict(self) -> dict[str, Any]:
        """The stored form by msgspec: the fields in order, frozen values as plain JSON values (also what
        ``reverie memory show --json`` publishes)."""
        return to_builtins(self)


@dataclass(frozen=True)
class MemoryRecord:
    memory_id: str
    content: str
    metadata: RecordMetadata
    created_at: str  # when it was finalized (or imported)
    record_version: int = 1
    content_sha256: str = ""

    def __post_init__(self) -> None:
        check_memory_id(self.memory_id, "memory_id")
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
        """The compact review summary exports publish (:func:`core.vault.review.review_summary`)."""
        return review_summary(thaw(self.review) if self.review else None)

    @property
    def time(self) -> str:
        """When it happened if the person confirmed it, else when it was finalized."""
        return self.metadata.occurred_at or self.created_at

    def payload(self) -> dict[str, Any]:
        """What a record seals: every field but the record version (the envelope carries it), by msgspec.
        Sealing writes it as canonical JSON (sorted keys), so the signed bytes do not follow this order."""
        return to_builtins(self, omit=("record_version",))


def seal_memory(memory: MemoryRecord, keys: VaultKeys) -> bytes:
    """Hash → encrypt → sign: the record file's bytes."""
    return seal(MEMORY_FORMAT, memory.memory_id, memory.record_version, memory.payload(), keys)


def open_memory(data: bytes, keys: VaultKeys, where: str, expected_id: str | None = None) -> MemoryRecord:
    """Verify and decrypt a record; ``RecordError`` (``SwappedRecord``, ``SignatureMismatch``) says
    what failed. The payload is decoded by msgspec straight into its stored shape (types and unknown
    keys checked in C) and the content is rechecked against its SHA-256."""
    return open_sealed_memory(data, keys, where, expected_id)[0]


def open_sealed_memory(data: bytes, keys: VaultKeys, where: str,
                       expected_id: str | None = None) -> tuple[MemoryRecord, Unsealed]:
    """:func:`open_memory`, and the record's sealed parts (nonce, ciphertext, HMAC) as the file holds them."""
    unsealed = unseal_plaintext(data, MEMORY_FORMAT, keys, where, expected_id, exact_bytes=True)
    record_id, version, plaintext = unsealed.record_id, unsealed.record_version, unsealed.plaintext
    shape = decode_payload(plaintext, _MemoryPayload, where)
    return _memory(shape, where, record_id, version, decoded=True), unsealed


def open_draft(data: bytes, keys: VaultKeys, where: str, expected_id: str | None = None) -> StoredDraft:
    """Verify and decrypt a draft record; its payload is decoded by msgspec straight into the draft's
    stored shape, then every invariant of the review workflow is checked (``ReviewError``)."""
    unsealed = unseal_plaintext(data, DRAFT_FORMAT, keys, where, expected_id, exact_bytes=True)
    return draft_from_json(unsealed.plaintext, f"{where}: draft")


def memory_from_payload(payload: dict[str, Any], where: str, record_id: str, record_version: int) -> MemoryRecord:
    """Rebuild a memory from its decrypted payload; the content is rechecked against its SHA-256."""
    if not isinstance(payload, dict):
        raise RecordError(f"{where}: payload is not an object")
    check_memory_id(record_id, f"{where}: memory_id")
    if payload.get("memory_id") != record_id:
        raise SwappedRecord(f"{where}: payload belongs to {payload.get('memory_id')!r} (swapped)")
    if not isinstance(payload.get("metadata"), dict):
        raise RecordError(f"{where}: field 'metadata' malformed")
    try:
        shape = msgspec.convert(payload, _MemoryPayload)
    except msgspec.ValidationError as exc:
        raise RecordError(f"{where}: payload malformed: {one_line(str(exc))}") from exc
    return _memory(shape, where, record_id, record_version)


def new_record(memory_id: str, content: str, metadata: RecordMetadata, created_at: str, where: str) -> MemoryRecord:
    """A new memory record from its parts, checked as a loaded one is (the id, each field's type, the
    times); ``RecordError`` naming ``where`` and the field."""
    check_memory_id(memory_id, f"{where}: memory_id")
    if not isinstance(content, str):
        raise RecordError(f"{where}: field 'content' must be a string")
    try:
        msgspec.convert(metadata, _MetadataData, from_attributes=True)
    except msgspec.ValidationError as exc:
        raise RecordError(f"{where}: metadata malformed: {one_line(str(exc))}") from exc
    _check_times(where, created_at, metadata.occurred_at)
    return MemoryRecord(memory_id=memory_id, content=content, metadata=metadata, created_at=created_at)


def _check_times(where: str, created_at: object, occurred_at: object) -> None:
    """``RecordError`` naming ``where`` and the field unless each time (``occurred_at`` may be None) is
    ISO-8601 with a timezone."""
    for name, value in (("created_at", created_at), ("metadata.occurred_at", occurred_at)):
        if value is None and name != "created_at":
            continue
        try:
            parse_ts(value)  # type: ignore[arg-type]
        except (TurnError, TypeError) as exc:
            raise RecordError(f"{where}: field {name!r} is not an ISO-8601 time with a timezone") from exc


def _memory(shape: _MemoryPayload, where: str, record_id: str, record_version: int, *,
            decoded: bool = False) -> MemoryRecord:
    if shape.memory_id != record_id:
        raise SwappedRecord(f"{where}: payload belongs to {shape.memory_id!r} (swapped)")
    _check_times(where, shape.created_at, shape.metadata.occurred_at)
    return MemoryRecord(
        memory_id=record_id,
        content=shape.content,
        metadata=shape.metadata.build(where, decoded=decoded),
        created_at=shape.created_at,
        record_version=record_version,
        content_sha256=shape.content_sha256,
    )
