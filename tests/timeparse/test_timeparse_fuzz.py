"""Any input gives a result, never a traceback or a hang: property tests over odd text, odd times and
odd zones (half-hour DST on Lord Howe, midnight DST changes in Santiago, +05:45 in Kathmandu)."""

from __future__ import annotations

import itertools
import json
import time
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.timeparse import TimeParse, find_time_expressions, parse_time
from tests.helpers.timeparse_cases import SEOUL, SEOUL_NOW

ZONES = [
    ZoneInfo(name)
    for name in (
        "Asia/Seoul",
        "America/New_York",
        "UTC",
        "Australia/Lord_Howe",
        "America/Santiago",
        "Asia/Kathmandu",
        "Pacific/Apia",
        "Europe/London",
    )
]

TOKENS = [
    "yesterday",
    "today",
    "tonight",
    "last",
    "this",
    "next",
    "week",
    "weekend",
    "month",
    "year",
    "night",
    "morning",
    "evening",
    "Tuesday",
    "Sun",
    "sat",
    "May",
    "march",
    "may",
    "in",
    "on",
    "the",
    "at",
    "of",
    "since",
    "between",
    "and",
    "from",
    "to",
    "-",
    "3",
    "31",
    "29",
    "3rd",
    "3pm",
    "12am",
    "15:30",
    "ago",
    "days",
    "hours",
    "2026-02-29",
    "2024-02-29",
    "9999",
    "1900",
    "0",
    "a",
    "fortnight",
    "couple",
    "24",
    "past",
    "어제",
    "그저께",
    "지난주",
    "지난",
    "주말",
    "금요일",
    "밤",
    "밤에",
    "새벽",
    "오후",
    "3시",
    "3일",
    "전",
    "부터",
    "까지",
    "11월",
    "2월 30일",
    "작년",
    "동안",
    "최근",
    "일",
    "월",
    "昨日",
    "一昨日",
    "先週",
    "の",
    "火曜日",
    "夜",
    "朝",
    "朝日",
    "から",
    "まで",
    "3日",
    "三日",
    "前",
    "月",
    "日",
    "2025年",
    "3月",
    "過去",
    "間",
    "午後",
    "深夜",
    "2時",
    "~",
    "〜",
    "、",
    "summer",
    "winter",
    "fall",
    "Christmas",
    "Eve",
    "New Year's",
    "여름",
    "겨울",
    "올",
    "크리스마스",
    "삼일",
    "이십",
    "삼",
    "년",
    "夏",
    "冬",
    "今年",
    "クリスマス",
    "正月",
    "十",
    "\x00",
    "\u200b",
    "🙂",
]


def check_result(query: str, tp: TimeParse, zone: ZoneInfo) -> None:
    assert isinstance(tp, TimeParse)
    assert isinstance(tp.rest, str)
    json.dumps(tp.to_dict())
    if tp.range is None:
        assert tp.expression is None
        return
    assert tp.range.start.tzinfo is zone and tp.range.end.tzinfo is zone
    assert tp.range.start.astimezone(UTC) < tp.range.end.astimezone(UTC)
    assert tp.expression and tp.expression in query


aware_nows = st.datetimes(
    min_value=datetime(1970, 1, 1), max_value=datetime(2200, 1, 1), timezones=st.sampled_from(ZONES)
)


@settings(max_examples=300, deadline=2000, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(query=st.text(max_size=200))
def test_any_text(query: str) -> None:
    check_result(query, parse_time(query, SEOUL_NOW, SEOUL), SEOUL)


@settings(max_examples=400, deadline=2000, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    words=st.lists(st.sampled_from(TOKENS), max_size=12),
    joiner=st.sampled_from([" ", "", ", "]),
    now=aware_nows,
    zone=st.sampled_from(ZONES),
)
def test_time_words_in_any_order_at_any_time(words: list[str], joiner: str, now: datetime, zone: ZoneInfo) -> None:
    query = joiner.join(words)
    check_result(query, parse_time(query, now, zone), zone)
    matches = find_time_expressions(query, now, zone)
    for before, after in itertools.pairwise(matches):
        assert before.end <= after.start
    for match in matches:
        assert query[match.start : match.end] == match.expression


@settings(max_examples=50, deadline=5000, database=None)
@given(query=st.text(alphabet=st.characters(codec="utf-8"), min_size=500, max_size=3000))
def test_long_unicode_text(query: str) -> None:
    check_result(query, parse_time(query, SEOUL_NOW, SEOUL), SEOUL)


def test_very_long_inputs_finish_quickly() -> None:
    for text in (
        "x" * 200_000,
        "yesterday " * 20_000,
        "밤" * 50_000,
        "3 " * 100_000,
        "\x00" * 100_000,
        "昨日の夜" * 20_000,
        "may 3 " * 20_000,
        "삼일 전 " * 20_000,
        "クリスマスの夏" * 20_000,
    ):
        started = time.perf_counter()
        tp = parse_time(text, SEOUL_NOW, SEOUL)
        assert isinstance(tp, TimeParse)
        assert time.perf_counter() - started < 20, text[:20]
