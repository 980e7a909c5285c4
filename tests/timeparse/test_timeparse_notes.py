"""Notes on a parse (typos read, time-like words not read), the typo matcher, and moving holidays."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from core.timeparse import find_time_expressions, parse_time
from core.timeparse import typos as typo_module
from core.timeparse.movable import chinese_lunar, dates, easter, korean_lunar, nth_weekday
from tests.helpers.timeparse_cases import SEOUL, SEOUL_NOW


def test_a_typo_is_read_and_noted_with_the_words_as_written() -> None:
    tp = parse_time("what did we decide last tuesdya night?", SEOUL_NOW, SEOUL)
    assert tp.range is not None and tp.range.grain == "part_of_day"
    assert tp.expression == "last tuesdya night"
    assert tp.rest == "what did we decide?"
    assert tp.notes == ("read 'tuesdya' as tuesday",)
    assert tp.to_dict()["notes"] == ["read 'tuesdya' as tuesday"]


def test_a_correction_that_makes_no_expression_is_neither_used_nor_noted() -> None:
    # "febuary" alone is a month name without a preposition: weak, like "February" alone.
    tp = parse_time("febuary notes", SEOUL_NOW, SEOUL)
    assert tp.range is None and tp.notes == ()


def test_what_was_read_as_written_wins_over_a_later_typo() -> None:
    tp = parse_time("yesterday we talked about tomorow", SEOUL_NOW, SEOUL)
    assert tp.expression == "yesterday"
    assert tp.notes == ()


def test_unread_time_words_are_noted_with_and_without_a_range() -> None:
    alone = parse_time("what did we say a while ago", SEOUL_NOW, SEOUL)
    assert alone.range is None
    assert alone.notes == ("could not read 'a while ago' as a time; searched without a time range",)
    beside = parse_time("yesterday, and a while ago", SEOUL_NOW, SEOUL)
    assert beside.range is not None
    assert beside.notes == ("could not read 'a while ago' as a time",)


def test_read_time_words_give_no_note() -> None:
    for query in ("3 days ago", "며칠 전에", "数日前", "at six o'clock", "몇 주 전"):
        assert parse_time(query, SEOUL_NOW, SEOUL).notes == (), query


def test_find_reads_text_as_written() -> None:
    """Typo correction is for queries; a longer text is searched for the time words it holds."""
    assert find_time_expressions("we met yesturday", SEOUL_NOW, SEOUL) == []


@pytest.mark.parametrize(
    ("written", "word", "limit", "expected"),
    [
        ("tuesdya", "tuesday", 1, 1),
        ("yesturday", "yesterday", 2, 1),
        ("wendsday", "wednesday", 2, 2),
        ("money", "monday", 1, 2),
        ("abc", "abcdefg", 2, 3),
    ],
)
def test_distance_is_optimal_string_alignment_with_a_limit(written: str, word: str, limit: int, expected: int) -> None:
    assert typo_module.distance(written, word, limit) == expected


@pytest.mark.parametrize(
    "token", ["we", "may", "sat", "sun", "money", "mouth", "sundae", "frida", "mondays", "todays", "mourning"]
)
def test_ordinary_english_words_are_no_typos(token: str) -> None:
    assert typo_module.en_correction(token) is None


@pytest.mark.parametrize("token", ["모래", "네일", "오는", "그게", "그저", "오존", "아참"])
def test_ordinary_korean_words_are_no_typos(token: str) -> None:
    assert typo_module.ko_correction(token) is None


def test_korean_typos_keep_their_particle() -> None:
    assert typo_module.ko_correction("어재는") == (2, "어제")
    assert typo_module.ko_correction("저녘에") == (2, "저녁")
    assert typo_module.ko_correction("어재밥") is None  # 밥 is no particle


@pytest.mark.parametrize(
    ("year", "expected"),
    [(2000, date(2000, 4, 23)), (2019, date(2019, 4, 21)), (2024, date(2024, 3, 31)), (2025, date(2025, 4, 20))],
)
def test_easter_by_the_computus(year: int, expected: date) -> None:
    assert easter(year) == expected


def test_lunar_holidays_come_from_the_calendar_packages() -> None:
    assert korean_lunar(2024, 1, 1) == date(2024, 2, 10)  # 설날 2024
    assert korean_lunar(2023, 8, 15) == date(2023, 9, 29)  # 추석 2023
    assert korean_lunar(2024, 8, 15) == date(2024, 9, 17)  # 추석 2024
    assert chinese_lunar(2023, 1, 1) == date(2023, 1, 22)  # 春節 2023
    assert dates("chuseok_holidays", 2024) == (date(2024, 9, 16), date(2024, 9, 19))


def test_nth_weekday() -> None:
    assert nth_weekday(2026, 11, 3, 4) == date(2026, 11, 26)  # Thanksgiving
    assert nth_weekday(2026, 5, 0, -1) == date(2026, 5, 25)  # last Monday of May


def test_a_lunar_year_outside_the_tables_gives_no_crash() -> None:
    now = datetime(2070, 6, 1, 12, 0, tzinfo=ZoneInfo("Asia/Seoul"))
    tp = parse_time("작년 추석", now, now.tzinfo)  # 2069: beyond the KARI tables (to 2050)
    assert tp.range is None or tp.range.grain == "year"
