"""The application layer: one :class:`Workbench` per process, opened on a data home, offering each
use case once. Interfaces adapt it; they never reach storage by themselves.

The workbench owns the paths, settings, keys, vault, index, recaller and model, and answers search,
context, verify and mark itself; the other use cases are small services hung off it:
``access`` (create the vault, passphrase, recovery key), ``review`` (capture, suggestions,
decisions, finalize, drafts and memories, .dvmem), ``log`` (ingest, follow, seal, reindex, sessions),
``topics`` (markers) and ``curation`` (scan, move, restore, calibrate; ``curation.views`` for the TUI).

Layers, outermost first (checked by the import-linter contracts in ``pyproject.toml``):
``tui_app`` (TUI, CLI, MCP, REST, serve) → ``core.assist`` (the assistant surface, a client of the
workbench) → ``core.workbench`` → the subsystems (``core.recall``, ``core.curate``, ``core.sharing``,
``core.conversation``, ``core.index``, ``core.vault``, ``core.timeparse``, ``core.embed``…) → storage
helpers (``core.paths``, ``core.fsutil``, ``core.config``, ``core.errors``…). ``tui_app`` may import
from core only this package, ``core.assist``, the errors, text safety, the home's paths, the log's
turns and frozen values: the result types come from ``core.workbench.types``, the clock from
``core.workbench.when``, file and loopback helpers from ``core.workbench.local``.
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
