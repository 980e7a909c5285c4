"""Named schema migrations of ``index.db``, recorded in ``_migrations`` (as simonw/llm does).

Each migration is a function registered with :func:`migration`; it runs once, in order, inside its
own ``BEGIN IMMEDIATE`` transaction together with the row that records it, so two processes opening
a fresh index at once cannot both apply it. Never edit a migration that has shipped: add a new one.

While a migration's transaction is open, ``index.db-upgrading`` holds the pid of the process applying
it (:func:`upgrading`): another process that finds the index locked then knows it waits for an upgrade
(longer than for a write, and says so: core.index.connection.BusyWait).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import apsw

from core.fsutil import atomic_write_text
from core.index.connection import upgrade_marker, write
from core.index.tokenize import index_text

Migration = Callable[[apsw.Connection], None]
MIGRATIONS: list[tuple[str, Migration]] = []


def migration(fn: Migration) -> Migration:
    MIGRATIONS.append((fn.__name__, fn))
    return fn


@migration
def m001_catalog(conn: apsw.Connection) -> None:
    conn.execute(
        """
        CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
        -- One row per day file of the log: how far it has been read and what that prefix hashed to.
        CREATE TABLE files(
            id INTEGER PRIMARY KEY,
            day TEXT NOT NULL UNIQUE,
            path TEXT NOT NULL,
            size INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            read_offset INTEGER NOT NULL,  -- bytes consumed, always at a line start
            sha256 TEXT NOT NULL,          -- of bytes [0, read_offset)
            turns INTEGER NOT NULL,        -- turns read so far: the next turn's seq
            bad_lines INTEGER NOT NULL,
            indexed_at TEXT NOT NULL
        );
        -- The turn catalog. doc is the FTS5 rowid and the vector key: time-ordered (core.index.rowids).
        CREATE TABLE turns(
            doc INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            ts TEXT NOT NULL,
            actor TEXT NOT NULL,
            role TEXT NOT NULL,
            type TEXT NOT NULL,
            text TEXT NOT NULL,
            model TEXT,
            session TEXT NOT NULL,
            source TEXT NOT NULL,
            file_id INTEGER NOT NULL,
            seq INTEGER NOT NULL           -- position among its file's turns (file order)
        );
        CREATE INDEX turns_ts ON turns(ts);
        CREATE INDEX turns_session ON turns(session, doc);
        CREATE INDEX turns_file ON turns(file_id);
        """
    )


@migration
def m002_fts(conn: apsw.Connection) -> None:
    # Contentless: the catalog holds the text; the FTS row holds the preprocessed body only as an
    # index (core.index.tokenize). contentless_delete lets a row be removed by rowid alone.
    conn.execute(
        """
        CREATE VIRTUAL TABLE fts USING fts5(
            body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2'
        );
        """
    )


@migration
def m003_memories(conn: apsw.Connection) -> None:
    conn.execute(
        """
        -- Finalized vault memories, in their own doc band (core.index.rowids.MEMORY_BASE and up).
        CREATE TABLE memories(
            doc INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            ts TEXT NOT NULL,
            text TEXT NOT NULL,
            tags TEXT NOT NULL,           -- JSON list
            reviewed INTEGER NOT NULL
        );
        CREATE INDEX memories_ts ON memories(ts);
        CREATE TABLE memory_tags(tag TEXT NOT NULL, doc INTEGER NOT NULL, PRIMARY KEY(tag, doc)) WITHOUT ROWID;
        """
    )


@migration
def m004_vectors(conn: apsw.Connection) -> None:
    conn.execute(
        """
        -- int8[dim] (sqlite-vec vec_int8 layout), one row per embedded doc. No scale is stored:
        -- ranking is by cosine, which the scale does not change. gen: the write that stored the row,
        -- so a process's in-memory view can load only what changed (core.index.vecview).
        CREATE TABLE vectors(doc INTEGER PRIMARY KEY, v BLOB NOT NULL, gen INTEGER NOT NULL);
        CREATE INDEX vectors_gen ON vectors(gen);
        CREATE TABLE vector_removed(gen INTEGER NOT NULL, doc INTEGER NOT NULL);
        CREATE INDEX vector_removed_gen ON vector_removed(gen);
        """
    )


@migration
def m005_fts_porter(conn: apsw.Connection) -> None:
    # English words by their Porter stems (painting, painted, paints → paint), instead of a query
    # that spelled out hand-made inflections (core.recall.text before this). On the development
    # benchmark (tests/bench/bench_locomo_dev.py, tuning half) R@10 exact .753 → .761 plain and
    # .913 → .925 time-scoped; building the table costs 3% more CPU. CJK bigrams are unchanged
    # (porter leaves non-ASCII tokens alone). The table is contentless, so it is filled again from
    # the catalog: about a minute per million turns, once.
    conn.execute("DROP TABLE fts")
    conn.execute(
        """
        CREATE VIRTUAL TABLE fts USING fts5(
            body, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2'
        );
        """
    )
    for table in ("turns", "memories"):
        rows = conn.execute(f"SELECT doc, text FROM {table} ORDER BY doc")
        conn.executemany("INSERT INTO fts(rowid, body) VALUES (?, ?)",
                         ((doc, text if text.isascii() else index_text(text)) for doc, text in rows))


@migration
def m006_mentions(conn: apsw.Connection) -> None:
    # The times each turn speaks of (core.index.mentions): an R*Tree of [start, end) in whole minutes
    # since the epoch, and the turn of each row. Filled with the vectors; an index that already holds
    # vectors is read once by the next embedding pass (meta mentions_complete = 0).
    conn.execute(
        """
        CREATE VIRTUAL TABLE IF NOT EXISTS mention_spans USING rtree_i32(rid, lo, hi);
        CREATE TABLE IF NOT EXISTS mention_turns(rid INTEGER PRIMARY KEY, turn TEXT NOT NULL);
        CREATE INDEX IF NOT EXISTS mention_turns_turn ON mention_turns(turn);
        """
    )
    has_vectors = conn.execute("SELECT 1 FROM vectors LIMIT 1").fetchone() is not None
    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('mentions_complete', ?)",
                 ("0" if has_vectors else "1",))


@migration
def m007_actors(conn: apsw.Connection) -> None:
    # The name of everyone who speaks in the index (recall: a question that names someone who says
    # nothing in its time range is not about that range). Added to with every turn inserted
    # (core.index.catalog, core.index.bulkstage); a name whose turns are all removed stays.
    conn.execute(
        """
        CREATE TABLE IF NOT EXISTS actors(name TEXT PRIMARY KEY) WITHOUT ROWID;
        INSERT OR IGNORE INTO actors(name) SELECT DISTINCT actor FROM turns;
        """
    )


@migration
def m008_shadow_vectors(conn: apsw.Connection) -> None:
    # The next model's vectors, made beside the searched ones while the configured model changes
    # (core.index.vectors: the shadow set), then swapped in whole in one transaction.
    conn.execute("CREATE TABLE IF NOT EXISTS shadow_vectors(doc INTEGER PRIMARY KEY, v BLOB NOT NULL)")


@contextlib.contextmanager
def upgrading(conn: apsw.Connection) -> Iterator[apsw.Connection]:
    """A write transaction that other processes see as an upgrade: :func:`write`, and from when it
    holds the lock until it has committed (or rolled back), the upgrade marker beside the database
    names this process."""
    marker = upgrade_marker(Path(conn.filename))
    mine = f"{os.getpid()}\n"
    wrote = False
    try:
        with write(conn):
            atomic_write_text(marker, mine)  # 0600, and a reader never sees half a pid
            wrote = True
            yield conn
    finally:
        if wrote:
            with contextlib.suppress(OSError):
                if marker.read_text(encoding="ascii") == mine:  # not another process's, written since
                    marker.unlink()


def applied(conn: apsw.Connection) -> list[str]:
    if not conn.table_exists(None, "_migrations"):
        return []
    return [name for (name,) in conn.execute("SELECT name FROM _migrations ORDER BY rowid")]


def migrate(conn: apsw.Connection) -> list[str]:
    """Apply every migration not yet recorded; returns the names applied now."""
    if len(applied(conn)) == len(MIGRATIONS):
        return []
    done_now: list[str] = []
    with write(conn):
        conn.execute("CREATE TABLE IF NOT EXISTS _migrations(name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
    for name, fn in MIGRATIONS:
        with upgrading(conn):
            if conn.execute("SELECT 1 FROM _migrations WHERE name = ?", (name,)).fetchone():
                continue
            fn(conn)
            stamp = datetime.now(UTC).isoformat(timespec="seconds")
            conn.execute("INSERT INTO _migrations(name, applied_at) VALUES (?, ?)", (name, stamp))
            done_now.append(name)
    return done_now
