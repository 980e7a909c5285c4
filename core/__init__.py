"""Reverie's core: storage, crypto, review, recall and curation. Never imports a user interface.

``from core import Memory`` (and ``MemoryVault``, ``ReviewDraft``, ``VaultExporter`` ...) gives the
DiaryVault Memory Layer API's class (``core.sdk``): those are the public names a user of that API
expects after changing ``from diaryvault_memory import ...``. Reverie's own types have names of their
own (``core.vault.records.MemoryRecord``, ``core.vault.review.StoredDraft``, ``core.vault.store.MemoryStore``,
``core.export.HomeExporter``), so a name means one class. ``core.sdk`` loads on first use, so
``import core.vault`` and the CLI's start stay cheap.
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
        import core.sdk  # lazy: the SDK opens a workbench; `import core.vault` and the CLI's start stay light

        return getattr(core.sdk, name)
    raise AttributeError(f"module 'core' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_SDK_NAMES})
