"""``SearchIndex``: the one object the rest of Reverie uses to read and feed ``index.db``.

Ranking primitives for recall (exact bm25 and vector nearest neighbours, both bounded to a time
range before anything is ranked), lookups (turns by id, a turn's session around it, activity per
day), and the plain methods through which finalized vault memories come in. Safe to share between
threads (one lock); open one per process, beside any number of other processes (WAL).
"""

from __future__ import annotations

import contextlib
import shutil
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, tzinfo
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from core.index import catalog, exact, memories, mentions, meta, snapshot_names, vectors
from core.index.connection import BusyPolicy, connect, read, sidecar_files, upgrade_marker, write
from core.index.memories import MemorySync, filter_sql
from core.index.migrations import applied, migrate
from core.index.model import NO_FILTERS, Filters, Hit, MemoryDoc, TimeBound, bounds, normalize_ts
from core.index.rowids import MEMORY_BASE, MEMORY_MAX, TURN_MAX, is_memory
from core.index.tokenize import MatchMode, build_match
from core.index.vectors import VectorModel, VectorModelMismatch
from core.paths import HomePaths
from core.turns import Turn

if TYPE_CHECKING:  # numpy and the vector search load with the first vector search, not with the index
    import numpy as np

    from core.embed.protocol import Embedder
    from core.index.vecsearch import Band
    from core.index.vecview import Segment, VectorView



def _fields_sql(fields: dict[str, tuple[str, ...]]) -> tuple[str, list[str]]:
    """The WHERE condition over ``turns`` columns for filter fields (column → allowed values), and its
    parameters."""
    where = " AND ".join(f"{column} IN ({','.join('?' * len(values))})" for column, values in fields.items())
    return where, [value for values in fields.values() for value in values]

@dataclass(frozen=True)
class IndexStatus:
    path: str
    bytes: int
    files: int
    turns: int
    memories: int
    vectors: int
    pending_vectors: int
    model: str | None
    dim: int | None
    snapshot: str | None
    migrations: list[str]
    files_changed_at: str | None
    # Another model's vectors being made beside these (core.index.vectors: the shadow set): its
    # name, the docs that have its vector and those still waiting. Searches use ``model``'s until
    # the swap.
    shadow_model: str | None = None
    shadow_vectors: int = 0
    shadow_pending: int = 0


@dataclass(frozen=True)
class _Counts:
    files: int
    turns: int
    memories: int
    vectors: int
    pending_vectors: int
    shadow_vectors: int = 0
    shadow_pending: int = 0


def index_files(paths: HomePaths) -> list[Path]:
    """Everything the index keeps in the cache folder (database, WAL, snapshots, lock)."""
    db = paths.index_db
    return [*sidecar_files(db), upgrade_marker(db), db.parent / "vectors", db.parent / "reindex.lock"]


def purge(paths: HomePaths) -> list[Path]:
    """Delete the index and everything derived with it; returns what was removed."""
    removed = []
    for path in index_files(paths):
        if path.is_dir():
            shutil.rmtree(path)
            removed.append(path)
        elif path.exists():
            path.unlink()
            removed.append(path)
    return removed


