"""The default mode fuses words and meaning whenever vectors exist, and a common word does not decide:
exact scores count by how much of the query's rarity the best word match holds."""

from __future__ import annotations

from datetime import UTC, timedelta

import pytest

from core.config import RecallConfig
from core.recall import Recaller
from core.recall.rarity import explained, idf, weights
from core.recall.scoring import DEFAULT_RANKING, Ranking
from tests.helpers.recall import NOW, ConceptEmbedder, conversation, indexed, recaller, turn

OLD_AUTO = Ranking(fusion_rarity=0.0, fusion_rarity_question=0.0, auto_fuse_keywords=False)  # the ranking before
SKIING = "We went skiing on the slopes for two days"


@pytest.fixture
def busy_weekend(paths):
    """Many turns that share one common word ("weekend") with the query, one that means it."""
    start = NOW - timedelta(days=3)
    turns = [turn(start + timedelta(hours=i), f"The weekend was quiet, we stayed in and read book number {i}",
                  session=f"c{i}", actor="tom") for i in range(12)]
    turns.append(turn(start + timedelta(hours=6, minutes=30), SKIING, session="ski", actor="kate"))
    embedder = ConceptEmbedder()
    index = indexed(paths, turns, embedder)
    yield index, embedder
    index.close()


@pytest.mark.parametrize(("query", "old_missed"), [
    ("snowboarding weekend", True),
    ("a snowboard weekend", True),
    ("what did we do on the snowboard weekend?", True),  # a question: fused before, the common word first
])
def test_a_paraphrase_sharing_only_a_common_word_is_found_by_meaning(busy_weekend, query, old_missed):
    index, embedder = busy_weekend
    answer = recaller(index, embedder).search(query, now=NOW, zone=UTC, limit=5)
    assert answer.mode == "hybrid"
    assert answer.results[0].text == SKIING
    assert "ranked by meaning first" in (answer.note or "")
    semantic = recaller(index, embedder).search(query, now=NOW, zone=UTC, limit=5, mode="semantic")
    assert semantic.results[0].text == SKIING  # the default is no worse than the explicit mode
    # the ranking before: keywords were answered by words alone, and the paraphrased turn was missed
    old = Recaller(index, RecallConfig(), embedder=embedder, zone=UTC, ranking=OLD_AUTO)
    missed = SKIING not in [item.text for item in old.search(query, now=NOW, zone=UTC, limit=5).results]
    assert missed is old_missed


def test_keywords_are_fused_when_vectors_exist(busy_weekend):
    index, embedder = busy_weekend
    answer = recaller(index, embedder).search("weekend book", now=NOW, zone=UTC)
    assert answer.mode == "hybrid"
    assert "book" in answer.results[0].text and answer.note is None  # words that explain the query keep leading


def test_keywords_stay_exact_without_vectors(paths):
    turns = conversation(NOW - timedelta(days=1), [("kate", f"the weekend book, part {i}") for i in range(4)],
                         session="n")
    index = indexed(paths, turns)
    answer = recaller(index, ConceptEmbedder()).search("weekend book", now=NOW, zone=UTC)
    assert answer.mode == "exact" and answer.note is None and len(answer.results) == 4
    index.close()


def test_rare_words_weigh_more_than_common_ones(busy_weekend):
    index, _ = busy_weekend
    total, frequencies = index.doc_frequencies(["weekend", "skiing", "snowboarding"])
    assert total == 13 and frequencies == {"weekend": 12, "skiing": 1, "snowboarding": 0}
    w = weights(total, frequencies)
    assert w["snowboarding"] > w["skiing"] > w["weekend"] > 0
    assert explained(w, ["a quiet weekend"]) < 0.05
    assert explained(w, ["skiing all weekend", "a quiet weekend"]) == pytest.approx(
        (w["skiing"] + w["weekend"]) / sum(w.values()))
    assert explained({"weekend": 1.0}, []) == 0.0
    assert 0 < idf(10, 10) < idf(10, 5) < idf(10, 0) and idf(0, 0) == pytest.approx(0.6931, abs=1e-4)


def test_korean_and_japanese_terms_count_inside_longer_words():
    w = {"서울숲": 2.0, "会議": 1.0, "산책": 1.0}
    assert explained(w, ["어제 서울숲에서 산책했어"]) == pytest.approx(0.75)
    assert explained(w, ["明日の会議室"]) == pytest.approx(0.25)


