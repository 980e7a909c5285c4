"""The vector table: the durable copy of every embedding, as sqlite-vec ``int8[dim]`` blobs keyed by doc.

Each write stamps its rows with a new generation (``meta.vec_gen``) and logs removals in
``vector_removed``, so a reader's view (core.index.vecview) loads only what changed; another model
empties the table and bumps ``meta.vec_epoch`` when it holds nothing worth searching meanwhile. When
the model changes under stored vectors, the new model's vectors go to the shadow set (:data:`SHADOW`)
while searches keep the old set, and :func:`swap_shadow` replaces it in one transaction once complete.
sqlite-vec is only the storage format: search runs in numpy over memory-mapped snapshots
(core.index.vecsearch; why: tests/bench/README.md, "Figures the index's layout rests on"). Every
function here runs inside the caller's write transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import apsw

from core.errors import ReverieError
from core.index import meta

if TYPE_CHECKING:
    import numpy as np

# Turn types that get a vector. Tool calls and results ("action") and "meta" lines are long,
# repetitive and rarely what a meaning search is for; they stay findable by exact search.
EMBED_TYPES = ("text",)
SHADOW = "shadow_vectors"  # the model being re-embedded: same layout, no generation (no reader loads it)


class VectorModelMismatch(ReverieError, ValueError):
    """Vectors of another dimension than the index holds; the message names the index and both sizes."""


@dataclass(frozen=True)
class VectorModel:
    name: str
    dim: int


def current_model(conn: apsw.Connection) -> VectorModel | None:
    name, dim = meta.get(conn, "embed_model"), meta.get(conn, "embed_dim")
    return None if name is None or dim is None else VectorModel(name, int(dim))


def next_gen(conn: apsw.Connection) -> int:
    gen = meta.get_int(conn, "vec_gen") + 1
    meta.put(conn, "vec_gen", gen)
    return gen


def reset(conn: apsw.Connection, model: VectorModel) -> None:
    """Forget every vector and record ``model``: everything will be embedded again."""
    forget_model(conn)
    meta.put(conn, "embed_model", model.name)
    meta.put(conn, "embed_dim", model.dim)


def forget_model(conn: apsw.Connection) -> None:
    """Forget every vector and the model (its successor's dimension is not known yet), shadow set included."""
    drop_shadow(conn)
    conn.execute("DELETE FROM vectors")
    conn.execute("DELETE FROM vector_removed")
    meta.put(conn, "vec_epoch", meta.get_int(conn, "vec_epoch") + 1)
    meta.put(conn, "vec_gen", 0)
    meta.delete(conn, "embed_model")
    meta.delete(conn, "embed_dim")


def ensure_model(conn: apsw.Connection, model: VectorModel) -> bool:
    """Record ``model``; if another model or dimension was recorded, reset first. True if reset."""
    recorded = current_model(conn)
    if recorded == model:
        return False
    reset(conn, model)
    return recorded is not None


def put(conn: apsw.Connection, docs: Sequence[int], vectors: np.ndarray) -> None:
    """Store (or replace) the vectors of ``docs`` (float32 rows of unit length)."""
    if not len(docs):
        return
    model = current_model(conn)
    if model is None:
        raise VectorModelMismatch("index.db: no embedding model recorded; call ensure_model first")
    if vectors.ndim != 2 or vectors.shape[1] != model.dim or vectors.shape[0] != len(docs):
        raise VectorModelMismatch(
            f"index.db: vectors of shape {vectors.shape} for {len(docs)} docs; "
            f"the index holds {model.dim}-d ({model.name})"
        )
    from core.index.quantize import to_int8  # heavy: numpy at its top; `import core.index` loads none

    put_int8(conn, docs, to_int8(vectors))


def shadow_model(conn: apsw.Connection) -> VectorModel | None:
    """The model whose vectors are being made beside the searched ones (``None``: no re-embedding)."""
    name, dim = meta.get(conn, "shadow_model"), meta.get(conn, "shadow_dim")
    return None if name is None or dim is None else VectorModel(name, int(dim))


def begin_shadow(conn: apsw.Connection, model: VectorModel) -> bool:
    """Make ``model`` the shadow set's model, emptying a shadow of another model. True if it started
    now (False: it continues where it stopped)."""
    if shadow_model(conn) == model:
        return False
    conn.execute("DELETE FROM shadow_vectors")
    meta.put(conn, "shadow_model", model.name)
    meta.put(conn, "shadow_dim", model.dim)
    return True


def drop_shadow(conn: apsw.Connection) -> None:
    """Forget the shadow set (the configured model is the searched one again, or it is superseded)."""
    conn.execute("DELETE FROM shadow_vectors")
    meta.delete(conn, "shadow_model")
    meta.delete(conn, "shadow_dim")


def put_shadow(conn: apsw.Connection, docs: Sequence[int], vectors: np.ndarray) -> None:
    """Store (or replace) the shadow vectors of ``docs`` (float32 rows of unit length)."""
    if not len(docs):
        return
    model = shadow_model(conn)
    if model is None:
        raise VectorModelMismatch("index.db: no shadow model recorded; call begin_shadow first")
    if vectors.ndim != 2 or vectors.shape[1] != model.dim or vectors.shape[0] != len(docs):
        raise VectorModelMismatch(
            f"index.db: vectors of shape {vectors.shape} for {len(docs)} docs; "
            f"the shadow set holds {model.dim}-d ({model.name})"
        )
    from core.index.quantize import to_int8  # heavy: numpy at its top

    conn.executemany(
        "INSERT OR REPLACE INTO shadow_vectors(doc, v) VALUES (?, ?)",
        ((int(doc), row.tobytes()) for doc, row in zip(docs, to_int8(vectors), strict=True)),
    )


def swap_shadow(conn: apsw.Connection) -> VectorModel | None:
    """Replace the searched set by a complete shadow set (inside the caller's write transaction, so
    readers see the old set or the new one); returns the new model, or ``None`` (and changes nothing)
    when there is no shadow set or a text turn or memory still lacks its shadow vector."""
    model = shadow_model(conn)
    if model is None or pending_count(conn, SHADOW):
        return None
    conn.execute("DELETE FROM vectors")
    conn.execute("DELETE FROM vector_removed")
    conn.execute("INSERT INTO vectors(doc, v, gen) SELECT doc, v, 1 FROM shadow_vectors ORDER BY doc")
    meta.put(conn, "vec_epoch", meta.get_int(conn, "vec_epoch") + 1)  # every reader starts again
    meta.put(conn, "vec_gen", 1)
    meta.put(conn, "embed_model", model.name)
    meta.put(conn, "embed_dim", model.dim)
    meta.put(conn, "embed_complete", 1)
    drop_shadow(conn)
    return model


def put_int8(conn: apsw.Connection, docs: Sequence[int], q: np.ndarray) -> None:
    gen = next_gen(conn)
    conn.executemany(
        "INSERT OR REPLACE INTO vectors(doc, v, gen) VALUES (?, ?, ?)",
        ((int(doc), row.tobytes(), gen) for doc, row in zip(docs, q, strict=True)),
    )


def remove(conn: apsw.Connection, docs: Sequence[int]) -> None:
    if not len(docs):
        return
    gen = next_gen(conn)
    for doc in docs:
        if conn.execute("DELETE FROM vectors WHERE doc = ? RETURNING doc", (int(doc),)).fetchall():
            conn.execute("INSERT INTO vector_removed(gen, doc) VALUES (?, ?)", (gen, int(doc)))
        conn.execute("DELETE FROM shadow_vectors WHERE doc = ?", (int(doc),))


def take(conn: apsw.Connection, docs: Sequence[int], table: str = "vectors") -> dict[int, bytes]:
    """The stored int8 blobs of ``docs`` (those that have one) in ``table``."""
    found: dict[int, bytes] = {}
    sql = f"SELECT v FROM {_table(table)} WHERE doc = ?"
    for doc in docs:
        row = conn.execute(sql, (int(doc),)).fetchone()
        if row is not None:
            found[int(doc)] = row[0]
    return found


def put_blobs(conn: apsw.Connection, blobs: dict[int, bytes], table: str = "vectors") -> None:
    """Store int8 blobs by doc (into the shadow set when there is one, with ``table`` :data:`SHADOW`)."""
    if not blobs:
        return
    if table == SHADOW:
        if shadow_model(conn) is not None:
            conn.executemany("INSERT OR REPLACE INTO shadow_vectors(doc, v) VALUES (?, ?)", blobs.items())
        return
    gen = next_gen(conn)
    conn.executemany(
        "INSERT OR REPLACE INTO vectors(doc, v, gen) VALUES (?, ?, ?)",
        ((doc, blob, gen) for doc, blob in blobs.items()),
    )


def move(conn: apsw.Connection, moves: Sequence[tuple[int, int]]) -> None:
    """Re-key vectors ``old → new`` (a renumbered day); vectors are kept, not recomputed."""
    if not moves:
        return
    shadow = take(conn, [old for old, _ in moves], SHADOW)
    blobs = take(conn, [old for old, _ in moves])
    remove(conn, [old for old, _ in moves])  # the shadow rows too
    put_blobs(conn, {new: blobs[old] for old, new in moves if old in blobs})
    put_blobs(conn, {new: shadow[old] for old, new in moves if old in shadow}, SHADOW)


def count(conn: apsw.Connection, table: str = "vectors") -> int:
    return conn.execute(f"SELECT count(*) FROM {_table(table)}").fetchone()[0]


def _table(table: str) -> str:
    """One of the two vector tables (names are put into SQL: never anything else)."""
    if table not in ("vectors", SHADOW):
        raise ValueError(f"vector table: {table!r} is neither vectors nor {SHADOW}")
    return table


def _embeddable_turns_sql() -> str:
    placeholders = ", ".join("?" for _ in EMBED_TYPES)
    return f"t.type IN ({placeholders}) AND length(trim(t.text)) > 0"


def pending_turns(conn: apsw.Connection, after_doc: int, until_doc: int, limit: int,
                  table: str = "vectors") -> list[tuple[int, str]]:
    """Turns with ``after_doc < doc <= until_doc`` (in doc order) that should have a vector and have
    none in ``table`` (``vectors``, or :data:`SHADOW` for the model being re-embedded)."""
    sql = (
        f"SELECT t.doc, t.text FROM turns t WHERE t.doc > ? AND t.doc <= ? AND {_embeddable_turns_sql()} "
        f"AND NOT EXISTS (SELECT 1 FROM {_table(table)} v WHERE v.doc = t.doc) ORDER BY t.doc LIMIT ?"
    )
    return [(doc, text) for doc, text in conn.execute(sql, (after_doc, until_doc, *EMBED_TYPES, limit))]


def pending_memories(conn: apsw.Connection, table: str = "vectors") -> list[tuple[int, str]]:
    sql = (
        "SELECT m.doc, m.text FROM memories m WHERE length(trim(m.text)) > 0 "
        f"AND NOT EXISTS (SELECT 1 FROM {_table(table)} v WHERE v.doc = m.doc) ORDER BY m.doc"
    )
    return [(doc, text) for doc, text in conn.execute(sql)]


def pending_count(conn: apsw.Connection, table: str = "vectors") -> int:
    turns = conn.execute(
        f"SELECT count(*) FROM turns t WHERE {_embeddable_turns_sql()} "
        f"AND NOT EXISTS (SELECT 1 FROM {_table(table)} v WHERE v.doc = t.doc)",
        EMBED_TYPES,
    ).fetchone()[0]
    return turns + len(pending_memories(conn, table))
