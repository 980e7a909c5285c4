"""Opening ``index.db``: the SQLite binding, its settings, and the one way to write.

Why apsw. This Python's ``sqlite3`` (SQLite 3.40.1) cannot load extensions at all, so it cannot load
sqlite-vec, and it predates FTS5's ``contentless_delete`` (3.43). Three bindings can; measured here on
one run (200k FTS5 rows of 20 words inserted one by one in a transaction; 200k rows fetched; a
rowid-bounded bm25 query)::

    binding            SQLite   sqlite-vec  contentless_delete  insert 200k  fetch 200k  query
    apsw 3.54.1        3.54.1   loads       yes                 3.04 s       0.12 s      0.22 ms
    sqlean.py 3.50.4   3.50.4   loads       yes                 3.99 s       0.20 s      0.25 ms
    pysqlite3-binary   3.51.1   loads       yes                 4.30 s       0.12 s      0.15 ms
    sqlite3 (stdlib)   3.40.1   cannot      no                  3.18 s       0.22 s      0.31 ms

apsw is the fastest writer here, already a dependency, and its wheels (Linux, macOS, Windows; x86-64
and arm64) carry their own SQLite of the same version, so a user's machine runs the SQLite we test
with. pysqlite3-binary ships Linux x86-64 wheels only; sqlean.py lags a release and bundles
extensions we do not need. apsw also never opens transactions behind our back (no implicit BEGIN),
which is what the rule below needs.

Rules for every connection:

- WAL, ``synchronous=NORMAL`` (the index is derived: a power cut can lose the last transactions,
  never corrupt the file, and ``reverie reindex`` redoes them), ``busy_timeout`` (default 5 s),
  ``journal_size_limit`` (64 MiB) so the WAL does not stay gigabytes large after a busy spell.
- Every write transaction is ``BEGIN IMMEDIATE`` (:func:`write`): a deferred BEGIN that reads and
  then writes gets SQLITE_BUSY_SNAPSHOT under concurrency even with a timeout (MEASUREMENTS.md).
- The file holds plaintext of every turn, so it is created 0600 before SQLite opens it (its WAL and
  shared-memory files take the database's mode), inside the 0700 cache folder.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path

import apsw

from core.errors import ReverieError
from core.fsutil import PRIVATE_FILE_MODE, ensure_private_dir

BUSY_TIMEOUT_MS = 5000
JOURNAL_SIZE_LIMIT = 64 * 1024 * 1024
CACHE_KIB = 32 * 1024  # page cache per connection


class IndexDbError(ReverieError):
    """The index database cannot be opened or used; the message names the file."""


def _create_private(path: Path) -> None:
    """Create ``path`` empty with mode 0600 (no-op if it exists), and tighten a looser existing mode."""
    ensure_private_dir(path.parent)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, PRIVATE_FILE_MODE)
    os.close(fd)
    if path.stat().st_mode & 0o777 != PRIVATE_FILE_MODE:
        os.chmod(path, PRIVATE_FILE_MODE)


def load_sqlite_vec(conn: apsw.Connection) -> None:
    import sqlite_vec

    conn.enable_load_extension(True)
    try:
        conn.load_extension(sqlite_vec.loadable_path())
    finally:
        conn.enable_load_extension(False)


def _wal(conn: apsw.Connection, busy_timeout_ms: int) -> None:
    """Put the database in WAL mode (it stays so: the mode is kept in the file).

    Switching a fresh file to WAL needs a lock that SQLite's busy handler does not wait for: two
    processes opening a new index at once had the second fail with "database is locked". The mode
    is asked first (a file already in WAL needs no switch), and a busy switch is retried for up to
    the busy timeout."""
    deadline = time.monotonic() + busy_timeout_ms / 1000
    delay = 0.005
    while True:
        try:
            if conn.pragma("journal_mode") != "wal":
                conn.pragma("journal_mode", "wal")
            return
        except apsw.BusyError:
            if time.monotonic() >= deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.1)


def connect(path: Path, *, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> apsw.Connection:
    """A configured connection to the index at ``path`` (the file is created 0600 if absent)."""
    try:
        _create_private(path)
        conn = apsw.Connection(str(path))
        conn.set_busy_timeout(busy_timeout_ms)
        load_sqlite_vec(conn)
        _wal(conn, busy_timeout_ms)
        conn.pragma("journal_size_limit", JOURNAL_SIZE_LIMIT)
        conn.pragma("synchronous", "normal")
        conn.pragma("temp_store", "memory")
        conn.pragma("cache_size", -CACHE_KIB)
    except apsw.Error as exc:
        raise IndexDbError(f"{path}: cannot open the index: {exc}") from exc
    return conn


@contextlib.contextmanager
def write(conn: apsw.Connection) -> Iterator[apsw.Connection]:
    """One write transaction: ``BEGIN IMMEDIATE`` … ``COMMIT``, rolled back on any exception."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        if not conn.get_autocommit():
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


@contextlib.contextmanager
def read(conn: apsw.Connection) -> Iterator[apsw.Connection]:
    """One read snapshot (several SELECTs that must agree with each other)."""
    conn.execute("BEGIN")
    try:
        yield conn
    finally:
        if not conn.get_autocommit():
            conn.execute("COMMIT")


def checkpoint(conn: apsw.Connection) -> None:
    """Fold the WAL back into the database and truncate it (call when idle; never raises on BUSY)."""
    with contextlib.suppress(apsw.BusyError, apsw.LockedError):
        conn.wal_checkpoint(mode=apsw.SQLITE_CHECKPOINT_TRUNCATE)


def sidecar_files(path: Path) -> list[Path]:
    """The database and the files SQLite keeps beside it."""
    return [
        path,
        path.with_name(path.name + "-wal"),
        path.with_name(path.name + "-shm"),
        path.with_name(path.name + "-journal"),
    ]
