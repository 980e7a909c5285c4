"""Document numbers (``doc``): the FTS5 rowid and the vector key, in time order.

A time range becomes a rowid range through the ``turns(ts)`` index, and FTS5 restricted to a rowid
range is ~30× faster than joined to a ts column (MEASUREMENTS.md). That needs ``ts(a) < ts(b) ⇒
doc(a) < doc(b)`` for every pair of turns, also when turns arrive out of order.

Layout: one block of 2**24 numbers per UTC day, ``doc = day_ordinal << 24 | position``, the position
being the turn's rank within its day by (ts, file day, file order). A turn that sorts after every turn
of its day takes the next number; one that sorts before any renumbers that day's block (FTS5, catalog
and vector rows move in the same transaction; vectors are moved, not recomputed). Other days never
move, and the numbers are the ranks a full rebuild would give. Not ``doc = f(ts)``: FTS5 stores
rowids as varint deltas, and dense positions keep postings small (sizes: tests/bench/README.md,
"Figures the index's layout rests on").

Memories live in their own band, ``MEMORY_BASE`` and up (one number per memory id, kept across
updates), far above any turn (year 9999 is below 2**46), so one FTS5 table and one vector table hold
both kinds with shared bm25 statistics; a rowid bound on either band selects one kind.
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
