"""``reverie when QUERY [--now] [--tz] [--json]``."""

from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner, Result

from core.paths import HomePaths
from tui_app.cli import when_cmds
from tui_app.cli.state import CliState

NOW = "2026-11-29T15:00:00+09:00"


def run(*args: str, home: HomePaths) -> Result:
    group = click.Group("reverie")
    when_cmds.register(group)
    return CliRunner().invoke(group, ["when", *args], obj=CliState(paths=home))


def test_json_is_exactly_range_expression_rest(isolated_home: HomePaths) -> None:
    result = run(
        "what did we decide last Tuesday night?", "--now", NOW, "--tz", "Asia/Seoul", "--json", home=isolated_home
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {
        "range": {"start": "2026-11-24T18:00:00+09:00", "end": "2026-11-25T04:00:00+09:00", "grain": "part_of_day"},
        "expression": "last Tuesday night",
        "rest": "what did we decide?",
        "notes": [],
    }


def test_plain_text_shows_expression_range_and_rest(isolated_home: HomePaths) -> None:
    result = run("지난주", "화요일", "밤에", "뭐", "결정했지", "--now", NOW, "--tz", "Asia/Seoul", home=isolated_home)
    assert result.exit_code == 0, result.output
    assert "지난주 화요일 밤" in result.output
    assert "Tue 17 Nov 18:00 – Wed 18 Nov 04:00" in result.output
    assert "2026-11-17T18:00:00+09:00 → 2026-11-18T04:00:00+09:00" in result.output
    assert "part_of_day" in result.output
    assert "뭐 결정했지" in result.output


def test_no_expression_exits_zero(isolated_home: HomePaths) -> None:
    result = run("may I ask", "--now", NOW, "--tz", "Asia/Seoul", home=isolated_home)
    assert result.exit_code == 0
    assert "no time expression" in result.output
    as_json = run("may I ask", "--now", NOW, "--tz", "UTC", "--json", home=isolated_home)
    assert json.loads(as_json.output) == {"range": None, "expression": None, "rest": "may I ask", "notes": []}


def test_now_without_offset_is_read_in_the_zone(isolated_home: HomePaths) -> None:
    result = run("yesterday", "--now", "2026-11-29T01:00", "--tz", "America/New_York", "--json", home=isolated_home)
    assert json.loads(result.output)["range"]["start"] == "2026-11-28T00:00:00-05:00"
    utc = run("yesterday", "--now", "2026-11-29T01:00Z", "--tz", "America/New_York", "--json", home=isolated_home)
    assert json.loads(utc.output)["range"]["start"] == "2026-11-27T00:00:00-05:00"  # 20:00 on the 28th in New York


def test_timezone_defaults_to_the_config(isolated_home: HomePaths) -> None:
    isolated_home.ensure()
    isolated_home.config.write_text('[general]\ntimezone = "Asia/Tokyo"\n', encoding="utf-8")
    result = run("yesterday", "--now", "2026-11-29T12:00:00+00:00", "--json", home=isolated_home)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["range"]["start"] == "2026-11-28T00:00:00+09:00"


def test_default_now_is_the_clock(isolated_home: HomePaths) -> None:
    result = run("today", "--tz", "UTC", "--json", home=isolated_home)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["range"]["grain"] == "day"


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["--now", "yesterday-ish"], "--now"),
        (["--now", "2026-13-45"], "--now"),
        (["--tz", "Mars/Olympus"], "--tz"),
        (["--tz", "../../etc/passwd"], "--tz"),
        (["--tz", ""], "--tz"),
    ],
)
def test_bad_options_are_one_line_errors_naming_the_option(
    isolated_home: HomePaths, args: list[str], option: str
) -> None:
    result = run("yesterday", *args, home=isolated_home)
    assert result.exit_code == 2
    assert isinstance(result.exception, SystemExit)
    error_lines = [line for line in result.output.splitlines() if line.startswith("Error")]
    assert len(error_lines) == 1 and option in error_lines[0]


def test_registered_on_the_root_command() -> None:
    from tui_app.cli.main import cli

    assert "when" in cli.commands
