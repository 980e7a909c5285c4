"""The JSON forms of the time parser's answers keep their keys, their order and their time format
(``datetime.isoformat``: a UTC range ends in ``+00:00``, not msgspec's ``Z``)."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from core.timeparse.model import TimeParse, TimeRange

SEOUL = ZoneInfo("Asia/Seoul")
NIGHT = TimeRange(datetime(2026, 11, 24, 18, tzinfo=SEOUL), datetime(2026, 11, 25, 4, tzinfo=SEOUL), "part_of_day")


def test_a_range_keeps_isoformat_also_in_utc() -> None:
    day = TimeRange(datetime(2026, 11, 3, tzinfo=UTC), datetime(2026, 11, 4, tzinfo=UTC), "day")
    assert day.to_dict() == {"start": "2026-11-03T00:00:00+00:00", "end": "2026-11-04T00:00:00+00:00", "grain": "day"}
    assert NIGHT.to_dict() == {
        "start": "2026-11-24T18:00:00+09:00",
        "end": "2026-11-25T04:00:00+09:00",
        "grain": "part_of_day",
    }


def test_a_parse_keeps_its_keys_in_order() -> None:
    parsed = TimeParse(NIGHT, "last Tuesday night", "skiing", ("read 'tuesdy' as Tuesday",)).to_dict()
    assert parsed == {
        "range": NIGHT.to_dict(),
        "expression": "last Tuesday night",
        "rest": "skiing",
        "notes": ["read 'tuesdy' as Tuesday"],
    }
    assert list(parsed) == ["range", "expression", "rest", "notes"]
    assert TimeParse(None, None, "skiing").to_dict() == {
        "range": None,
        "expression": None,
        "rest": "skiing",
        "notes": [],
    }