class SearchIndex:
    """``busy``: how this process waits while another one upgrades or writes the index, and where it
    says so (:class:`~core.index.connection.BusyPolicy`; its reindexers' connections wait the same
    way). Past the wait, opening or writing raises ``IndexBusy``, a one-line ``ReverieError``."""

    def __init__(self, path: Path, *, busy: BusyPolicy | None = None) -> None:
        self.path = path
        self.busy = busy or BusyPolicy()
        self.conn = connect(path, busy=self.busy)
        try:
            migrate(self.conn)
        except BaseException:
            self.conn.close()
            raise
        self.snapshot_root = path.parent / "vectors"
        self.lock_path = path.parent / "reindex.lock"
        self._view: VectorView | None = None
        self._lock = threading.RLock()
        self._counted: tuple[tuple[int, int], _Counts] | None = None  # see _counts
        self._marks: tuple[tuple[int, int], dict[str, tuple[int, int, int]]] | None = None  # see file_marks

    @classmethod
    def open(cls, paths: HomePaths, *, busy: BusyPolicy | None = None) -> SearchIndex:
        """The index of ``paths``' home in its cache folder (created, 0600, if absent)."""
        paths.ensure_cache()
        return cls(paths.index_db, busy=busy)

    def close(self) -> None:
        with self._lock:
            self.conn.close()

    def __enter__(self) -> SearchIndex:
        return self

    def __exit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        self.close()

    # -- ranking primitives ----------------------------------------------------------------------

    def exact_search(
        self,
        query_text: str,
        start_ts: TimeBound = None,
        end_ts: TimeBound = None,
        *,
        limit: int = 10,
        filters: Filters | None = None,
        mode: MatchMode = "any",
        also: Sequence[int] = (),
    ) -> list[Hit]:
        """bm25 over turns and memories with ``start_ts <= ts < end_ts``, best first.

        ``query_text`` is anything a person typed (core.index.tokenize.build_match makes it safe);
        ``mode`` "any" ranks rows matching more of the words higher, "all" requires every word.
        ``also``: turn docs ranked with the range's although outside it (:meth:`told_of`).
        """
        match = build_match(query_text, mode)
        if match is None or limit < 1:
            return []
        start, end = bounds(start_ts, end_ts)
        with self._lock:
            return exact.search(self.conn, match, start, end, limit, filters or NO_FILTERS, also)

    def doc_frequencies(self, terms: Sequence[str], cap: int = 2_000) -> tuple[int, dict[str, int]]:
        """The number of documents the index holds and, for each term (a word or a CJK run, as a
        query holds it), how many of them contain it, counted up to ``cap`` (BM25's statistics:
        the whole index, every time). Counting a word held by 2,000 documents takes about 0.1 ms,
        by 20,000 about 6 ms: past the cap a word is common, and its exact count changes little."""
        total = self._counts(True)
        out: dict[str, int] = {}
        with self._lock:
            for term in dict.fromkeys(terms):
                match = build_match(term, "all")
                out[term] = 0 if match is None else exact.doc_frequency(self.conn, match, cap)
        return total.turns + total.memories, out

    def actors(self) -> list[str]:
        """Everyone who speaks in the index, by name."""
        with self._lock:
            return catalog.actors(self.conn)

    def speakers_in(self, sessions: Sequence[str], names: Sequence[str]) -> dict[str, set[str]]:
        """Session → which of ``names`` speak in it, for the ``sessions`` given (none: left out)."""
        with self._lock:
            return catalog.speakers_in(self.conn, sessions, names)

    def speaks_between(self, names: Sequence[str], start_ts: TimeBound = None, end_ts: TimeBound = None) -> bool:
        """Whether one of ``names`` (actors) says anything with ``start_ts <= ts < end_ts``."""
        start, end = bounds(start_ts, end_ts)
        with self._lock:
            return catalog.speaks_between(self.conn, list(names), start, end)

    def told_of(self, start: datetime, end: datetime) -> list[tuple[int, str]]:
        """(doc, id) of turns said outside [start, end) that speak of a time inside it ("yesterday I
        went bowling", said the day after), the most specific first (core.index.mentions)."""
        with self._lock:
            return mentions.told_of(self.conn, start, end)

    def vector_search(
        self,
        vector: Sequence[float] | np.ndarray,
        start_ts: TimeBound = None,
        end_ts: TimeBound = None,
        *,
        k: int = 10,
        filters: Filters | None = None,
        model: str | None = None,
        also: Sequence[int] = (),
    ) -> list[Hit]:
        """The ``k`` nearest turns and memories by cosine with ``start_ts <= ts < end_ts``, best first.

        ``vector`` must come from the model the index was embedded with (``vector_model()``); pass
        that model's name as ``model`` to have a mismatch raise instead of ranking by another
        model's geometry. An empty list when nothing is embedded yet. ``also``: turn docs ranked with
        the range's although outside it (:meth:`told_of`).
        """
        import numpy as np  # heavy: numpy, ~50 ms; `import core.index` loads none

        from core.index import vecsearch  # heavy: numpy at its top

        filters = filters or NO_FILTERS
        start, end = bounds(start_ts, end_ts)
        query = np.asarray(vector, dtype=np.float32).ravel()
        with self._lock:
            view = self.vector_view()
            recorded = view.model
            if recorded is None or k < 1:
                return []
            if model is not None and recorded.name != model:
                raise VectorModelMismatch(
                    f"{self.path}: the vectors were made by {recorded.name}, not {model}; run `reverie reindex`"
                )
            self._check_size(recorded, query)
            found: list[tuple[int, float]] = []
            if filters.wants_turns:
                found += self._turn_neighbours(view.segments, query, start, end, k, filters, also)
            if filters.wants_memories:
                band = self._memory_band(start, end, filters)
                if band is not None:
                    found += vecsearch.search(view.segments, query, [band], k)
            found.sort(key=lambda item: -item[1])
            return self._hits(found[:k])

    def vector_scores(self, vector: Sequence[float] | np.ndarray, ids: Sequence[str]) -> dict[str, float]:
        """The cosine of ``vector`` with each turn or memory of ``ids`` that holds a vector, by id (the
        same scores :meth:`vector_search` gives): for candidates that a keyword search found but that
        are not among the nearest. ``vector`` must come from the index's model (:meth:`vector_model`)."""
        import numpy as np  # heavy: numpy, ~50 ms; `import core.index` loads none

        from core.index import vecsearch  # heavy: numpy at its top

        query = np.asarray(vector, dtype=np.float32).ravel()
        with self._lock:
            view = self.vector_view()
            if view.model is None or not ids:
                return {}
            self._check_size(view.model, query)
            docs = self._docs_of(ids)
            scores = vecsearch.score_docs(view.segments, query, list(docs))
            return {key: scores[doc] for doc, key in docs.items() if doc in scores}

    def _check_size(self, recorded: VectorModel, query: np.ndarray) -> None:
        """A query vector of another size than the index's vectors is a clear error, not a crash."""
        if query.shape[0] != recorded.dim:
            raise VectorModelMismatch(
                f"{self.path}: the index holds {recorded.dim}-d vectors of {recorded.name}; "
                f"the query has {query.shape[0]}"
            )

    def _docs_of(self, ids: Sequence[str]) -> dict[int, str]:
        """doc → id for the turns and memories of ``ids`` (unknown ids are left out)."""
        out: dict[int, str] = {}
        for start in range(0, len(ids), 500):
            chunk = list(ids[start : start + 500])
            marks = ",".join("?" * len(chunk))
            sql = (f"SELECT doc, id FROM turns WHERE id IN ({marks}) "
                   f"UNION ALL SELECT doc, id FROM memories WHERE id IN ({marks})")
            out.update((doc, key) for doc, key in self.conn.execute(sql, [*chunk, *chunk]))
        return out

    def _turn_neighbours(
        self,
        segments: list[Segment],
        query: np.ndarray,
        start: str | None,
        end: str | None,
        k: int,
        filters: Filters,
        also: Sequence[int] = (),
    ) -> list[tuple[int, float]]:
        import numpy as np  # heavy: numpy, ~50 ms; `import core.index` loads none

        from core.index import vecsearch  # heavy: numpy at its top
        from core.index.vecsearch import Band  # heavy: numpy at its top

        span = catalog.doc_range(self.conn, start, end) if (start or end) else (0, TURN_MAX)
        fields = filters.turn_fields
        if also:
            extra = list(also) if not fields else self._passing(also, fields)
            told = vecsearch.search(segments, query, [Band(doc, doc) for doc in extra], k) if extra else []
            return sorted([*told, *self._turn_neighbours(segments, query, start, end, k, filters)],
                          key=lambda item: -item[1])[:k]
        if span is None:
            return []
        if not fields:
            return vecsearch.search(segments, query, [Band(*span)], k)
        # Filters: take a wide top list and keep the rows that pass; if too few pass, search only
        # the rows that pass (listed by SQL).
        wide_k = max(k * 20, 200)
        wide = vecsearch.search(segments, query, [Band(*span)], wide_k)
        passing = set(self._passing([doc for doc, _ in wide], fields))
        kept = [(doc, score) for doc, score in wide if doc in passing]
        if len(kept) >= k or len(wide) < wide_k:
            return kept[:k]
        where, params = _fields_sql(fields)
        rows = self.conn.execute(
            f"SELECT doc FROM turns WHERE doc BETWEEN ? AND ? AND {where} ORDER BY doc", [*span, *params]
        )
        allowed = np.fromiter((doc for (doc,) in rows), dtype=np.int64)
        return vecsearch.search(segments, query, [Band(span[0], span[1], allowed)], k)

    def _passing(self, docs: Sequence[int], fields: dict[str, tuple[str, ...]]) -> list[int]:
        """The turn docs among ``docs`` whose fields pass the filters."""
        if not docs:
            return []
        where, params = _fields_sql(fields)
        marks = ",".join("?" * len(docs))
        rows = self.conn.execute(f"SELECT doc FROM turns WHERE doc IN ({marks}) AND {where}", [*docs, *params])
        return [doc for (doc,) in rows]

    def _memory_band(self, start: str | None, end: str | None, filters: Filters) -> Band | None:
        import numpy as np  # heavy: numpy, ~50 ms; `import core.index` loads none

        from core.index.vecsearch import Band  # heavy: numpy at its top

        if not (filters.filters_memories or start or end):
            return Band(MEMORY_BASE, MEMORY_MAX)
        where, params = filter_sql(filters.tags, filters.exclude_tags, filters.reviewed, start, end)
        rows = self.conn.execute(f"SELECT m.doc FROM memories m WHERE {where} ORDER BY m.doc", params)
        allowed = np.fromiter((doc for (doc,) in rows), dtype=np.int64)
        return Band(MEMORY_BASE, MEMORY_MAX, allowed) if len(allowed) else None

    def vector_view(self) -> VectorView:
        """This process's view of the vectors, brought up to date (for search; tests and benches)."""
        from core.index.vecview import VectorView  # heavy: numpy at its top

        with self._lock:
            if self._view is None:
                self._view = VectorView(self.snapshot_root)
            self._view.refresh(self.conn)
            return self._view

    def _hits(self, found: list[tuple[int, float]]) -> list[Hit]:
        turn_docs = [doc for doc, _ in found if not is_memory(doc)]
        memory_docs = [doc for doc, _ in found if is_memory(doc)]
        turns = catalog.turns_by_docs(self.conn, turn_docs)
        mems = memories.by_docs(self.conn, memory_docs)
        hits = []
        for doc, score in found:
            if is_memory(doc) and doc in mems:
                hits.append(Hit(id=mems[doc][0], kind="memory", ts=mems[doc][1], score=score))
            elif doc in turns:
                hits.append(Hit(id=turns[doc][0], kind="turn", ts=turns[doc][1], score=score))
        return hits

    # -- lookups ---------------------------------------------------------------------------------

    def get_turns(self, ids: Sequence[str]) -> list[Turn]:
        """The turns with these ids, in the order asked; unknown ids are left out."""
        with self._lock:
            return catalog.get_turns(self.conn, list(ids))

    def get_memories(self, ids: Sequence[str]) -> list[MemoryDoc]:
        with self._lock:
            return memories.get(self.conn, list(ids))

    def session_context(self, turn_id: str, before: int = 5, after: int = 5) -> list[Turn]:
        """The turn with up to ``before`` earlier and ``after`` later turns of its session, in time order."""
        with self._lock:
            return catalog.session_context(self.conn, turn_id, before, after)

    def turn_at(self, ts: datetime | str) -> Turn | None:
        """The latest text turn at or before ``ts`` (else the first after): where a conversation was then."""
        with self._lock, read(self.conn):
            return catalog.turn_at(self.conn, normalize_ts(ts))

    def session_summaries(self, sessions: Sequence[str]) -> dict[str, catalog.SessionSummary]:
        """session → its project and first prompt, for the sessions the catalog knows."""
        with self._lock, read(self.conn):
            return catalog.session_summaries(self.conn, sessions)

    def recent_sessions(self, limit: int = 20, *, source: str | None = None) -> list[catalog.SessionInfo]:
        """The ``limit`` most recently active sessions, newest first, each with its span, turn count,
        project header and first prompt (``source``: only sessions imported by that importer)."""
        with self._lock, read(self.conn):
            return catalog.recent_sessions(self.conn, limit, source)

    def activity(self, start: date, end: date, zone: tzinfo | str) -> list[tuple[date, int]]:
        """Turns per local day in ``zone`` for each day from ``start`` up to (not including) ``end``."""
        tz = ZoneInfo(zone) if isinstance(zone, str) else zone
        out: list[tuple[date, int]] = []
        with self._lock, read(self.conn):
            day = start
            while day < end:
                following = day + timedelta(days=1)
                lo = normalize_ts(datetime.combine(day, time(0), tz))
                hi = normalize_ts(datetime.combine(following, time(0), tz))
                out.append((day, catalog.count_between(self.conn, lo, hi)))
                day = following
        return out

    def vector_model(self) -> VectorModel | None:
        with self._lock:
            return vectors.current_model(self.conn)

    # -- memories (the vault hands them over) ----------------------------------------------------

    def upsert_memories(self, docs: Sequence[MemoryDoc], embedder: Embedder | None = None) -> MemorySync:
        """Add or update finalized memories. With ``embedder`` (the index's model), embed them now;
        otherwise the next ``reverie reindex`` or ``watch`` pass does."""
        with self._lock:
            with write(self.conn):
                result, to_embed = memories.upsert(self.conn, docs)
            self._embed_memories(to_embed, embedder)
            return result

    def sync_memories(self, docs: Sequence[MemoryDoc], embedder: Embedder | None = None) -> MemorySync:
        """Make the indexed memories exactly ``docs`` (others are removed)."""
        with self._lock:
            with write(self.conn):
                result, to_embed = memories.sync(self.conn, docs)
            self._embed_memories(to_embed, embedder)
            return result

    def remove_memory(self, memory_id: str) -> bool:
        with self._lock, write(self.conn):
            return memories.remove(self.conn, memory_id)

    def _embed_memories(self, docs: list[int], embedder: Embedder | None) -> None:
        if not docs or embedder is None:
            return
        recorded = vectors.current_model(self.conn)
        shadow = vectors.shadow_model(self.conn)
        into_shadow = recorded is not None and recorded.name != embedder.name
        if into_shadow and (shadow is None or shadow.name != embedder.name):
            return  # the index holds another model's vectors: reindex re-embeds everything beside them
        marks = ",".join("?" * len(docs))
        rows = self.conn.execute(f"SELECT doc, text FROM memories WHERE doc IN ({marks})", docs).fetchall()
        vecs = embedder.embed([text for _, text in rows])
        with write(self.conn):
            if recorded is None:
                vectors.ensure_model(self.conn, VectorModel(embedder.name, int(embedder.dim)))
            if into_shadow and vectors.shadow_model(self.conn) != shadow:
                return  # swapped or dropped since the look: the next embedding pass gives them theirs
            now = dict(self.conn.execute(f"SELECT doc, text FROM memories WHERE doc IN ({marks})", docs).fetchall())
            keep = [i for i, (doc, text) in enumerate(rows) if now.get(doc) == text]
            put = vectors.put_shadow if into_shadow else vectors.put
            put(self.conn, [rows[i][0] for i in keep], vecs[keep])

    # -- state -----------------------------------------------------------------------------------

    def file_marks(self) -> dict[str, tuple[int, int, int]]:
        """Day → (size, mtime_ns, bytes read) of every day file as the index last read it: compared with
        the day files on disk, it says how far the index is behind the log without reading a file.
        Kept until the database changes (a search asks for it every time)."""
        with self._lock:
            mark = self._change_mark()
            if self._marks is not None and self._marks[0] == mark:
                return dict(self._marks[1])
            with read(self.conn):
                rows = self.conn.execute("SELECT day, size, mtime_ns, read_offset FROM files").fetchall()
            marks = {day: (size, mtime_ns, offset) for day, size, mtime_ns, offset in rows}
            self._marks = (mark, marks)  # the mark read before the rows: see _counts
            return dict(marks)

    def _change_mark(self) -> tuple[int, int]:
        """Moves whenever the database may have changed: ``PRAGMA data_version`` when another
        connection commits (the reindexer's, another process's), ``total_changes`` when this one writes."""
        return self.conn.pragma("data_version"), self.conn.total_changes()

    def get_meta(self, key: str) -> str | None:
        """A small named value the index keeps (e.g. the fingerprint of the vault as last synced)."""
        with self._lock, read(self.conn):
            return meta.get(self.conn, key)

    def put_meta(self, key: str, value: str) -> None:
        with self._lock, write(self.conn):
            meta.put(self.conn, key, value)

    def _counts(self, cached: bool) -> _Counts:
        """The row counts of :meth:`status`, counted again only when the database changed since the
        last count: ``PRAGMA data_version`` moves when another connection commits (the reindexer's,
        another process's), ``total_changes`` when this one writes. Counting is not free: the vectors
        still pending are a scan of every turn (about 0.1 s at 1M turns), and a search asks for them
        every time for its coverage note."""
        with self._lock:
            mark = self._change_mark()
            if cached and self._counted is not None and self._counted[0] == mark:
                return self._counted[1]
            with read(self.conn):
                counts = _Counts(
                    files=self.conn.execute("SELECT count(*) FROM files").fetchone()[0],
                    turns=self.conn.execute("SELECT count(*) FROM turns").fetchone()[0],
                    memories=self.conn.execute("SELECT count(*) FROM memories").fetchone()[0],
                    vectors=vectors.count(self.conn),
                    pending_vectors=vectors.pending_count(self.conn),
                    **self._shadow_counts(),
                )
            # the mark read before the snapshot: a commit in between only makes the next call count again
            self._counted = (mark, counts)
            return counts

    def _shadow_counts(self) -> dict[str, int]:
        """The shadow set's vectors and what still waits for one (nothing to count without one)."""
        if vectors.shadow_model(self.conn) is None:
            return {}
        return {"shadow_vectors": vectors.count(self.conn, vectors.SHADOW),
                "shadow_pending": vectors.pending_count(self.conn, vectors.SHADOW)}

    def status(self, *, cached: bool = True) -> IndexStatus:
        """What the index holds. ``cached=False`` counts the rows again even if nothing changed."""
        counts = self._counts(cached)
        with self._lock, read(self.conn):
            model = vectors.current_model(self.conn)
            shadow = vectors.shadow_model(self.conn)
            epoch = meta.get_int(self.conn, "vec_epoch")
            snap_gen = snapshot_names.newest_gen(self.snapshot_root, epoch)
            size = 0
            for path in sidecar_files(self.path):
                with contextlib.suppress(FileNotFoundError):
                    size += path.stat().st_size
            return IndexStatus(
                path=str(self.path),
                bytes=size,
                files=counts.files,
                turns=counts.turns,
                memories=counts.memories,
                vectors=counts.vectors,
                pending_vectors=counts.pending_vectors,
                model=None if model is None else model.name,
                dim=None if model is None else model.dim,
                snapshot=f"e{epoch}-g{snap_gen}" if snap_gen else None,
                migrations=applied(self.conn),
                files_changed_at=meta.get(self.conn, "files_changed_at"),
                shadow_model=None if shadow is None else shadow.name,
                shadow_vectors=counts.shadow_vectors if shadow is not None else 0,
                shadow_pending=counts.shadow_pending if shadow is not None else 0,
            )
