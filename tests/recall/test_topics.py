"""Topic markers: the person's words, timestamped, append-only, latest first."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import click
import pytest
from click.testing import CliRunner

from core.paths import HomePaths
from core.topics import MarkerError, add_marker, latest_markers, read_markers
from tui_app.cli import topic_cmds
from tui_app.cli.state import CliState

NOON = datetime(2026, 3, 4, 12, 0, tzinfo=UTC)


@click.group()
@click.pass_context
def root(ctx: click.Context) -> None:
    ctx.obj = CliState(paths=HomePaths.at(None))


topic_cmds.register(root)


def test_markers_are_appended_with_time_text_and_id(paths: HomePaths) -> None:
    first = add_marker(paths, "  planning the 서울숲 walk  ", now=NOON)
    second = add_marker(paths, "会議の準備に移った", now=NOON + timedelta(minutes=5))
    lines = [json.loads(line) for line in paths.topics.read_text().splitlines()]
    assert lines == [
        {"ts": "2026-03-04T12:00:00.000000Z", "text": "planning the 서울숲 walk", "id": first.id},
        {"ts": "2026-03-04T12:05:00.000000Z", "text": "会議の準備に移った", "id": second.id},
    ]
    assert first.id != second.id
    assert paths.topics.stat().st_mode & 0o777 == 0o600


def test_latest_first_with_a_limit(paths: HomePaths) -> None:
    for n in range(5):
        add_marker(paths, f"topic {n}", now=NOON + timedelta(minutes=n))
    add_marker(paths, "same minute, written later", now=NOON + timedelta(minutes=4))
    assert [m.text for m in latest_markers(paths, 3)] == ["same minute, written later", "topic 4", "topic 3"]
    assert latest_markers(paths, 0) == []
    assert len(latest_markers(paths, 100)) == 6


@pytest.mark.parametrize(("text", "message"), [
    ("   ", "marker text is empty"),
    ("x" * 2001, "marker text is 2001 characters; keep it under 2000"),
])
def test_bad_marker_text_is_refused(paths: HomePaths, text: str, message: str) -> None:
    with pytest.raises(MarkerError, match=message):
        add_marker(paths, text)
    assert not paths.topics.exists()


def test_bad_lines_are_reported_and_a_crash_tail_is_repaired(paths: HomePaths) -> None:
    add_marker(paths, "one", now=NOON)
    with paths.topics.open("a") as out:
        out.write('{"ts": "soon", "text": "x", "id": "m-1"}\n{"ts": "2026-03-04T12:0')
    reading = read_markers(paths)
    assert [m.text for m in reading.markers] == ["one"]
    assert reading.problems == ["topics.jsonl:2: ts: not an ISO-8601 time: 'soon'",
                                "topics.jsonl:3: unterminated last line (an interrupted write)"]
    add_marker(paths, "two", now=NOON + timedelta(minutes=1))
    reading = read_markers(paths)
    assert [m.text for m in reading.markers] == ["one", "two"]
    assert reading.problems == ["topics.jsonl:2: ts: not an ISO-8601 time: 'soon'"]
    kept = json.loads(next(paths.quarantine.glob("*.jsonl")).read_text())
    assert kept["raw"] == '{"ts": "2026-03-04T12:0' and kept["line"] == 3


def test_cli_mark_and_topics(paths: HomePaths) -> None:
    runner = CliRunner()
    result = runner.invoke(root, ["mark", "moved", "on", "to", "the", "budget"])
    assert result.exit_code == 0 and result.stdout.startswith("Marked at ")
    result = runner.invoke(root, ["mark", "--json", "back to the walk"])
    marker = json.loads(result.stdout)
    assert set(marker) == {"ts", "text", "id"} and marker["text"] == "back to the walk"
    result = runner.invoke(root, ["topics", "--limit", "1", "--json"])
    assert [m["text"] for m in json.loads(result.stdout)] == ["back to the walk"]
    result = runner.invoke(root, ["topics"])
    lines = result.stdout.splitlines()
    assert lines[0].endswith("  back to the walk") and lines[1].endswith("  moved on to the budget")


def test_cli_topics_when_there_are_none(paths: HomePaths) -> None:
    result = CliRunner().invoke(root, ["topics"])
    assert result.exit_code == 0 and "No topic markers yet" in result.stdout
