"""Derived indexes in the cache folder, rebuildable from the home with ``reverie reindex``.

``index.db`` (SQLite through apsw, WAL) holds the turn catalog, an FTS5 index with time-ordered
rowids and the vectors; ``vectors/`` holds memory-mapped snapshots of the vectors. Both hold plaintext
of the person's conversations and memories: created 0600 inside a 0700 folder, removed by ``reverie
index purge``. Public API: :class:`SearchIndex`; :class:`Reindexer` with :class:`HomeDayLogs` (Ctrl-C
while embedding raises :class:`ReindexInterrupted` carrying the :class:`ReindexReport`);
:class:`Watcher`; :class:`BusyPolicy` (past its wait, :class:`IndexBusy`); :class:`Hit`,
:class:`Filters`, :class:`MemoryDoc`; :func:`build_match`; :func:`purge`. Importing this package loads
neither numpy nor any model.
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
