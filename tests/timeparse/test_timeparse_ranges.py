"""TimeRange, its human description, the part-of-day table and DST-correct range arithmetic."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from zoneinfo import ZoneInfo

import pytest

from core.timeparse import GRAINS, TimeParseError, TimeRange, parse_time, ranges
from core.timeparse.parts import PARTS
from tests.helpers.timeparse_cases import SEOUL, SEOUL_NOW

NEW_YORK = ZoneInfo("America/New_York")


def hours(rng: TimeRange) -> float:
    """Elapsed hours (instants, not wall clocks)."""
    return (rng.end.astimezone(UTC) - rng.start.astimezone(UTC)).total_seconds() / 3600


@pytest.mark.parametrize(
    ("query", "text"),
    [
        ("last Tuesday night", "Tue 24 Nov 18:00 – Wed 25 Nov 04:00"),
        ("last Tuesday", "Tue 24 Nov"),
        ("last week", "Mon 16 – Sun 22 Nov"),
        ("in March", "March 2026"),
        ("last year", "2025"),
        ("this morning", "Sun 29 Nov 06:00 – 12:00"),
        ("yesterday evening", "Sat 28 Nov 18:00 – 24:00"),
        ("yesterday at 3pm", "Sat 28 Nov 15:00 – 16:00"),
        ("between November 3 and November 5", "Tue 3 Nov – Thu 5 Nov"),
        ("since Monday", "Mon 23 Nov 00:00 – Sun 29 Nov 15:00"),
        ("2025-12-29", "Mon 29 Dec 2025"),
    ],
)
def test_describe(query: str, text: str) -> None:
    tp = parse_time(query, SEOUL_NOW, SEOUL)
    assert tp.range is not None
    assert tp.range.describe(SEOUL_NOW) == text


def test_describe_week_across_months_and_years() -> None:
    assert ranges.week_range(date(2026, 11, 30), SEOUL).describe() == "Mon 30 Nov – Sun 6 Dec"
    assert ranges.week_range(date(2026, 12, 28), SEOUL).describe() == "Mon 28 Dec 2026 – Sun 3 Jan 2027"
    assert ranges.day_range(date(2025, 3, 3), SEOUL).describe(SEOUL_NOW) == "Mon 3 Mar 2025"
    assert ranges.day_range(date(2025, 3, 3), SEOUL).describe() == "Mon 3 Mar"


@pytest.mark.parametrize(
    ("start", "end", "grain", "message"),
    [
        (datetime(2026, 1, 2, tzinfo=SEOUL), datetime(2026, 1, 1, tzinfo=SEOUL), "day", "end after it starts"),
        (datetime(2026, 1, 1), datetime(2026, 1, 2), "day", "timezone-aware"),
        (datetime(2026, 1, 1, tzinfo=SEOUL), datetime(2026, 1, 2, tzinfo=SEOUL), "fortnight", "unknown grain"),
    ],
)
def test_time_range_rejects_nonsense(start: datetime, end: datetime, grain: str, message: str) -> None:
    with pytest.raises(TimeParseError, match=message):
        TimeRange(start, end, grain)


def test_time_range_membership_is_half_open() -> None:
    rng = ranges.day_range(date(2026, 11, 28), SEOUL)
    assert datetime(2026, 11, 28, tzinfo=SEOUL) in rng
    assert datetime(2026, 11, 28, 23, 59, 59, tzinfo=SEOUL) in rng
    assert datetime(2026, 11, 29, tzinfo=SEOUL) not in rng
    assert datetime(2026, 11, 28, 14, 59, tzinfo=UTC) in rng  # 23:59 in Seoul
    assert rng.to_dict() == {"start": "2026-11-28T00:00:00+09:00", "end": "2026-11-29T00:00:00+09:00", "grain": "day"}


def test_every_grain_is_produced() -> None:
    queries = {
        "hour": "yesterday at 3pm",
        "part_of_day": "last night",
        "day": "yesterday",
        "week": "last week",
        "month": "last month",
        "year": "last year",
        "span": "since Monday",
    }
    assert set(queries) == set(GRAINS)
    for grain, query in queries.items():
        assert parse_time(query, SEOUL_NOW, SEOUL).range.grain == grain  # type: ignore[union-attr]


def test_part_of_day_table() -> None:
    assert PARTS["night"].hours() == [18, 19, 20, 21, 22, 23, 0, 1, 2, 3]
    assert PARTS["evening"].hours() == [18, 19, 20, 21, 22, 23]
    night = ranges.part_range(date(2026, 11, 24), PARTS["night"], SEOUL)
    assert night.start == datetime(2026, 11, 24, 18, tzinfo=SEOUL)
    assert night.end == datetime(2026, 11, 25, 4, tzinfo=SEOUL)
    evening = ranges.part_range(date(2026, 11, 24), PARTS["evening"], SEOUL)
    assert evening.end == datetime(2026, 11, 25, 0, tzinfo=SEOUL)
    for part in PARTS.values():
        rng = ranges.part_range(date(2026, 6, 1), part, SEOUL)
        assert 0 < hours(rng) <= 12, part.name


# DST: America/New_York falls back on Sun 1 Nov 2026 (02:00 → 01:00) and springs forward on
# Sun 8 Mar 2026 (02:00 → 03:00).


def test_day_and_week_across_fall_back() -> None:
    assert hours(ranges.day_range(date(2026, 11, 1), NEW_YORK)) == 25
    week = ranges.week_range(date(2026, 10, 26), NEW_YORK)
    assert hours(week) == 7 * 24 + 1
    assert week.start.utcoffset() != week.end.utcoffset()
    assert (week.start.hour, week.end.hour) == (0, 0)


def test_spring_forward() -> None:
    now = datetime(2026, 3, 9, 12, tzinfo=NEW_YORK)
    day = parse_time("yesterday", now, NEW_YORK).range
    assert day is not None and hours(day) == 23
    assert (day.start.isoformat(), day.end.isoformat()) == ("2026-03-08T00:00:00-05:00", "2026-03-09T00:00:00-04:00")
    night = parse_time("the night of March 7", now, NEW_YORK).range
    assert night is not None and hours(night) == 9  # 18:00 EST to 04:00 EDT
    # 02:30 does not exist that night: it is moved forward to the real instant.
    gap = parse_time("yesterday at 2:30am", now, NEW_YORK).range
    assert gap is not None and gap.start.isoformat() == "2026-03-08T03:30:00-04:00" and hours(gap) == 1


def test_elapsed_spans_use_real_hours() -> None:
    now = datetime(2026, 3, 8, 5, tzinfo=NEW_YORK)  # 05:00 EDT, three real hours after 01:00 EST
    rng = parse_time("in the last 24 hours", now, NEW_YORK).range
    assert rng is not None and hours(rng) == 24
    assert rng.start.isoformat() == "2026-03-07T04:00:00-05:00"
    ago = parse_time("3 hours ago", now, NEW_YORK).range
    assert ago is not None and ago.start.isoformat() == "2026-03-08T01:00:00-05:00" and hours(ago) == 1


def test_at_normalises_a_missing_local_time() -> None:
    assert ranges.at(date(2026, 3, 8), time(2, 30), NEW_YORK).isoformat() == "2026-03-08T03:30:00-04:00"
    assert ranges.at(date(2026, 11, 1), time(1, 30), NEW_YORK).isoformat() == "2026-11-01T01:30:00-04:00"


def test_month_arithmetic() -> None:
    assert ranges.add_months(2026, 1, -2) == (2025, 11)
    assert ranges.add_months(2026, 12, 1) == (2027, 1)
    assert ranges.days_in_month(2024, 2) == 29
    december = ranges.month_range(2026, 12, SEOUL)
    assert december.end == datetime(2027, 1, 1, tzinfo=SEOUL)
    now = datetime(2026, 3, 31, 12, tzinfo=SEOUL)
    rng = parse_time("in the last month", now, SEOUL).range
    assert rng is not None and rng.start == datetime(2026, 2, 28, tzinfo=SEOUL)  # 31 Feb clamps to the 28th
