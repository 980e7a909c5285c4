"""Round 4 of issue 13 beyond the case table: the fiscal-year setting (config, ``parse_time`` and
``reverie when``), the equinox formula against the almanac, and the help's new conventions."""

from __future__ import annotations

import json
from datetime import date, datetime
from zoneinfo import ZoneInfo

import click
import pytest
from click.testing import CliRunner

from core.config import load_config
from core.errors import ConfigError
from core.paths import HomePaths
from core.timeparse import TimeParseError, parse_time
from core.timeparse.movable import equinox
from tui_app.cli import when_cmds
from tui_app.cli.state import CliState

NEW_YORK = ZoneInfo("America/New_York")
NOW = datetime(2026, 11, 29, 15, 0, tzinfo=NEW_YORK)


def _bounds(query: str, start_month: int) -> tuple[str, str, str]:
    rng = parse_time(query, NOW, NEW_YORK, fiscal_year_start=start_month).range
    assert rng is not None, query
    return rng.start.date().isoformat(), rng.end.date().isoformat(), rng.grain


@pytest.mark.parametrize(
    ("query", "month", "expected"),
    [
        ("FY2023", 1, ("2023-01-01", "2024-01-01", "year")),
        ("FY2023", 10, ("2022-10-01", "2023-10-01", "span")),  # named by the year it ends in
        ("FY23", 4, ("2022-04-01", "2023-04-01", "span")),
        ("fiscal 2023", 7, ("2022-07-01", "2023-07-01", "span")),
        ("this fiscal year", 10, ("2026-10-01", "2027-10-01", "span")),  # 29 Nov 2026 is in FY2027
        ("last fiscal year", 10, ("2025-10-01", "2026-10-01", "span")),
        ("last fiscal year", 12, ("2024-12-01", "2025-12-01", "span")),  # the one holding today began 1 Dec 2025
        ("2023 회계연도", 4, ("2023-04-01", "2024-04-01", "span")),  # named by the year it starts in
        ("지난 회계연도", 1, ("2025-01-01", "2026-01-01", "year")),
        ("2023年度", 10, ("2023-04-01", "2024-04-01", "span")),  # 年度 is April whatever the setting
    ],
)
def test_fiscal_year_follows_the_start_month(query: str, month: int, expected: tuple[str, str, str]) -> None:
    assert _bounds(query, month) == expected


@pytest.mark.parametrize("month", [0, 13, True, "4"])
def test_a_bad_fiscal_start_is_a_clear_error(month: object) -> None:
    with pytest.raises(TimeParseError, match="fiscal_year_start must be a month number 1-12"):
        parse_time("FY2023", NOW, NEW_YORK, fiscal_year_start=month)  # type: ignore[arg-type]


def test_the_setting_is_validated_and_reaches_reverie_when(isolated_home: HomePaths) -> None:
    isolated_home.config.parent.mkdir(parents=True, exist_ok=True)
    isolated_home.config.write_text("[timeparse]\nfiscal_year_start = 13\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"timeparse\.fiscal_year_start"):
        load_config(isolated_home.config)
    isolated_home.config.write_text("[timeparse]\nfiscal_year_start = 10\n", encoding="utf-8")
    group = click.Group("reverie")
    when_cmds.register(group)
    args = ["when", "FY2023", "--now", "2026-11-29T15:00:00-05:00", "--tz", "America/New_York", "--json"]
    result = CliRunner().invoke(group, args, obj=CliState(paths=isolated_home))
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["range"]["start"] == "2022-10-01T00:00:00-04:00"
    assert data["range"]["end"] == "2023-10-01T00:00:00-04:00"


# The almanac's equinox days (Japan), written out; 1979's autumn equinox fell on the 24th.
@pytest.mark.parametrize(
    ("year", "spring", "autumn"),
    [(1900, 21, 23), (1950, 21, 23), (1978, 21, 23), (1979, 21, 24), (2000, 20, 23), (2012, 20, 22),
     (2023, 21, 23), (2024, 20, 22), (2025, 20, 23), (2026, 20, 23), (2044, 20, 22), (2099, 20, 23)],
)  # fmt: skip
def test_equinox_days(year: int, spring: int, autumn: int) -> None:
    assert equinox(year, autumn=False) == date(year, 3, spring)
    assert equinox(year, autumn=True) == date(year, 9, autumn)


def test_an_equinox_outside_the_formula_is_not_read() -> None:
    """Outside 1900-2099 the day is not guessed: only the year is read, as for a lunar holiday."""
    with pytest.raises(ValueError, match="1899"):
        equinox(1899, autumn=False)
    tp = parse_time("2100年の春分の日", NOW, NEW_YORK)
    assert tp.expression == "2100年" and tp.range is not None and tp.range.grain == "year"


def test_an_anchored_expression_is_one_expression_and_leaves_the_rest() -> None:
    tp = parse_time("What was Tim's issue last week,as mentioned on November 6, 2023?", NOW, NEW_YORK)
    assert tp.expression == "last week,as mentioned on November 6, 2023"
    assert tp.rest == "What was Tim's issue?"


@pytest.mark.parametrize("phrase", ["Anchored", "as if today were that date", "Military", "fiscal_year_start",
                                    "春分の日", "5日の夜", "みっか前"])  # fmt: skip
def test_help_states_the_round4_conventions(phrase: str, isolated_home: HomePaths) -> None:
    group = click.Group("reverie")
    when_cmds.register(group)
    result = CliRunner().invoke(group, ["when", "--help"], obj=CliState(paths=isolated_home))
    assert result.exit_code == 0
    assert phrase in " ".join(result.output.split())
