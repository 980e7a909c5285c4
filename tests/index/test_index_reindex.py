"""Incremental reindex: migrations, changed files only, tails, equivalence with a rebuild, embedding."""

from __future__ import annotations

import os
import stat

import apsw
import pytest

from core.embed.hashing import HashingEmbedder
from core.index import MemoryDoc, Reindexer, ReindexInterrupted, SearchIndex, purge
from core.index.connection import connect
from core.index.logsource import HomeDayLogs
from core.index.migrations import MIGRATIONS, applied, migrate
from core.paths import HomePaths
from core.turns import day_file
from tests.helpers.index import RecordingSource, answers, append, docs_in_time_order, reindex, turn

QUERIES = ("서울숲", "会議", "budget review", "coffee", "산책", "quarterly planning")


def seed(paths: HomePaths) -> None:
    append(
        paths,
        turn("2026-11-03T10:00:00", "서울숲에서 산책했다", session="walk"),
        turn("2026-11-03T10:05:00", "coffee after the walk", session="walk", role="assistant"),
        turn("2026-11-04T09:00:00", "会議で予算を決めた", session="work"),
        turn("2026-11-04T09:30:00", "budget review for the quarterly planning", session="work"),
    )


def test_migrations_are_named_recorded_and_applied_once(paths: HomePaths) -> None:
    paths.ensure_cache()
    conn = connect(paths.index_db)
    assert migrate(conn) == [name for name, _ in MIGRATIONS]
    assert applied(conn) == [name for name, _ in MIGRATIONS]
    assert migrate(conn) == []
    stamps = conn.execute("SELECT name, applied_at FROM _migrations").fetchall()
    assert len(stamps) == len(MIGRATIONS) and all(stamp for _, stamp in stamps)
    assert conn.pragma("journal_mode") == "wal"
    assert conn.execute("SELECT vec_version()").fetchone()[0].startswith("v")
    assert stat.S_IMODE(os.stat(paths.index_db).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(paths.cache).st_mode) == 0o700


def test_only_changed_files_are_read_and_a_grown_file_from_its_tail(paths: HomePaths) -> None:
    seed(paths)
    source = RecordingSource(paths)
    with SearchIndex.open(paths) as index:
        reindex(index, paths, source=source)
        assert sorted(source.reads) == [("2026-11-03.jsonl", 0), ("2026-11-04.jsonl", 0)]
        source.reads.clear()
        assert reindex(index, paths, source=source).read == 0
        assert source.reads == []
        size = day_file(paths.logs, "2026-11-04").stat().st_size
        append(paths, turn("2026-11-04T18:00:00", "evening note about the budget", session="work"))
        report = reindex(index, paths, source=source)
        assert source.reads == [("2026-11-04.jsonl", size)]
        assert report.turns_added == 1 and report.replaced == 0
        assert len(index.exact_search("budget")) == 2


def test_a_rewritten_file_is_read_again_and_keeps_vectors_of_unchanged_turns(paths: HomePaths) -> None:
    seed(paths)
    embedder = HashingEmbedder()
    with SearchIndex.open(paths) as index:
        reindex(index, paths, embedder)
        calls = embedder.calls
        path = day_file(paths.logs, "2026-11-03")
        lines = path.read_text().splitlines()
        replacement = turn("2026-11-03T10:05:00", "tea after the walk", session="walk")
        path.write_text(lines[0] + "\n" + replacement.to_json() + "\n")
        report = reindex(index, paths, embedder)
        assert report.replaced == 1 and report.turns_removed == 2 and report.turns_added == 2
        assert report.vectors_kept == 1 and embedder.calls == calls + 1
        assert index.exact_search("coffee") == [] and len(index.exact_search("tea")) == 1


