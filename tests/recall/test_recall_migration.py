"""Search while another embedding model re-embeds the home: the query is embedded with the model of the
vectors searched (the old one) until the new set is complete, and the answer says so."""

from __future__ import annotations

from datetime import UTC, timedelta

import pytest

from core.config import RecallConfig
from core.embed.protocol import Embedder, EmbeddingError
from core.index import HomeDayLogs, Reindexer, SearchIndex
from core.paths import HomePaths
from core.recall import Recaller, RecallError
from tests.helpers.recall import NOW, ConceptEmbedder, indexed, turn

OLD = ConceptEmbedder(32, "concept-old")
TURNS = [
    turn(NOW - timedelta(days=3), "We went skiing in the Alps and the slopes were icy", session="a"),
    turn(NOW - timedelta(days=2), "The quarterly report is due on Friday", session="b"),
    turn(NOW - timedelta(days=1), "I cooked pasta with garlic for dinner", session="c"),
    *[turn(NOW - timedelta(days=1, minutes=n), f"small talk number {n}", session="d") for n in range(1, 12)],
]


def old_only(name: str) -> Embedder:
    if name == OLD.name:
        return ConceptEmbedder(32, OLD.name)
    raise EmbeddingError(f"config.toml: embedding.model {name!r} is not known")


def recaller(index: SearchIndex, new: ConceptEmbedder, **options: object) -> Recaller:
    return Recaller(index, RecallConfig(), embedder=new, zone=UTC, **options)  # type: ignore[arg-type]


def half_reembedded(paths: HomePaths, new: ConceptEmbedder) -> SearchIndex:
    """The home indexed with the old model, then re-embedded with ``new`` until one window was stored."""
    index = indexed(paths, TURNS, OLD)
    windows: list[int] = []
    with Reindexer(index, HomeDayLogs(paths), embedder=lambda: new, batch_size=4, window=4) as reindexer:
        reindexer.run(should_stop=lambda: bool(windows),
                      progress=lambda phase, done, total: windows.append(done) if phase == "embed" else None)
    status = index.status(cached=False)
    assert (status.model, status.shadow_model, status.shadow_vectors) == ("concept-old", new.name, 4)
    return index


def test_semantic_search_uses_the_old_vectors_and_says_so(paths: HomePaths) -> None:
    new = ConceptEmbedder(48, "concept-new")
    index = half_reembedded(paths, new)
    calls = new.calls
    answer = recaller(index, new, model_named=old_only).search("snowboarding holiday", now=NOW, mode="semantic")
    assert answer.results[0].text.startswith("We went skiing")
    said = "vectors from concept-old while concept-new embeds 4 of 14: semantic results from the old model"
    assert said in answer.note
    assert new.calls == calls  # the query was embedded by the old model only
    auto = recaller(index, new, model_named=old_only).search("snowboarding holiday", now=NOW)
    assert auto.mode == "semantic" and "semantic results from the old model" in auto.note
    exact = recaller(index, new, model_named=old_only).search("quarterly report", now=NOW, mode="exact")
    assert exact.note is None or "old model" not in exact.note
    with Reindexer(index, HomeDayLogs(paths), embedder=lambda: new, batch_size=4) as reindexer:
        assert reindexer.run().swapped
    after = recaller(index, new, model_named=old_only).search("snowboarding holiday", now=NOW, mode="semantic")
    assert after.results[0].text.startswith("We went skiing") and "old model" not in (after.note or "")
    index.close()


def test_before_the_reembedding_starts_the_answer_says_none_is_embedded(paths: HomePaths) -> None:
    index = indexed(paths, TURNS, OLD)
    new = ConceptEmbedder(48, "concept-new")
    answer = recaller(index, new, model_named=old_only).search("snowboarding", now=NOW, mode="hybrid")
    assert answer.mode == "hybrid" and answer.results[0].text.startswith("We went skiing")
    assert "concept-new has embedded none of 14 yet" in answer.note
    index.close()


def test_an_old_model_that_cannot_be_built_falls_back_with_a_clear_note(paths: HomePaths) -> None:
    new = ConceptEmbedder(48, "concept-new")
    index = half_reembedded(paths, new)
    nothing = recaller(index, new, model_named=lambda name: old_only("gone"))
    auto = nothing.search("snowboarding holiday", now=NOW)
    assert auto.mode == "exact" and "concept-old cannot be loaded here" in auto.note
    assert "'gone' is not known" in auto.note and "reverie reindex" in auto.note
    with pytest.raises(RecallError, match="cannot be loaded here"):
        nothing.search("snowboarding holiday", now=NOW, mode="semantic")
    wrong_size = recaller(index, new, model_named=lambda name: ConceptEmbedder(16, name))
    with pytest.raises(RecallError, match="16-d vectors here, the index holds 32-d"):
        wrong_size.search("snowboarding holiday", now=NOW, mode="semantic")
    index.close()
