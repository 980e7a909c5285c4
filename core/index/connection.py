"""Opening ``index.db``: the SQLite binding, its settings, and the one way to write.

apsw, because the stdlib ``sqlite3`` here cannot load sqlite-vec and predates FTS5's
``contentless_delete``; apsw carries its own SQLite, wrote fastest (tests/bench/README.md, "The SQLite
binding") and never opens a transaction implicitly. Every connection: WAL with ``synchronous=NORMAL``
(the index is derived: a power cut can lose the last transactions, never corrupt the file); one busy
handler, :class:`BusyWait`, whose bounded waits end in :class:`IndexBusy` naming the file; every write
``BEGIN IMMEDIATE`` (:func:`write`: a deferred BEGIN that reads then writes gets SQLITE_BUSY_SNAPSHOT
under concurrency, MEASUREMENTS.md); the file created 0600 before SQLite opens it (it holds plaintext).
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import apsw

from core.errors import ReverieError
from core.fsutil import PRIVATE_FILE_MODE, ensure_private_dir

BUSY_TIMEOUT_MS = 5000
JOURNAL_SIZE_LIMIT = 64 * 1024 * 1024
CACHE_KIB = 32 * 1024  # page cache per connection
UPGRADE_MARKER_SUFFIX = "-upgrading"  # index.db-upgrading: the pid of the process applying a migration

Notice = Callable[[str], None]  # one line for the person, shown where the interface can


class IndexDbError(ReverieError):
    """The index database cannot be opened or used; the message names the file."""


class IndexBusy(IndexDbError, apsw.BusyError):
    """Another process held the index's write lock for longer than this one waits (an upgrade, a long
    write). Also an ``apsw.BusyError``, so a caller that answers from what the index holds when it is
    busy (the freshness policy) catches it as before."""


@dataclass(frozen=True)
class BusyPolicy:
    """How long a connection waits for another process's write lock, and where it says it waits.

    ``write_wait_s``: an ordinary write of another process (a reindex batch lasts milliseconds, a
    long one seconds); ``upgrade_wait_s``: a schema migration of another process (m005 refills the
    full-text index: about a minute per million turns). ``notice`` gets one line once the wait has
    lasted ``note_after_s`` (at once for an upgrade, which is known to be long)."""

    write_wait_s: float = BUSY_TIMEOUT_MS / 1000
    upgrade_wait_s: float = 600.0
    note_after_s: float = 1.0
    notice: Notice | None = None


def upgrade_marker(path: Path) -> Path:
    """The file that names the process applying a migration to the index at ``path``."""
    return path.with_name(path.name + UPGRADE_MARKER_SUFFIX)


def upgrading_pid(path: Path) -> int | None:
    """The pid in ``path``'s upgrade marker, when there is one and (where this can be asked) that
    process is alive; ``None`` otherwise. A guess: the pid may have been reused since."""
    try:
        pid = int(upgrade_marker(path).read_text(encoding="ascii").strip())
    except (OSError, ValueError):
        return None
    if pid <= 0:
        return None
    if sys.platform != "win32":  # os.kill(pid, 0) on Windows would terminate the process
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return None  # left by a process that died mid-upgrade; its transaction was rolled back
        except PermissionError:
            pass  # alive, another user's
    return pid


def _wait_text(seconds: float) -> str:
    return f"{seconds:g} s" if seconds < 120 else f"{seconds / 60:g} min"


class BusyWait:
    """The busy handler of one connection (``Connection.set_busy_handler``): SQLite calls it while
    another connection holds the lock it needs; it sleeps and asks to retry until the policy's bound,
    says once through ``notice`` that it waits, and records why it gave up for :meth:`error`."""

    _DELAYS = (0.001, 0.002, 0.005, 0.01, 0.015, 0.02, 0.025, 0.025, 0.025, 0.05, 0.05, 0.1)  # as sqlite3_busy_timeout

    def __init__(self, path: Path, policy: BusyPolicy) -> None:
        self.path = path
        self.policy = policy
        self.quiet = False  # no notice (a checkpoint waiting for readers is not worth a line)
        self._started = 0.0
        self._noted = False
        self._pid: int | None = None  # the upgrading process seen by the last wait

    def __call__(self, prior_calls: int) -> bool:
        now = time.monotonic()
        if prior_calls == 0:
            self._started, self._noted = now, False
        waited = now - self._started
        self._pid = upgrading_pid(self.path)
        limit = self.policy.upgrade_wait_s if self._pid is not None else self.policy.write_wait_s
        if waited >= limit:
            return False
        if (not self._noted and not self.quiet and self.policy.notice is not None
                and (self._pid is not None or waited >= self.policy.note_after_s)):
            self._noted = True
            with contextlib.suppress(Exception):  # a failing display must not turn a wait into an error
                self.policy.notice(self._note(limit))
        time.sleep(min(self._DELAYS[min(prior_calls, len(self._DELAYS) - 1)], max(limit - waited, 0.001)))
        return True

    def _who(self) -> str:
        if self._pid is not None:
            return f"is being upgraded by another Reverie process (pid {self._pid}?)"
        return "is being written by another Reverie process"

    def _note(self, limit: float) -> str:
        return f"{self.path.name} {self._who()}; waiting for it (up to {_wait_text(limit)})…"

    def error(self) -> IndexBusy:
        """The one-line error for a wait that ran out (or for a busy lock SQLite did not wait for)."""
        self._pid = upgrading_pid(self.path)
        return IndexBusy(f"{self.path} {self._who()} — try again in a moment")


class IndexConnection(apsw.Connection):
    """An apsw connection to ``index.db`` that knows how it waits for other processes (``busy``)."""

    busy: BusyWait


def busy_error(conn: apsw.Connection) -> IndexBusy:
    """The :class:`IndexBusy` for ``conn``'s file, after SQLite reported it busy."""
    waiter = getattr(conn, "busy", None)
    if isinstance(waiter, BusyWait):
        return waiter.error()
    path = Path(conn.filename)
    return BusyWait(path, BusyPolicy()).error()


