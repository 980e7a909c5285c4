"""A build from empty on two cores: a worker process reads the day files and stages their catalog and
FTS5 rows; the writer copies each stage with ``INSERT … SELECT``, so decoding on one core overlaps
SQLite's work on the other (figures: tests/bench/README.md, ``bench_recall.py``).

The worker stages only what is known without the database (a clean day file whose turns fall on its
own day, of a day and with ids no earlier file had); any other file comes back as :class:`ReadHere`
for the writer. A stage is a serialized in-memory SQLite database framed on the worker's standard
output. The worker runs as ``python -m core.index.bulkstage``, not ``multiprocessing`` (a spawned child
would import the parent's ``__main__``); when it dies, the writer reads the files it did not receive
(:func:`staged_reads`), and a stage is copied in one transaction, never in part.
"""

from __future__ import annotations

import json
import os
import queue
import struct
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from hashlib import sha256
from operator import attrgetter
from pathlib import Path
from typing import IO, TYPE_CHECKING

import apsw

from core.conversation import read_day
from core.index.catalog import TURN_COLUMNS, TURN_FIELDS
from core.index.logsource import read_records
from core.index.rowids import DAY_SLOTS, day_block
from core.index.tokenize import index_texts

if TYPE_CHECKING:
    from core.index.catalog import TurnRecord
    from core.index.logsource import DayEntry

STAGE_MIN_BYTES = 16 << 20  # day files below this are built in one process (a worker costs ~0.3 s to start)
STAGE_TURNS = 20_000  # turns per stage: one copy, one transaction, one FTS5 segment
FIRST_STAGE_TURNS = 2_000  # the first stage is small, so the writer starts soon after the worker does
LOOKAHEAD = 2  # stages the worker may hold ready while the writer copies
STAGE = "bulk_stage"  # the writer's name for the attached stage

_FRAME = struct.Struct(">IQ")  # header length, blob length
_TURN_FIELDS = tuple(TURN_FIELDS.split(", "))  # the catalog's, in its order
_FILE_COLUMNS = "id, day, path, size, mtime_ns, read_offset, sha256, turns, bad_lines, indexed_at"
_SCHEMA = (
    f"CREATE TABLE f({_FILE_COLUMNS.replace('id,', 'id INTEGER PRIMARY KEY,', 1)});"
    f"CREATE TABLE t({TURN_COLUMNS.replace('doc,', 'doc INTEGER PRIMARY KEY,', 1)}, body)"
)


@dataclass(frozen=True)
class Staged:
    """Day files ``entries`` (their indexes in the list handed to :func:`staged_reads`), staged."""

    entries: tuple[int, ...]
    turns: int
    days: tuple[str, ...]
    blob: bytes = field(repr=False)


@dataclass(frozen=True)
class ReadHere:
    """Day file ``entry``, for the writer to read and apply itself."""

    entry: int


