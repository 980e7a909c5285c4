"""Ranking primitives: range-bounded exact and vector search, filters, memories, lookups."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta

import numpy as np
import pytest

from core.embed.hashing import HashingEmbedder
from core.index import Filters, MemoryDoc, SearchIndex, VectorModelMismatch, vecsearch
from core.index.logsource import HomeDayLogs
from core.index.quantize import to_int8
from core.index.reindex import Reindexer
from core.paths import HomePaths
from tests.helpers.index import append, reindex, turn

WORDS = ("alpine", "ski", "river", "kayak", "budget", "tax", "piano", "recital", "garden", "tomato")


@pytest.fixture
def embedder() -> HashingEmbedder:
    return HashingEmbedder(dim=64)


@pytest.fixture
def filled(paths: HomePaths, embedder: HashingEmbedder):
    """Ten days, 40 turns a day, two sessions and two roles, words drawn at random."""
    rng = random.Random(3)
    start = datetime(2026, 3, 1, tzinfo=UTC)
    for day in range(10):
        for n in range(40):
            moment = start + timedelta(days=day, minutes=n * 30 + rng.randrange(20))
            words = " ".join(rng.sample(WORDS, 3))
            append(
                paths,
                turn(
                    moment.strftime("%Y-%m-%dT%H:%M:%S"),
                    f"{words} note {day}-{n}",
                    session=f"s{n % 2}",
                    role=("user", "assistant")[n % 3 == 0],
                ),
            )
    with SearchIndex.open(paths) as index:
        reindex(index, paths, embedder)
        yield index


def ts(day: int, hour: int = 0) -> str:
    return (datetime(2026, 3, 1, tzinfo=UTC) + timedelta(days=day, hours=hour)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def test_exact_search_with_a_range_returns_only_turns_inside_it(filled: SearchIndex) -> None:
    start, end = ts(3, 6), ts(5, 18)
    hits = filled.exact_search("kayak", start, end, limit=1000)
    expected = filled.conn.execute(
        "SELECT count(*) FROM turns WHERE ts >= ? AND ts < ? AND text LIKE '%kayak%'", (start, end)
    ).fetchone()[0]
    assert len(hits) == expected > 0
    assert all(start <= h.ts < end for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_a_range_with_no_turns_finds_nothing(filled: SearchIndex) -> None:
    assert filled.exact_search("kayak", "2030-01-01T00:00:00Z", "2030-02-01T00:00:00Z") == []
    assert filled.exact_search("kayak", ts(4, 23), ts(4, 23)) == []


def test_range_accepts_datetimes_and_open_sides(filled: SearchIndex) -> None:
    aware = datetime(2026, 3, 9, tzinfo=UTC)
    assert all(h.ts >= ts(8) for h in filled.exact_search("piano", aware, limit=500))
    assert all(h.ts < ts(8) for h in filled.exact_search("piano", None, aware, limit=500))
    with pytest.raises(ValueError, match="start_ts"):
        filled.exact_search("piano", "yesterday")


def test_exact_filters(filled: SearchIndex) -> None:
    by_role = filled.exact_search("tomato", limit=500, filters=Filters(roles=("assistant",)))
    assert by_role and {t.role for t in filled.get_turns([h.id for h in by_role])} == {"assistant"}
    by_session = filled.exact_search("tomato", ts(2), ts(3), limit=500, filters=Filters(sessions=("s1",)))
    assert by_session and {t.session for t in filled.get_turns([h.id for h in by_session])} == {"s1"}
    assert filled.exact_search("tomato", filters=Filters(sources=("elsewhere",))) == []


def test_vector_search_with_a_range_returns_only_turns_inside_it(filled: SearchIndex, embedder) -> None:
    start, end = ts(2, 12), ts(4)
    hits = filled.vector_search(embedder.embed(["alpine ski budget"])[0], start, end, k=30)
    assert len(hits) == 30 and all(start <= h.ts < end for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def sql_neighbours(index: SearchIndex, vector: np.ndarray, k: int) -> list[int]:
    """The oracle: sqlite-vec's own int8 cosine over the vector table."""
    rows = index.conn.execute(
        "SELECT doc FROM vectors ORDER BY vec_distance_cosine(vec_int8(v), vec_int8(?)), doc LIMIT ?",
        (to_int8(vector.reshape(1, -1))[0].tobytes(), k),
    )
    return [doc for (doc,) in rows]


