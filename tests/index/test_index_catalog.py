"""Docs (FTS5 rowids) stay in time order whatever order turns arrive in."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.embed.hashing import HashingEmbedder
from core.index import SearchIndex, catalog
from core.index.rowids import DAY_SLOTS, MEMORY_BASE, day_block, day_of_doc
from core.paths import HomePaths
from tests.helpers.index import append, docs_in_time_order, reindex, turn


@pytest.fixture
def index(paths: HomePaths):
    with SearchIndex.open(paths) as idx:
        yield idx


def fts_rowids(index: SearchIndex) -> list[int]:
    return sorted(r for (r,) in index.conn.execute("SELECT rowid FROM fts WHERE rowid < ?", (MEMORY_BASE,)))


def test_day_blocks_are_ordered_and_wide() -> None:
    assert day_block("2026-11-03") < day_block("2026-11-04") - DAY_SLOTS + 1
    assert day_of_doc(day_block("1999-12-31") + 12345) == "1999-12-31"
    assert day_block("9999-12-31") + DAY_SLOTS < MEMORY_BASE


def test_a_late_turn_renumbers_its_day_and_keeps_time_order(paths: HomePaths, index: SearchIndex) -> None:
    embedder = HashingEmbedder()
    append(
        paths,
        turn("2026-11-03T10:00:00", "lunch at the noodle place"),
        turn("2026-11-03T12:00:00", "afternoon walk by the river"),
        turn("2026-11-04T09:00:00", "next day coffee"),
    )
    reindex(index, paths, embedder)
    late = append(paths, turn("2026-11-03T08:00:00", "early breakfast with toast"))[0]
    report = reindex(index, paths, embedder)
    assert report.renumbered_days == 1 and report.turns_added == 1
    assert docs_in_time_order(index)
    # every row moved with its turn: FTS rowids, vectors and turns agree
    docs = [d for (d,) in index.conn.execute("SELECT doc FROM turns ORDER BY doc")]
    assert fts_rowids(index) == docs
    assert sorted(d for (d,) in index.conn.execute("SELECT doc FROM vectors")) == docs
    assert [h.id for h in index.exact_search("breakfast")] == [late.id]
    noodle = index.vector_search(embedder.embed(["lunch at the noodle place"])[0], k=1)
    assert index.get_turns([noodle[0].id])[0].text == "lunch at the noodle place"
    # the day is dense again: 3 turns at the first three slots of its block
    block = day_block("2026-11-03")
    assert docs[:3] == [block, block + 1, block + 2]


def test_an_old_day_imported_late_sorts_before_newer_days(paths: HomePaths, index: SearchIndex) -> None:
    append(paths, turn("2026-11-10T10:00:00", "recent"))
    reindex(index, paths)
    append(paths, turn("2024-02-29T23:59:59", "leap day, imported late"))
    report = reindex(index, paths)
    assert report.renumbered_days == 0
    assert docs_in_time_order(index)


def test_equal_times_keep_file_order(paths: HomePaths, index: SearchIndex) -> None:
    same = "2026-11-03T10:00:00"
    first = append(paths, turn(same, "one", id="a"), turn(same, "two", id="b"))
    reindex(index, paths)
    append(paths, turn(same, "three", id="c"), turn("2026-11-03T09:00:00", "earlier", id="d"))
    reindex(index, paths)
    order = [i for (i,) in index.conn.execute("SELECT id FROM turns ORDER BY doc")]
    assert order == ["d", first[0].id, first[1].id, "c"]


def test_time_range_becomes_the_exact_doc_range(paths: HomePaths, index: SearchIndex) -> None:
    rng = random.Random(7)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    times = sorted(start + timedelta(minutes=rng.randrange(0, 60 * 24 * 20)) for _ in range(300))
    rng.shuffle(times)
    for n, moment in enumerate(times):
        append(paths, turn(moment.strftime("%Y-%m-%dT%H:%M:%S"), f"turn {n}"))
        if n % 97 == 0:
            reindex(index, paths)
    reindex(index, paths)
    assert docs_in_time_order(index)
    for _ in range(30):
        a, b = sorted(rng.sample(sorted(times), 2))
        lo_ts, hi_ts = a.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), b.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        span = catalog.doc_range(index.conn, lo_ts, hi_ts)
        expected = index.conn.execute("SELECT count(*) FROM turns WHERE ts >= ? AND ts < ?", (lo_ts, hi_ts)).fetchone()[
            0
        ]
        inside = (
            0
            if span is None
            else index.conn.execute("SELECT count(*) FROM turns WHERE doc BETWEEN ? AND ?", span).fetchone()[0]
        )
        assert inside == expected


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    batches=st.lists(
        st.lists(
            st.tuples(st.integers(0, 2), st.integers(0, 86399), st.sampled_from(["x", "y", "z"])),
            min_size=1,
            max_size=8,
        ),
        min_size=1,
        max_size=5,
    )
)
def test_any_arrival_order_gives_the_rebuild_docs(tmp_path_factory, batches) -> None:
    home = HomePaths(root=tmp_path_factory.mktemp("home"), cache=tmp_path_factory.mktemp("cache"))
    home.ensure()
    counter = 0
    with SearchIndex.open(home) as index:
        for batch in batches:
            for day, second, word in batch:
                counter += 1
                moment = datetime(2026, 5, 1 + day, tzinfo=UTC) + timedelta(seconds=second)
                append(home, turn(moment.strftime("%Y-%m-%dT%H:%M:%S"), f"{word} {counter}", id=f"id{counter}"))
            reindex(index, home)
            assert docs_in_time_order(index)
        incremental = index.conn.execute("SELECT doc, id FROM turns ORDER BY doc").fetchall()
        assert fts_rowids(index) == [doc for doc, _ in incremental]
    fresh = HomePaths(root=home.root, cache=tmp_path_factory.mktemp("cache2"))
    with SearchIndex.open(fresh) as rebuilt:
        reindex(rebuilt, fresh)
        assert rebuilt.conn.execute("SELECT doc, id FROM turns ORDER BY doc").fetchall() == incremental
