"""Incremental reindex: bring ``index.db`` in line with the day files, then embed what lacks a vector.

Per day file the index records size, mtime, the offset read and the SHA-256 of the bytes before it:
an unchanged file is not opened, a grown one is read from the offset, anything else again from the
start (turns that come back unchanged keep their vectors), a vanished one takes its turns with it;
each file is one ``BEGIN IMMEDIATE`` transaction. Embedding follows in windows of one transaction each
(a killed reindex resumes; Ctrl-C raises :class:`ReindexInterrupted` with the report), texts sorted by
length so a batch pads only to its longest. The model loads only when something needs a vector; another
model under stored vectors re-embeds beside them (the shadow set, core.index.vectors).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING

import apsw

from core.fsutil import file_lock
from core.index import bulkstage, catalog, memories, mentions, meta, snapshot, snapshot_names, vectors
from core.index.connection import CACHE_KIB, checkpoint, connect, write
from core.index.logsource import DayChunk, DayEntry, DayLogSource, HomeDayLogs, SourceChanged
from core.index.memories import MemorySync
from core.index.model import MemoryDoc
from core.index.rowids import DAY_SLOTS, TURN_MAX, day_block

if TYPE_CHECKING:
    from core.embed.protocol import Embedder
    from core.index.searchindex import SearchIndex

Progress = Callable[[str, int, int], None]  # (phase "files" | "embed", done, total)
SNAPSHOT_MIN_ROWS = 20_000  # rewrite the memory-mapped snapshot once this many rows changed since it
MAX_BAD_LINES_REPORTED = 50
WRITE_BATCH_TURNS = 5_000
BULK_BATCH_TURNS = 50_000  # turns per transaction in a build from empty (see sync_files)
BULK_CACHE_KIB = 256 * 1024  # page cache of a build from empty
DEFERRED_INDEXES = "deferred_indexes"  # meta key: SQL of catalog indexes a bulk build dropped for now
# FTS5 settings of a build from empty, and the usual ones put back after it (FTS5 keeps them in the
# table's config, so a killed build's next run puts them back with the indexes): the terms of a whole
# batch are held in memory (hashsize) and written as one segment at its commit, and no segment is
# merged until the one ``optimize`` at the end, instead of merging as they come (automerge) and
# merging again in ``optimize``. Measured at 200k turns: FTS5's share of the build 1.30 → 1.06 s CPU.
FTS_BULK = {"hashsize": 32 * 1024 * 1024, "automerge": 0}
FTS_USUAL = {"hashsize": 1024 * 1024, "automerge": 4}  # FTS5's defaults
WINDOW_BATCHES = 8  # model batches per embedding window (one transaction; what Ctrl-C can lose): 4 → 8 made
# a 1,000-turn reindex 0.4 s faster (3.6–3.8 → 3.1–3.3 s with OpenVINO, fewer pipeline drains; 16: 3.1 s)
SPAN_WINDOWS = 8  # windows read and sorted by length together
SWAP_LOOKS = 3  # times a finished shadow set is looked at again when new docs came before its swap
MENTION_WINDOW = 2_000  # turns read for their times per transaction when an older index catches up


@dataclass
class ReindexReport:
    files: int = 0
    read: int = 0  # files opened (new, grown or replaced)
    replaced: int = 0  # files read again from the start
    removed: int = 0  # files gone from the log
    turns_added: int = 0
    turns_removed: int = 0
    duplicates: int = 0
    renumbered_days: int = 0
    bad_lines: list[str] = field(default_factory=list)
    bad_line_count: int = 0
    memories: MemorySync | None = None
    model: str | None = None
    model_reset: bool = False
    # re-embedding beside the searched vectors (core.index.vectors: the shadow set): the model being
    # made, how many docs have its vector and how many wait for it, and whether it replaced the old set
    shadow_model: str | None = None
    shadow_done: int = 0
    shadow_pending: int = 0
    swapped: bool = False
    embedded: int = 0
    vectors_kept: int = 0
    # docs left without a vector by an embedding pass; None when no pass ran (--no-embed, nothing to do):
    # counting them all is a scan of every turn, `SearchIndex.status()` does it
    pending: int | None = None
    snapshot: str | None = None
    interrupted: bool = False  # Ctrl-C stopped the embedding pass (what was stored is kept)
    seconds: float = 0.0

    def as_dict(self) -> dict[str, object]:
        out = dict(self.__dict__)
        out["memories"] = None if self.memories is None else dict(self.memories.__dict__)
        return out


class ReindexInterrupted(KeyboardInterrupt):
    """Ctrl-C during embedding: every stored window is kept; ``report.pending`` docs still wait."""

    def __init__(self, report: ReindexReport) -> None:
        super().__init__(f"stopped; what was embedded is kept, {report.pending or 0:,} wait for vectors")
        self.report = report


@dataclass(frozen=True)
class FileState:
    """What the index recorded of a day file."""

    id: int
    size: int
    mtime_ns: int
    read_offset: int
    sha256: str
    turns: int


@dataclass
class FileRead:
    """What was read from a day file, ready to be written."""

    entry: DayEntry
    state: FileState | None
    start: int  # the offset read from: 0 means every turn of the file (replacing any indexed before)
    turns: int  # turns read from the file so far
    sha256: str  # of the bytes up to chunk.offset
    chunk: DayChunk
    first_seq: int  # the file's turn number of chunk.turns[0]
    file_id: int | None = None  # the id a new file's row takes (None: the next free one)


def _hash_prefix(path: Path, end: int) -> hashlib._Hash:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        remaining = end
        while remaining > 0:
            block = handle.read(min(remaining, 1 << 20))
            if not block:
                break
            digest.update(block)
            remaining -= len(block)
    return digest


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Reindexer:
    """One home's reindex. ``embedder``: a factory, called only when a vector must be computed.
    Holds its own database connection: close it (or use ``with``)."""

    def __init__(
        self,
        index: SearchIndex,
        source: DayLogSource,
        *,
        embedder: Callable[[], Embedder] | None = None,
        memory_source: Callable[[], Sequence[MemoryDoc]] | None = None,
        batch_size: int = 64,
        window: int | None = None,
        zone: tzinfo | None = None,
        languages: Sequence[str] | None = None,
    ) -> None:
        self.index = index
        # the times a turn speaks of are counted from its own time in the person's zone (core.index.mentions)
        self.zone: tzinfo = zone or UTC
        self.languages: tuple[str, ...] | None = tuple(languages) if languages is not None else None
        # Its own connection: a long write here never holds up searches on the index's connection
        # (WAL readers do not wait for writers), in this process or another.
        self.conn: apsw.Connection = connect(index.path, busy=index.busy)
        self.source = source
        self._embedder_factory = embedder
        self._embedder: Embedder | None = None
        self.memory_source = memory_source
        self.batch_size = batch_size
        # texts handed to the embedder at once (it sorts them by length) and stored in one transaction
        self.window = window if window is not None else WINDOW_BATCHES * batch_size
        self._lock_depth = 0  # see _writer_lock

    def close(self) -> None:
        self.conn.close()

    @contextlib.contextmanager
    def _writer_lock(self) -> Iterator[None]:
        """The home's reindex lock (``reindex.lock``, flock), held while the file state is read and
        written: a second build (another process, another thread) waits, then reads the state the
        first one left, so it never inserts a day file the first one already recorded. Re-entrant
        within this reindexer (``run`` holds it across files, memories and embedding)."""
        if self._lock_depth:
            self._lock_depth += 1
            try:
                yield
            finally:
                self._lock_depth -= 1
            return
        with file_lock(self.index.lock_path):
            self._lock_depth = 1
            try:
                yield
            finally:
                self._lock_depth = 0

    def __enter__(self) -> Reindexer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- files ----------------------------------------------------------------------------------

    def _state(self) -> dict[str, FileState]:
        rows = self.conn.execute("SELECT day, id, size, mtime_ns, read_offset, sha256, turns FROM files")
        return {row[0]: FileState(*row[1:]) for row in rows}

    def _read_file(self, entry: DayEntry, state: FileState | None, full: bool, file_id: int | None = None) -> FileRead:
        """Read what is new in a day file (its tail, or all of it). No database access. ``file_id``:
        the id a new file's row takes (a staged build numbers files by their place in the listing)."""
        start, seq, digest = 0, 0, hashlib.sha256()
        if state is not None and not full and entry.size >= state.read_offset:
            prefix = _hash_prefix(entry.path, state.read_offset)
            if prefix.hexdigest() == state.sha256:
                start, seq, digest = state.read_offset, state.turns, prefix
        try:
            chunk = self.source.read(entry.path, start)
        except SourceChanged:
            start, seq, digest = 0, 0, hashlib.sha256()
            chunk = self.source.read(entry.path, 0)
        if chunk.data is not None and len(chunk.data) == chunk.offset - start:
            digest.update(chunk.data)  # the bytes the source read (no second read of the file)
        else:
            with entry.path.open("rb") as handle:
                handle.seek(start)
                digest.update(handle.read(chunk.offset - start))
        chunk.data = None  # hashed: not kept while the batch waits
        return FileRead(entry, state, start, seq + len(chunk.turns), digest.hexdigest(), chunk, seq, file_id)

    def _apply_file(
        self,
        read_: FileRead,
        report: ReindexReport,
        touched: set[str],
        known: set[str] | None = None,
        fts: catalog.FtsRows | None = None,
    ) -> None:
        """Write one file's changes (inside the caller's write transaction). ``known``: every id of
        the catalog, when this run builds it from empty; ``fts``: the batch's FTS5 rows, written by
        the caller before it commits (see ``catalog.insert_turns``)."""
        entry, state, chunk = read_.entry, read_.state, read_.chunk
        if state is None:
            file_id = self.conn.execute(
                "INSERT INTO files(id, day, path, size, mtime_ns, read_offset, sha256, turns, bad_lines, indexed_at) "
                "VALUES (?, ?, ?, 0, 0, 0, '', 0, 0, '') RETURNING id",
                (read_.file_id, entry.day, str(entry.path)),
            ).fetchone()[0]
        else:
            file_id = state.id
        kept: dict[tuple[str, str], bytes] = {}
        if state is not None and read_.start == 0:  # read again from the start: replace its turns
            report.turns_removed += self.conn.execute(
                "SELECT count(*) FROM turns WHERE file_id = ?", (file_id,)
            ).fetchone()[0]
            kept = catalog.delete_file_turns(self.conn, file_id, fts)
            report.replaced += 1
        result = catalog.insert_turns(self.conn, file_id, entry.day, read_.first_seq, chunk.turns, known=known,
                                      fts=fts)
        report.vectors_kept += catalog.restore_vectors(self.conn, file_id, kept)
        self.conn.execute(
            "UPDATE files SET path = ?, size = ?, mtime_ns = ?, read_offset = ?, sha256 = ?, turns = ?, "
            "bad_lines = bad_lines * ? + ?, indexed_at = ? WHERE id = ?",
            (
                str(entry.path),
                entry.size,
                entry.mtime_ns,
                chunk.offset,
                read_.sha256,
                read_.turns,
                0 if read_.start == 0 else 1,
                len(chunk.bad_lines),
                _now(),
                file_id,
            ),
        )
        report.read += 1
        report.turns_added += result.added
        report.duplicates += result.duplicates
        report.renumbered_days += result.renumbered_days
        report.bad_line_count += len(chunk.bad_lines)
        room = MAX_BAD_LINES_REPORTED - len(report.bad_lines)
        report.bad_lines.extend(chunk.bad_lines[: max(room, 0)])
        touched.update(result.days)

    def _remove_file(self, file_id: int, report: ReindexReport) -> None:
        with write(self.conn):
            before = self.conn.execute("SELECT count(*) FROM turns WHERE file_id = ?", (file_id,)).fetchone()[0]
            catalog.delete_file_turns(self.conn, file_id)
            self.conn.execute("DELETE FROM files WHERE id = ?", (file_id,))
        report.removed += 1
        report.turns_removed += before

    def _catalog_empty(self) -> bool:
        return self.conn.execute("SELECT 1 FROM turns LIMIT 1").fetchone() is None

    def _defer_indexes(self) -> None:
        """Drop the catalog's secondary indexes for a build from empty (filled in one sort at the end,
        :meth:`_restore_indexes`, instead of row by row). Their SQL is kept in ``meta`` first, in the
        same transaction: a build that is killed leaves it there, and the next run restores them.
        Until then searches are right, only slower (no ts index)."""
        with write(self.conn):
            rows = self.conn.execute(
                "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'turns' AND sql IS NOT NULL"
            ).fetchall()
            if not rows:
                return
            meta.put(self.conn, DEFERRED_INDEXES, json.dumps([[name, sql] for name, sql in rows]))
            for name, _ in rows:
                self.conn.execute(f'DROP INDEX "{name}"')
            for key, value in FTS_BULK.items():
                self.conn.execute("INSERT INTO fts(fts, rank) VALUES (?, ?)", (key, value))

    def _restore_indexes(self) -> None:
        """Create the indexes :meth:`_defer_indexes` dropped and give FTS5 back its usual merge
        settings (no-op when nothing waits)."""
        if meta.get(self.conn, DEFERRED_INDEXES) is None:
            return
        with write(self.conn):
            waiting = meta.get(self.conn, DEFERRED_INDEXES)
            if waiting is None:
                return
            existing = {name for (name,) in self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
            for name, sql in json.loads(waiting):
                if name not in existing:
                    self.conn.execute(sql)
            for key, value in FTS_USUAL.items():
                self.conn.execute("INSERT INTO fts(fts, rank) VALUES (?, ?)", (key, value))
            meta.delete(self.conn, DEFERRED_INDEXES)

    def sync_files(
        self, *, full: bool = False, progress: Progress | None = None, should_stop: Callable[[], bool] | None = None
    ) -> tuple[ReindexReport, set[str]]:
        """Index every new or changed day file; drop the turns of removed ones.

        Files are written in batches (up to ``WRITE_BATCH_TURNS`` turns per transaction): one
        transaction per file costs more than the file itself on a first build of thousands of days,
        and a batch is as atomic as a file (files rows and their turns commit together).

        A build from empty (no file recorded, no turn) is the bulk case: batches of
        ``BULK_BATCH_TURNS``, ids checked against the ones this run inserted (in memory) instead of
        the catalog, the secondary indexes created once at the end, a larger page cache, FTS5's
        merge settings for a build (:data:`FTS_BULK`) and one FTS5 ``optimize`` (one segment: the
        fastest queries). Its semantics are the incremental ones: each batch commits whole, a
        stopped or killed build keeps the files it committed and the next run reads the rest (and
        restores the indexes and FTS5's settings first). Clean day files arrive as lean records
        (``core.index.logsource.read_records``), not a ``Turn`` per line.

        The file state is read and written under the home's reindex lock (:meth:`_writer_lock`), so a
        second build at the same time waits and then finds the first one's files already done.
        """
        with self._writer_lock():
            return self._sync_files(full, progress, should_stop)

    def _sync_files(
        self, full: bool, progress: Progress | None, should_stop: Callable[[], bool] | None
    ) -> tuple[ReindexReport, set[str]]:
        report = ReindexReport()
        touched: set[str] = set()
        self._restore_indexes()  # a bulk build that was killed
        state = self._state()
        entries = self.source.days()
        report.files = len(entries)
        bulk = not state and bool(entries) and self._catalog_empty()
        known: set[str] | None = set() if bulk else None
        limit = BULK_BATCH_TURNS if bulk else WRITE_BATCH_TURNS
        present = {entry.day for entry in entries}
        for day, row in state.items():
            if day not in present:
                self._remove_file(row.id, report)
        if bulk:
            self._defer_indexes()
            self.conn.pragma("cache_size", -BULK_CACHE_KIB)
        try:
            if bulk and type(self.source).read is HomeDayLogs.read and bulkstage.worth_staging(entries):
                # a worker process stages the day files (core.index.bulkstage); the files it hands
                # back are read here, their ids looked up in the catalog (it holds the staged ones),
                # each numbered by its place in ``entries`` as the worker numbers the ones it stages
                with contextlib.closing(bulkstage.staged_reads(entries)) as staged:
                    self._write_files(staged, entries, state, full, None, limit, report, touched, progress,
                                      should_stop, numbered=True)
            else:
                here = (bulkstage.ReadHere(i) for i in range(len(entries)))
                self._write_files(here, entries, state, full, known, limit, report, touched, progress, should_stop)
        finally:
            if bulk:
                bulkstage.detach_stage(self.conn)
                self.conn.pragma("cache_size", -CACHE_KIB)
                self._restore_indexes()
        if full or (bulk and report.turns_added):
            with write(self.conn):
                self.conn.execute("INSERT INTO fts(fts) VALUES ('optimize')")
        if touched:
            with write(self.conn):
                meta.put(self.conn, "files_changed_at", _now())
        return report, touched

    def _write_files(
        self,
        items: Iterator[bulkstage.Staged | bulkstage.ReadHere],
        entries: list[DayEntry],
        state: dict[str, FileState],
        full: bool,
        known: set[str] | None,
        limit: int,
        report: ReindexReport,
        touched: set[str],
        progress: Progress | None,
        should_stop: Callable[[], bool] | None,
        *,
        numbered: bool = False,
    ) -> None:
        """Write what ``items`` say of ``entries``, in order: a stage is copied in one transaction; a
        file to read here is read if new or changed and written in batches of ``limit`` turns (what
        came before a stage is written first: a later file may add to a day written here).
        ``numbered``: a new file's row takes its place in ``entries`` as its id."""
        batch: list[FileRead] = []
        batch_turns = 0
        for item in items:
            if isinstance(item, bulkstage.Staged):
                if batch:
                    self._write_batch(batch, report, touched, known)
                    batch, batch_turns = [], 0
                bulkstage.copy_stage(self.conn, item)
                with write(self.conn):
                    bulkstage.insert_stage(self.conn)
                report.read += len(item.entries)
                report.turns_added += item.turns
                touched.update(item.days)
                done = item.entries[-1] + 1
            else:
                entry, done = entries[item.entry], item.entry + 1
                row = state.get(entry.day)
                unchanged = row is not None and row.size == entry.size and row.mtime_ns == entry.mtime_ns
                if full or not unchanged:
                    batch.append(self._read_file(entry, row, full, item.entry + 1 if numbered else None))
                    batch_turns += len(batch[-1].chunk.turns)
            stop = should_stop is not None and should_stop()
            if batch and (batch_turns >= limit or done == len(entries) or stop):
                self._write_batch(batch, report, touched, known)
                batch, batch_turns = [], 0
            if progress is not None:
                progress("files", done, len(entries))
            if stop:
                break

    def _write_batch(self, batch: list[FileRead], report: ReindexReport, touched: set[str],
                     known: set[str] | None) -> None:
        with write(self.conn):
            fts = catalog.FtsRows()
            for item in batch:
                self._apply_file(item, report, touched, known, fts)
            fts.flush(self.conn)

    # -- vectors --------------------------------------------------------------------------------

    def embedder(self) -> Embedder:
        if self._embedder is None:
            if self._embedder_factory is None:
                raise RuntimeError("reindex: no embedder configured")
            self._embedder = self._embedder_factory()
        return self._embedder

    def _ensure_model(self, report: ReindexReport) -> None:
        """Load the model, record its name and dimension (resetting the vectors if they differ)."""
        embedder = self.embedder()
        model = vectors.VectorModel(embedder.name, int(embedder.dim))
        with write(self.conn):
            if vectors.ensure_model(self.conn, model):
                report.model_reset = True
                meta.put(self.conn, "embed_complete", 0)
        report.model = model.name

    def _next_batch(self, days: list[str] | None, after: int) -> list[tuple[int, str]]:
        """Up to a span of pending turns after doc ``after`` in doc order: in ``days`` only (sorted, so
        their doc blocks ascend), or anywhere when ``None``. A span fills across days."""
        span = self.window * SPAN_WINDOWS
        if days is None:
            return vectors.pending_turns(self.conn, after, TURN_MAX, span)
        batch: list[tuple[int, str]] = []
        for day in days:
            lo = day_block(day)
            hi = lo + DAY_SLOTS - 1
            if after >= hi:
                continue
            batch += vectors.pending_turns(self.conn, max(after, lo - 1), hi, span - len(batch))
            if len(batch) >= span:
                break
        return batch

    def _store(self, batch: list[tuple[int, str]], table: str, shadow: bool = False) -> int:
        """Embed ``batch`` and store the vectors of the docs that still hold the same text (``shadow``:
        into the shadow set). A turn's text is read for the times it speaks of (core.index.mentions)
        in a thread while the model embeds the window (the model's own threads wait without the GIL),
        and kept in the same transaction as its vector."""
        marks = ",".join("?" * len(batch))
        docs = [doc for doc, _ in batch]
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="reverie-mentions") as reader:
            reading = None
            if table == "turns":
                said = self.conn.execute(f"SELECT id, ts, text FROM turns WHERE doc IN ({marks})", docs).fetchall()
                reading = reader.submit(mentions.read, said, self.zone, self.languages)
            vecs = self.embedder().embed([text for _, text in batch])
            spans = reading.result() if reading is not None else {}
        with write(self.conn):
            now = {
                doc: (text, turn_id)
                for doc, text, turn_id in self.conn.execute(
                    f"SELECT doc, text, id FROM {table} WHERE doc IN ({marks})", docs
                )
            }
            keep = [i for i, (doc, text) in enumerate(batch) if doc in now and now[doc][0] == text]
            (vectors.put_shadow if shadow else vectors.put)(self.conn, [batch[i][0] for i in keep], vecs[keep])
            if table == "turns":
                kept_ids = {now[batch[i][0]][1] for i in keep}
                mentions.keep(self.conn, {turn_id: found for turn_id, found in spans.items() if turn_id in kept_ids})
        return len(keep)

    def _read_mentions(self, should_stop: Callable[[], bool] | None) -> bool:
        """Read every turn that has a vector for the times it speaks of (an index whose vectors came
        before core.index.mentions); True when done, False when stopped (the next pass starts over)."""
        after = -1
        while True:
            rows = self.conn.execute(
                "SELECT t.doc, t.id, t.ts, t.text FROM turns t JOIN vectors v ON v.doc = t.doc "
                "WHERE t.doc > ? ORDER BY t.doc LIMIT ?",
                (after, MENTION_WINDOW),
            ).fetchall()
            if not rows:
                break
            with write(self.conn):
                mentions.record(self.conn, ((turn_id, ts, text) for _, turn_id, ts, text in rows), self.zone,
                                self.languages)
            after = rows[-1][0]
            if should_stop is not None and should_stop():
                return False
        with write(self.conn):
            meta.put(self.conn, mentions.COMPLETE, 1)
        return True

    def embedding_due(self) -> bool:
        """Whether an embedding pass may have work although no file changed (cheap to ask)."""
        recorded = vectors.current_model(self.conn)
        if meta.get_int(self.conn, "embed_complete") != 1 or vectors.pending_memories(self.conn):
            return True
        if meta.get_int(self.conn, mentions.COMPLETE, 1) != 1 or vectors.shadow_model(self.conn) is not None:
            return True  # a shadow set: to be completed, or dropped when its model is no longer wanted
        return recorded is not None and recorded.name != self.embedder().name

    def embed(
        self,
        touched: set[str] | None = None,
        *,
        report: ReindexReport | None = None,
        progress: Progress | None = None,
        should_stop: Callable[[], bool] | None = None,
    ) -> ReindexReport:
        """Give every turn and memory that should have a vector one.

        ``touched``: the days changed by this run; when every other day is known to be complete
        (``meta.embed_complete``), only those days are searched for work. The model is loaded only
        when there is work, or to learn the dimension of a model that replaced another.
        """
        report = report or ReindexReport()
        try:
            return self._embed(touched, report, progress, should_stop)
        except KeyboardInterrupt as exc:
            if isinstance(exc, ReindexInterrupted):
                raise
            if not self.conn.get_autocommit():  # interrupted between BEGIN and the block that rolls back
                self.conn.execute("ROLLBACK")
            report.interrupted = True
            shadow = vectors.shadow_model(self.conn) is not None
            report.pending = vectors.pending_count(self.conn, vectors.SHADOW if shadow else "vectors")
            if meta.get_int(self.conn, "embed_complete") != 0:
                with write(self.conn):
                    meta.put(self.conn, "embed_complete", 0)
            raise ReindexInterrupted(report) from None

    def _embed(
        self,
        touched: set[str] | None,
        report: ReindexReport,
        progress: Progress | None,
        should_stop: Callable[[], bool] | None,
    ) -> ReindexReport:
        if self._reembeds() and not self._fill_shadow(report, progress, should_stop):
            report.pending = report.shadow_pending  # stopped: the old vectors stay the searched ones
            return report
        complete = meta.get_int(self.conn, "embed_complete") == 1
        days = sorted(touched) if (touched is not None and complete) else None
        total = vectors.pending_count(self.conn) if days is None else 0
        ensured, stopped, done, after, snapped = False, False, 0, -1, 0
        embedded_before = report.embedded
        while True:
            batch = self._next_batch(days, after)
            if not batch:
                break
            if not ensured:
                ensured = True
                self._ensure_model(report)
                if report.model_reset and days is not None:  # same name, other dimension: start over
                    days, after, total = None, -1, vectors.pending_count(self.conn)
                    continue
            after = batch[-1][0]
            by_length = sorted(batch, key=lambda item: len(item[1]))
            for start in range(0, len(by_length), self.window):
                done += self._store(by_length[start : start + self.window], "turns")
                report.embedded = embedded_before + done
                if done - snapped >= SNAPSHOT_MIN_ROWS:  # keep what searches load from SQLite small
                    self.maybe_snapshot(report)
                    snapped = done
                if progress is not None:
                    progress("embed", done, max(total, done))
                if should_stop is not None and should_stop():
                    stopped = True
                    break
            if stopped:
                break
        waiting = [] if stopped else vectors.pending_memories(self.conn)
        if waiting and not ensured:
            self._ensure_model(report)
        for start in range(0, len(waiting), self.window):
            done += self._store(waiting[start : start + self.window], "memories")
            report.embedded = embedded_before + done
        if not stopped and meta.get_int(self.conn, mentions.COMPLETE, 1) != 1:
            stopped = not self._read_mentions(should_stop)
        report.pending = vectors.pending_count(self.conn) if stopped else 0
        if meta.get_int(self.conn, "embed_complete") != (0 if stopped else 1):
            with write(self.conn):
                meta.put(self.conn, "embed_complete", 0 if stopped else 1)
        return report

    # -- another model: the shadow set --------------------------------------------------------------

    def _reembeds(self) -> bool:
        """Whether the configured model differs from the one of the stored vectors, which then stay
        searchable while a shadow set is made (True); with no vector stored, the old model is simply
        forgotten. A shadow of a model no longer configured is dropped."""
        recorded = vectors.current_model(self.conn)
        shadow = vectors.shadow_model(self.conn)
        name = self.embedder().name
        if recorded is None or recorded.name == name:
            if shadow is not None:
                with write(self.conn):
                    vectors.drop_shadow(self.conn)
            return False
        if vectors.count(self.conn) == 0:
            with write(self.conn):
                vectors.forget_model(self.conn)
                meta.put(self.conn, "embed_complete", 0)
            return False
        return True

    def _fill_shadow(self, report: ReindexReport, progress: Progress | None,
                     should_stop: Callable[[], bool] | None) -> bool:
        """Give every text turn and memory the configured model's vector in the shadow set, window by
        window, then swap it in. True once swapped; False when stopped (what was stored is kept)."""
        embedder = self.embedder()
        model = vectors.VectorModel(embedder.name, int(embedder.dim))
        with write(self.conn):
            vectors.begin_shadow(self.conn, model)
        report.model = report.shadow_model = model.name
        total, done, looks, after = vectors.pending_count(self.conn, vectors.SHADOW), 0, 0, -1
        while looks < SWAP_LOOKS:
            batch = vectors.pending_turns(self.conn, after, TURN_MAX, self.window * SPAN_WINDOWS, vectors.SHADOW)
            table = "turns" if batch else "memories"
            if batch:
                after = batch[-1][0]
            else:
                batch = vectors.pending_memories(self.conn, vectors.SHADOW)
            if not batch:
                with write(self.conn):
                    swapped = vectors.swap_shadow(self.conn) is not None
                if swapped:
                    report.swapped = report.model_reset = True
                    report.shadow_done, report.shadow_pending = vectors.count(self.conn), 0
                    self.maybe_snapshot(report)  # at once: readers map the new set instead of loading its rows
                    return True
                looks, after = looks + 1, -1  # docs came or changed since the look: look again
                continue
            by_length = sorted(batch, key=lambda item: len(item[1]))
            stopped = False
            for start in range(0, len(by_length), self.window):
                done += self._store(by_length[start : start + self.window], table, shadow=True)
                report.embedded = done
                if progress is not None:
                    progress("embed", done, max(total, done))
                stopped = should_stop is not None and should_stop()
                if stopped:
                    break
            if stopped:
                break
        report.shadow_done = vectors.count(self.conn, vectors.SHADOW)
        report.shadow_pending = vectors.pending_count(self.conn, vectors.SHADOW)
        return False

    def maybe_snapshot(self, report: ReindexReport, *, force: bool = False) -> None:
        root = self.index.snapshot_root
        epoch = meta.get_int(self.conn, "vec_epoch")
        base = snapshot_names.newest_gen(root, epoch)
        changed = self.conn.execute("SELECT count(*) FROM vectors WHERE gen > ?", (base,)).fetchone()[0]
        changed += self.conn.execute("SELECT count(*) FROM vector_removed WHERE gen > ?", (base,)).fetchone()[0]
        if force or changed >= SNAPSHOT_MIN_ROWS:
            written = snapshot.write(self.conn, root)
            report.snapshot = None if written is None else written.name

    # -- the whole run --------------------------------------------------------------------------

    def run(
        self,
        *,
        full: bool = False,
        embed: bool = True,
        progress: Progress | None = None,
        should_stop: Callable[[], bool] | None = None,
    ) -> ReindexReport:
        started = time.perf_counter()
        with self._writer_lock():
            report, touched = self.sync_files(full=full, progress=progress, should_stop=should_stop)
            if self.memory_source is not None:
                with write(self.conn):
                    report.memories, _ = memories.sync(self.conn, self.memory_source())
            if touched and not embed:
                with write(self.conn):
                    meta.put(self.conn, "embed_complete", 0)
            can_embed = embed and self._embedder_factory is not None and not (should_stop and should_stop())
            if can_embed and (full or touched or self.embedding_due()):
                self.embed(None if full else touched, report=report, progress=progress, should_stop=should_stop)
                self.maybe_snapshot(report)
            if report.read or report.removed or report.embedded or report.memories:
                checkpoint(self.conn)
        report.seconds = time.perf_counter() - started
        return report
