"""m006_turns_id_index: the catalog's id uniqueness moves from the column's UNIQUE constraint to the
named index ``turns_id`` (which a build from empty can defer). The catalog, FTS5 and vectors come
through unchanged, duplicates are still refused, and a migration killed part way leaves the index as
it was, migrated by the next open."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import apsw
import pytest

from core.embed.hashing import HashingEmbedder
from core.index import SearchIndex
from core.index.connection import connect, write
from core.index.migrations import MIGRATIONS
from core.paths import HomePaths
from tests.helpers.index import append, reindex, turn

M006 = "m006_turns_id_index"


def _log(paths: HomePaths, days: int = 20, per_day: int = 100) -> None:
    for day in range(1, days + 1):
        append(
            paths,
            *(
                turn(
                    f"2026-10-{day:02d}T{k // 60:02d}:{k % 60:02d}:00",
                    f"day {day} turn {k} 서울숲 river",
                    id=f"d{day}-{k}",
                    session=f"s{day}",
                )
                for k in range(per_day)
            ),
        )


def _as_before_m006(db: Path) -> None:
    """Give a current index the catalog it had before m006 (the UNIQUE column of m001), m006 not recorded."""
    scratch = apsw.Connection(":memory:")
    MIGRATIONS[0][1](scratch)
    old = scratch.execute("SELECT sql FROM sqlite_master WHERE name = 'turns'").fetchone()[0]
    scratch.close()
    conn = connect(db)
    with write(conn):
        indexes = [
            sql
            for (sql,) in conn.execute(
                "SELECT sql FROM sqlite_master WHERE tbl_name = 'turns' AND type = 'index' AND name != 'turns_id'"
            )
        ]
        conn.execute(old.replace("CREATE TABLE turns(", "CREATE TABLE turns_old(", 1))
        conn.execute(
            "INSERT INTO turns_old SELECT * FROM turns; DROP TABLE turns; ALTER TABLE turns_old RENAME TO turns"
        )
        for sql in indexes:
            conn.execute(sql)
        conn.execute("DELETE FROM _migrations WHERE name = ?", (M006,))
    conn.close()


def _state(conn: apsw.Connection) -> tuple[list[tuple], list[tuple], int, list[int]]:
    rows = conn.execute("SELECT * FROM turns ORDER BY doc").fetchall()
    files = conn.execute("SELECT * FROM files ORDER BY id").fetchall()
    vectors = conn.execute("SELECT count(*) FROM vectors").fetchone()[0]
    found = [
        doc for (doc,) in conn.execute('SELECT rowid FROM fts WHERE fts MATCH \'"서울" "울숲" river\' ORDER BY rowid')
    ]
    return rows, files, vectors, found


def _schema(conn: apsw.Connection) -> set[str]:
    return {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE tbl_name = 'turns'")}


@pytest.fixture
def old_index(paths: HomePaths) -> tuple[HomePaths, tuple]:
    _log(paths)
    with SearchIndex.open(paths) as index:
        reindex(index, paths, embedder=HashingEmbedder())
        before = _state(index.conn)
    _as_before_m006(paths.index_db)
    conn = connect(paths.index_db)
    assert "sqlite_autoindex_turns_1" in _schema(conn) and "turns_id" not in _schema(conn)
    conn.close()
    return paths, before


def test_m006_keeps_every_row_and_still_refuses_a_repeated_id(old_index) -> None:
    paths, before = old_index
    with SearchIndex.open(paths) as index:
        assert _state(index.conn) == before
        assert before[2] == 2000 and len(before[3]) == 2000
        assert _schema(index.conn) == {"turns", "turns_id", "turns_ts", "turns_session", "turns_file"}
        assert index.conn.execute("SELECT name FROM _migrations ORDER BY rowid DESC LIMIT 1").fetchone() == (M006,)
        with pytest.raises(apsw.ConstraintError):
            index.conn.execute(
                "INSERT INTO turns SELECT doc + 1000000, id, ts, actor, role, type, text, model, "
                "session, source, file_id, seq FROM turns LIMIT 1"
            )
        plan = index.conn.execute("EXPLAIN QUERY PLAN SELECT doc FROM turns WHERE id = 'x'").fetchall()
        assert "turns_id" in str(plan)
        assert [hit.id for hit in index.exact_search("river", limit=3)]  # the search path works on it


KILLED = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    from core.index.connection import connect
    from core.index.migrations import migrate

    conn = connect(Path(sys.argv[1]))
    copying = []

    def trace(_cursor, sql, _bindings):
        if "INSERT INTO turns_m006" in sql:
            copying.append(sql)
        return True

    conn.exec_trace = trace
    conn.set_progress_handler(lambda: os.kill(os.getpid(), signal.SIGKILL) if copying else 0, 100)
    migrate(conn)
    print("not killed")
    """
)


def test_a_migration_killed_part_way_leaves_the_index_usable_and_runs_again(old_index) -> None:
    paths, before = old_index
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).resolve().parents[2]), env.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, "-c", KILLED, str(paths.index_db)], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == -signal.SIGKILL, done.stdout + done.stderr
    # killed while copying the catalog: nothing of the migration is kept, the index is as it was
    conn = connect(paths.index_db)
    assert _schema(conn) == {"turns", "sqlite_autoindex_turns_1", "turns_ts", "turns_session", "turns_file"}
    assert conn.execute("SELECT 1 FROM _migrations WHERE name = ?", (M006,)).fetchone() is None
    assert _state(conn) == before
    conn.close()
    with SearchIndex.open(paths) as index:  # the next open migrates
        assert _state(index.conn) == before
        assert "turns_id" in _schema(index.conn)
        assert reindex(index, paths).turns_added == 0
