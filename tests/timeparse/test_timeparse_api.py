"""The public API of core.timeparse: what callers get back, the rest of the query, errors, laziness."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from core.errors import ReverieError
from core.timeparse import TimeParse, TimeParseError, TimeRange, find_time_expressions, parse_time
from tests.helpers.timeparse_cases import SEOUL, SEOUL_NOW


def test_to_dict_has_exactly_the_four_keys_with_offsets() -> None:
    data = parse_time("what did we decide last Tuesday night?", SEOUL_NOW, SEOUL).to_dict()
    assert data == {
        "range": {"start": "2026-11-24T18:00:00+09:00", "end": "2026-11-25T04:00:00+09:00", "grain": "part_of_day"},
        "expression": "last Tuesday night",
        "rest": "what did we decide?",
        "notes": [],
    }
    json.dumps(data)  # serialisable as is


def test_no_expression_gives_null_range_and_the_tidied_query() -> None:
    tp = parse_time("  what did   we decide ?", SEOUL_NOW, SEOUL)
    assert tp == TimeParse(None, None, "what did we decide?")
    assert tp.to_dict() == {"range": None, "expression": None, "rest": "what did we decide?", "notes": []}


@pytest.mark.parametrize(
    ("query", "expression", "rest"),
    [
        ("What did Kate say yesterday, about skiing?", "yesterday", "What did Kate say, about skiing?"),
        ("Yesterday, what did we plan?", "Yesterday", "what did we plan?"),
        ("notes on Monday about the budget", "on Monday", "notes about the budget"),
        ("어제는 뭐 했지?", "어제", "뭐 했지?"),
        ("지난주 화요일에 회의", "지난주 화요일", "회의"),
        ("先週の火曜日の会議は?", "先週の火曜日", "会議は?"),
        ("昨日、何を話した", "昨日", "何を話した"),
        ("ＹＥＳＴＥＲＤＡＹ meeting", "ＹＥＳＴＥＲＤＡＹ", "meeting"),
    ],
)
def test_expression_is_as_written_and_rest_is_tidy(query: str, expression: str, rest: str) -> None:
    tp = parse_time(query, SEOUL_NOW, SEOUL)
    assert tp.expression == expression
    assert expression in query
    assert tp.rest == rest


def test_the_first_expression_wins_and_find_returns_all_in_order() -> None:
    text = (
        "Yesterday we went skiing with Kate. On Friday evening I finished the report.\n"
        "어제 저녁에 친구를 만났다. 先週の火曜日の夜は雨だった。 May I say: the march of progress."
    )
    found = find_time_expressions(text, SEOUL_NOW, SEOUL)
    assert [m.expression for m in found] == ["Yesterday", "On Friday evening", "어제 저녁", "先週の火曜日の夜"]
    assert all(text[m.start : m.end] == m.expression for m in found)
    assert found[1].range.start == datetime(2026, 11, 27, 18, tzinfo=SEOUL)
    assert parse_time(text, SEOUL_NOW, SEOUL).expression == "Yesterday"
    assert found[0].start == 0


def test_find_uses_the_same_guards() -> None:
    assert find_time_expressions("we may march on; the sun sat low for a second", SEOUL_NOW, SEOUL) == []


def test_languages_limit_the_rules() -> None:
    assert parse_time("어제 yesterday", SEOUL_NOW, SEOUL, languages=("en",)).expression == "yesterday"
    assert parse_time("yesterday", SEOUL_NOW, SEOUL, languages=("ko", "ja")).range is None
    # Numeric dates are understood whatever the languages.
    assert parse_time("2026-11-03", SEOUL_NOW, SEOUL, languages=("ja",)).range is not None


@pytest.mark.parametrize(
    ("now", "zone", "languages", "message"),
    [
        (datetime(2026, 11, 29, 15), SEOUL, ("en",), "timezone-aware"),
        (SEOUL_NOW, "Asia/Seoul", ("en",), "ZoneInfo"),
        (SEOUL_NOW, SEOUL, ("fr",), "unknown language 'fr'"),
    ],
)
def test_bad_arguments_are_one_line_errors(
    now: datetime, zone: object, languages: tuple[str, ...], message: str
) -> None:
    with pytest.raises(TimeParseError, match=message) as info:
        parse_time("yesterday", now, zone, languages)  # type: ignore[arg-type]
    assert isinstance(info.value, ReverieError) and "\n" not in str(info.value)


def test_now_in_another_zone_is_read_in_the_persons_zone() -> None:
    """00:30 UTC on Sunday is already 09:30 Sunday in Seoul: "yesterday" is Saturday there."""
    now = datetime(2026, 11, 29, 0, 30, tzinfo=UTC)
    tp = parse_time("yesterday", now, SEOUL)
    assert tp.range is not None and tp.range.start == datetime(2026, 11, 28, tzinfo=SEOUL)
    assert parse_time("yesterday", now, ZoneInfo("America/Los_Angeles")).range.start.day == 27  # type: ignore[union-attr]


def test_looking_back_not_forward() -> None:
    """Months and dates without a year are the latest ones not in the future."""
    early = datetime(2026, 2, 10, 9, tzinfo=SEOUL)
    assert parse_time("in March", early, SEOUL).range.start.year == 2025  # type: ignore[union-attr]
    assert parse_time("3월에", early, SEOUL).range.start.year == 2025  # type: ignore[union-attr]
    assert parse_time("11月3日", early, SEOUL).range.start.year == 2025  # type: ignore[union-attr]
    assert parse_time("in February", early, SEOUL).range.start.year == 2026  # type: ignore[union-attr]
    assert parse_time("next March", early, SEOUL).range.start.year == 2026  # type: ignore[union-attr]
    assert parse_time("March 2027", early, SEOUL).range.start.year == 2027  # type: ignore[union-attr]


def test_weekday_rules() -> None:
    friday = datetime(2026, 11, 27, 10, tzinfo=SEOUL)  # a Friday
    day = lambda q: parse_time(q, friday, SEOUL).range.start.day  # noqa: E731
    assert day("Friday") == 27  # bare: on or before today
    assert day("last Friday") == 20  # before today
    assert day("지난 금요일") == 20
    assert day("this Monday") == 23
    assert day("next Monday") == 30
    assert day("先週の金曜日") == 20


def test_impossible_dates_are_no_range() -> None:
    for query in ("February 30", "2026-02-30", "2월 30일", "2月30日", "2026-13-01", "on the 32nd"):
        assert parse_time(query, SEOUL_NOW, SEOUL).range is None, query


def test_leap_day_without_year_is_the_latest_leap_day() -> None:
    tp = parse_time("February 29", SEOUL_NOW, SEOUL)
    assert tp.range is not None and tp.range.start.date().isoformat() == "2024-02-29"


def test_iso_time_with_offset_becomes_that_instant_in_the_zone() -> None:
    tp = parse_time("2026-11-03T14:00Z", SEOUL_NOW, SEOUL)
    assert tp.range == TimeRange(
        datetime(2026, 11, 3, 23, tzinfo=SEOUL), datetime(2026, 11, 4, 0, tzinfo=SEOUL), "hour"
    )


def test_since_a_future_start_keeps_the_plain_range() -> None:
    tp = parse_time("since tomorrow", SEOUL_NOW, SEOUL)
    assert tp.range is not None and tp.range.grain == "day"


def test_fallback_reads_dates_the_rules_do_not() -> None:
    tp = parse_time("notes from 11/03/2026 please", SEOUL_NOW, SEOUL)
    assert tp.range is not None
    assert (tp.range.start, tp.range.grain) == (datetime(2026, 11, 3, tzinfo=SEOUL), "day")
    assert tp.expression is not None and "11/03/2026" in tp.expression
    assert tp.rest == "notes please"


def test_fallback_is_not_asked_about_ordinary_text() -> None:
    from core.timeparse import fallback

    assert not fallback.worth_trying("top 3 ideas for the 5th chapter")
    assert not fallback.worth_trying("x" * 400 + " 11/03/2026")
    assert fallback.worth_trying("on 11/03/2026")


def test_dateparser_is_not_imported_with_core_timeparse() -> None:
    code = (
        "import sys; import core.timeparse as t; from datetime import datetime; from zoneinfo import ZoneInfo;"
        "z = ZoneInfo('Asia/Seoul'); t.parse_time('last Tuesday night', datetime(2026, 11, 29, tzinfo=z), z);"
        "print('dateparser' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "False"


def test_part_of_day_alone_is_the_latest_that_has_begun() -> None:
    morning = datetime(2026, 11, 29, 8, tzinfo=SEOUL)
    assert parse_time("in the evening", morning, SEOUL).range.start == datetime(2026, 11, 28, 18, tzinfo=SEOUL)  # type: ignore[union-attr]
    assert parse_time("아침에", morning, SEOUL).range.start == datetime(2026, 11, 29, 6, tzinfo=SEOUL)  # type: ignore[union-attr]
    late = datetime(2026, 11, 29, 2, tzinfo=SEOUL)  # 2 a.m.: still last night
    rng = parse_time("at night", late, SEOUL).range
    assert rng is not None and rng.start == datetime(2026, 11, 28, 18, tzinfo=SEOUL) and late in rng


def test_hours_with_parts_of_day() -> None:
    def hour(query: str) -> datetime:
        rng = parse_time(query, SEOUL_NOW, SEOUL).range
        assert rng is not None and rng.grain == "hour", query
        return rng.start

    assert hour("어제 오후 8시") == datetime(2026, 11, 28, 20, tzinfo=SEOUL)
    assert hour("어제 오전 8시") == datetime(2026, 11, 28, 8, tzinfo=SEOUL)
    assert hour("어제 새벽 2시") == datetime(2026, 11, 28, 2, tzinfo=SEOUL)
    assert hour("昨日の深夜2時") == datetime(2026, 11, 29, 2, tzinfo=SEOUL)  # a night's small hours are the next day
    assert hour("yesterday at 12am") == datetime(2026, 11, 28, 0, tzinfo=SEOUL)
    assert hour("yesterday at 3:30 p.m.") == datetime(2026, 11, 28, 15, 30, tzinfo=SEOUL)
    assert hour("昨日の3時半") == datetime(2026, 11, 28, 15, 30, tzinfo=SEOUL)


def test_the_case_checker_reports_a_wrong_expectation() -> None:
    from tests.helpers.timeparse_cases import Case, check

    wrong = Case("en", "yesterday", "2026-11-27T00:00", "2026-11-28T00:00", "week", "yday", "x")
    problems = check(wrong, SEOUL_NOW, SEOUL)
    assert len(problems) == 5
    assert check(Case("en", "yesterday", None, None), SEOUL_NOW, SEOUL) != []


def test_range_ends_after_it_starts_across_a_fall_back_hour() -> None:
    """01:00 EDT + 1 h is 01:00 EST: equal wall clocks, different instants."""
    ny = ZoneInfo("America/New_York")
    now = datetime(2026, 11, 1, 4, 0, tzinfo=ny)  # 04:00 EST
    rng = parse_time("4 hours ago", now, ny).range
    assert rng is not None
    assert rng.start.isoformat() == "2026-11-01T01:00:00-04:00"
    assert rng.end.isoformat() == "2026-11-01T01:00:00-05:00"
    assert rng.end - rng.start == timedelta(0)  # Python's same-zone arithmetic is wall-clock ...
    assert rng.end.timestamp() - rng.start.timestamp() == 3600  # ... the range is one real hour
