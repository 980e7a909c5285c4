"""A build from empty (the bulk path) gives the index an incremental run would; a killed bulk build
is finished by the next run; the counts a search asks for are cached until the database changes."""

from __future__ import annotations

import json

import pytest

from core.index import HomeDayLogs, MemoryDoc, Reindexer, SearchIndex
from core.index.reindex import DEFERRED_INDEXES
from core.index.tokenize import build_match
from core.paths import HomePaths
from tests.helpers.index import append, reindex, turn


def _catalog(index: SearchIndex) -> list[tuple]:
    return index.conn.execute("SELECT doc, id, ts, text, session, seq FROM turns ORDER BY doc").fetchall()


def _indexes(index: SearchIndex) -> set[str]:
    rows = index.conn.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'turns'")
    return {name for (name,) in rows if not name.startswith("sqlite_autoindex")}


def _every_turn_found_at_its_doc(index: SearchIndex) -> None:
    """FTS5 holds each turn under its catalog doc (day renumbering moved some inside the batch)."""
    for doc, turn_id, text in index.conn.execute("SELECT doc, id, text FROM turns").fetchall():
        match = build_match(text, "all")
        docs = [d for (d,) in index.conn.execute("SELECT rowid FROM fts WHERE fts MATCH ?", (match,))]
        assert doc in docs, (turn_id, text)


def _log(paths: HomePaths) -> None:
    append(
        paths,
        turn("2026-03-01T09:00:00", "서울숲에서 산책", id="a"),
        turn("2026-03-01T08:00:00", "earlier, appended late", id="b"),
        turn("2026-03-01T08:00:00", "same time, later in the file", id="c"),
        turn("2026-03-02T10:00:00", "会議で予算を決めた", id="d"),
        turn("2026-03-02T10:00:00", "a repeated id", id="a"),
    )
    # a turn of 1 March stored in the file of 3 March: lands in its own day, before nothing it follows
    path = paths.logs / "2026" / "03" / "2026-03-03.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(turn("2026-03-01T07:00:00", "stored a day late", id="e").to_json() + "\n"
                    + turn("2026-03-03T07:00:00", "third day", id="f").to_json() + "\n")


def test_a_build_from_empty_equals_one_file_at_a_time(paths: HomePaths, tmp_path) -> None:
    _log(paths)
    with SearchIndex.open(paths) as index:
        report = reindex(index, paths)
        bulk = _catalog(index)
        assert report.turns_added == 6 and report.duplicates == 1 and report.renumbered_days == 1
        assert _indexes(index) == {"turns_ts", "turns_session", "turns_file"}
        assert index.get_meta(DEFERRED_INDEXES) is None
        found = index.exact_search("서울숲", "2026-03-01T00:00:00.000000Z", "2026-03-02T00:00:00.000000Z")
        assert [hit.id for hit in found] == ["a"]
        _every_turn_found_at_its_doc(index)
    # the same files one by one into a non-empty catalog (the incremental path)
    other = HomePaths(root=tmp_path / "h2", cache=tmp_path / "c2").ensure()
    with SearchIndex.open(other) as index:
        days = sorted(paths.logs.rglob("*.jsonl"))
        for day in days:
            target = other.logs / day.relative_to(paths.logs)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(day.read_bytes())
            reindex(index, other)
        assert _catalog(index) == bulk
        _every_turn_found_at_its_doc(index)
    assert [row[1] for row in bulk] == ["e", "b", "c", "a", "d", "f"]


def test_a_killed_bulk_build_is_finished_by_the_next_run(paths: HomePaths) -> None:
    _log(paths)
    with SearchIndex.open(paths) as index:
        stops = iter([False, True])
        with Reindexer(index, HomeDayLogs(paths)) as reindexer:
            # as if the process died inside the build: the indexes are dropped and their SQL kept
            reindexer._defer_indexes()
            assert _indexes(index) == set()
            assert len(json.loads(index.get_meta(DEFERRED_INDEXES) or "[]")) == 3
        with Reindexer(index, HomeDayLogs(paths)) as reindexer:
            first = reindexer.run(embed=False, should_stop=lambda: next(stops, True))
        assert first.read == 2 and _indexes(index) == {"turns_ts", "turns_session", "turns_file"}
        assert index.get_meta(DEFERRED_INDEXES) is None
        rest = reindex(index, paths)
        assert rest.read == 1 and index.status().turns == 6


