"""Time words a new user wrote and the grammar misread or missed: ordinal days in words, two-digit
years in slashed dates, "p m" and "7p", 금주/전주/차주, Korean and Japanese clock intervals, and the
conventions ``reverie when --help`` states for them."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import click
import pytest
from click.testing import CliRunner

from core.paths import HomePaths
from core.timeparse import parse_time
from tui_app.cli import when_cmds
from tui_app.cli.state import CliState

SEOUL = ZoneInfo("Asia/Seoul")
NOW = datetime(2026, 11, 29, 15, 0, tzinfo=SEOUL)  # a Sunday


def read(query: str) -> tuple[str, str, str] | None:
    """(start, end, grain) of ``query``'s range in Seoul, minutes precision, or None."""
    rng = parse_time(query, NOW, SEOUL).range
    if rng is None:
        return None
    return rng.start.strftime("%Y-%m-%dT%H:%M"), rng.end.strftime("%Y-%m-%dT%H:%M"), rng.grain


@pytest.mark.parametrize(
    ("query", "day"),
    [
        ("the third of May", "2026-05-03"),
        ("May the third", "2026-05-03"),
        ("on May the third we met", "2026-05-03"),
        ("the twenty-first of June", "2026-06-21"),
        ("what happened on the fifth of november?", "2026-11-05"),
        ("November the fifth", "2026-11-05"),
        ("the first of December 2025", "2025-12-01"),
        ("the thirty-first of May", "2026-05-31"),
    ],
)
def test_an_ordinal_day_in_words_reads_that_day(query: str, day: str) -> None:
    got = read(query)
    assert got is not None, query
    assert got[0] == f"{day}T00:00" and got[2] == "day", (query, got)


def test_an_ordinal_word_of_a_month_inside_a_sentence() -> None:
    assert read("the fourth of July fireworks were loud") == ("2026-07-04T00:00", "2026-07-05T00:00", "day")


def test_no_ordinal_day_is_read_out_of_a_longer_number_word() -> None:
    """ "the thirty-second of May" is no day: not the 2nd read out of "-second"."""
    assert read("the thirty-second of May") == ("2026-05-01T00:00", "2026-06-01T00:00", "month")


@pytest.mark.parametrize("query", ["May the force be with you", "we march first to the hall", "the second march"])
def test_ordinal_words_without_a_date_shape_stay_words(query: str) -> None:
    assert read(query) is None, query


@pytest.mark.parametrize(
    ("query", "day"),
    [
        ("5/3/87", "1987-05-03"),
        ("on 12/25/30", "1930-12-25"),
        ("3/5/99", "1999-03-05"),
        ("1/2/27", "2027-01-02"),  # not more than a year ahead: still 20yy
        ("5/3/26", "2026-05-03"),
    ],
)
def test_a_two_digit_year_in_a_slashed_date_is_not_far_in_the_future(query: str, day: str) -> None:
    got = read(query)
    assert got is not None and got[0] == f"{day}T00:00", (query, got)


@pytest.mark.parametrize(
    ("query", "hour"),
    [
        ("at 7 p m", "2026-11-28T19:00"),
        ("7 p m yesterday", "2026-11-28T19:00"),
        ("at 7 a m", "2026-11-29T07:00"),
        ("7p", "2026-11-28T19:00"),
        ("yesterday at 7p", "2026-11-28T19:00"),
        ("7:30p", "2026-11-28T19:30"),
        ("at 9a", "2026-11-29T09:00"),
    ],
)
def test_spaced_and_one_letter_meridiems(query: str, hour: str) -> None:
    got = read(query)
    assert got is not None and got[0] == hour and got[2] == "hour", (query, got)


@pytest.mark.parametrize("query", ["plan a m&a deal", "7 pm2.5 readings", "vitamin a m", "page 7p2"])
def test_meridiem_letters_inside_other_words_are_not_times(query: str) -> None:
    assert read(query) is None, query


