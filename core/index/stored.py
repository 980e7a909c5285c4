"""The index's vectors read back by id, for a copy made elsewhere (``reverie mirror``) that should not
embed again what the index already embedded.

A stored vector is an int8 row scaled per vector (core.index.quantize); its scale is not kept, so it
comes back as the unit vector of that row: what cosine needs (recall@10 against float32 0.996 there).
A vector is returned only when the index's vectors are the asked model's and the document still holds
the given text, so a stale index never lends a vector to a changed turn.
"""

from __future__ import annotations

from collections.abc import Mapping

import apsw
import numpy as np

from core.index import vectors
from core.index.connection import read

CHUNK = 400


def stored_vectors(conn: apsw.Connection, texts: Mapping[str, str], model: str) -> dict[str, np.ndarray]:
    """id → unit float32 vector for the turns and memories of ``texts`` (id → text) whose vector the
    index holds under ``model``, with that same text."""
    out: dict[str, np.ndarray] = {}
    ids = list(texts)
    with read(conn):
        recorded = vectors.current_model(conn)
        if recorded is None or recorded.name != model or not ids:
            return out
        for start in range(0, len(ids), CHUNK):
            chunk = ids[start : start + CHUNK]
            marks = ",".join("?" * len(chunk))
            sql = (f"SELECT t.id, t.text, v.v FROM turns t JOIN vectors v ON v.doc = t.doc WHERE t.id IN ({marks}) "
                   f"UNION ALL SELECT m.id, m.text, v.v FROM memories m JOIN vectors v ON v.doc = m.doc "
                   f"WHERE m.id IN ({marks})")
            for key, text, blob in conn.execute(sql, [*chunk, *chunk]):
                if text != texts.get(key) or len(blob) != recorded.dim:
                    continue
                row = np.frombuffer(blob, dtype=np.int8).astype(np.float32)
                norm = float(np.linalg.norm(row))
                if norm > 0:
                    out[key] = row / norm
    return out
