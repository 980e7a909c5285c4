"""Derived indexes in the cache folder, rebuildable from the home with ``reverie reindex``.

``index.db`` (SQLite through apsw, WAL) holds the turn catalog, an FTS5 index with time-ordered
rowids and the vectors; ``vectors/`` holds memory-mapped snapshots of the vectors. Both hold
plaintext of the person's conversations and memories: the files are created 0600 inside a 0700
folder and ``reverie index purge`` removes them.

Public API (for recall, the TUI, the CLI and the vault):

- :class:`SearchIndex` — ``open(paths)``, ``exact_search``, ``vector_search``, ``get_turns``,
  ``get_memories``, ``session_context``, ``activity``, ``upsert_memories``, ``sync_memories``,
  ``remove_memory``, ``vector_model``, ``status``.
- :class:`Reindexer` with :class:`HomeDayLogs` — ``run(full=, embed=, progress=, should_stop=)``;
  it holds its own connection (``with Reindexer(...) as r``). Ctrl-C while embedding raises
  :class:`ReindexInterrupted` (a ``KeyboardInterrupt``) carrying the :class:`ReindexReport`.
- :class:`Watcher` — keeps the index current (``reverie watch``).
- :class:`BusyPolicy` — how long a process waits while another upgrades or writes the index, and
  the ``notice`` that says so; past it, :class:`IndexBusy` (a one-line ``ReverieError``).
- :class:`Hit`, :class:`Filters`, :class:`MemoryDoc`; :func:`build_match`; :func:`purge`.

Design in one paragraph each module: connection (why apsw), migrations, rowids (time-ordered docs,
day blocks), tokenize (CJK bigrams, safe MATCH), catalog, exact, memories, vectors (int8 in SQLite),
snapshot + vecview (memory-mapped vectors plus what changed since), vecsearch (bound, then score),
reindex, watch. Importing this package loads neither numpy nor any model.
"""

from __future__ import annotations

from core.index.connection import BusyPolicy, IndexBusy
from core.index.logsource import DayLogSource, HomeDayLogs
from core.index.memories import MemorySync
from core.index.model import Filters, Hit, MemoryDoc
from core.index.reindex import Reindexer, ReindexInterrupted, ReindexReport
from core.index.searchindex import IndexStatus, SearchIndex, purge
from core.index.tokenize import build_match, index_text
from core.index.vectors import VectorModel, VectorModelMismatch
from core.index.watch import Watcher

__all__ = [
    "BusyPolicy",
    "DayLogSource",
    "Filters",
    "Hit",
    "HomeDayLogs",
    "IndexBusy",
    "IndexStatus",
    "MemoryDoc",
    "MemorySync",
    "ReindexInterrupted",
    "ReindexReport",
    "Reindexer",
    "SearchIndex",
    "VectorModel",
    "VectorModelMismatch",
    "Watcher",
    "build_match",
    "index_text",
    "purge",
]
