"""Round 6 of issue 13 beyond the case table (``cases/round6.txt``): ranges open at their start
("until yesterday", 어제까지, 昨日まで), how they are shown, and the help's new conventions."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import click
import pytest
from click.testing import CliRunner

from core.paths import HomePaths
from core.timeparse import parse_time, ranges
from core.timeparse.model import OPEN_START
from tui_app.cli import when_cmds
from tui_app.cli.state import CliState

SEOUL = ZoneInfo("Asia/Seoul")
NOW = datetime(2026, 3, 11, 10, 30, tzinfo=SEOUL)  # a Wednesday


@pytest.mark.parametrize("query", ["until yesterday", "어제까지", "昨日まで"])
def test_until_is_open_at_its_start(query: str) -> None:
    rng = parse_time(query, NOW, SEOUL).range
    assert rng is not None
    assert rng.open_start and rng.start.date() == OPEN_START
    assert rng.end == datetime(2026, 3, 11, tzinfo=SEOUL)
    assert rng.describe(NOW) == "… – Tue 10 Mar"


@pytest.mark.parametrize("zone", ["Asia/Seoul", "Asia/Tokyo", "America/New_York", "Europe/Berlin", "UTC"])
def test_an_open_start_has_a_whole_minute_offset_in_every_zone(zone: str) -> None:
    """Its stored form is a plain ISO time: 1 January 1900 in Seoul was local mean time (+08:27:52)."""
    here = ZoneInfo(zone)
    rng = parse_time("until yesterday", NOW.astimezone(here), here).range
    assert rng is not None and rng.open_start
    offset = rng.start.utcoffset()
    assert offset is not None and offset.total_seconds() % 60 == 0
    assert rng.start.isoformat().startswith("1970-01-01T00:00:00")


def test_an_open_range_ending_inside_a_day_shows_the_hour() -> None:
    rng = parse_time("지금까지", NOW, SEOUL).range  # now is the current hour: up to its end
    assert rng is not None and rng.open_start
    assert rng.describe(NOW) == "… – Wed 11 Mar 11:00"


def test_an_open_range_in_another_year_shows_its_year() -> None:
    rng = parse_time("until 2020", NOW, SEOUL).range
    assert rng is not None
    assert rng.describe(NOW) == "… – Thu 31 Dec 2020"


def test_since_is_not_open() -> None:
    rng = parse_time("since Monday", NOW, SEOUL).range
    assert rng is not None and not rng.open_start
    assert rng.end == NOW


@pytest.mark.parametrize(("query", "shown"), [("in 1970", "1970"), ("the 1970s", "Thu 1 Jan 1970 – Mon 31 Dec 1979")])
def test_a_range_that_begins_where_open_ranges_do_is_not_open(query: str, shown: str) -> None:
    rng = parse_time(query, NOW, SEOUL).range
    assert rng is not None and not rng.open_start
    assert rng.describe(NOW) == shown


def test_nothing_before_the_open_start_is_read_as_open() -> None:
    """ "until the 19th century" would end before 1900: the century is read as it is."""
    assert ranges.up_to(ranges.midnight(date(1899, 1, 1), SEOUL), SEOUL) is None
    tp = parse_time("until the 19th century", NOW, SEOUL)
    assert tp.range is not None and not tp.range.open_start
    assert (tp.range.start.year, tp.range.end.year) == (1800, 1900)


@pytest.mark.parametrize(
    ("query", "expression", "rest"),
    [
        ("what did we decide until yesterday?", "until yesterday", "what did we decide?"),
        ("어제까지 뭐 했지", "어제까지", "뭐 했지"),
        ("昨日までの会議", "昨日まで", "会議"),
    ],
)
def test_the_until_word_belongs_to_the_expression(query: str, expression: str, rest: str) -> None:
    tp = parse_time(query, NOW, SEOUL)
    assert (tp.expression, tp.rest) == (expression, rest)


def test_when_shows_an_open_range(isolated_home: HomePaths) -> None:
    group = click.Group("reverie")
    when_cmds.register(group)
    result = CliRunner().invoke(
        group,
        ["when", "--now", NOW.isoformat(), "--tz", "Asia/Seoul", "until yesterday"],
        obj=CliState(paths=isolated_home),
    )
    assert result.exit_code == 0, result.output
    assert "… – Tue 10 Mar  (span)" in result.output


@pytest.mark.parametrize(
    "phrase",
    ["Until ", "1 January 1970", "half three", "30 seconds ago", "a week and a half ago", "sat night", "3월호"],
)
def test_help_states_round_six(phrase: str, isolated_home: HomePaths) -> None:
    group = click.Group("reverie")
    when_cmds.register(group)
    result = CliRunner().invoke(group, ["when", "--help"], obj=CliState(paths=isolated_home))
    assert result.exit_code == 0
    assert phrase in result.output
