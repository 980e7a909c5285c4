"""The application layer: one :class:`Workbench` per process, opened on a data home, offering each
use case once. Interfaces adapt it; they never reach storage by themselves.

The workbench owns the paths, settings, keys, vault, index, recaller and model; ``search``,
``context``, ``verify`` and ``mark`` are its own methods, and the other use cases are small services
hung off it: ``access`` (the vault, passphrase, recovery key), ``recall`` (search, context, sharing
checks), ``review`` (capture, suggestions, decisions, finalize, .dvmem), ``log`` (ingest, follow,
seal, reindex, sessions), ``topics``, ``curation`` (``curation.views`` for the TUI), ``backups``,
``mirror`` and ``remote``. What an interface names besides the services comes from ``types`` (result
types), ``when`` (the clock) and ``local`` (its own files); the layers are the import-linter
contracts in ``pyproject.toml``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from core.workbench.capture import CaptureOutcome
    from core.workbench.freshness import Freshness, LogLag
    from core.workbench.home import Workbench
    from core.workbench.ingest import IngestOutcome
    from core.workbench.search import SEARCH_MODES, SearchAnswer

# Importing the package is cheap (the CLI imports it at start-up): each name loads its module on use.
_HOMES = {"CaptureOutcome": "capture", "Freshness": "freshness", "LogLag": "freshness", "Workbench": "home",
          "IngestOutcome": "ingest", "SEARCH_MODES": "search", "SearchAnswer": "search"}


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module 'core.workbench' has no attribute {name!r}")
    return getattr(importlib.import_module(f"core.workbench.{_HOMES[name]}"), name)


__all__ = ["SEARCH_MODES", "CaptureOutcome", "Freshness", "IngestOutcome", "LogLag", "SearchAnswer", "Workbench"]