def _create_private(path: Path) -> None:
    """Create ``path`` empty with mode 0600 (no-op if it exists), and tighten a looser existing mode."""
    ensure_private_dir(path.parent)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, PRIVATE_FILE_MODE)
    os.close(fd)
    if path.stat().st_mode & 0o777 != PRIVATE_FILE_MODE:
        os.chmod(path, PRIVATE_FILE_MODE)


def load_sqlite_vec(conn: apsw.Connection) -> None:
    import sqlite_vec  # lazy: it imports numpy, which `import core.index` must not load

    conn.enable_load_extension(True)
    try:
        conn.load_extension(sqlite_vec.loadable_path())
    finally:
        conn.enable_load_extension(False)


def _wal(conn: apsw.Connection, wait_s: float) -> None:
    """Put the database in WAL mode (it stays so: the mode is kept in the file).

    Switching a fresh file to WAL needs a lock that SQLite's busy handler does not wait for: two
    processes opening a new index at once had the second fail with "database is locked". The mode
    is asked first (a file already in WAL needs no switch), and a busy switch is retried for up to
    the write wait."""
    deadline = time.monotonic() + wait_s
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


def connect(path: Path, *, busy: BusyPolicy | None = None) -> IndexConnection:
    """A configured connection to the index at ``path`` (the file is created 0600 if absent), waiting
    for other processes as ``busy`` says (:class:`BusyPolicy`: 5 s for a write, 10 min for an upgrade,
    no notice)."""
    policy = busy or BusyPolicy()
    try:
        _create_private(path)
        conn = IndexConnection(str(path))
        conn.busy = BusyWait(path, policy)
        conn.set_busy_handler(conn.busy)
        load_sqlite_vec(conn)
        _wal(conn, policy.write_wait_s)
        conn.pragma("journal_size_limit", JOURNAL_SIZE_LIMIT)
        conn.pragma("synchronous", "normal")
        conn.pragma("temp_store", "memory")
        conn.pragma("cache_size", -CACHE_KIB)
    except apsw.BusyError as exc:
        raise BusyWait(path, policy).error() from exc
    except apsw.Error as exc:
        raise IndexDbError(f"{path}: cannot open the index: {exc}") from exc
    return conn


@contextlib.contextmanager
def write(conn: apsw.Connection) -> Iterator[apsw.Connection]:
    """One write transaction: ``BEGIN IMMEDIATE`` … ``COMMIT``, rolled back on any exception. Another
    process's lock held past the connection's wait is :class:`IndexBusy`."""
    try:
        conn.execute("BEGIN IMMEDIATE")
    except apsw.BusyError as exc:
        raise busy_error(conn) from exc
    try:
        yield conn
    except BaseException:
        if not conn.get_autocommit():
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


@contextlib.contextmanager
def read(conn: apsw.Connection) -> Iterator[apsw.Connection]:
    """One read snapshot (several SELECTs that must agree with each other). In WAL, readers do not
    wait for writers; a lock that still stays busy (a recovery of the WAL index) is :class:`IndexBusy`."""
    conn.execute("BEGIN")
    try:
        yield conn
    except IndexBusy:
        raise
    except apsw.BusyError as exc:
        raise busy_error(conn) from exc
    finally:
        if not conn.get_autocommit():
            conn.execute("COMMIT")


def checkpoint(conn: apsw.Connection) -> None:
    """Fold the WAL back into the database and truncate it (call when idle; never raises on BUSY, and
    its wait for readers is not announced)."""
    waiter = getattr(conn, "busy", None)
    if isinstance(waiter, BusyWait):
        waiter.quiet = True
    try:
        with contextlib.suppress(apsw.BusyError, apsw.LockedError):
            conn.wal_checkpoint(mode=apsw.SQLITE_CHECKPOINT_TRUNCATE)
    finally:
        if isinstance(waiter, BusyWait):
            waiter.quiet = False


def sidecar_files(path: Path) -> list[Path]:
    """The database and the files SQLite keeps beside it."""
    return [
        path,
        path.with_name(path.name + "-wal"),
        path.with_name(path.name + "-shm"),
        path.with_name(path.name + "-journal"),
    ]
