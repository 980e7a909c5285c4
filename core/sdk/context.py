"""The agent context protocol: ``ContextRequest`` in, ``ContextResponse`` of ``SharedMemory`` out.

An agent declares the tags it wants (``scope``) and why (``purpose``); the vault owner decides what
is shared (``MemoryVault.share``). Every shared memory carries its content hash, signature and the
vault's verification result; the response carries the granted and denied scopes and the vault's
Merkle root.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import ClassVar

from core import clock
from core.sdk.common import Published, PublishedDocument


def _new_id() -> str:
    return str(uuid.uuid4())


@dataclass
class ContextRequest(PublishedDocument):
    """What an agent asks for: tags (``scope``), a purpose and a maximum number of memories."""

    _what: ClassVar[str] = "context request"

    agent_id: str
    scope: list[str] = field(default_factory=list)
    purpose: str = ""
    max_memories: int = 10
    request_id: str = field(default_factory=_new_id)
    requested_at: str = field(default_factory=clock.utc_now_iso)


@dataclass
class SharedMemory(Published):
    """One memory as shared with an agent: content, tags and proof, never a key."""

    memory_id: str
    content: str
    tags: list[str]
    hash: str
    signature: str
    created_at: str
    verified: bool = False


@dataclass
class ContextResponse(PublishedDocument):
    """What the vault returns: the shared memories with their proofs, and what was granted or denied.

    ``purpose`` and ``scope_requested`` repeat the request so a stored response says on its own what
    was asked, why, and what was disclosed. Read back with the shared memories included."""

    _what: ClassVar[str] = "context response"
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

    def __repr__(self) -> str:
        return (f"ContextResponse(memories={self.memory_count}, scope_granted={self.scope_granted}, "
                f"verified={self.verify_all()})")