def test_keywords_find_the_turn_that_says_it_not_the_reply_to_a_question(paths):
    """The turn after a matching question earns a share for a question ("where did we go skiing?"
    is answered by the reply); typed keywords look for the turn that says what they name."""
    start = NOW - timedelta(days=1)
    turns = [
        turn(start, "Any plans for a skiing trip this winter?", session="a", actor="kate"),
        turn(start + timedelta(minutes=1), "Not sure yet, maybe", session="a", actor="tom"),
        turn(start + timedelta(hours=2), "Our skiing trip was cancelled: the road over the mountain pass was closed "
             "for the whole week after the storms", session="b", actor="kate"),
        *[turn(start + timedelta(hours=3, minutes=i), f"The train was late again, number {i}", session="c")
          for i in range(8)],
    ]
    embedder = ConceptEmbedder()
    index = indexed(paths, turns, embedder)
    for mode in ("auto", "exact"):
        found = recaller(index, embedder).search("skiing trip", now=NOW, zone=UTC, limit=2, mode=mode)
        assert {item.text for item in found.results} == {turns[0].text, turns[2].text}
    before = Recaller(index, RecallConfig(), embedder=embedder, zone=UTC,
                      ranking=Ranking(keywords_find_the_turn=False))
    assert "Not sure yet, maybe" in [item.text for item in before.search("skiing trip", now=NOW, zone=UTC,
                                                                          limit=2, mode="exact").results]
    index.close()


class FixedEmbedder:
    """Chosen vectors: each known text its own, any other text the vector of unrelated talk."""

    name = "fixed-test-3"
    dim = 3

    def __init__(self, vectors: dict[str, tuple[float, float, float]], other: tuple[float, float, float]) -> None:
        self.vectors, self.other = vectors, other

    def embed(self, texts):
        import numpy as np

        rows = np.array([self.vectors.get(text, self.other) for text in texts], dtype=np.float32)
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_keywords_fused_rank_the_nearest_as_meaning_alone_does(paths):
    """Fusion scores every word match by its cosine too; with semantic scores taken above a floor
    (models whose cosines sit close together), those far matches must not lower the floor: a lower
    floor makes each near turn's share to its neighbours outweigh the differences between the near
    turns, and the neighbours of a second-best match overtake the best one."""
    meant, second, beside = "I signed up for a pottery class", "The kiln at the studio broke", "Clay is messy"
    start = NOW - timedelta(days=2)
    turns = [turn(start + timedelta(hours=i), f"The weekend was quiet, book {i}", session=f"w{i}") for i in range(12)]
    turns += [turn(start + timedelta(hours=13), meant, session="a"),
              turn(start + timedelta(hours=14), second, session="b"),
              turn(start + timedelta(hours=14, minutes=1), beside, session="b")]
    embedder = FixedEmbedder({"ceramics weekend": (1, 0, 0), meant: (0.9, 0.436, 0), second: (0.85, 0, 0.527),
                              beside: (0.84, -0.543, 0)}, other=(0.1, 0, 0.995))
    index = indexed(paths, turns, embedder)  # type: ignore[arg-type]
    try:
        def top(mode: str, **ranking: object) -> str:
            chosen = Ranking(semantic_floor=True, vector_pool=3, **ranking)  # type: ignore[arg-type]
            answer = Recaller(index, RecallConfig(), embedder=embedder, zone=UTC, ranking=chosen).search(
                "ceramics weekend", now=NOW, zone=UTC, limit=1, mode=mode)
            return answer.results[0].text

        assert top("semantic") == meant
        assert top("auto") == meant  # the default no worse than the explicit mode
        assert top("auto", floor_of_nearest=False) != meant  # the floor of every filled candidate
    finally:
        index.close()


def test_inside_a_time_range_meaning_weighs_fusion_weight_range(busy_weekend, monkeypatch):
    """A question's range has already narrowed the candidates to a few conversations: inside it,
    fusion weighs meaning by ``fusion_weight_range``; over all time (or a range widened to all time) by
    ``fusion_weight``."""
    from core.recall import engine

    index, embedder = busy_weekend
    weights: list[float] = []
    real = engine.fuse

    def spy(exact, semantic, weight, exact_weight=1.0):
        weights.append(weight)
        return real(exact, semantic, weight, exact_weight)

    monkeypatch.setattr(engine, "fuse", spy)
    ranking = Ranking(fusion_weight=0.7, fusion_weight_range=1.0)
    found = Recaller(index, RecallConfig(), embedder=embedder, zone=UTC, ranking=ranking)
    found.search("what did we do on the weekend with books?", now=NOW, zone=UTC, limit=5)
    assert weights == [0.7]
    answer = found.search("3 days ago, what did we do on the weekend with books?", now=NOW, zone=UTC, limit=5)
    assert answer.range is not None and answer.mode == "hybrid" and weights == [0.7, 1.0]
    assert DEFAULT_RANKING.fusion_weight_range > DEFAULT_RANKING.fusion_weight
