"""The lossless conversation log: day files, importers, quarantine and day seals.

The log is the source of truth: ``logs/YYYY/MM/YYYY-MM-DD.jsonl`` (UTC day of ``ts``), one
``Turn.to_json()`` per line, append-only, never rewritten. Lines are in append order (not always
time order); a turn's ``id`` is unique within its day file.

Read API (for indexers and viewers; stable)
-------------------------------------------
``list_day_files(paths: HomePaths) -> list[DayFile]``
    Every day file, oldest first. ``DayFile(day: str "YYYY-MM-DD", path: Path, size: int,
    mtime: float, mtime_ns: int)``: compare ``size``/``mtime_ns`` with what you indexed to find
    changed days (a file only grows, so a larger ``size`` means read from your last offset).

``read_day(path: Path, offset: int = 0) -> DayReading``
    Turns from byte ``offset`` (0, or an ``offset`` this function returned) to the end.
    ``DayReading(turns: list[Turn], offset: int, bad_lines: list[BadLine], incomplete_tail: bool)``.
    ``offset`` is just past the last complete line read: keep it and pass it back to read only the
    new tail of a growing file. A malformed line is reported as ``BadLine(path, line, reason)``
    (``str()`` gives ``PATH:LINE: reason``), never raised. An unterminated last line (a write in
    progress, or a crash the next ingest repairs) is reported, sets ``incomplete_tail`` and is not
    consumed. Raises ``DayFileChanged`` only if ``offset`` no longer fits the file (it shrank or
    was replaced): read it again from 0. Takes no lock; safe beside a running ingest.

``day_record_id(day) -> "logs/YYYY/MM/YYYY-MM-DD.jsonl"`` (the id used in the ledger).

Write API
---------
``collect_sources(inputs, fmt="auto") -> SourcePlan`` (files with their formats, ``total_bytes``
for a progress bar) and ``ingest(paths, inputs, fmt, *, plan=None, keys=None, progress=None)
-> IngestReport``. ``progress(n)`` is called with input bytes read; core never draws anything.
The report separates lines this ingest quarantined (``quarantined``: exit code 2) from lines an
earlier ingest already quarantined (``already_quarantined``, ``quarantine_note`` "6 lines already
quarantined": exit code 0), and lists FIFOs and other special files it did not open (``not_read``).
Turns dated more than ``items.FUTURE_LIMIT`` after the import are quarantined.

Seals
-----
``seal_closed_days(paths, keys) -> SealReport`` and ``verify_day_seals(paths, ledger_reading)
-> list[Problem]`` (``removed``, ``modified``, ``incomplete``). See :mod:`.seals`.
"""

from __future__ import annotations

from core.conversation.detect import FORMATS, FormatError, SourcePlan, collect_sources, detect_format
from core.conversation.pipeline import IngestReport, ingest
from core.conversation.seals import SealReport, day_closed, seal_closed_days, verify_day_seals
from core.conversation.store import (
    BadLine,
    DayFile,
    DayFileChanged,
    DayReading,
    day_record_id,
    list_day_files,
    read_day,
)

__all__ = [
    "FORMATS",
    "BadLine",
    "DayFile",
    "DayFileChanged",
    "DayReading",
    "FormatError",
    "IngestReport",
    "SealReport",
    "SourcePlan",
    "collect_sources",
    "day_closed",
    "day_record_id",
    "detect_format",
    "ingest",
    "list_day_files",
    "read_day",
    "seal_closed_days",
    "verify_day_seals",
]
