"""Claude Code transcripts read as a person reads them (issue 12): the person's words are ``text``;
tool output, commands and what Claude Code injects are ``action`` or ``meta``; a session comes with
its project; ``context`` keeps to the conversation unless asked for more.

The transcript is written here, record by record, in the shapes of the published session schema
(v2.1.144): no real transcript is copied.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.context import build_context
from core.conversation import ingest, list_day_files, read_day
from core.conversation.claude_code import user_text_kind
from core.index import catalog
from core.paths import HomePaths
from core.turns import Turn
from tests.helpers.recall import NOW, recaller
from tests.helpers.recall import indexed as index_turns

SESSION = "5e551011-0000-4000-8000-000000000001"
CWD = "/home/me/projects/lighthouse"
_count = 0


def record(kind: str, content: Any = None, **extra: Any) -> dict[str, Any]:
    global _count
    _count += 1
    base: dict[str, Any] = {"type": kind, "uuid": f"00000000-0000-4000-8000-{_count:012d}", "parentUuid": None,
                            "sessionId": SESSION, "timestamp": f"2026-11-28T10:{_count:02d}:00.000Z",
                            "version": "2.1.144", "cwd": CWD, "gitBranch": "main", "isSidechain": False,
                            "userType": "external"}
    if content is not None:
        role = "assistant" if kind == "assistant" else "user"
        message: dict[str, Any] = {"role": role, "content": content}
        if kind == "assistant":
            message["model"] = "claude-opus-4-6"
        base["message"] = message
    return {**base, **extra}


def transcript(tmp_path: Path) -> Path:
    records = [
        record("user", "Find the keeper's logbook from 1893"),
        record("assistant", [{"type": "text", "text": "Searching the archive."},
                             {"type": "tool_use", "id": "toolu_01", "name": "WebSearch",
                              "input": {"query": "lighthouse keeper logbook 1893"}}]),
        record("user", [{"type": "tool_result", "tool_use_id": "toolu_01",
                         "content": "Web search results for query: lighthouse keeper logbook 1893 — zanzibarite"}],
               toolUseResult={"query": "lighthouse keeper logbook 1893", "results": [], "durationSeconds": 1.2}),
        # a tool's output recorded as a plain string (older versions): still not the person's words
        record("user", ["fetched page: the quartermaster wrote about the fogbell"], toolUseResult="fetched"),
        record("user", [{"type": "text", "text": "<system-reminder>The todo list is empty</system-reminder>"}]),
        record("user", "<command-name>/compact</command-name>\n<command-message>compact</command-message>\n"
                       "<command-args></command-args>"),
        record("user", "<local-command-stdout>Compacted the conversation</local-command-stdout>"),
        record("user", "This session is being continued from a previous conversation that ran out of context.",
               isCompactSummary=True, isVisibleInTranscriptOnly=True),
        record("user", [{"type": "text", "text": "[Request interrupted by user for tool use]"}]),
        record("user", "<bash-input>ls logbooks</bash-input>"),
        record("user", "<bash-stdout>1893.txt</bash-stdout><bash-stderr></bash-stderr>"),
        record("attachment", attachment={"type": "queued_command", "prompt": "and the 1894 one too, please"}),
        record("attachment", attachment={"type": "hook_additional_context", "hookName": "SessionStart",
                                         "hookEvent": "SessionStart", "content": ["context from a hook"]}),
        {**record("system", subtype="compact_boundary", level="info"), "content": "Conversation compacted"},
        {"type": "ai-title", "aiTitle": "Lighthouse logbooks", "sessionId": SESSION},
        {"type": "last-prompt", "lastPrompt": "and the 1894 one too, please", "sessionId": SESSION},
    ]
    path = tmp_path / "projects" / "-home-me-projects-lighthouse" / f"{SESSION}.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def stored(paths: HomePaths) -> list[Turn]:
    return [t for day in list_day_files(paths) for t in read_day(day.path).turns]


def test_each_kind_of_record_gets_the_type_a_reader_would_give_it(paths: HomePaths, tmp_path: Path) -> None:
    report = ingest(paths, [transcript(tmp_path)])
    assert not report.quarantined
    kinds = [(t.type, t.actor, t.text[:40]) for t in stored(paths)]
    assert kinds == [
        ("meta", "claude-code", f"Claude Code session in lighthouse ({CWD})"[:40]),
        ("text", "user", "Find the keeper's logbook from 1893"),
        ("text", "claude-opus-4-6", "Searching the archive."),
        ("action", "claude-opus-4-6", 'WebSearch {"query": "lighthouse keeper l'),
        ("action", "claude-code", "Web search results for query: lighthouse"),
        ("action", "claude-code", "fetched page: the quartermaster wrote ab"),
        ("meta", "claude-code", "<system-reminder>The todo list is empty<"),
        ("action", "user", "<command-name>/compact</command-name>\n<c"),
        ("action", "claude-code", "<local-command-stdout>Compacted the conv"),
        ("meta", "claude-code", "This session is being continued from a p"),
        ("meta", "claude-code", "[Request interrupted by user for tool us"),
        ("action", "user", "<bash-input>ls logbooks</bash-input>"),
        ("action", "claude-code", "<bash-stdout>1893.txt</bash-stdout><bash"),
        ("text", "user", "and the 1894 one too, please"),
        ("meta", "claude-code", "Conversation compacted"),
    ]
    assert report.skipped == {
        "claude-code: attachment record (hook_additional_context: context Claude Code attached)": 1,
        "claude-code: ai-title record": 1,
        "claude-code: last-prompt record (a copy of a prompt)": 1,
    }
    header = stored(paths)[0]
    assert header.text == f"Claude Code session in lighthouse ({CWD}), branch main"
    assert (header.id, header.session, header.role) == (f"{SESSION}:session", SESSION, "system")


def test_the_header_falls_back_to_the_project_folder_and_is_stable(paths: HomePaths, tmp_path: Path) -> None:
    path = tmp_path / "projects" / "-home-me-orchard" / "abc.jsonl"
    path.parent.mkdir(parents=True)
    first = {k: v for k, v in record("user", "prune the pear trees").items() if k not in ("cwd", "gitBranch")}
    path.write_text(json.dumps(first) + "\n")
    assert ingest(paths, [path]).added == 2
    assert stored(paths)[0].text == "Claude Code session in -home-me-orchard"
    with path.open("a") as handle:  # the transcript grows: its header is the same turn, not a conflict
        handle.write(json.dumps(record("user", "and the apple trees")) + "\n")
    again = ingest(paths, [path])
    assert (again.added, again.duplicates, again.skipped) == (1, 2, {})


def test_a_subagent_file_names_its_agent_and_the_parent_project(paths: HomePaths, tmp_path: Path) -> None:
    path = tmp_path / "projects" / "-home-me-orchard" / SESSION / "subagents" / "agent-f00d.jsonl"
    path.parent.mkdir(parents=True)
    agent = {k: v for k, v in record("user", "count the trees", isSidechain=True, agentId="f00d").items()
             if k != "cwd"}
    path.write_text(json.dumps(agent) + "\n")
    ingest(paths, [path])
    header = stored(paths)[0]
    assert header.session == f"{SESSION}#agent-f00d"
    assert header.text == "Claude Code subagent f00d in -home-me-orchard, branch main"


@pytest.mark.parametrize(("text", "expected"), [
    ("plain words", ("text", "user")),
    ("  <system-reminder>x</system-reminder>", ("meta", "claude-code")),
    ("Caveat: The messages below were generated by the user while running local commands. DO NOT",
     ("meta", "claude-code")),
    ("<command-message>x</command-message>", ("action", "user")),
    ("<local-command-stderr>oops</local-command-stderr>", ("action", "claude-code")),
    ("I typed <command-name> in the middle", ("text", "user")),  # only an opening counts
])
def test_user_text_kind(text: str, expected: tuple[str, str]) -> None:
    assert user_text_kind(text) == expected


def test_context_keeps_tool_output_out_unless_asked(paths: HomePaths, tmp_path: Path) -> None:
    ingest(paths, [transcript(tmp_path)])
    index = index_turns(paths, [])
    try:
        world = recaller(index)

        def types(items: list) -> set[str]:
            return {t.type for t in catalog.get_turns(index.conn, [item.id for item in items])}

        plain = build_context(world, "zanzibarite", markers=[], now=NOW, zone=NOW.tzinfo)  # type: ignore[arg-type]
        assert plain.turns == [] and "zanzibarite" not in plain.text
        wider = build_context(world, "zanzibarite", markers=[], now=NOW, zone=NOW.tzinfo,  # type: ignore[arg-type]
                              turn_types=("text", "action"))
        assert "zanzibarite" in wider.text and types(wider.turns) <= {"text", "action"}
        words = build_context(world, "logbook", markers=[], now=NOW, zone=NOW.tzinfo)  # type: ignore[arg-type]
        assert words.turns and types(words.turns) == {"text"}
        assert types(world.search("logbook", now=NOW, limit=50).results) >= {"text", "action"}
        summaries = catalog.session_summaries(index.conn, [SESSION, "unknown"])
        assert summaries == {SESSION: catalog.SessionSummary(
            SESSION, f"Claude Code session in lighthouse ({CWD}), branch main", "Find the keeper's logbook from 1893")}
    finally:
        index.close()


def test_a_turn_past_the_future_bound_rejects_its_record(paths: HomePaths, tmp_path: Path) -> None:
    path = tmp_path / "late.jsonl"
    path.write_text(json.dumps(record("user", "from the far future", timestamp="9999-12-31T23:59:59Z")) + "\n"
                    + json.dumps(record("user", "an ordinary prompt")) + "\n")
    report = ingest(paths, [path])
    assert [(q.line, q.reason[:40]) for q in report.quarantined] == [(1, "ts: 9999-12-31T23:59:59.000000Z is more ")]
    assert [t.text for t in stored(paths)][1:] == ["an ordinary prompt"]  # after the header
