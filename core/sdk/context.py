"""The agent context protocol: ``ContextRequest`` in, ``ContextResponse`` of ``SharedMemory`` out.

An agent declares the tags it wants (``scope``) and why (``purpose``); the vault owner decides what
is shared (``MemoryVault.share``). Every shared memory carries its content hash, signature and the
vault's verification result; the response carries the granted and denied scopes and the vault's
Merkle root.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from typing import Any

from core import clock
from core.typed import convert_as_python, to_builtins


def _new_id() -> str:
    return str(uuid.uuid4())


@dataclass
class ContextRequest:
    """What an agent asks for: tags (``scope``), a purpose and a maximum number of memories."""

    agent_id: str
    scope: list[str] = field(default_factory=list)
    purpose: str = ""
    max_memories: int = 10
    request_id: str = field(default_factory=_new_id)
    requested_at: str = field(default_factory=clock.utc_now_iso)

    def to_dict(self) -> dict[str, Any]:
        """The upstream's published JSON form (DiaryVault Memory Layer v0.4), by msgspec."""
        return to_builtins(self)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ContextRequest:
        """Read upstream's published form by msgspec: an unknown field or a wrong type is a ``TypeError``
        naming it."""
        return convert_as_python(data, cls, "context request")

    @classmethod
    def from_json(cls, json_str: str) -> ContextRequest:
        return cls.from_dict(json.loads(json_str))


@dataclass
class SharedMemory:
    """One memory as shared with an agent: content, tags and proof, never a key."""

    memory_id: str
    content: str
    tags: list[str]
    hash: str
    signature: str
    created_at: str
    verified: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The upstream's published JSON form (DiaryVault Memory Layer v0.4), by msgspec."""
        return to_builtins(self)


@dataclass
class ContextResponse:
    """What the vault returns: the shared memories with their proofs, and what was granted or denied.

    ``purpose`` and ``scope_requested`` repeat the request so a stored response says on its own what
    was asked, why, and what was disclosed."""

    request_id: str
    agent_id: str
    vault_merkle_root: str | None = None
    shared_memories: list[SharedMemory] = field(default_factory=list)
    scope_granted: list[str] = field(default_factory=list)
    scope_denied: list[str] = field(default_factory=list)
    responded_at: str = field(default_factory=clock.utc_now_iso)
    response_id: str = field(default_factory=_new_id)
    purpose: str = ""
    scope_requested: list[str] = field(default_factory=list)

    @property
    def memory_count(self) -> int:
        return len(self.shared_memories)

    @property
    def shared_hashes(self) -> list[str]:
        """The content hashes of the shared memories, in the order shared."""
        return [m.hash for m in self.shared_memories]

    def verify_all(self) -> bool:
        """Whether every shared memory passed the vault's verification (True when none was shared)."""
        return all(m.verified for m in self.shared_memories)

    def to_dict(self) -> dict[str, Any]:
        """The upstream's published JSON form (DiaryVault Memory Layer v0.4), by msgspec."""
        return to_builtins(self)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ContextResponse:
        """Read upstream's published form by msgspec, the shared memories included: an unknown field or
        a wrong type is a ``TypeError`` naming it."""
        return convert_as_python(data, cls, "context response")

    @classmethod
    def from_json(cls, json_str: str) -> ContextResponse:
        return cls.from_dict(json.loads(json_str))

    def __repr__(self) -> str:
        return (f"ContextResponse(memories={self.memory_count}, scope_granted={self.scope_granted}, "
                f"verified={self.verify_all()})")
