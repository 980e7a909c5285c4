"""Recall's ranking choices: the time parser's notes in every answer, fusion by default for questions,
neighbours that favour the turn after a question, and the checks on a ranking's settings."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, timedelta

import pytest

import core.recall.query as query_module
from core.config import RecallConfig
from core.index import Filters
from core.recall import Recaller, analyze
from core.recall.scoring import DEFAULT_RANKING, Ranking, spread
from core.turns import parse_ts
from tests.helpers.recall import NOW, ConceptEmbedder, conversation, indexed, recaller, turn


@pytest.fixture
def office(paths):
    turns = conversation(NOW - timedelta(days=3), [
        ("kate", "We went skiing on the slopes all weekend"),
        ("tom", "The report deadline moved to Friday"),
        ("kate", "The meeting with my manager went fine, the deadline is the report"),
        ("tom", "I cooked ramen for dinner after the meeting"),
    ], session="s", role_of={"tom": "assistant"})
    embedder = ConceptEmbedder()
    index = indexed(paths, turns, embedder)
    yield index, embedder
    index.close()


@dataclass(frozen=True)
class NotedParse:
    """A parse result as the time parser returns it once it carries notes."""

    range: object
    expression: str | None
    rest: str
    notes: tuple[str, ...]


def test_the_time_parsers_notes_reach_the_answer(office, monkeypatch):
    index, embedder = office
    real = query_module.parse_time

    def noted(text, now, zone, languages, **settings):
        parsed = real(text, now, zone, languages, **settings)
        return NotedParse(parsed.range, parsed.expression, parsed.rest,
                          ("read 'yesturday' as yesterday", "could not read 'tuesdya'"))

    monkeypatch.setattr(query_module, "parse_time", noted)
    answer = recaller(index, embedder).search("report deadline meeting", now=NOW, zone=UTC)
    assert answer.notes == ("read 'yesturday' as yesterday", "could not read 'tuesdya'")
    assert answer.note is not None and answer.note.startswith("read 'yesturday' as yesterday; could not read")
    # a fallback's own note follows the parser's
    fallback = recaller(index, embedder).search("snowboarding", now=NOW, zone=UTC)
    assert fallback.mode == "semantic" and fallback.note.endswith("exact matched nothing: semantic results")
    assert fallback.note.startswith("read 'yesturday'")


def test_a_parse_without_notes_adds_none(office):
    index, embedder = office
    answer = recaller(index, embedder).search("the report deadline meeting", now=NOW, zone=UTC)
    assert answer.notes == () and answer.note is None


@pytest.mark.parametrize(("query", "question"), [
    ("what did Kate say about the deadline", True),
    ("Kate skiing", False),
    ("the weekend deadline manager", False),
    ("deadline moved?", True),
    ("yesterday, when did tom cook ramen", True),
    ("민지가 서울숲에서 뭐라고 했지", True),
    ("서울숲 산책", False),
    ("会議で何を決めた", True),
    ("会議 決定", False),
])
def test_question_form(query, question):
    assert analyze(query, NOW, UTC).is_question is question


def test_auto_fuses_a_question_when_vectors_exist(office):
    index, embedder = office
    fused = Recaller(index, RecallConfig(), embedder=embedder, zone=UTC, ranking=Ranking(auto_fuse=True))
    question = fused.search("what about the report deadline and the meeting?", now=NOW, zone=UTC)
    assert question.mode == "hybrid" and question.note is None and question.exact_hits >= 3
    keywords = fused.search("report deadline meeting", now=NOW, zone=UTC)
    assert keywords.mode == "hybrid"  # keywords too, by default (``auto_fuse_keywords``)
    words_only = Recaller(index, RecallConfig(), embedder=embedder, zone=UTC,
                          ranking=Ranking(auto_fuse=True, auto_fuse_keywords=False))
    assert words_only.search("report deadline meeting", now=NOW, zone=UTC).mode == "exact"
    # the shipped default
    assert DEFAULT_RANKING.auto_fuse
    assert recaller(index, embedder).search("what about the report deadline and the meeting?",
                                            now=NOW, zone=UTC).mode == "hybrid"


def test_auto_stays_exact_for_a_question_without_vectors(paths):
    turns = conversation(NOW - timedelta(days=1), [("kate", f"the report deadline, note {i}") for i in range(4)],
                         session="n")
    index = indexed(paths, turns)
    answer = recaller(index, ConceptEmbedder()).search("what was the report deadline?", now=NOW, zone=UTC)
    assert answer.mode == "exact" and answer.note is None and len(answer.results) == 4
    index.close()


def test_auto_says_so_when_the_model_differs_from_the_index(office):
    index, _ = office
    answer = recaller(index, ConceptEmbedder(name="another-model")).search(
        "what about the report deadline and the meeting?", now=NOW, zone=UTC)
    assert answer.mode == "exact" and "another-model" in answer.note and "exact results only" in answer.note


def test_spread_favours_the_turn_after_a_source():
    near = {"q": [("before", -1), ("after", 1), ("after2", 2), ("far", 3)]}
    out = spread({"q": 10.0}, near, (0.4, 0.1), after=1.5)
    assert out["q"] == 10.0
    assert out["before"] == pytest.approx(4.0) and out["after"] == pytest.approx(6.0)
    assert out["after2"] == pytest.approx(1.5) and "far" not in out
    assert spread({"q": 10.0}, near, (0.4,))["after"] == pytest.approx(4.0)


@pytest.mark.parametrize(("settings", "field"), [
    ({"spread_exact": (1.5,)}, "spread_exact"),
    ({"spread_semantic": ("x",)}, "spread_semantic"),
    ({"exact_pool": 0}, "exact_pool"),
    ({"spread_after": -1.0}, "spread_after"),
])
def test_a_bad_ranking_setting_is_named(settings, field):
    with pytest.raises(ValueError, match=f"ranking.{field}"):
        Ranking(**settings)


def test_the_turn_after_a_question_gets_the_answer_share():
    near = {"q": [("a", 1), ("b", 2)], "s": [("c", 1)]}
    out = spread({"q": 10.0, "s": 10.0}, near, (0.4, 0.1), asking={"q"}, answer_share=0.9)
    assert out["a"] == pytest.approx(9.0)  # the answer to "q?" (0.9 instead of 0.4)
    assert out["b"] == pytest.approx(1.0)  # two places on: the plain weight
    assert out["c"] == pytest.approx(4.0)  # "s" asks nothing


def test_the_answer_to_a_matching_question_scores_next_to_it(paths):
    turns = conversation(NOW - timedelta(days=2), [
        ("tom", "How long have you two been married?"),
        ("kate", "Five years already, time flies!"),
        ("tom", "Nice."),
    ], session="m")
    turns += conversation(NOW - timedelta(days=4), [
        ("ann", "Married life is calm."),
        ("bob", "Rain all day."),
        ("ann", "My sister married in May."),
    ], session="o")
    index = indexed(paths, turns)
    query = "how long have they been married"

    def scores(ranking: Ranking) -> dict[str, float]:
        found = Recaller(index, RecallConfig(), zone=UTC, ranking=ranking).search(query, now=NOW, zone=UTC, limit=5)
        return {item.text: item.score for item in found.results}

    shared, flat = scores(DEFAULT_RANKING), scores(Ranking(answer_share=0.0, session_prior=0.0))
    asked, reply = "How long have you two been married?", "Five years already, time flies!"
    assert list(shared)[:2] == [asked, reply]  # the reply shares no word with the query
    assert shared[reply] >= 0.85 * shared[asked]
    assert flat[reply] <= 0.5 * flat[asked]
    index.close()


def test_the_time_parsers_own_notes_reach_the_answer(office):
    """No stand-in parser: a typo read as a time word, and time-like words that could not be read."""
    index, embedder = office
    read = recaller(index, embedder).search("report deadline yesturday", now=NOW, zone=UTC)
    assert read.range is not None and read.range.grain == "day" and read.expression is not None
    assert any("yesturday" in note for note in read.notes) and read.notes[0] in (read.note or "")
    unread = recaller(index, embedder).search("report deadline 3 dasy ago", now=NOW, zone=UTC)
    assert unread.range is None and any("dasy" in note for note in unread.notes)
    assert unread.notes[0] in (unread.note or "") and unread.results


# -- a question's time range is a strong prior, not a wall ----------------------------------------


@pytest.fixture
def trips(paths):
    turns = conversation(NOW - timedelta(days=40), [
        ("kate", "We finally booked the ferry to the islands"),
        ("tom", "The ferry leaves at dawn, bring a jacket"),
    ], session="t")
    turns += conversation(NOW - timedelta(days=1), [
        ("kate", "The printer jammed again"),
        ("tom", "Try the other tray"),
    ], session="p")
    index = indexed(paths, turns)
    yield index
    index.close()


def test_a_question_whose_range_holds_no_match_ranks_other_times(trips):
    answer = recaller(trips).search("what did Kate say about the ferry yesterday?", now=NOW, zone=UTC)
    assert answer.range is not None and answer.range.grain == "day"
    texts = [item.text for item in answer.results]
    assert "We finally booked the ferry to the islands" in texts
    assert all(parse_ts(item.ts) not in answer.range for item in answer.results if "ferry" in item.text)
    assert answer.note is not None and "from other times" in answer.note


def test_what_the_range_holds_ranks_first_when_it_widens(paths):
    turns = [turn(NOW - timedelta(days=40), "Our skiing trip is booked", session="old"),
             turn(NOW - timedelta(days=1), "We spent the day on the slopes", session="new")]
    embedder = ConceptEmbedder()
    index = indexed(paths, turns, embedder)
    answer = recaller(index, embedder).search("what about skiing yesterday?", now=NOW, zone=UTC)
    # no word of the question is in yesterday's turn, only its meaning: it comes first, then other times
    assert [item.text for item in answer.results] == ["We spent the day on the slopes", "Our skiing trip is booked"]
    assert answer.results[0].score > answer.results[1].score
    assert answer.note is not None and "only 1 near in meaning: 1 more from other times" in answer.note
    index.close()


def test_a_word_matched_in_the_range_keeps_it_a_wall(trips):
    answer = recaller(trips).search("what did tom say about the tray yesterday?", now=NOW, zone=UTC)
    assert answer.results and all(parse_ts(item.ts) in answer.range for item in answer.results)
    assert "other times" not in (answer.note or "")


def test_keywords_keep_the_range_as_a_wall(trips):
    answer = recaller(trips).search("ferry yesterday", now=NOW, zone=UTC)
    assert answer.range is not None and answer.results == []


def test_widening_can_be_switched_off(trips):
    answer = Recaller(trips, RecallConfig(), zone=UTC, ranking=Ranking(widen=False)).search(
        "what did Kate say about the ferry yesterday?", now=NOW, zone=UTC)
    assert answer.results == [] and "other times" not in (answer.note or "")


def test_a_range_with_enough_matches_does_not_widen(paths):
    turns = [turn(NOW - timedelta(days=1, minutes=i), f"ferry note {i}", session=f"s{i}") for i in range(4)]
    turns.append(turn(NOW - timedelta(days=30), "ferry plans for the summer", session="old"))
    index = indexed(paths, turns)
    answer = recaller(index).search("what about the ferry yesterday?", now=NOW, zone=UTC)
    assert len(answer.results) == 4 and all(parse_ts(item.ts) in answer.range for item in answer.results)
    assert "other times" not in (answer.note or "")
    index.close()


def test_a_date_a_question_counts_from_is_read_as_its_range():
    """"the Monday before July 24, 2023" is Monday 17 July 2023, not the last Monday before now."""
    plan = analyze("what did Andrew do on the Monday before July 24, 2023?", NOW, UTC)
    assert plan.range is not None and plan.range.start.date().isoformat() == "2023-07-17"
    assert plan.rest == "what did Andrew do?"


def test_the_answer_share_as_a_floor():
    near = {"q": [("a", 1)]}
    added = spread({"q": 0.5, "a": 0.4}, near, (0.2,), asking={"q"}, answer_share=0.9)
    floored = spread({"q": 0.5, "a": 0.4}, near, (0.2,), asking={"q"}, answer_share=0.9, answer_max=True)
    assert added["a"] == pytest.approx(0.85)
    assert floored["a"] == pytest.approx(0.5)  # max(own 0.4 + 0.2 × 0.5, 0.9 × 0.5)


def test_the_multilingual_model_ranks_semantic_scores_above_the_worst_hit(paths):
    from core.config import Config, EmbeddingConfig
    from core.recall.scoring import ranking_for

    assert ranking_for("multilingual-e5-small").semantic_floor is True
    assert ranking_for("all-MiniLM-L6-v2") == DEFAULT_RANKING
    config = Config(embedding=EmbeddingConfig(model="multilingual-e5-small"))
    with Recaller.open(paths, config) as opened:  # the model is not loaded to choose the ranking
        assert opened.ranking.semantic_floor is True


def test_a_keyword_match_beyond_the_nearest_vectors_is_fused_with_its_own_nearness(paths):
    """Two turns hold the question's word equally; only one is near its meaning, but the nearest
    vectors are other turns. Fusion weighs that nearness instead of counting both 0."""
    near, far = ("budget notes: seeds and a folder of receipts, a stapler, pens, labels, clips",
                 "budget notes: tape and a folder of receipts, a stapler, pens, labels, clips")
    turns = [
        turn(NOW - timedelta(days=5), near, session="a"),
        turn(NOW - timedelta(days=2), far, session="b"),
        turn(NOW - timedelta(days=9), "garden plants balcony seeds planted", session="c"),
        turn(NOW - timedelta(days=8), "garden plants, seeds on the balcony", session="d"),
    ]
    embedder = ConceptEmbedder()
    index = indexed(paths, turns, embedder)
    question = "what was the budget for the tomatoes?"

    def top(mode: str = "auto", **ranking: object) -> tuple[str, list[str]]:
        # fusion_rarity 0: "tomatoes" is in no turn, and this test is about the cosine of every candidate
        chosen = Ranking(vector_pool=1, fusion_rarity_question=0.0, **ranking)  # type: ignore[arg-type]
        answer = Recaller(index, RecallConfig(), embedder=embedder, zone=UTC, ranking=chosen).search(
            question, now=NOW, zone=UTC, limit=1, mode=mode)
        return answer.mode, [item.text for item in answer.results]

    assert top("hybrid") == top("auto") == ("hybrid", [near])
    assert top(fill_semantic=False) == ("hybrid", [far])  # both count 0 for meaning: a tie, the later wins
    index.close()


def test_a_busy_range_without_a_word_of_the_question_shares_the_answer_with_other_times(paths):
    turns = [turn(NOW - timedelta(days=40), "We finally booked the ferry to the islands", session="old")]
    turns += [turn(NOW - timedelta(days=1, minutes=10 * i), f"the printer jammed again, tray {i}", session=f"p{i}")
              for i in range(6)]
    embedder = ConceptEmbedder()
    index = indexed(paths, turns, embedder)
    question = "what did we say about the ferry yesterday?"
    answer = recaller(index, embedder).search(question, now=NOW, zone=UTC, limit=4)
    texts = [item.text for item in answer.results]
    assert len(texts) == 4 and "We finally booked the ferry to the islands" in texts
    assert sum(parse_ts(item.ts) in answer.range for item in answer.results) >= 2  # the range's best half first
    assert answer.note is not None and "no words matched in" in answer.note and "from other times" in answer.note
    walled = Recaller(index, RecallConfig(), embedder=embedder, zone=UTC,
                      ranking=Ranking(widen_unmatched=False)).search(question, now=NOW, zone=UTC, limit=4)
    assert all(parse_ts(item.ts) in walled.range for item in walled.results) and len(walled.results) == 4
    index.close()


@pytest.fixture
def two_chats(paths):
    turns = conversation(NOW - timedelta(days=30), [
        ("maria", "I donated my old car to the homeless shelter"),
        ("john", "That is generous, Maria"),
    ], session="m")
    turns += conversation(NOW - timedelta(days=1), [
        ("kate", "The shelter by the station needs blankets"),
        ("tom", "I can drive some over"),
    ], session="k")
    index = indexed(paths, turns)
    yield index
    index.close()


def test_a_question_whose_named_people_say_nothing_in_its_range_is_ranked_over_any_time(two_chats):
    answer = recaller(two_chats).search("what did Maria donate to the shelter yesterday?", now=NOW, zone=UTC)
    assert answer.range is not None and answer.range.grain == "day" and answer.expression == "yesterday"
    assert answer.results[0].text == "I donated my old car to the homeless shelter"
    assert answer.note is not None and "maria said nothing in Sat 28 Nov: results from any time" in answer.note
    # someone who speaks in the range keeps it
    kept = recaller(two_chats).search("what did Kate say about the shelter yesterday?", now=NOW, zone=UTC)
    assert kept.results and all(parse_ts(item.ts) in kept.range for item in kept.results)
    assert "said nothing" not in (kept.note or "")
    # keywords keep the range as a wall; the rule can be switched off
    keywords = recaller(two_chats).search("Maria shelter yesterday", now=NOW, zone=UTC)
    assert keywords.results and all(parse_ts(item.ts) in keywords.range for item in keywords.results)
    walled = Recaller(two_chats, RecallConfig(), zone=UTC, ranking=Ranking(silent_named=False)).search(
        "what did Maria donate to the shelter yesterday?", now=NOW, zone=UTC)
    assert "said nothing" not in (walled.note or "")
    assert all(parse_ts(item.ts) in walled.range for item in walled.results)
    # narrowed turns (here by source) do not tell who speaks in the range: the rule stays out
    narrowed = recaller(two_chats).search("what did Maria donate to the shelter yesterday?", now=NOW, zone=UTC,
                                          filters=Filters(sources=("test",)))
    assert "said nothing" not in (narrowed.note or "")
