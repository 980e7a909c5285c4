"""Reverie's core: storage, crypto, review, recall and curation. Never imports a user interface.

The DiaryVault Memory Layer API (``core.sdk``) is re-exported lazily: ``from core import MemoryVault,
ContextRequest`` loads ``core.sdk`` on first use, so ``import core.vault`` and the CLI's start stay cheap.
"""

from __future__ import annotations

from typing import Any

_SDK_NAMES = frozenset({
    "AnchorBackend", "ArweaveAnchor", "ContextRequest", "ContextResponse", "DecisionOutcome", "EthereumAnchor",
    "KnowledgeEdge", "KnowledgeGraph", "KnowledgeNode", "LocalAnchor", "Memory", "MemoryAnchor", "MemoryCrypto",
    "MemoryMetadata", "MemoryStatus", "MemoryVault", "RAGChunk", "ReviewDecision", "ReviewDraft", "ReviewState",
    "Revision", "SharedMemory", "Suggestion", "VaultAnchor", "VaultExporter", "WrongKeyError",
})


def __getattr__(name: str) -> Any:
    if name in _SDK_NAMES:
        import core.sdk

        return getattr(core.sdk, name)
    raise AttributeError(f"module 'core' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_SDK_NAMES})
