"""The types the workbench's services take and return, for an interface to name: what a search takes
and answers, what review and curation return. Each name loads its module on first use, so naming
one here costs no more than importing it from its home."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from core.curate.model import TIERS, Candidate
    from core.index.model import Filters
    from core.mirror.search import MirrorAnswer
    from core.mirror.sync import MirrorReport
    from core.recall.model import RecallItem, RecallResult
    from core.vault.review import LIST_FIELDS, TEXT_FIELDS, Revision, StoredDraft, Suggestion

_HOMES = {
    "Filters": "core.index.model",  # what a search takes
    "RecallItem": "core.recall.model", "RecallResult": "core.recall.model",  # what a search answers
    "StoredDraft": "core.vault.review", "Suggestion": "core.vault.review", "Revision": "core.vault.review",
    "LIST_FIELDS": "core.vault.review", "TEXT_FIELDS": "core.vault.review",  # a draft's field kinds
    "Candidate": "core.curate.model", "TIERS": "core.curate.model",  # what a curation scan returns
    "MirrorReport": "core.mirror.sync", "MirrorAnswer": "core.mirror.search",  # what the mirror returns
}


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module 'core.workbench.types' has no attribute {name!r}")
    return getattr(importlib.import_module(_HOMES[name]), name)


__all__ = ["LIST_FIELDS", "TEXT_FIELDS", "TIERS", "Candidate", "Filters", "MirrorAnswer", "MirrorReport", "RecallItem",
           "RecallResult",
           "Revision", "StoredDraft", "Suggestion"]