@pytest.mark.parametrize(
    ("query", "start"),
    [
        ("금주 월요일", "2026-11-23T00:00"),
        ("차주 화요일에", "2026-12-01T00:00"),
        ("전주 금요일", "2026-11-20T00:00"),
        ("금주까지 보내기로 했던 것", "1970-01-01T00:00"),
        ("차주부터 시작", "2026-11-30T00:00"),
        ("전주 대비 매출", "2026-11-16T00:00"),
    ],
)
def test_sino_korean_week_words(query: str, start: str) -> None:
    parsed = parse_time(query, NOW, SEOUL)
    assert parsed.range is not None and parsed.expression is not None, query
    assert parsed.expression.startswith(query[:2]), (query, parsed.expression)  # the week word is read
    assert parsed.range.start.strftime("%Y-%m-%dT%H:%M") == start, (query, parsed.range)


@pytest.mark.parametrize(
    "query", ["금주 중이라 술은 안 마셔", "전주에 가서 비빔밥을 먹었다", "차주가 차를 뺐다", "금주 선언"]
)
def test_week_words_that_are_other_words_stay_words(query: str) -> None:
    """금주 is also 禁酒 (not drinking), 전주 the city of Jeonju, 차주 a car's owner."""
    assert read(query) is None, query


@pytest.mark.parametrize(
    ("query", "start", "end"),
    [
        ("3시부터 5시", "2026-11-29T15:00", "2026-11-29T17:00"),
        ("오전 9시부터 오후 5시까지", "2026-11-29T09:00", "2026-11-29T17:00"),
        ("어제 오전 10시부터 오후 2시까지", "2026-11-28T10:00", "2026-11-28T14:00"),
        ("午前9時から午後5時まで", "2026-11-29T09:00", "2026-11-29T17:00"),
        ("3時から5時の間", "2026-11-29T15:00", "2026-11-29T17:00"),
        ("3時から5時", "2026-11-29T15:00", "2026-11-29T17:00"),
        ("세 시부터 다섯 시까지", "2026-11-29T15:00", "2026-11-29T17:00"),
    ],
)
def test_korean_and_japanese_clock_intervals(query: str, start: str, end: str) -> None:
    got = read(query)
    assert got == (start, end, "span"), (query, got)


def test_from_a_clock_time_without_an_end_is_still_since() -> None:
    """ "3시부터 회의" has no end: from 15:00 to now, as before."""
    assert read("오늘 1시부터 회의") == ("2026-11-29T13:00", "2026-11-29T15:00", "span")


@pytest.mark.parametrize(
    ("query", "start", "end", "grain"),
    [
        ("3 months ago", "2026-08-01T00:00", "2026-09-01T00:00", "month"),
        ("2 years ago", "2024-01-01T00:00", "2025-01-01T00:00", "year"),
        ("3개월 전", "2026-08-01T00:00", "2026-09-01T00:00", "month"),
        ("2年前", "2024-01-01T00:00", "2025-01-01T00:00", "year"),
        ("3 months ago today", "2026-08-29T00:00", "2026-08-30T00:00", "day"),
    ],
)
def test_months_and_years_ago_keep_the_calendar_unit(query: str, start: str, end: str, grain: str) -> None:
    """The convention kept: the calendar month or year that holds the same day N back (so it always
    holds the day meant); "… ago today" is that very day."""
    assert read(query) == (start, end, grain)


@pytest.mark.parametrize(
    "phrase",
    [
        "the third of May",  # ordinal days in words
        "5/3/87",  # two-digit years in slashed dates
        "7p",  # one-letter meridiems
        "금주",  # Sino-Korean week words and their guard
        "3時から5時",  # Japanese clock intervals
        "3 months ago",  # the calendar-unit convention, stated
        "ago today",
        "in 1987",  # a year alone after a preposition
    ],
)
def test_help_states_the_time_word_conventions(phrase: str, isolated_home: HomePaths) -> None:
    group = click.Group("reverie")
    when_cmds.register(group)
    result = CliRunner().invoke(group, ["when", "--help"], obj=CliState(paths=isolated_home))
    assert result.exit_code == 0
    assert phrase in result.output, phrase
