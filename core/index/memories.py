"""Finalized vault memories in the index: their own doc band, the same FTS5 table and vector table.

The vault is encrypted, so the index cannot read it by itself: whoever holds the keys hands memories
over (:func:`upsert`, :func:`remove`, or :func:`sync` with the complete set). A memory whose text
changes loses its vector until the next embedding pass (or at once, when an embedder is given to
``SearchIndex.upsert_memories``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import apsw

from core.index import vectors
from core.index.model import MemoryDoc
from core.index.rowids import MEMORY_BASE
from core.index.tokenize import index_text


@dataclass
class MemorySync:
    added: int = 0
    updated: int = 0
    removed: int = 0
    unchanged: int = 0


def _row(conn: apsw.Connection, memory_id: str) -> tuple[int, MemoryDoc] | None:
    row = conn.execute("SELECT doc, id, ts, text, tags, reviewed FROM memories WHERE id = ?", (memory_id,)).fetchone()
    if row is None:
        return None
    doc, mid, ts, text, tags, reviewed = row
    return doc, MemoryDoc(id=mid, ts=ts, text=text, tags=tuple(json.loads(tags)), reviewed=bool(reviewed))


def _next_doc(conn: apsw.Connection) -> int:
    (top,) = conn.execute("SELECT max(doc) FROM memories").fetchone()
    return MEMORY_BASE if top is None else top + 1


def upsert(conn: apsw.Connection, docs: Iterable[MemoryDoc]) -> tuple[MemorySync, list[int]]:
    """Add or update memories; returns the counts and the docs whose text needs a (new) vector."""
    result = MemorySync()
    to_embed: list[int] = []
    for memory in docs:
        existing = _row(conn, memory.id)
        if existing is not None and existing[1] == memory:
            result.unchanged += 1
            continue
        tags_json = json.dumps(list(memory.tags), ensure_ascii=False)
        if existing is None:
            doc = _next_doc(conn)
            conn.execute(
                "INSERT INTO memories(doc, id, ts, text, tags, reviewed) VALUES (?, ?, ?, ?, ?, ?)",
                (doc, memory.id, memory.ts, memory.text, tags_json, int(memory.reviewed)),
            )
            result.added += 1
            to_embed.append(doc)
        else:
            doc, old = existing
            conn.execute(
                "UPDATE memories SET ts = ?, text = ?, tags = ?, reviewed = ? WHERE doc = ?",
                (memory.ts, memory.text, tags_json, int(memory.reviewed), doc),
            )
            conn.execute("DELETE FROM memory_tags WHERE doc = ?", (doc,))
            if old.text != memory.text:
                conn.execute("DELETE FROM fts WHERE rowid = ?", (doc,))
                vectors.remove(conn, [doc])
                to_embed.append(doc)
            result.updated += 1
        conn.executemany("INSERT INTO memory_tags(tag, doc) VALUES (?, ?)", ((tag, doc) for tag in memory.tags))
        if existing is None or existing[1].text != memory.text:
            conn.execute("INSERT INTO fts(rowid, body) VALUES (?, ?)", (doc, index_text(memory.text)))
    return result, to_embed


def remove(conn: apsw.Connection, memory_id: str) -> bool:
    existing = _row(conn, memory_id)
    if existing is None:
        return False
    doc = existing[0]
    conn.execute("DELETE FROM fts WHERE rowid = ?", (doc,))
    vectors.remove(conn, [doc])
    conn.execute("DELETE FROM memory_tags WHERE doc = ?", (doc,))
    conn.execute("DELETE FROM memories WHERE doc = ?", (doc,))
    return True


def sync(conn: apsw.Connection, docs: Sequence[MemoryDoc]) -> tuple[MemorySync, list[int]]:
    """Make the indexed memories exactly ``docs``: upsert them, remove every other one."""
    result, to_embed = upsert(conn, docs)
    wanted = {memory.id for memory in docs}
    for (memory_id,) in conn.execute("SELECT id FROM memories").fetchall():
        if memory_id not in wanted and remove(conn, memory_id):
            result.removed += 1
    return result, to_embed


def get(conn: apsw.Connection, ids: Sequence[str]) -> list[MemoryDoc]:
    """The indexed memories with these ids, in the order asked."""
    found = {memory_id: row[1] for memory_id in dict.fromkeys(ids) if (row := _row(conn, memory_id)) is not None}
    return [found[memory_id] for memory_id in ids if memory_id in found]


def by_docs(conn: apsw.Connection, docs: Sequence[int]) -> dict[int, tuple[str, str]]:
    """doc → (id, ts) for memory docs."""
    out: dict[int, tuple[str, str]] = {}
    for start in range(0, len(docs), 500):
        chunk = [int(doc) for doc in docs[start : start + 500]]
        sql = f"SELECT doc, id, ts FROM memories WHERE doc IN ({','.join('?' * len(chunk))})"
        out.update({doc: (mid, ts) for doc, mid, ts in conn.execute(sql, chunk)})
    return out


def filter_sql(tags: Sequence[str], exclude_tags: Sequence[str], reviewed: bool | None,
               start: str | None = None, end: str | None = None) -> tuple[str, list[object]]:
    """A WHERE fragment over ``memories m`` for the memory filters and the time range [start, end),
    and its parameters."""
    clauses: list[str] = []
    params: list[object] = []
    if start is not None:
        clauses.append("m.ts >= ?")
        params.append(start)
    if end is not None:
        clauses.append("m.ts < ?")
        params.append(end)
    for tag in tags:
        clauses.append("EXISTS (SELECT 1 FROM memory_tags g WHERE g.tag = ? AND g.doc = m.doc)")
        params.append(tag)
    if exclude_tags:
        marks = ",".join("?" * len(exclude_tags))
        clauses.append(f"NOT EXISTS (SELECT 1 FROM memory_tags g WHERE g.tag IN ({marks}) AND g.doc = m.doc)")
        params.extend(exclude_tags)
    if reviewed is not None:
        clauses.append("m.reviewed = ?")
        params.append(int(reviewed))
    return (" AND ".join(clauses) or "1"), params
