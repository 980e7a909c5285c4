"""``reverie when``: its help states the conventions, and its plain output shows the parser's notes."""

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


@pytest.mark.parametrize(
    "phrase",
    [
        "Looking back",  # past-leaning weekdays, months, hours
        '"Monday" on a Wednesday is two',
        "rolling",  # "last 2 weeks" rolling vs "last week" calendar
        "calendar week",
        "Parts of day",
        "night 18-04",
        "Seasons",
        "northern hemisphere",
        "Quarters",
        "Holidays",
        "DST",
        "Repeats",  # "every Monday" is a set, not one range
        "Vague",  # recently, 요즘, 最近: not bounded, noted
        "are thirds",  # "mid-2019", "late 90s"
        "Japanese eras",
        "Meals",
        "3 weeks from now",
    ],
)
def test_help_states_each_convention(phrase: str, isolated_home: HomePaths) -> None:
    result = run("--help", home=isolated_home)
    assert result.exit_code == 0
    assert phrase in result.output


def test_plain_output_shows_a_typo_note(isolated_home: HomePaths) -> None:
    result = run("what", "did", "we", "say", "yesturday", "--now", NOW, "--tz", "Asia/Seoul", home=isolated_home)
    assert result.exit_code == 0, result.output
    assert "expression  yesturday" in result.output
    assert "note        read 'yesturday' as yesterday" in result.output


def test_plain_output_says_what_could_not_be_read(isolated_home: HomePaths) -> None:
    result = run("a while ago", "--now", NOW, "--tz", "Asia/Seoul", home=isolated_home)
    assert result.exit_code == 0, result.output
    assert "no time expression" in result.output
    assert "note        could not read 'a while ago' as a time; searched without a time range" in result.output


def test_json_carries_the_notes(isolated_home: HomePaths) -> None:
    result = run("어재", "뭐", "했지", "--now", NOW, "--tz", "Asia/Seoul", "--json", home=isolated_home)
    data = json.loads(result.output)
    assert data["range"]["start"] == "2026-11-28T00:00:00+09:00"
    assert data["notes"] == ["read '어재' as 어제"]