def test_a_removed_file_takes_its_turns(paths: HomePaths) -> None:
    seed(paths)
    with SearchIndex.open(paths) as index:
        reindex(index, paths)
        day_file(paths.logs, "2026-11-03").unlink()
        report = reindex(index, paths)
        assert report.removed == 1 and report.turns_removed == 2
        assert index.exact_search("서울숲") == [] and len(index.exact_search("会議")) == 1


def test_bad_lines_are_reported_and_the_rest_indexed(paths: HomePaths) -> None:
    seed(paths)
    path = day_file(paths.logs, "2026-11-03")
    with path.open("a") as handle:
        handle.write("{not json\n")
        handle.write('{"id": "x"}\n')
    append(paths, turn("2026-11-03T23:00:00", "after the broken lines"))
    with SearchIndex.open(paths) as index:
        report = reindex(index, paths)
        assert report.bad_line_count == 2
        assert report.bad_lines[0].startswith(f"{path}:3:")
        assert len(index.exact_search("broken")) == 1


def test_deleting_the_index_and_reindexing_gives_the_same_answers(paths: HomePaths) -> None:
    embedder = HashingEmbedder()
    ranges = ((None, None), ("2026-11-03T00:00:00Z", "2026-11-04T00:00:00Z"))
    with SearchIndex.open(paths) as index:
        seed(paths)
        reindex(index, paths, embedder)
        append(paths, turn("2026-11-03T08:00:00", "an early coffee, imported late", session="walk"))
        reindex(index, paths, embedder)
        append(
            paths,
            turn("2026-11-05T12:00:00", "budget sign-off", session="work"),
            turn("2026-11-04T08:00:00", "会議の準備", session="work"),
        )
        reindex(index, paths, embedder)
        before = answers(index, embedder, QUERIES, ranges)
        docs_before = index.conn.execute("SELECT doc, id FROM turns ORDER BY doc").fetchall()
    assert purge(paths)
    assert not paths.index_db.exists()
    with SearchIndex.open(paths) as index:
        reindex(index, paths, embedder)
        assert answers(index, embedder, QUERIES, ranges) == before
        assert index.conn.execute("SELECT doc, id FROM turns ORDER BY doc").fetchall() == docs_before
        assert docs_in_time_order(index)


def test_full_reindex_rereads_everything_and_keeps_vectors(paths: HomePaths) -> None:
    seed(paths)
    embedder = HashingEmbedder()
    with SearchIndex.open(paths) as index:
        reindex(index, paths, embedder)
        before = answers(index, embedder, QUERIES)
        calls = embedder.calls
        report = reindex(index, paths, embedder, full=True)
        assert report.read == 2 and report.vectors_kept == 4 and embedder.calls == calls
        assert answers(index, embedder, QUERIES) == before


def test_a_new_model_or_dimension_reembeds_everything(paths: HomePaths) -> None:
    seed(paths)
    with SearchIndex.open(paths) as index:
        first = HashingEmbedder(dim=32, name="model-a")
        reindex(index, paths, first)
        assert index.vector_model().name == "model-a" and index.vector_model().dim == 32
        # same model, nothing new: no embedding at all
        assert reindex(index, paths, first).embedded == 0 and first.calls == 4
        other = HashingEmbedder(dim=48, name="model-b")
        report = reindex(index, paths, other)
        assert report.model_reset and report.embedded == 4 and other.calls == 4
        assert index.vector_model().dim == 48
        # same name, another dimension: found when the model is next loaded (here: for a new turn)
        wider = HashingEmbedder(dim=64, name="model-b")
        append(paths, turn("2026-11-05T08:00:00", "more coffee"))
        report = reindex(index, paths, wider)
        assert report.model_reset and report.embedded == 5
        assert index.vector_model().dim == 64
        assert len(index.vector_search(wider.embed(["coffee"])[0], k=10)) == 5


