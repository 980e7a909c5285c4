"""Recall: time-scoped and unscoped ranking, modes, filters, names, neighbours, CJK, odd queries."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import msgspec
import pytest

from core.index import Filters
from core.recall import QueryError, RecallError, RecallResult, analyze
from core.turns import format_ts, parse_ts
from tests.helpers.recall import NOW, ConceptEmbedder, conversation, indexed, recaller, turn

YESTERDAY = datetime(2026, 11, 28, tzinfo=UTC)
RESULT_KEYS = ["id", "ts", "text", "session", "actor", "role", "kind", "reviewed", "score"]


def ids(answer: RecallResult) -> list[str]:
    return [item.text for item in answer.results]


@pytest.fixture
def garden(paths):
    """Three days of talk about the garden, and other talk, in several sessions."""
    turns = [
        turn(YESTERDAY - timedelta(days=1, hours=-9), "The garden needs water and the tomatoes look dry", session="a"),
        turn(YESTERDAY - timedelta(days=1, hours=-10), "Dinner was pasta again", session="a"),
        turn(YESTERDAY + timedelta(hours=8), "Morning: the garden gate is broken", session="b"),
        turn(YESTERDAY + timedelta(hours=9), "Noon: lunch was ramen", session="b"),
        turn(YESTERDAY + timedelta(hours=12), "Afternoon: garden garden garden, tomatoes tomatoes in the garden",
             session="b"),
        turn(YESTERDAY + timedelta(hours=20), "Night: the garden looked lovely under the moon", session="c"),
        turn(YESTERDAY + timedelta(hours=21), "Night: one more thought about the garden soil", session="c"),
        turn(NOW - timedelta(hours=2), "Today the garden is covered in frost", session="d"),
    ]
    embedder = ConceptEmbedder()
    index = indexed(paths, turns, embedder)
    yield recaller(index, embedder)
    index.close()


def test_time_scoped_search_keeps_only_the_range_in_time_order(garden):
    answer = garden.search("what about the garden yesterday", now=NOW, zone=UTC, limit=10)
    assert answer.range is not None and answer.range.grain == "day"
    # a question over an index with vectors is fused by default (on the development benchmark,
    # tests/bench/bench_locomo_dev.py, hybrid beats exact on plain and time-scoped questions)
    assert answer.mode == "hybrid"
    start, end = format_ts(answer.range.start), format_ts(answer.range.end)
    assert answer.results and all(start <= item.ts < end for item in answer.results)
    assert [item.ts for item in answer.results] == sorted(item.ts for item in answer.results)
    assert not any("frost" in t or "water" in t for t in ids(answer))


def test_time_scoped_limit_takes_the_most_relevant_then_orders_by_time(garden):
    answer = garden.search("garden tomatoes yesterday", now=NOW, zone=UTC, limit=2, mode="exact")
    texts = ids(answer)
    assert len(texts) == 2
    # the afternoon turn is the most relevant; the earliest matching turn (the morning gate) is not kept
    assert any(t.startswith("Afternoon") for t in texts)
    assert not texts[0].startswith("Morning")
    assert [item.ts for item in answer.results] == sorted(item.ts for item in answer.results)


def test_part_of_day_range(garden):
    answer = garden.search("garden last night", now=NOW, zone=UTC)
    assert answer.range is not None and answer.range.grain == "part_of_day"
    assert ids(answer) and all(t.startswith("Night") for t in ids(answer))


def test_unscoped_search_is_by_relevance(garden):
    answer = garden.search("garden tomatoes", now=NOW, zone=UTC)
    assert answer.range is None
    scores = [item.score for item in answer.results]
    assert scores == sorted(scores, reverse=True)
    assert ids(answer)[0].startswith("Afternoon")


def test_range_alone_lists_the_latest_of_the_range(garden):
    answer = garden.search("yesterday", now=NOW, zone=UTC, limit=3)
    assert answer.mode == "exact" and "latest" in (answer.note or "")
    assert [t.split(":")[0] for t in ids(answer)] == ["Afternoon", "Night", "Night"]
    korean = garden.search("어제 뭐 했지", now=NOW, zone=UTC, limit=3)
    assert korean.range is not None and ids(korean) == ids(answer)


def test_nothing_to_search_for_gives_an_empty_answer(garden):
    for query in ("", "   ", "???", "\x00\x01"):
        answer = garden.search(query, now=NOW, zone=UTC)
        assert answer.results == [] and answer.range is None


def test_json_shape_is_exact(garden):
    data = msgspec.to_builtins(garden.search("garden yesterday", now=NOW, zone=UTC).form())
    assert list(data) == ["range", "mode", "results"]
    assert list(data["range"]) == ["start", "end", "grain"]
    assert all(list(item) == RESULT_KEYS for item in data["results"])
    assert data["results"][0]["kind"] == "turn" and data["results"][0]["reviewed"] is None
    assert garden.search("garden", now=NOW, zone=UTC).form().range is None


# -- modes ------------------------------------------------------------------------------------------


def test_semantic_fallback_when_exact_finds_nothing(garden):
    answer = garden.search("snowboarding", now=NOW, zone=UTC)
    assert answer.exact_hits == 0 and answer.mode in ("exact", "semantic")
    assert answer.results == [] or answer.mode == "semantic"


@pytest.fixture
def slopes(paths):
    turns = conversation(NOW - timedelta(days=3), [
        ("kate", "We went skiing on the slopes all weekend"),
        ("tom", "The report deadline moved to Friday"),
        ("kate", "The meeting with my manager went fine"),
        ("tom", "I cooked ramen for dinner"),
    ], session="s", role_of={"tom": "assistant"})
    embedder = ConceptEmbedder()
    index = indexed(paths, turns, embedder)
    yield recaller(index, embedder)
    index.close()


def test_auto_says_semantic_when_exact_matched_nothing(slopes):
    answer = slopes.search("snowboarding", now=NOW, zone=UTC)
    assert answer.mode == "semantic"
    assert "exact matched nothing" in answer.note
    assert ids(answer)[0] == "We went skiing on the slopes all weekend"


def test_auto_says_hybrid_when_exact_matched_too_little(slopes):
    answer = slopes.search("ramen snowboarding", now=NOW, zone=UTC)
    assert answer.mode == "hybrid" and answer.exact_hits == 1 and "fewer than 3" in answer.note
    assert set(ids(answer)[:2]) == {"I cooked ramen for dinner", "We went skiing on the slopes all weekend"}


def test_auto_fuses_keywords_when_exact_matched_enough(slopes):
    answer = slopes.search("the weekend deadline manager", now=NOW, zone=UTC)
    assert answer.mode == "hybrid" and answer.exact_hits == 3 and "fewer than" not in (answer.note or "")


def test_explicit_modes_report_themselves(slopes):
    for mode in ("exact", "semantic", "hybrid"):
        assert slopes.search("skiing", now=NOW, zone=UTC, mode=mode).mode == mode
    with pytest.raises(RecallError, match="mode"):
        slopes.search("skiing", now=NOW, zone=UTC, mode="fuzzy")
    with pytest.raises(RecallError, match="limit"):
        slopes.search("skiing", now=NOW, zone=UTC, limit=0)


def test_without_vectors_auto_stays_exact_and_semantic_is_a_clear_error(paths):
    index = indexed(paths, [turn(NOW - timedelta(hours=1), "We went skiing")])
    r = recaller(index, ConceptEmbedder())
    answer = r.search("snowboarding", now=NOW, zone=UTC)
    assert answer.mode == "exact" and answer.results == [] and "no semantic fallback" in answer.note
    with pytest.raises(RecallError, match="reindex"):
        r.search("snowboarding", now=NOW, zone=UTC, mode="semantic")
    index.close()


def test_a_different_model_than_the_index_holds_is_named(slopes):
    slopes._embedder_source = ConceptEmbedder(name="another-model")
    with pytest.raises(RecallError, match="another-model"):
        slopes.search("skiing", now=NOW, zone=UTC, mode="semantic")


# -- names, neighbours, word forms ------------------------------------------------------------------


def test_named_speaker_is_favoured(paths):
    turns = [
        *conversation(NOW - timedelta(days=2), [("tom", "skiing, skiing: the skiing was cold")], session="x"),
        *conversation(NOW - timedelta(days=1), [("kate", "skiing was great")], session="y"),
    ]
    index = indexed(paths, turns)
    answer = recaller(index).search("what did Kate say about skiing", now=NOW, zone=UTC)
    assert ids(answer)[0] == "skiing was great"
    plain = recaller(index).search("skiing", now=NOW, zone=UTC)
    assert ids(plain)[0].startswith("skiing, skiing")
    index.close()


def test_the_answer_next_to_the_question_is_found(paths):
    turns = conversation(NOW - timedelta(days=5), [
        ("tom", "How was the weekend?"),
        ("kate", "What did you paint last week?"),
        ("tom", "A sunrise over the harbour, in oils."),
        ("kate", "Lovely."),
    ], session="p")
    turns += [turn(NOW - timedelta(days=9, minutes=i), f"filler line {i} about nothing", session="q") for i in range(5)]
    index = indexed(paths, turns)
    answer = recaller(index).search("paint", now=NOW, zone=UTC, limit=3)
    assert "A sunrise over the harbour, in oils." in ids(answer)
    index.close()


def test_word_forms_are_searched(paths):
    index = indexed(paths, [turn(NOW - timedelta(days=1), "She painted the fence blue")])
    assert ids(recaller(index).search("painting", now=NOW, zone=UTC)) == ["She painted the fence blue"]
    index.close()


def test_semantic_text_drops_named_speakers():
    plan = analyze("What did Caroline's sister say about Caroline painting?", NOW, UTC)
    assert plan.semantic_text(["caroline"]) == "What did sister say about painting?"
    assert "painting" in plan.terms and "did" not in plan.terms


# -- filters ----------------------------------------------------------------------------------------


@pytest.fixture
def mixed(paths):
    turns = [
        turn(NOW - timedelta(days=1), "the budget meeting went long", session="work", role="user", source="chatgpt"),
        turn(NOW - timedelta(days=1, minutes=-1), "budget notes: cut travel", session="work", role="assistant",
             actor="assistant", source="chatgpt"),
        turn(NOW - timedelta(days=2), "budget for the holiday trip", session="home", role="user", source="claude"),
    ]
    index = indexed(paths, turns)
    yield recaller(index)
    index.close()


def test_filters_role_session_source(mixed):
    def texts(**kw: tuple[str, ...]) -> set[str]:
        return set(ids(mixed.search("budget", now=NOW, zone=UTC, filters=Filters(**kw))))

    assert texts(roles=("assistant",)) == {"budget notes: cut travel"}
    assert texts(sessions=("home",)) == {"budget for the holiday trip"}
    assert texts(sources=("chatgpt",)) == {"the budget meeting went long", "budget notes: cut travel"}
    assert texts(roles=("user",), sessions=("work",)) == {"the budget meeting went long"}
    assert texts(roles=("system",)) == set()


def test_neighbours_respect_filters_and_range(paths):
    turns = conversation(NOW - timedelta(days=3), [
        ("me", "tell me about the harbour"),
        ("bot", "boats and gulls"),
    ], session="h", role_of={"bot": "assistant"})
    index = indexed(paths, turns)
    answer = recaller(index).search("harbour", now=NOW, zone=UTC, filters=Filters(roles=("user",)))
    assert ids(answer) == ["tell me about the harbour"]
    index.close()


# -- CJK --------------------------------------------------------------------------------------------


@pytest.fixture
def cjk(paths):
    turns = [
        turn(NOW - timedelta(days=1, hours=2), "서울숲에서 산책했어", session="ko"),
        turn(NOW - timedelta(days=1, hours=1), "민지가 떡볶이를 사왔어", session="ko", actor="민지"),
        turn(NOW - timedelta(days=1), "会議で予算を決めた", session="ja"),
        turn(NOW - timedelta(days=1, minutes=-5), "東京タワーの夜景がきれいだった", session="ja"),
        turn(NOW - timedelta(days=9), "walked in the park", session="en"),
    ]
    index = indexed(paths, turns)
    yield recaller(index)
    index.close()


@pytest.mark.parametrize(("query", "expected"), [
    ("서울숲", "서울숲에서 산책했어"),
    ("산책", "서울숲에서 산책했어"),
    ("서울숲에서 뭐 했지", "서울숲에서 산책했어"),
    ("어제 산책 얘기", "서울숲에서 산책했어"),
    ("떡볶이", "민지가 떡볶이를 사왔어"),
    ("会議", "会議で予算を決めた"),
    ("先週の会議で何を決めた", None),
    ("昨日の会議で何を決めた", "会議で予算を決めた"),
    ("タワー", "東京タワーの夜景がきれいだった"),
    ("夜景", "東京タワーの夜景がきれいだった"),
])
def test_korean_and_japanese_queries_find_turns(cjk, query, expected):
    answer = cjk.search(query, now=NOW, zone=UTC)
    if expected is None:
        # last week holds nothing: a question's range is a prior, so the answer says so and ranks
        # the other times (yesterday's meeting), none of them inside the range
        assert answer.range is not None and ids(answer)[0] == "会議で予算を決めた"
        assert all(parse_ts(item.ts) not in answer.range for item in answer.results)
        assert answer.note is not None and "nothing in Mon 16 – Sun 22 Nov: results from other times" in answer.note
    else:
        assert ids(answer)[0] == expected


def test_korean_speaker_name_with_particle(cjk):
    answer = cjk.search("민지가 뭐 사왔지", now=NOW, zone=UTC)
    assert ids(answer)[0] == "민지가 떡볶이를 사왔어"


# -- odd input --------------------------------------------------------------------------------------


@pytest.mark.parametrize("query", [
    'AND OR NOT "( NEAR(a b) * ^ : -',
    "garden\x00\x1b[31m\u202e\ufeff",
    "🌱🍅 garden 🌱",
    "\udcff garden",
    "g" * 1999,
    "garden " * 280,
    "ǅ ß ΐ ﬁ",
])
def test_odd_queries_give_an_answer(garden, query):
    answer = garden.search(query, now=NOW, zone=UTC)
    assert isinstance(answer, RecallResult)
    assert list(msgspec.to_builtins(answer.form())) == ["range", "mode", "results"]


def test_too_long_query_is_one_clear_line(garden):
    with pytest.raises(QueryError) as info:
        garden.search("x" * 5000, now=NOW, zone=UTC)
    assert "\n" not in str(info.value) and "5,000" in str(info.value)


def test_naive_now_is_read_in_the_zone(garden):
    naive = NOW.replace(tzinfo=None)
    assert ids(garden.search("garden yesterday", now=naive, zone=UTC)) == ids(
        garden.search("garden yesterday", now=NOW, zone=UTC))


def test_the_named_speakers_sessions_are_favoured(paths):
    turns = [
        *conversation(NOW - timedelta(days=1, hours=3), [
            ("kate", "I am planning a trip"),
            ("assistant", "the harbour ferry leaves at nine"),
        ], session="with-kate", role_of={"assistant": "assistant"}),
        *conversation(NOW - timedelta(days=1, hours=1), [
            ("tom", "when does it leave"),
            ("assistant", "the harbour ferry leaves at ten"),
        ], session="with-tom", role_of={"assistant": "assistant"}),
    ]
    index = indexed(paths, turns)
    r = recaller(index)
    assert ids(r.search("what did Kate hear about the harbour ferry", now=NOW, zone=UTC))[0].endswith("nine")
    assert ids(r.search("what did Tom hear about the harbour ferry", now=NOW, zone=UTC))[0].endswith("ten")
    index.close()
