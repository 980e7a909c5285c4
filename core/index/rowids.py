"""Document numbers (``doc``): the FTS5 rowid and the vector key, in time order.

A time range becomes a rowid range (FTS5 on a rowid range is ~30× faster than joined to a ts column,
MEASUREMENTS.md), which needs ``ts(a) < ts(b) ⇒ doc(a) < doc(b)`` also when turns arrive out of
order. One block of 2**24 numbers per UTC day, ``doc = day_ordinal << 24 | position`` (the turn's rank
in its day): a turn that sorts before others of its day renumbers that day's block in one transaction
(vectors moved, not recomputed), other days never move, and dense positions keep FTS5's postings small.
Memories have their own band from ``MEMORY_BASE`` (one number per memory id), far above any turn, so
one FTS5 table and one vector table hold both kinds and a rowid bound selects one.
"""

from __future__ import annotations

from datetime import date

DAY_BITS = 24
DAY_SLOTS = 1 << DAY_BITS
MEMORY_BASE = 1 << 60
TURN_MAX = MEMORY_BASE - 1
MEMORY_MAX = (1 << 63) - 1


def day_block(day: str) -> int:
    """The first doc of UTC day ``YYYY-MM-DD``."""
    return date.fromisoformat(day).toordinal() << DAY_BITS


def block_range(day: str) -> tuple[int, int]:
    """[first, last] docs of a day's block (inclusive)."""
    start = day_block(day)
    return start, start + DAY_SLOTS - 1


def day_of_doc(doc: int) -> str:
    return date.fromordinal(doc >> DAY_BITS).isoformat()


def is_memory(doc: int) -> bool:
    return doc >= MEMORY_BASE