def test_a_stopped_embedding_resumes_where_it_stopped(paths: HomePaths) -> None:
    for n in range(40):
        append(paths, turn(f"2026-11-03T10:{n:02d}:00", f"note number {n}"))
    embedder = HashingEmbedder()
    with (
        SearchIndex.open(paths) as index,
        Reindexer(index, HomeDayLogs(paths), embedder=lambda: embedder, batch_size=8, window=32) as reindexer,
    ):
        batches = []
        report = reindexer.run(
            should_stop=lambda: len(batches) > 0,
            progress=lambda phase, done, total: batches.append(done) if phase == "embed" else None,
        )
        assert report.embedded == 32 and report.pending == 8  # one window: four batches of 8
        assert index.status().pending_vectors == 8
        report = reindexer.run()
        assert report.embedded == 8 and report.pending == 0 and embedder.calls == 40


def test_long_embedding_passes_write_snapshots_as_they_go(paths: HomePaths, monkeypatch) -> None:
    from core.index import reindex as reindex_module

    monkeypatch.setattr(reindex_module, "SNAPSHOT_MIN_ROWS", 16)
    for n in range(40):
        append(paths, turn(f"2026-11-03T11:{n:02d}:00", f"river note {n}"))
    embedder = HashingEmbedder()
    with SearchIndex.open(paths) as index:
        report = reindex(index, paths, embedder)
        assert report.snapshot is not None and report.embedded == 40
        view = index.vector_view()
        assert view.base is not None and view.base.rows >= 16 and view.rows == 40
        hits = index.vector_search(embedder.embed(["river note 7"])[0], k=1)
        assert index.get_turns([hits[0].id])[0].text == "river note 7"


def test_a_killed_write_leaves_the_previous_state(paths: HomePaths, monkeypatch) -> None:
    seed(paths)
    with SearchIndex.open(paths) as index:
        reindex(index, paths)
        append(paths, turn("2026-11-04T20:00:00", "this write will fail half way"))
        from core.index import catalog

        def boom(*args, **kwargs):
            raise KeyboardInterrupt

        monkeypatch.setattr(catalog, "_fts_insert_columns", boom)  # every FTS5 insert goes through it
        with pytest.raises(KeyboardInterrupt):
            reindex(index, paths)
        monkeypatch.undo()
        assert index.status().turns == 4
        assert reindex(index, paths).turns_added == 1
        assert len(index.exact_search("half way", mode="all")) == 1


def test_no_embed_then_embed_later(paths: HomePaths) -> None:
    seed(paths)
    embedder = HashingEmbedder()
    with SearchIndex.open(paths) as index:
        report = reindex(index, paths)
        assert report.pending is None and index.status().pending_vectors == 4
        assert index.vector_search([0.0] * 64) == []
        with Reindexer(index, HomeDayLogs(paths), embedder=lambda: embedder) as reindexer:
            report = reindexer.run()
        assert report.embedded == 4 and report.pending == 0


def test_memories_from_a_memory_source_and_pending_memory_vectors(paths: HomePaths) -> None:
    seed(paths)
    embedder = HashingEmbedder()
    docs = [MemoryDoc(id="m1", ts="2026-11-03T12:00:00Z", text="likes walking in 서울숲", reviewed=True)]
    with (
        SearchIndex.open(paths) as index,
        Reindexer(index, HomeDayLogs(paths), embedder=lambda: embedder, memory_source=lambda: docs) as reindexer,
    ):
        report = reindexer.run()
        assert report.memories is not None and report.memories.added == 1 and report.embedded == 5
        assert {h.id for h in index.exact_search("서울숲")} >= {"m1"}
        index.upsert_memories([MemoryDoc(id="m2", ts="2026-11-05T00:00:00Z", text="second memory")])
        docs.append(MemoryDoc(id="m2", ts="2026-11-05T00:00:00Z", text="second memory"))
        assert reindexer.run().embedded == 1  # the memory waiting for its vector