def nearest_docs(index: SearchIndex, vector: np.ndarray, k: int) -> list[int]:
    segments = index.vector_view().segments
    return [doc for doc, _ in vecsearch.search(segments, vector, [vecsearch.Band(0, 1 << 62)], k)]


def test_numpy_search_agrees_with_sqlite_vec(filled: SearchIndex, embedder) -> None:
    for text in ("garden tomato", "river kayak recital", "tax"):
        vector = embedder.embed([text])[0]
        ours, oracle = nearest_docs(filled, vector, 10), sql_neighbours(filled, vector, 10)
        scores = dict(
            filled.conn.execute(
                "SELECT doc, 1 - vec_distance_cosine(vec_int8(v), vec_int8(?)) FROM vectors",
                (to_int8(vector.reshape(1, -1))[0].tobytes(),),
            )
        )
        # same scores (ties may order differently)
        assert sorted(round(scores[d], 5) for d in ours) == sorted(round(scores[d], 5) for d in oracle)


def test_snapshot_plus_overlay_sees_every_change(paths: HomePaths, filled: SearchIndex, embedder) -> None:
    with Reindexer(filled, HomeDayLogs(paths), embedder=lambda: embedder) as reindexer:
        report = reindexer.run()
        reindexer.maybe_snapshot(report, force=True)
    assert report.snapshot and (filled.snapshot_root / report.snapshot / "q.npy").exists()
    vector = embedder.embed(["garden tomato"])[0]
    # after the snapshot: a late turn renumbers a day (vectors move), a new day arrives
    append(
        paths,
        turn("2026-03-03T00:00:01", "garden tomato garden tomato"),
        turn("2026-03-20T10:00:00", "tomato garden harvest"),
    )
    reindex(filled, paths, embedder)
    view = filled.vector_view()
    assert view.base is not None and view.overlay_rows > 0
    assert view.rows == filled.conn.execute("SELECT count(*) FROM vectors").fetchone()[0]
    top = filled.vector_search(vector, k=2)
    assert {filled.get_turns([h.id])[0].text for h in top} == {"garden tomato garden tomato", "tomato garden harvest"}


