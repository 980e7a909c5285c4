"""Another process upgrading or writing ``index.db``: this one waits, says so in one line, and past a
bounded wait fails with one line naming the file (``IndexBusy``), never apsw's bare ``BusyError``.

The other process is a real second connection holding the write lock (in a child process, or in
this one), the way a migration holds it (``migrations.upgrading``) or an ordinary write does. Waits
are bounded by short policies; nothing asserts on timing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import apsw
import pytest

from core.errors import ReverieError
from core.index import HomeDayLogs, Reindexer, SearchIndex
from core.index.connection import BusyPolicy, IndexBusy, connect, upgrade_marker, write
from core.index.migrations import MIGRATIONS, applied, upgrading
from core.paths import HomePaths
from tests.helpers.index import append, turn

ROOT = Path(__file__).resolve().parents[2]
LAST = MIGRATIONS[-1][0]


def _index_one_migration_behind(path: Path) -> None:
    """An index whose last migration is not recorded yet: the next process to open it applies it."""
    SearchIndex(path).close()
    conn = connect(path)
    with write(conn):
        conn.execute("DELETE FROM _migrations WHERE name = ?", (LAST,))
    conn.close()


def _held(path: Path) -> apsw.Connection:
    """A second connection that holds the write lock, as an ordinary write of another process does."""
    holder = connect(path)
    holder.execute("BEGIN IMMEDIATE")
    return holder


def test_opening_while_another_process_upgrades_fails_in_one_line_naming_it(paths: HomePaths) -> None:
    """The child opens the index while this process holds it in a migration's transaction, and
    waits (its bound is short here); its note and its error name the upgrading process."""
    db = paths.index_db
    paths.ensure_cache()
    _index_one_migration_behind(db)
    child = textwrap.dedent(
        """
        import json, sys
        from pathlib import Path
        from core.errors import ReverieError
        from core.index import SearchIndex
        from core.index.connection import BusyPolicy

        notes = []
        try:
            SearchIndex(Path(sys.argv[1]), busy=BusyPolicy(upgrade_wait_s=0.3, notice=notes.append)).close()
        except ReverieError as exc:
            print(json.dumps({"error": str(exc), "type": type(exc).__name__, "notes": notes}))
        else:
            print(json.dumps({"error": None, "notes": notes}))
        """
    )
    holder = connect(db)
    with upgrading(holder):
        assert upgrade_marker(db).read_text() == f"{os.getpid()}\n"
        done = subprocess.run([sys.executable, "-c", child, str(db)], cwd=ROOT, capture_output=True, text=True,
                              timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    holder.close()
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert result["type"] == "IndexBusy"
    assert result["error"] == (f"{db} is being upgraded by another Reverie process (pid {os.getpid()}?) "
                               "— try again in a moment")
    assert len(result["notes"]) == 1
    note = result["notes"][0]
    assert note.startswith(f"index.db is being upgraded by another Reverie process (pid {os.getpid()}?); waiting")
    assert "\n" not in note
    assert not upgrade_marker(db).exists()  # the upgrade's transaction ended: its marker went with it


def test_opening_while_another_connection_upgrades_waits_then_upgrades(paths: HomePaths) -> None:
    """Within the bound, the opener waits (one note, at once) and opens the index once the lock is
    free; the migration still pending is then applied by it."""
    db = paths.index_db
    paths.ensure_cache()
    _index_one_migration_behind(db)
    noted = threading.Event()
    notes: list[str] = []
    opened: list[list[str]] = []
    failed: list[BaseException] = []

    def note(line: str) -> None:
        notes.append(line)
        noted.set()

    def open_index() -> None:
        try:
            with SearchIndex(db, busy=BusyPolicy(upgrade_wait_s=120, notice=note)) as index:
                opened.append(applied(index.conn))
        except BaseException as exc:  # handed to the test thread
            failed.append(exc)

    holder = connect(db)
    opener = threading.Thread(target=open_index)
    with upgrading(holder):
        opener.start()
        assert noted.wait(timeout=60), "the opener did not say it waits"
        assert opener.is_alive() and not opened
    opener.join(timeout=60)
    holder.close()
    assert not failed, failed
    assert opened and opened[0][-1] == LAST
    assert len(notes) == 1 and "being upgraded by another Reverie process" in notes[0]


def test_a_write_held_by_another_connection_is_index_busy(paths: HomePaths) -> None:
    """An ordinary write (no upgrade marker) held past the write wait: the index's own writes and a
    reindex raise ``IndexBusy`` (a ReverieError, still an ``apsw.BusyError`` for callers that answer
    from what the index holds), with a note once the wait was long enough."""
    db = paths.index_db
    paths.ensure_cache()
    SearchIndex(db).close()
    append(paths, turn("2026-01-05T09:00:00", "the pier at dawn"))
    notes: list[str] = []
    index = SearchIndex(db, busy=BusyPolicy(write_wait_s=0.3, note_after_s=0.0, notice=notes.append))
    holder = _held(db)
    try:
        with pytest.raises(IndexBusy) as caught:
            index.put_meta("k", "v")
        with Reindexer(index, HomeDayLogs(paths)) as reindexer, pytest.raises(IndexBusy) as again:
            reindexer.run(embed=False)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    message = f"{db} is being written by another Reverie process — try again in a moment"
    assert str(caught.value) == message and str(again.value) == message
    assert isinstance(caught.value, ReverieError) and isinstance(caught.value, apsw.BusyError)
    assert notes and notes[0].startswith("index.db is being written by another Reverie process; waiting")
    index.put_meta("k", "v")  # free again: the same index writes
    assert index.get_meta("k") == "v"
    index.close()


def test_a_marker_left_by_a_dead_process_is_an_ordinary_write(paths: HomePaths) -> None:
    """A process that died mid-upgrade left its marker (its transaction was rolled back): a lock held
    now is someone's write, waited for as long as a write, not as an upgrade."""
    db = paths.index_db
    paths.ensure_cache()
    SearchIndex(db).close()
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True)
    upgrade_marker(db).write_text(gone.stdout.strip() + "\n")
    index = SearchIndex(db, busy=BusyPolicy(write_wait_s=0.2, upgrade_wait_s=600))
    holder = _held(db)
    try:
        with pytest.raises(IndexBusy, match="is being written by another Reverie process"):
            index.put_meta("k", "v")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        index.close()


def test_reverie_reindex_beside_a_held_write_prints_one_line(paths: HomePaths) -> None:
    """The CLI: `reverie reindex` while another process holds the write lock past the default wait
    (5 s) printed apsw's traceback; now one line naming the file, and the ReverieError exit code."""
    SearchIndex.open(paths).close()
    append(paths, turn("2026-01-05T09:00:00", "the pier at dawn"))
    holder = _held(paths.index_db)
    try:
        done = subprocess.run([sys.executable, "-m", "tui_app.cli.main", "reindex", "--no-embed"], cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
                              timeout=120)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert done.stderr.strip().splitlines()[-1] == (
        f"reverie: {paths.index_db} is being written by another Reverie process — try again in a moment")
