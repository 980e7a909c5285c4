"""The lossless conversation log: day files, importers, quarantine and day seals.

The log is the source of truth: ``logs/YYYY/MM/YYYY-MM-DD.jsonl`` (UTC day of ``ts``), one
``Turn.to_json()`` per line, append-only, never rewritten; a turn's ``id`` is unique within its day.
Reading (:func:`list_day_files`, :func:`read_day`) takes no lock: ``read_day`` returns the offset past
the last complete line, a malformed line comes back as a ``BadLine``, and ``DayFileChanged`` means the
file shrank or was replaced. Writing (:func:`collect_sources`, :func:`ingest`) quarantines malformed
lines and turns dated too far ahead. The names below load their modules on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

# Each name is imported from its module on first use: a reader of seals or day files does not import
# every importer (Claude Code, ChatGPT, Codex …) through this package.
_HOMES = {
    "detect": ("FORMATS", "FormatError", "SourcePlan", "collect_sources", "detect_format"),
    "pipeline": ("IngestReport", "ingest"),
    "seals": ("SealReport", "day_closed", "seal_closed_days", "verify_day_seals"),
    "store": ("BadLine", "DayFile", "DayFileChanged", "DayReading", "day_record_id", "list_day_files", "read_day"),
}
_MODULE_OF = {name: module for module, names in _HOMES.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


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
