"""Exact search: FTS5 bm25, bounded to the time range's rowid range before anything is ranked."""

from __future__ import annotations

from collections.abc import Sequence

import apsw

from core.index import catalog
from core.index.memories import filter_sql
from core.index.model import Filters, Hit
from core.index.rowids import MEMORY_BASE, MEMORY_MAX, TURN_MAX


def _turn_hits(conn: apsw.Connection, match: str, lo: int, hi: int, limit: int, filters: Filters) -> list[Hit]:
    fields = filters.turn_fields
    if not fields:
        sql = (
            "SELECT t.id, t.ts, r.score FROM (SELECT rowid AS doc, bm25(fts) AS score FROM fts "
            "WHERE fts MATCH ? AND rowid BETWEEN ? AND ? ORDER BY score LIMIT ?) r "
            "JOIN turns t ON t.doc = r.doc ORDER BY r.score"
        )
        params: list[object] = [match, lo, hi, limit]
    else:
        where = " AND ".join(f"t.{column} IN ({','.join('?' * len(values))})" for column, values in fields.items())
        sql = (
            "SELECT t.id, t.ts, bm25(fts) AS score FROM fts CROSS JOIN turns t ON t.doc = fts.rowid "
            f"WHERE fts MATCH ? AND fts.rowid BETWEEN ? AND ? AND {where} ORDER BY score LIMIT ?"
        )
        params = [match, lo, hi, *(v for values in fields.values() for v in values), limit]
    return [Hit(id=i, kind="turn", ts=ts, score=-score) for i, ts, score in conn.execute(sql, params)]


def _memory_hits(
    conn: apsw.Connection, match: str, start: str | None, end: str | None, limit: int, filters: Filters
) -> list[Hit]:
    where, params = filter_sql(filters.tags, filters.exclude_tags, filters.reviewed, start, end)
    sql = (
        "SELECT m.id, m.ts, bm25(fts) AS score FROM fts CROSS JOIN memories m ON m.doc = fts.rowid "
        f"WHERE fts MATCH ? AND fts.rowid BETWEEN ? AND ? AND {where} ORDER BY score LIMIT ?"
    )
    rows = conn.execute(sql, [match, MEMORY_BASE, MEMORY_MAX, *params, limit])
    return [Hit(id=i, kind="memory", ts=ts, score=-score) for i, ts, score in rows]


def doc_frequency(conn: apsw.Connection, match: str, cap: int) -> int:
    """How many documents (turns and memories, all times) the MATCH expression finds, counted up to
    ``cap``: a word that common is common, and counting stops before it costs a scan."""
    sql = "SELECT count(*) FROM (SELECT 1 FROM fts WHERE fts MATCH ? LIMIT ?)"
    return int(conn.execute(sql, [match, cap]).fetchone()[0])


def search(
    conn: apsw.Connection,
    match: str,
    start: str | None,
    end: str | None,
    limit: int,
    filters: Filters,
    also: Sequence[int] = (),
) -> list[Hit]:
    """The best ``limit`` documents for the MATCH expression inside [start, end), best first, with the
    turns ``also`` (docs outside the range) ranked among them: each is one rowid lookup in FTS5, and
    bm25 is comparable across them (its statistics are the whole table's)."""
    hits: list[Hit] = []
    if filters.wants_turns:
        bounds = catalog.doc_range(conn, start, end) if (start or end) else (0, TURN_MAX)
        if bounds is not None:
            hits += _turn_hits(conn, match, bounds[0], bounds[1], limit, filters)
        for doc in also:
            hits += _turn_hits(conn, match, doc, doc, 1, filters)
    if filters.wants_memories and conn.execute("SELECT 1 FROM memories LIMIT 1").fetchone():
        hits += _memory_hits(conn, match, start, end, limit, filters)
    hits.sort(key=lambda hit: -hit.score)
    return hits[:limit]