def test_hamming_prefilter_keeps_recall(monkeypatch) -> None:
    """Above EXACT_MAX rows, sign-bit Hamming picks candidates for exact scoring; recall stays high."""
    from core.index.quantize import int8_norms, sign_words

    rng = np.random.default_rng(0)
    centres = rng.normal(size=(40, 96))
    rows = centres[rng.integers(0, 40, 6000)] + rng.normal(scale=0.5, size=(6000, 96))
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    q = to_int8(rows)
    segment = vecsearch.Segment(np.arange(6000, dtype=np.int64) * 3, q, int8_norms(q), sign_words(q))
    queries = rows[rng.integers(0, 6000, 30)] + rng.normal(scale=0.2, size=(30, 96))
    band = [vecsearch.Band(0, 3 * 6000)]
    exact = [{d for d, _ in vecsearch.search([segment], v, band, 10)} for v in queries]
    monkeypatch.setattr(vecsearch, "EXACT_MAX", 1000)
    monkeypatch.setattr(vecsearch, "CANDIDATES_MIN", 300)
    approx = [{d for d, _ in vecsearch.search([segment], v, band, 10)} for v in queries]
    recall = np.mean([len(a & e) / 10 for a, e in zip(approx, exact, strict=True)])
    assert recall >= 0.95
    # a masked (removed) row is never returned, by either path
    segment.alive = np.ones(6000, dtype=bool)
    top = vecsearch.search([segment], queries[0], band, 1)[0][0]
    segment.alive[top // 3] = False
    assert all(d != top for d, _ in vecsearch.search([segment], queries[0], band, 10))


def test_vector_filters_find_rare_rows(paths: HomePaths, filled: SearchIndex, embedder) -> None:
    append(paths, turn("2026-03-05T10:00:00", "completely different words here", session="rare"))
    reindex(filled, paths, embedder)
    hits = filled.vector_search(embedder.embed(["alpine ski"])[0], k=3, filters=Filters(sessions=("rare",)))
    assert [filled.get_turns([h.id])[0].session for h in hits] == ["rare"]
    common = filled.vector_search(embedder.embed(["alpine ski"])[0], k=5, filters=Filters(roles=("assistant",)))
    assert len(common) == 5 and {t.role for t in filled.get_turns([h.id for h in common])} == {"assistant"}


def test_query_vector_of_another_dimension_is_a_clear_error(filled: SearchIndex) -> None:
    with pytest.raises(VectorModelMismatch, match="64-d vectors of hashing-64; the query has 3"):
        filled.vector_search([0.1, 0.2, 0.3])
    with pytest.raises(VectorModelMismatch, match="made by hashing-64, not all-MiniLM-L6-v2"):
        filled.vector_search([0.1] * 64, model="all-MiniLM-L6-v2")
    assert filled.vector_search([0.1] * 64, k=1, model="hashing-64")


def test_memories_are_searchable_beside_turns(filled: SearchIndex, embedder) -> None:
    filled.upsert_memories(
        [
            MemoryDoc(
                id="m-ski",
                ts="2026-03-04T12:00:00+09:00",
                text="Kate loves alpine ski trips",
                tags=("people", "sport"),
                reviewed=True,
            ),
            MemoryDoc(id="m-tax", ts="2026-03-08T09:00:00Z", text="The tax budget is due in April", tags=("money",)),
        ],
        embedder=embedder,
    )
    assert [h.id for h in filled.exact_search("Kate")] == ["m-ski"]
    assert filled.exact_search("Kate", filters=Filters(kinds=("turn",))) == []
    assert [h.kind for h in filled.exact_search("ski", limit=3, filters=Filters(kinds=("memory",)))] == ["memory"]
    assert [h.id for h in filled.exact_search("budget", filters=Filters(tags=("money",)))] == ["m-tax"]
    unmoneyed = filled.exact_search("budget", limit=500, filters=Filters(exclude_tags=("money",)))
    assert unmoneyed and all(h.id != "m-tax" for h in unmoneyed)
    assert [h.id for h in filled.exact_search("tax", filters=Filters(kinds=("memory",), reviewed=True))] == []
    # a memory's time range is its own ts (09:00+09:00 is 03:00 UTC)
    assert [h.id for h in filled.exact_search("Kate", ts(3, 3), ts(3, 4))] == ["m-ski"]
    assert filled.exact_search("Kate", ts(3, 4), ts(4)) == []
    near = filled.vector_search(embedder.embed(["Kate alpine ski trips"])[0], k=1)
    assert near[0].id == "m-ski" and near[0].kind == "memory"
    tagged = filled.vector_search(embedder.embed(["alpine ski"])[0], k=5, filters=Filters(tags=("sport",)))
    assert [h.id for h in tagged] == ["m-ski"]
    assert filled.get_memories(["m-tax", "nope", "m-ski"])[0].tags == ("money",)


def test_vector_scores_are_the_scores_a_search_gives(filled: SearchIndex, embedder) -> None:
    memory = MemoryDoc(id="m-ski", ts="2026-03-04T12:00:00Z", text="alpine ski trips")
    filled.upsert_memories([memory], embedder=embedder)
    vector = embedder.embed(["alpine river kayak"])[0]
    everything = {h.id: h.score for h in filled.vector_search(vector, k=1000)}
    some = [*list(everything)[150:160], "m-ski", "no-such-turn"]
    scores = filled.vector_scores(vector, some)
    assert set(scores) == set(some) - {"no-such-turn"}
    assert scores == pytest.approx({key: everything[key] for key in scores})
    assert filled.vector_scores(vector, []) == {}
    with pytest.raises(VectorModelMismatch, match="64-d"):
        filled.vector_scores(np.ones(8, dtype=np.float32), some)


def test_a_removed_vector_has_no_score(paths: HomePaths, filled: SearchIndex, embedder) -> None:
    memory = MemoryDoc(id="m-gone", ts="2026-03-04T12:00:00Z", text="alpine ski trips")
    filled.upsert_memories([memory], embedder=embedder)
    with Reindexer(filled, HomeDayLogs(paths), embedder=lambda: embedder) as reindexer:
        reindexer.maybe_snapshot(reindexer.run(), force=True)  # its vector now in the snapshot's rows
    assert filled.vector_view().base is not None
    vector = embedder.embed(["alpine ski"])[0]
    assert "m-gone" in filled.vector_scores(vector, ["m-gone"])
    assert filled.remove_memory("m-gone")
    assert filled.vector_scores(vector, ["m-gone"]) == {}


def test_memory_updates_and_removal(filled: SearchIndex, embedder) -> None:
    memory = MemoryDoc(id="m1", ts="2026-03-04T12:00:00Z", text="piano lessons on Tuesday")
    filled.upsert_memories([memory], embedder=embedder)
    assert filled.upsert_memories([memory]).unchanged == 1
    changed = filled.upsert_memories([MemoryDoc(id="m1", ts=memory.ts, text="violin lessons on Friday")])
    assert changed.updated == 1
    assert [h.id for h in filled.exact_search("violin")] == ["m1"]
    assert filled.exact_search("piano", filters=Filters(kinds=("memory",))) == []
    assert filled.status().pending_vectors == 1  # the new text waits for its vector
    assert filled.remove_memory("m1") and not filled.remove_memory("m1")
    assert filled.exact_search("violin") == []
    pair = [MemoryDoc(id="a", ts=memory.ts, text="x"), MemoryDoc(id="b", ts=memory.ts, text="y")]
    result = filled.sync_memories(pair)
    assert result.added == 2
    assert filled.sync_memories([MemoryDoc(id="b", ts=memory.ts, text="y")]).removed == 1


def test_get_turns_and_session_context(filled: SearchIndex) -> None:
    rows = filled.conn.execute("SELECT id FROM turns WHERE session = 's0' ORDER BY doc").fetchall()
    ids = [i for (i,) in rows]
    assert [t.id for t in filled.get_turns([ids[5], "missing", ids[2]])] == [ids[5], ids[2]]
    around = filled.session_context(ids[10], before=2, after=3)
    assert [t.id for t in around] == ids[8:14]
    assert [t.id for t in filled.session_context(ids[0], before=5, after=0)] == ids[:1]
    assert filled.session_context("missing") == []


def test_activity_counts_local_days(paths: HomePaths) -> None:
    append(paths, turn("2026-03-01T14:59:59", "a"), turn("2026-03-01T15:00:00", "b"), turn("2026-03-02T01:00:00", "c"))
    with SearchIndex.open(paths) as index:
        reindex(index, paths)
        utc = index.activity(date(2026, 3, 1), date(2026, 3, 3), "UTC")
        assert utc == [(date(2026, 3, 1), 2), (date(2026, 3, 2), 1)]
        seoul = index.activity(date(2026, 3, 1), date(2026, 3, 4), "Asia/Seoul")  # UTC+9
        assert seoul == [(date(2026, 3, 1), 1), (date(2026, 3, 2), 2), (date(2026, 3, 3), 0)]