def worth_staging(entries: Sequence[DayEntry]) -> bool:
    """Whether a build from empty of ``entries`` should use a worker: enough bytes to pay for its
    start, and a second core to run it on."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return cores >= 2 and sum(entry.size for entry in entries) >= STAGE_MIN_BYTES


# -- the writer's side ---------------------------------------------------------------------------


def staged_reads(entries: Sequence[DayEntry]) -> Iterator[Staged | ReadHere]:
    """One item per day file of ``entries`` in order, a :class:`Staged` covering a run of them:
    from a worker process while it works, then :class:`ReadHere` for every file it did not hand
    over (it failed, died, or could not start). Closing the iterator stops the worker."""
    received = 0
    try:
        worker = _start(entries)
    except OSError:
        worker = None
    try:
        if worker is not None:
            assert worker.stdout is not None
            for item in _frames(worker.stdout):
                if item is None:
                    break
                yield item
                received = (item.entries[-1] if isinstance(item, Staged) else item.entry) + 1
        for index in range(received, len(entries)):
            yield ReadHere(index)
    finally:
        if worker is not None:
            if worker.poll() is None:
                worker.kill()
            worker.wait()
            if worker.stdout is not None:
                worker.stdout.close()


def _start(entries: Sequence[DayEntry]) -> subprocess.Popen[bytes]:
    root = str(Path(__file__).resolve().parents[2])  # the folder that holds the core package
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    worker = subprocess.Popen(
        [sys.executable, "-m", "core.index.bulkstage"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    job = {
        "files": [[entry.day, str(entry.path), entry.size, entry.mtime_ns] for entry in entries],
        "stage_turns": STAGE_TURNS,
        "first_stage_turns": FIRST_STAGE_TURNS,
    }
    assert worker.stdin is not None
    try:
        worker.stdin.write(json.dumps(job).encode())
        worker.stdin.close()
    except OSError:
        worker.kill()
        worker.wait()
        raise
    return worker


def _read_exactly(stream: IO[bytes], size: int) -> bytes | None:
    data = stream.read(size)
    return data if data is not None and len(data) == size else None


def _frames(stream: IO[bytes]) -> Iterator[Staged | ReadHere | None]:
    """The worker's items; ``None`` once it failed or its output ended early."""
    while True:
        head = _read_exactly(stream, _FRAME.size)
        if head is None:
            yield None
            return
        header_len, blob_len = _FRAME.unpack(head)
        header_bytes = _read_exactly(stream, header_len)
        blob = _read_exactly(stream, blob_len) if blob_len else b""
        if header_bytes is None or blob is None:
            yield None
            return
        header = json.loads(header_bytes)
        kind = header.get("kind")
        if kind == "stage":
            yield Staged(tuple(header["entries"]), header["turns"], tuple(header["days"]), blob)
        elif kind == "here":
            yield ReadHere(header["entry"])
        elif kind == "done":
            return
        else:  # "failed", or anything this writer does not know
            yield None
            return


def copy_stage(conn: apsw.Connection, staged: Staged) -> None:
    """Load ``staged`` as the attached database :data:`STAGE`. Outside a transaction (SQLite does not
    replace an attached database inside one); :func:`insert_stage` then copies it."""
    if not _attached(conn):
        conn.execute(f"ATTACH ':memory:' AS {STAGE}")
    conn.deserialize(STAGE, staged.blob)


def insert_stage(conn: apsw.Connection) -> None:
    """Copy the loaded stage into ``files``, ``turns``, FTS5 and ``actors``, inside the caller's write
    transaction."""
    conn.execute(f"INSERT INTO files({_FILE_COLUMNS}) SELECT {_FILE_COLUMNS} FROM {STAGE}.f")
    conn.execute(f"INSERT INTO turns({TURN_COLUMNS}) SELECT {TURN_COLUMNS} FROM {STAGE}.t")
    conn.execute(f"INSERT INTO fts(rowid, body) SELECT doc, coalesce(body, text) FROM {STAGE}.t")
    conn.execute(f"INSERT OR IGNORE INTO actors(name) SELECT DISTINCT actor FROM {STAGE}.t")


def detach_stage(conn: apsw.Connection) -> None:
    if _attached(conn):
        conn.execute(f"DETACH {STAGE}")


def _attached(conn: apsw.Connection) -> bool:
    return any(row[1] == STAGE for row in conn.execute("PRAGMA database_list"))


# -- the worker's side ---------------------------------------------------------------------------


@dataclass
class _Stage:
    """The files and rows of one stage as it fills."""

    entries: list[int] = field(default_factory=list)
    days: list[str] = field(default_factory=list)
    files: list[tuple[object, ...]] = field(default_factory=list)
    docs: list[int] = field(default_factory=list)
    columns: list[list[object]] = field(default_factory=lambda: [[] for _ in _TURN_FIELDS])
    file_ids: list[int] = field(default_factory=list)
    seqs: list[int] = field(default_factory=list)

    def add(self, entry: int, day: str, file_row: tuple[object, ...], turns: Sequence[TurnRecord]) -> None:
        """Day file ``entry``'s turns, sorted by time within the day as the catalog numbers them."""
        stamps = [turn.ts for turn in turns]
        positions = sorted(range(len(turns)), key=stamps.__getitem__)  # stable: file order among equal times
        chosen = turns if positions == list(range(len(turns))) else [turns[i] for i in positions]
        start = day_block(day)
        self.entries.append(entry)
        self.days.append(day)
        self.files.append(file_row)
        self.docs += range(start, start + len(turns))
        for column, name in zip(self.columns, _TURN_FIELDS, strict=True):
            column += map(attrgetter(name), chosen)
        self.file_ids += [entry + 1] * len(turns)
        self.seqs += positions

    def blob(self) -> bytes:
        texts = self.columns[_TURN_FIELDS.index("text")]
        bodies = [None if body is text else body for body, text in zip(index_texts(texts), texts, strict=True)]
        db = apsw.Connection(":memory:")
        try:
            db.execute(_SCHEMA)
            db.execute("BEGIN")
            db.executemany("INSERT INTO f VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", self.files)
            db.executemany(
                "INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                zip(self.docs, *self.columns, self.file_ids, self.seqs, bodies, strict=True),
            )
            db.execute("COMMIT")
            return db.serialize("main")
        finally:
            db.close()


