"""A process's view of the vectors: the newest snapshot (memory-mapped) plus an in-memory overlay of
every row written after it, loaded from SQLite and kept current by generation.

``refresh`` costs three key lookups when nothing changed. When the index moved on, it loads only the
rows stamped with a newer generation and the removals logged since, masks the snapshot rows they
replace or remove, and switches to a newer snapshot when the indexer has written one. A new epoch
(another embedding model) drops everything and starts again.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import apsw
import numpy as np

from core.index import meta, snapshot, snapshot_names
from core.index.connection import read
from core.index.quantize import int8_norms, sign_words, words_per_vector
from core.index.vectors import VectorModel, current_model


@dataclass
class Segment:
    """Rows sorted by doc: int8 vectors, their norms, their sign words; ``alive`` masks removed rows."""

    docs: np.ndarray
    q: np.ndarray
    norms: np.ndarray
    words: np.ndarray
    alive: np.ndarray | None = None


def _empty_segment(dim: int) -> Segment:
    return Segment(
        docs=np.zeros(0, dtype=np.int64),
        q=np.zeros((0, dim), dtype=np.int8),
        norms=np.zeros(0, dtype=np.float32),
        words=np.zeros((words_per_vector(dim), 0), dtype=np.uint64),
    )


def _alive_mask(docs: np.ndarray, dead: set[int]) -> np.ndarray | None:
    """False for the rows of sorted ``docs`` that are in ``dead``; ``None`` when none is.
    (``searchsorted`` per dead doc: far cheaper than ``isin`` over a million rows.)"""
    wanted = np.fromiter(dead, dtype=np.int64, count=len(dead))
    at = np.searchsorted(docs, wanted)
    inside = at < len(docs)
    at, wanted = at[inside], wanted[inside]
    hits = at[np.asarray(docs[at]) == wanted]
    if not len(hits):
        return None
    alive = np.ones(len(docs), dtype=bool)
    alive[hits] = False
    return alive


class VectorView:
    def __init__(self, snapshot_root: Path | None) -> None:
        self.snapshot_root = snapshot_root
        self.model: VectorModel | None = None
        self.epoch = -1
        self.gen = -1
        self.base: snapshot.Snapshot | None = None
        self._overlay: dict[int, bytes] = {}
        self._dead: set[int] = set()
        self.segments: list[Segment] = []

    @property
    def rows(self) -> int:
        total = sum(len(s.docs) if s.alive is None else int(s.alive.sum()) for s in self.segments)
        return int(total)

    @property
    def overlay_rows(self) -> int:
        return len(self._overlay)

    def refresh(self, conn: apsw.Connection) -> None:
        with read(conn):
            epoch, gen = meta.get_int(conn, "vec_epoch"), meta.get_int(conn, "vec_gen")
            if epoch == self.epoch and gen == self.gen:
                return
            model = current_model(conn)
            root = self.snapshot_root
            newer = root is not None and snapshot_names.newest_gen(root, epoch) > self._base_gen
            if epoch != self.epoch or model != self.model or newer:
                self._start(epoch, gen, model)
            self._load_changes(conn, gen)

    @property
    def _base_gen(self) -> int:
        return self.base.gen if self.base is not None else 0

    def _start(self, epoch: int, gen: int, model: VectorModel | None) -> None:
        self.epoch, self.model = epoch, model
        self.base = None
        if self.snapshot_root is not None and model is not None:
            self.base = snapshot.load_latest(self.snapshot_root, epoch, gen)
            if self.base is not None and self.base.q.shape[1] != model.dim:
                self.base = None
        self.gen = self._base_gen
        self._overlay = {}
        self._dead = set()

    def _load_changes(self, conn: apsw.Connection, gen: int) -> None:
        if self.model is None:
            self.gen = gen
            self.segments = []
            return
        current = dict(conn.execute("SELECT doc, v FROM vectors WHERE gen > ?", (self.gen,)).fetchall())
        removed = {doc for (doc,) in conn.execute("SELECT doc FROM vector_removed WHERE gen > ?", (self.gen,))}
        for doc in removed - current.keys():
            self._overlay.pop(doc, None)
        self._overlay.update(current)
        self._dead |= removed | current.keys()
        self.gen = gen
        self._build_segments()

    def _build_segments(self) -> None:
        assert self.model is not None
        dim = self.model.dim
        segments: list[Segment] = []
        if self.base is not None and self.base.rows:
            alive = None
            if self._dead:
                alive = _alive_mask(self.base.docs, self._dead)
            segments.append(Segment(self.base.docs, self.base.q, self.base.norms, self.base.words, alive))
        if self._overlay:
            docs = np.fromiter(sorted(self._overlay), dtype=np.int64, count=len(self._overlay))
            q = np.frombuffer(b"".join(self._overlay[int(d)] for d in docs), dtype=np.int8).reshape(len(docs), dim)
            segments.append(Segment(docs, q, int8_norms(q), sign_words(q)))
        self.segments = segments or [_empty_segment(dim)]
