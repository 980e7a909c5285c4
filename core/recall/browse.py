"""The latest documents of a time range, for a query with nothing to rank by ("yesterday", "어제 뭐 했지").

``SearchIndex`` offers ranked searches and lookups by id but no listing of a range, so this reads the
catalog tables directly: ``turns(ts)`` and ``memories(ts)`` are indexed, and the newest rows of a
range are found without a scan. Filters the SQL cannot apply are left to the gate, with a wider
fetch so a filtered listing still fills.
"""

from __future__ import annotations

from core.index import SearchIndex
from core.recall.pool import Gate, Pool

_WIDEN = 5  # rows fetched per wanted row when the gate filters more than the SQL does


def _where(gate: Gate, table: str) -> tuple[str, list[object]]:
    clauses, params = ["1"], []
    if gate.start is not None:
        clauses.append(f"{table}.ts >= ?")
        params.append(gate.start)
    if gate.end is not None:
        clauses.append(f"{table}.ts < ?")
        params.append(gate.end)
    return " AND ".join(clauses), params


def latest(index: SearchIndex, gate: Gate, limit: int) -> Pool:
    """A pool holding the newest ``limit`` turns and ``limit`` memories that pass ``gate``."""
    pool = Pool(index, gate)
    fetch = limit * _WIDEN
    if gate.filters.wants_turns:
        where, params = _where(gate, "t")
        for column, values in gate.filters.turn_fields.items():  # column names come from Filters, not input
            where += f" AND t.{column} IN ({','.join('?' * len(values))})"
            params.extend(values)
        rows = index.conn.execute(f"SELECT t.id FROM turns t WHERE {where} ORDER BY t.ts DESC, t.doc DESC LIMIT ?",
                                  [*params, fetch]).fetchall()
        turns = [t for t in index.get_turns([r[0] for r in rows]) if gate.turn_ok(t)]
        pool.add_turns(turns[:limit])
    if gate.filters.wants_memories:
        where, params = _where(gate, "m")
        rows = index.conn.execute(f"SELECT m.id FROM memories m WHERE {where} ORDER BY m.ts DESC LIMIT ?",
                                  [*params, fetch]).fetchall()
        docs = [m for m in index.get_memories([r[0] for r in rows]) if gate.memory_ok(m)]
        pool.memories.update((m.id, m) for m in docs[:limit])
    return pool
