"""Korean query terms without their verb and adjective endings (core.recall.text.strip_ko_ending)."""

from __future__ import annotations

from datetime import UTC, timedelta

import pytest

from core.recall.text import search_terms, strip_ko_ending
from tests.helpers.recall import NOW, indexed, recaller, turn


@pytest.mark.parametrize(("word", "stem"), [
    ("연주한다", "연주"),
    ("연주했던", "연주"),
    ("연주합니다", "연주"),
    ("박제된", "박제"),
    ("재미있는", "재미"),
    ("학생이다", "학생"),
    ("만들었다", "만들"),
    ("달립니다", "달리"),  # -ㅂ니다 taken off the syllable it is written in
    ("걸어간다", "걸어가"),  # -ㄴ다 likewise
])
def test_the_ending_is_dropped(word: str, stem: str) -> None:
    assert strip_ko_ending(word) == stem


@pytest.mark.parametrize("word", ["서울숲", "기타", "바이올린", "남자", "비행기", "냉장고", "한다", "있다"])
def test_a_noun_keeps_its_shape(word: str) -> None:
    assert strip_ko_ending(word) == word


@pytest.mark.parametrize("word", ["취한다", "뛴다", "먹는다", "있습니다", "갑니다", "넣었다", "대한", "했다"])
def test_a_one_syllable_stem_is_not_produced(word: str) -> None:
    assert strip_ko_ending(word) == word


def test_query_terms_lose_endings_and_particles() -> None:
    assert search_terms("한 남자가 기타를 연주한다.") == ["한", "남자", "기타", "연주"]
    assert search_terms("play the guitar 連주") == ["play", "guitar", "連주"]  # other scripts as they were


def test_exact_search_finds_the_other_inflection_first(paths) -> None:
    texts = [
        "남자가 기타를 연주하고 있다.",
        "여자가 바이올린을 연주한다.",
        "소년이 트럼펫을 연주한다.",
        "기타 줄을 새로 샀다.",
        "기타 가방이 무겁다.",
        "오늘은 비가 온다.",
        "점심에 국수를 먹었다.",
    ]
    turns = [turn(NOW - timedelta(hours=i + 1), text, session=f"s{i}") for i, text in enumerate(texts)]
    index = indexed(paths, turns)
    try:
        answer = recaller(index).search("한 남자가 기타를 연주한다.", now=NOW, zone=UTC, limit=3, mode="exact")
    finally:
        index.close()
    best = max(answer.results, key=lambda r: r.score)
    assert best.text == "남자가 기타를 연주하고 있다."
