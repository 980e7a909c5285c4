"""Document numbers (``doc``): the FTS5 rowid and the vector key, in time order.

A time range becomes a rowid range through the ``turns(ts)`` index (two lookups, ~0.01 ms), and FTS5
restricted to a rowid range is ~30× faster than FTS5 joined to a ts column (MEASUREMENTS.md). That
needs ``ts(a) < ts(b) ⇒ doc(a) < doc(b)`` for every pair of turns, also when turns arrive out of order
(a late import of an old day, lines appended in import order rather than time order).

Layout: one block of 2**24 numbers per UTC day, ``doc = day_ordinal << 24 | position``, the position
being the turn's rank within its day by (ts, file day, file order). A turn that sorts after every turn
already in its day takes the next number (the common case: a day growing at its end). One that sorts
before any of them renumbers that day's block: its rows move in FTS5, the catalog and the vector
tables (vectors are moved, not recomputed), in the same transaction, a few milliseconds for a day of
hundreds of turns. Other days never move. Numbers are the ranks a full rebuild would give, so a
rebuilt index has the same docs.

Why not ``doc = f(ts)`` with gaps (no renumbering at all)? FTS5 stores each posting's rowid as a
varint delta: dense positions cost 1–2 bytes, microsecond-derived rowids 6–7 bytes per posting. The
block layout keeps deltas small inside a day and pays ~4 bytes once per day per term. Measured on
the same 1M turns (tests/bench/README.md): FTS5 54 MB with dense rowids, 65 MB with day blocks,
119 MB with microsecond-derived rowids.

Memories live in their own band, ``MEMORY_BASE`` and up (one number per memory id, kept across
updates), far above any turn (year 9999 is below 2**46), so one FTS5 table and one vector table hold
both kinds and bm25 statistics are shared; a rowid bound on either band selects one kind.
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