def _simple(turns: Sequence[TurnRecord], day: str, known: set[str], filled: set[str]) -> bool:
    """Whether the catalog would take ``turns`` of the file of ``day`` as they are: all of its own day,
    a day nothing was put in before, no id seen before or twice."""
    if not turns or len(turns) > DAY_SLOTS or day in filled:
        return False
    stamps = [turn.ts for turn in turns]
    if min(stamps)[:10] != day or max(stamps)[:10] != day:
        return False
    ids = {turn.id for turn in turns}
    return len(ids) == len(turns) and known.isdisjoint(ids)


def _stage_files(
    files: list[list[object]],
    send: queue.Queue[tuple[dict[str, object], bytes] | None],
    stage_turns: int,
    first_stage_turns: int,
) -> None:
    known: set[str] = set()
    filled: set[str] = set()
    stage, limit = _Stage(), first_stage_turns

    def flush() -> None:
        nonlocal stage, limit
        if stage.entries:
            header = {"kind": "stage", "entries": stage.entries, "turns": len(stage.docs), "days": stage.days}
            send.put((header, stage.blob()))
            stage, limit = _Stage(), stage_turns

    for entry, (day, path, size, mtime_ns) in enumerate(files):
        assert isinstance(day, str) and isinstance(path, str)
        chunk = read_records(Path(path))
        if chunk is not None and chunk.data is not None and _simple(chunk.turns, day, known, filled):
            known.update(turn.id for turn in chunk.turns)
            filled.add(day)
            indexed_at = datetime.now(UTC).isoformat(timespec="seconds")
            digest = sha256(chunk.data).hexdigest()
            row = (entry + 1, day, path, size, mtime_ns, chunk.offset, digest, len(chunk.turns), 0, indexed_at)
            stage.add(entry, day, row, chunk.turns)
            if len(stage.docs) >= limit:
                flush()
            continue
        flush()  # the writer applies what came before this file first
        turns = chunk.turns if chunk is not None else _general_read(Path(path))
        known.update(turn.id for turn in turns)
        filled.update(turn.ts[:10] for turn in turns)
        send.put(({"kind": "here", "entry": entry}, b""))
    flush()


def _general_read(path: Path) -> Sequence[TurnRecord]:
    """The turns the writer will read from a file the fast reader refused (the store's ``read_day``)."""
    return read_day(path, 0).turns


def _write_frames(out: IO[bytes], items: queue.Queue[tuple[dict[str, object], bytes] | None]) -> None:
    """Send what the stager queues (a thread: the stager fills the next stage meanwhile). The writer
    gone (its end of the pipe closed) ends this process: nobody reads what it would stage."""
    try:
        while (item := items.get()) is not None:
            header, blob = item
            encoded = json.dumps(header).encode()
            out.write(_FRAME.pack(len(encoded), len(blob)))
            out.write(encoded)
            out.write(blob)
            out.flush()
    except OSError:
        os._exit(0)


def main() -> None:
    """The worker: the job from standard input, frames to standard output."""
    job = json.loads(sys.stdin.buffer.read())
    out = sys.stdout.buffer
    items: queue.Queue[tuple[dict[str, object], bytes] | None] = queue.Queue(maxsize=LOOKAHEAD)
    writer = threading.Thread(target=_write_frames, args=(out, items), daemon=True)
    writer.start()
    try:
        _stage_files(job["files"], items, int(job["stage_turns"]), int(job["first_stage_turns"]))
        items.put(({"kind": "done"}, b""))
    except Exception as exc:  # the writer reads the rest itself; the reason is for a person debugging
        items.put(({"kind": "failed", "why": f"{type(exc).__name__}: {exc}"}, b""))
    items.put(None)
    writer.join()


if __name__ == "__main__":
    main()
