"""Reverie as a Python library: a drop-in for the DiaryVault Memory Layer v0.4.0 API.

Change ``from diaryvault_memory import ...`` to ``from core.sdk import ...`` (or ``from core import
...``) and the same calls run on Reverie's storage: sealed records, the signed ledger and the review
queue of a Reverie data home. ``docs/sdk.md`` lists every call and every difference.
"""

from core.sdk.anchors import AnchorBackend, ArweaveAnchor, EthereumAnchor, LocalAnchor, VaultAnchor
from core.sdk.context import ContextRequest, ContextResponse, SharedMemory
from core.sdk.crypto import MemoryCrypto
from core.sdk.export import KnowledgeEdge, KnowledgeGraph, KnowledgeNode, RAGChunk, VaultExporter
from core.sdk.models import Memory, MemoryAnchor, MemoryMetadata, MemoryStatus
from core.sdk.review import DecisionOutcome, ReviewDecision, ReviewDraft, ReviewState, Revision, Suggestion
from core.sdk.vault import MemoryVault, WrongKeyError

__version__ = "0.4.0"  # the DiaryVault Memory Layer API version this module follows

__all__ = [
    "AnchorBackend",
    "ArweaveAnchor",
    "ContextRequest",
    "ContextResponse",
    "DecisionOutcome",
    "EthereumAnchor",
    "KnowledgeEdge",
    "KnowledgeGraph",
    "KnowledgeNode",
    "LocalAnchor",
    "Memory",
    "MemoryAnchor",
    "MemoryCrypto",
    "MemoryMetadata",
    "MemoryStatus",
    "MemoryVault",
    "RAGChunk",
    "ReviewDecision",
    "ReviewDraft",
    "ReviewState",
    "Revision",
    "SharedMemory",
    "Suggestion",
    "VaultAnchor",
    "VaultExporter",
    "WrongKeyError",
]
