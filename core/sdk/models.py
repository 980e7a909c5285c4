"""The SDK's memory model: ``Memory``, ``MemoryStatus``, ``MemoryMetadata`` and ``MemoryAnchor``.

These are the mutable view objects of the DiaryVault Memory Layer API, with upstream's fields. A
``Memory`` handed out by :class:`core.sdk.vault.MemoryVault` is a *view* built from the vault's
sealed record (``core.vault.records.MemoryRecord``): its plaintext lives only in this Python object.
Changing a view (its content, hash, signature or tags) does not change the record: the next
``vault.verify(memory)`` reports the difference.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from core import clock
from core.typed import convert_as_python, to_builtins

DVMEM_VERSION = "1.0"


class MemoryStatus(StrEnum):
    """Where a memory is in its lifecycle (``status.value`` is the plain string)."""

    CREATED = "created"
    HASHED = "hashed"
    ENCRYPTED = "encrypted"
    SIGNED = "signed"
    ANCHORED = "anchored"
    VERIFIED = "verified"


@dataclass
class MemoryMetadata:
    """Upstream's metadata of a view, derived from the record's (``source``, ``ai_enriched`` and ``mood``
    from its review provenance and confirmed fields). ``custom["review"]`` holds a finalized memory's
    review record."""

    tags: list[str] = field(default_factory=list)
    location: str | None = None
    mood: str | None = None
    source: str = "manual"  # manual, agent, api, import
    agent_id: str | None = None
    ai_enriched: bool = False
    custom: dict[str, Any] = field(default_factory=dict)


@dataclass
class MemoryAnchor:
    """Where a memory's hash was anchored, as the backend reported it."""

    backend: str
    transaction_id: str | None = None
    block_number: int | None = None
    anchored_at: str | None = None
    url: str | None = None


@dataclass
class Memory:
    """One memory as the SDK shows it. Mutable in Python; tamper-evident in the vault. Besides what the
    record holds, it keeps the state upstream's API shows: the envelope (ciphertext, nonce, signature),
    the status, the anchors and the Merkle fields."""

    id: str = field(default_factory=lambda: str(uuid.uuid4()))
    version: str = "1.0.0"
    content: str = ""
    content_type: str = "text/plain"
    hash: str | None = None  # SHA-256 of the content (UTF-8)
    encrypted_content: bytes | None = None  # the sealed record's AES-256-GCM ciphertext
    signature: str | None = None  # the sealed record's HMAC-SHA256
    nonce: bytes | None = None
    created_at: str = field(default_factory=clock.utc_now_iso)
    updated_at: str | None = None
    status: MemoryStatus = MemoryStatus.CREATED
    metadata: MemoryMetadata = field(default_factory=MemoryMetadata)
    anchors: list[MemoryAnchor] = field(default_factory=list)
    merkle_root: str | None = None
    merkle_proof: list[str] | None = None

    @property
    def verified(self) -> bool:
        """True once ``vault.verify`` passed for this object (and nothing reset the status since)."""
        return self.status == MemoryStatus.VERIFIED

    @property
    def is_anchored(self) -> bool:
        return bool(self.anchors)

    def to_dict(self) -> dict[str, Any]:
        """Upstream's published JSON form: the fields by msgspec, bytes as hex (msgspec's own form is
        base64; the upstream documents hold hex). Includes the plaintext content: a disclosure."""
        sealed = self.encrypted_content.hex() if self.encrypted_content else None
        return {**to_builtins(self), "encrypted_content": sealed, "nonce": self.nonce.hex() if self.nonce else None}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False, default=str)

    def to_dvmem(self) -> str:
        """The DiaryVault ``.dvmem`` v1.0 document of this view (plaintext payload). For a file that
        stays encrypted, use ``MemoryVault.export_memory``, which writes Reverie's sealed ``.dvmem``."""
        document = {
            "dvmem_version": DVMEM_VERSION,
            "encoding": "utf-8",
            "payload": self.to_dict(),
            "verification": {
                "hash": self.hash,
                "signature": self.signature,
                "anchors": [to_builtins(a) for a in self.anchors],
            },
        }
        return json.dumps(document, indent=2, ensure_ascii=False, default=str)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Memory:
        """Rebuild a view from :meth:`to_dict` output by msgspec (metadata and anchors included): an
        unknown field or a wrong type is a ``TypeError`` naming it; the bytes are read from hex first."""
        values = dict(data) if isinstance(data, dict) else data
        for name in ("encrypted_content", "nonce"):
            if isinstance(values, dict) and isinstance(values.get(name), str):
                try:
                    values[name] = bytes.fromhex(values[name])
                except ValueError as exc:
                    raise ValueError(f"memory.{name}: not hex") from exc
        return convert_as_python(values, cls, "memory")

    @classmethod
    def from_dvmem(cls, dvmem_str: str) -> Memory:
        """Read a DiaryVault ``.dvmem`` v1.x document (plaintext payload). A Reverie sealed ``.dvmem``
        needs the key: ``MemoryVault.import_memory`` reads both."""
        try:
            document = json.loads(dvmem_str)
        except json.JSONDecodeError as exc:
            raise ValueError(f".dvmem: not JSON: {exc}") from exc
        if not isinstance(document, dict):
            raise ValueError(".dvmem: expected a JSON object")
        if document.get("format") == "reverie.dvmem":
            raise ValueError(".dvmem: a sealed Reverie record; import it with MemoryVault.import_memory")
        version = document.get("dvmem_version")
        if not isinstance(version, str) or not version.startswith("1."):
            raise ValueError(f".dvmem: unsupported dvmem_version {version!r}")
        payload = document.get("payload")
        if not isinstance(payload, dict):
            raise ValueError(".dvmem: field 'payload' must be an object")
        return cls.from_dict(payload)

    def __repr__(self) -> str:
        preview = self.content[:50] + "..." if len(self.content) > 50 else self.content
        digest = self.hash[:12] + "..." if self.hash else "None"
        status = MemoryStatus(self.status).value
        return f"Memory(id={self.id[:8]}..., status={status}, hash={digest}, content='{preview}')"
