"""Round 3 of the recall ranking: the session prior (a turn rises with the best other match of its
session) and exact search without the names of the people who speak."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, timedelta

import pytest

from core.config import RecallConfig
from core.recall import Recaller
from core.recall.scoring import DEFAULT_RANKING, Ranking, session_prior
from tests.helpers.recall import NOW, ConceptEmbedder, conversation, indexed


def test_a_turn_rises_with_the_best_other_match_of_its_session():
    scores = {"a1": 1.0, "a2": 0.1, "b1": 0.3, "mem": 0.5}
    sessions = {"a1": "A", "a2": "A", "b1": "B"}
    out = session_prior(scores, sessions, 0.5)
    assert out["a2"] == pytest.approx(0.1 + 0.5 * 1.0)  # lifted by a1
    assert out["a1"] == pytest.approx(1.0 + 0.5 * 0.1)  # lifted by a2, not by itself
    assert out["b1"] == pytest.approx(0.3)  # alone in its session
    assert out["mem"] == pytest.approx(0.5)  # no session (a memory)
    assert sorted(out, key=out.get, reverse=True)[:2] == ["a1", "a2"]


def test_the_session_strength_is_the_mean_of_its_best_other_turns():
    scores = {"a1": 1.0, "a2": 0.6, "a3": 0.2, "a4": 0.0}
    out = session_prior(scores, dict.fromkeys(scores, "A"), 1.0, top=2)
    assert out["a4"] == pytest.approx(0.0 + (1.0 + 0.6) / 2)
    assert out["a1"] == pytest.approx(1.0 + (0.6 + 0.2) / 2)
    assert session_prior(scores, dict.fromkeys(scores, "A"), 0.0) == scores


def test_a_bad_session_prior_setting_is_named():
    with pytest.raises(ValueError, match=r"ranking\.session_prior:"):
        Ranking(session_prior=-1)
    with pytest.raises(ValueError, match=r"ranking\.session_prior_top:"):
        Ranking(session_prior_top=0)


@pytest.fixture
def ski(paths):
    """The same reply in two sessions: in the skiing session, five turns after the skiing, and alone
    in a later session (so without the prior it wins the tie by being later)."""
    turns = conversation(NOW - timedelta(days=3), [
        ("kate", "We went skiing on the slopes all weekend"),
        ("tom", "Nice, send pictures"),
        ("kate", "Sure, tonight"),
        ("tom", "Cool"),
        ("kate", "Anyway"),
        ("kate", "My legs still hurt"),
    ], session="trip")
    turns += conversation(NOW - timedelta(days=1), [("ann", "My legs still hurt")], session="gym")
    embedder = ConceptEmbedder()
    index = indexed(paths, turns, embedder)
    yield index, embedder
    index.close()


@pytest.mark.parametrize("mode", ["auto", "exact", "semantic"])
def test_the_reply_in_the_matching_session_ranks_first(ski, mode):
    index, embedder = ski

    def order(ranking: Ranking) -> list[tuple[str, str]]:
        found = Recaller(index, RecallConfig(), embedder=embedder, zone=UTC, ranking=ranking).search(
            "did the skiing hurt?", now=NOW, zone=UTC, limit=10, mode=mode)
        return [(item.session or "", item.text) for item in sorted(found.results, key=lambda r: -r.score)
                if item.text == "My legs still hurt"]

    assert order(DEFAULT_RANKING) == [("trip", "My legs still hurt"), ("gym", "My legs still hurt")]
    assert order(replace(DEFAULT_RANKING, session_prior=0.0)) == [("gym", "My legs still hurt"),
                                                                  ("trip", "My legs still hurt")]


@pytest.fixture
def painting(paths):
    """Tom names Kate twice and says "paint"; Kate says what she painted."""
    turns = conversation(NOW - timedelta(days=2), [
        ("kate", "I painted the lake at sunrise last year"),
        ("ann", "Lovely"),
    ], session="k")
    turns += conversation(NOW - timedelta(days=5), [
        ("tom", "Kate, Kate, you should paint more"),
        ("bob", "Agreed"),
    ], session="t")
    turns += conversation(NOW - timedelta(days=9), [("kate", "Rain all day here")], session="r")
    index = indexed(paths, turns)
    yield index
    index.close()


def test_exact_search_drops_the_names_of_people_who_speak(painting):
    def first(ranking: Ranking) -> str:
        found = Recaller(painting, RecallConfig(), zone=UTC, ranking=ranking).search(
            "what did Kate paint?", now=NOW, zone=UTC, limit=5, mode="exact")
        return max(found.results, key=lambda r: r.score).text

    assert first(DEFAULT_RANKING) == "I painted the lake at sunrise last year"
    # with the name searched, the turn that says "Kate" twice outranks what Kate said
    assert first(replace(DEFAULT_RANKING, exact_names_out=False)) == "Kate, Kate, you should paint more"


def test_a_name_alone_is_still_searched(painting):
    found = Recaller(painting, RecallConfig(), zone=UTC).search("Kate?", now=NOW, zone=UTC, limit=5, mode="exact")
    assert "Kate, Kate, you should paint more" in [r.text for r in found.results]


@pytest.fixture
def pottery(paths):
    turns = conversation(NOW - timedelta(days=2), [("kate", "We signed up for the pottery class downtown")],
                         session="a")
    turns += conversation(NOW - timedelta(days=4), [("tom", "Pottery, pottery, I love pottery")], session="b")
    index = indexed(paths, turns)
    yield index
    index.close()


def test_a_hit_that_holds_more_of_the_query_gains(pottery):
    def scores(ranking: Ranking) -> dict[str, float]:
        found = Recaller(pottery, RecallConfig(), zone=UTC, ranking=ranking).search(
            "pottery class", now=NOW, zone=UTC, limit=5, mode="exact")
        return {item.session or "": item.score for item in found.results}

    plain, coordinated = scores(replace(DEFAULT_RANKING, coordination=0.0)), scores(DEFAULT_RANKING)
    both, one = "a", "b"  # "a" holds both words, "b" one word three times
    assert coordinated[both] / coordinated[one] == pytest.approx((1 + DEFAULT_RANKING.coordination)
                                                                 * plain[both] / plain[one])
    assert max(coordinated, key=coordinated.get) == both
