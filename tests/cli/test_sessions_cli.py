"""`reverie sessions`: the latest sessions with their project header and the person's first words."""

from __future__ import annotations

import json
from pathlib import Path

from core.paths import HomePaths
from tests.helpers.cli import in_process
from tests.helpers.index import append, turn
from tui_app.cli import log_cmds, session_cmds

FIXTURES = Path(__file__).parents[1] / "fixtures" / "conversation"


run = in_process(log_cmds, session_cmds)


def test_an_ingested_claude_code_session_is_listed_with_its_project_and_first_prompt(paths: HomePaths) -> None:
    code, _, err = run("ingest", str(FIXTURES / "claude-code" / "projects"))
    assert code in (0, 2), err
    code, out, err = run("sessions", "--json")
    assert code == 0, err
    listed = json.loads(out)
    main = next(item for item in listed if item["session"] == "11111111-1111-4111-8111-111111111111")
    assert main["header"].startswith("Claude Code session in ")
    assert main["first_prompt"] and main["turns"] >= 2
    assert main["first_ts"] <= main["last_ts"]
    code, text, _ = run("sessions")
    assert "11111111-1111-4111-8111-111111111111" in text
    assert "  Claude Code session in " in text
    assert f"  first: {' '.join(main['first_prompt'].split())[:40]}" in text


def test_sessions_come_newest_first_limited_and_are_read_after_a_catch_up(paths: HomePaths) -> None:
    append(
        paths,
        turn("2026-03-01T09:00:00", "old question", session="old", role="user"),
        turn("2026-03-02T09:00:00", "first words\nof the new one \x1b[31m", session="new", role="user"),
        turn("2026-03-02T09:30:00", "an answer", session="new", role="assistant"),
    )
    code, out, err = run("sessions", "--json")  # no ingest, no reindex: the listing catches the index up
    assert code == 0, err
    assert [(s["session"], s["turns"]) for s in json.loads(out)] == [("new", 2), ("old", 1)]
    code, out, _ = run("sessions", "-n", "1")
    lines = out.splitlines()
    assert len(lines) == 2 and lines[0].endswith("2 turns  new") and "\x1b" not in out
    assert lines[1] == "  first: first words of the new one \\x1b[31m"


def test_an_empty_index_says_so(paths: HomePaths) -> None:
    code, out, _ = run("sessions")
    assert code == 0 and out.strip() == "no sessions in the index"
