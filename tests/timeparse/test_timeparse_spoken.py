"""Round 3 of issue 13: the notes and the conventions of the everyday forms (``core/timeparse/spoken.py``)
beyond what the case table checks: the exact note of a repeating time, repeats in a longer text, and
the boundaries of thirds and counts ahead."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from core.timeparse import find_time_expressions, parse_time

SEOUL = ZoneInfo("Asia/Seoul")
NOW = datetime(2026, 11, 29, 15, 0, tzinfo=SEOUL)  # a Sunday


@pytest.mark.parametrize(
    ("query", "snippet"),
    [
        ("what do we do every Monday?", "every Monday"),
        ("매주 월요일 회의", "매주 월요일"),
        ("毎週金曜日の会議", "毎週金曜日"),
        ("what does Dave do on weekends", "on weekends"),
    ],
)
def test_a_repeating_time_is_no_range_and_says_so(query: str, snippet: str) -> None:
    parsed = parse_time(query, NOW, SEOUL)
    assert parsed.range is None
    assert parsed.notes == (f"'{snippet}' repeats: not read as one time range",)


def test_a_plain_frequency_adds_no_note() -> None:
    parsed = parse_time("why does she run in the park every day?", NOW, SEOUL)
    assert parsed.range is None and parsed.notes == ()


def test_a_repeat_beside_a_time_keeps_that_time() -> None:
    parsed = parse_time("every Monday last month", NOW, SEOUL)
    assert parsed.expression == "last month"
    assert parsed.range is not None and parsed.range.start == datetime(2026, 10, 1, tzinfo=SEOUL)
    assert parsed.notes == ("'every Monday' repeats: not read as one time range",)


def test_repeats_in_a_longer_text_are_not_expressions() -> None:
    found = find_time_expressions("We meet every Monday. Last Friday we skipped it.", NOW, SEOUL)
    assert [match.expression for match in found] == ["Last Friday"]


def test_thirds_of_a_year_tile_the_year() -> None:
    bounds = [parse_time(f"{edge} 2019", NOW, SEOUL).range for edge in ("early", "mid", "late")]
    assert all(rng is not None for rng in bounds)
    assert bounds[0].start == datetime(2019, 1, 1, tzinfo=SEOUL)  # type: ignore[union-attr]
    assert bounds[0].end == bounds[1].start and bounds[1].end == bounds[2].start  # type: ignore[union-attr]
    assert bounds[2].end == datetime(2020, 1, 1, tzinfo=SEOUL)  # type: ignore[union-attr]


def test_an_impossible_era_year_reads_nothing() -> None:
    assert parse_time("平成40年", NOW, SEOUL).range is None  # 平成 ended in its 31st year
    assert parse_time("令和5年2月30日", NOW, SEOUL).range is None


def test_counts_ahead_go_forward_and_ago_goes_back() -> None:
    ahead = parse_time("3 weeks from now", NOW, SEOUL).range
    back = parse_time("3 weeks ago", NOW, SEOUL).range
    assert ahead is not None and back is not None
    assert ahead.start > NOW > back.end


@pytest.mark.parametrize("edge", ["early", "mid", "late"])
@pytest.mark.parametrize("part", ["morning", "afternoon", "evening", "night"])
def test_every_edge_of_every_part_reads_or_declines(edge: str, part: str) -> None:
    """A combination no table names must not raise (a missing pair once raised KeyError)."""
    for query in (f"{edge} {part}", f"Friday {edge} {part}", f"in the {edge}-{part} yesterday"):
        parsed = parse_time(query, NOW, SEOUL)
        assert parsed.range is None or parsed.range.start < parsed.range.end


def test_minutes_to_the_hour_and_by_the_hour_differ() -> None:
    to = parse_time("3시 10분 전", NOW, SEOUL).range
    by = parse_time("3시 전에", NOW, SEOUL).range
    assert to is not None and by is not None
    assert (to.start.hour, to.start.minute, to.grain) == (14, 50, "hour")
    assert (by.start.hour, by.end.hour, by.grain) == (0, 15, "span")
