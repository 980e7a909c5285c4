"""The temporal backbone's case table (``tests/helpers/timeparse_cases.py``): each case parses to its
expected range, each language has positives and negatives, and ranges carry the zone's own offset."""

from __future__ import annotations

import pytest

from core.timeparse import parse_time
from tests.helpers.timeparse_cases import SEOUL, SEOUL_NOW, TABLES, UTC_ZONE, Case, check


def _params() -> list:  # type: ignore[type-arg]
    return [
        pytest.param(name, case, id=f"{name}:{case.query}") for name, (_, _, cases) in TABLES.items() for case in cases
    ]


@pytest.mark.parametrize(("table", "case"), _params())
def test_case(table: str, case: Case) -> None:
    now, zone, _ = TABLES[table]
    assert check(case, now, zone) == []


@pytest.mark.parametrize("table", ["en", "ko", "ja"])
def test_each_language_has_positives_and_negatives(table: str) -> None:
    cases = TABLES[table][2]
    assert sum(case.start is None for case in cases) >= 10
    assert sum(case.start is not None for case in cases) >= 30


def test_ranges_are_in_the_zone() -> None:
    """Every start and end carries the zone's own offset, not UTC or the caller's."""
    for query in ("yesterday", "어제", "昨日", "last week"):
        tp = parse_time(query, SEOUL_NOW.astimezone(UTC_ZONE), SEOUL)
        assert tp.range is not None
        assert tp.range.start.tzinfo is SEOUL and tp.range.end.tzinfo is SEOUL