def test_a_bulk_build_that_fails_keeps_what_it_committed_and_its_indexes(paths: HomePaths) -> None:
    _log(paths)

    class Broken(HomeDayLogs):
        def read(self, path, offset):  # type: ignore[no-untyped-def]
            if path.name == "2026-03-03.jsonl":
                raise OSError(f"{path}: unreadable")
            return super().read(path, offset)

    with SearchIndex.open(paths) as index:
        with Reindexer(index, Broken(paths)) as reindexer, pytest.raises(OSError, match="unreadable"):
            reindexer.run(embed=False)
        assert _indexes(index) == {"turns_ts", "turns_session", "turns_file"}
        assert index.status().turns == 0  # the failing batch held every file: nothing half-written
        assert reindex(index, paths).turns_added == 6


def test_counts_are_cached_until_the_database_changes(paths: HomePaths) -> None:
    append(paths, turn("2026-03-01T09:00:00", "one", id="x1"))
    with SearchIndex.open(paths) as index:
        reindex(index, paths)
        statements: list[str] = []
        index.conn.exec_trace = lambda _cursor, sql, _bindings: statements.append(sql) or True
        assert index.status().turns == 1
        counted = sum("count(*) FROM turns" in sql for sql in statements)
        assert counted >= 1
        statements.clear()
        assert index.status().turns == 1
        assert not any("count(*) FROM turns" in sql for sql in statements)  # nothing changed: cached
        assert index.status(cached=False).turns == 1
        assert any("count(*) FROM turns" in sql for sql in statements)
        index.conn.exec_trace = None
        # another connection commits (the reindexer's): the next status counts again
        append(paths, turn("2026-03-01T10:00:00", "two", id="x2"))
        reindex(index, paths)
        assert index.status().turns == 2
        # this connection writes
        index.upsert_memories([MemoryDoc(id="m1", ts="2026-03-01T11:00:00.000000Z", text="a memory", tags=(),
                                         reviewed=True)])
        assert index.status().memories == 1
    # another process's connection
    with SearchIndex.open(paths) as index, SearchIndex.open(paths) as other:
        assert index.status().turns == 2
        other.conn.execute("DELETE FROM turns WHERE id = 'x2'")
        assert index.status().turns == 1


def _fts_config(index: SearchIndex) -> dict[str, object]:
    return dict(index.conn.execute("SELECT k, v FROM fts_config WHERE k IN ('automerge', 'hashsize')").fetchall())


def test_a_bulk_build_puts_the_fts5_merge_settings_back(paths: HomePaths) -> None:
    from core.index.reindex import FTS_BULK, FTS_USUAL

    _log(paths)
    with SearchIndex.open(paths) as index:
        with Reindexer(index, HomeDayLogs(paths)) as reindexer:
            reindexer._defer_indexes()  # killed inside the build: FTS5 keeps the build's settings
            assert _fts_config(index) == FTS_BULK
        reindex(index, paths)
        assert _fts_config(index) == FTS_USUAL
        assert _indexes(index) == {"turns_ts", "turns_session", "turns_file"}
        _every_turn_found_at_its_doc(index)


def test_file_marks_are_cached_until_the_database_changes(paths: HomePaths) -> None:
    append(paths, turn("2026-03-01T09:00:00", "one", id="x1"))
    with SearchIndex.open(paths) as index:
        reindex(index, paths)
        first = index.file_marks()
        statements: list[str] = []
        index.conn.exec_trace = lambda _cursor, sql, _bindings: statements.append(sql) or True
        assert index.file_marks() == first and not any("FROM files" in sql for sql in statements)
        first["2026-03-01"] = (0, 0, 0)  # a copy: the cache is not the caller's to change
        assert index.file_marks() != first
        index.conn.exec_trace = None
        append(paths, turn("2026-03-02T09:00:00", "two", id="x2"), turn("2026-03-01T10:00:00", "three", id="x3"))
        reindex(index, paths)  # the reindexer's own connection commits
        marks = index.file_marks()
        assert set(marks) == {"2026-03-01", "2026-03-02"}
        on_disk = HomeDayLogs(paths).stamps()
        assert {day: mark[:2] for day, mark in marks.items()} == on_disk