def test_the_index_file_is_private_and_survives_a_stale_lock(paths: HomePaths) -> None:
    paths.ensure_cache()
    paths.index_db.touch(mode=0o644)
    os.chmod(paths.index_db, 0o644)
    with SearchIndex.open(paths) as index:
        assert stat.S_IMODE(os.stat(paths.index_db).st_mode) == 0o600
        assert isinstance(index.conn, apsw.Connection)


class _Batches(HashingEmbedder):
    """Records the size of each embed call; raises KeyboardInterrupt on call number ``interrupt_at``."""

    def __init__(self, interrupt_at: int | None = None) -> None:
        super().__init__()
        self.sizes: list[int] = []
        self.interrupt_at = interrupt_at

    def embed(self, texts):  # type: ignore[no-untyped-def]
        if self.interrupt_at is not None and len(self.sizes) + 1 == self.interrupt_at:
            self.sizes.append(-len(texts))
            raise KeyboardInterrupt
        self.sizes.append(len(texts))
        return super().embed(texts)


def _days_of_three(paths: HomePaths, days: int, start: int = 1) -> None:
    for d in range(start, start + days):
        for n in range(3):
            append(paths, turn(f"2026-10-{d:02d}T09:0{n}:00", f"day {d} note {n}"))


def test_embedding_windows_span_day_boundaries(paths: HomePaths) -> None:
    _days_of_three(paths, 5)
    embedder = _Batches()
    with SearchIndex.open(paths) as index:
        with Reindexer(index, HomeDayLogs(paths), embedder=lambda: embedder, batch_size=4, window=8) as reindexer:
            reindexer.run()
            assert embedder.sizes == [8, 7]  # 15 turns over 5 days: not five batches of 3
            _days_of_three(paths, 4, start=10)  # touched days only (the rest is complete)
            report = reindexer.run()
            assert embedder.sizes[2:] == [8, 4] and report.embedded == 12 and report.pending == 0
        assert index.status().pending_vectors == 0


def test_ctrl_c_while_embedding_keeps_what_is_stored_and_says_what_remains(paths: HomePaths) -> None:
    _days_of_three(paths, 10)
    embedder = _Batches(interrupt_at=3)
    with SearchIndex.open(paths) as index:
        with Reindexer(index, HomeDayLogs(paths), embedder=lambda: embedder, batch_size=4, window=8) as reindexer:
            with pytest.raises(KeyboardInterrupt) as caught:
                reindexer.run()
            assert isinstance(caught.value, ReindexInterrupted)
            report = caught.value.report
            assert report.interrupted and report.embedded == 16 and report.pending == 14
            assert "14 wait for vectors" in str(caught.value)
            assert report.turns_added == 30  # the exact index was written before embedding began
        assert index.status().pending_vectors == 14 and len(index.exact_search("note")) > 0
        embedder.interrupt_at = None
        with Reindexer(index, HomeDayLogs(paths), embedder=lambda: embedder, batch_size=4, window=8) as reindexer:
            report = reindexer.run()
        assert report.embedded == 14 and report.pending == 0 and not report.interrupted
        assert index.status().pending_vectors == 0


def test_a_span_of_pending_turns_is_embedded_shortest_first(paths: HomePaths) -> None:
    for n in range(20):
        append(paths, turn(f"2026-10-0{1 + n % 3}T09:{n:02d}:00", "word " * (20 - n)))  # longest first in the log
    seen: list[list[int]] = []

    class Lengths(HashingEmbedder):
        def embed(self, texts):  # type: ignore[no-untyped-def]
            seen.append([len(t) for t in texts])
            return super().embed(texts)

    with (
        SearchIndex.open(paths) as index,
        Reindexer(index, HomeDayLogs(paths), embedder=Lengths, batch_size=2, window=6) as reindexer,
    ):
        assert reindexer.run().embedded == 20
    flat = [n for call in seen for n in call]
    assert [len(call) for call in seen] == [6, 6, 6, 2] and flat == sorted(flat)  # one span of 20, by length
