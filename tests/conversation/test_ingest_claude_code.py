"""Claude Code transcripts: every record imported or counted, ids stable, subagents kept apart."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from core.conversation import ingest, list_day_files, read_day
from core.conversation.claude_code import render_tool_result
from core.paths import HomePaths
from core.turns import Turn

FIXTURES = Path(__file__).parents[1] / "fixtures" / "conversation" / "claude-code"
PROJECT = FIXTURES / "projects" / "-home-me-demo"
SESSION = "11111111-1111-4111-8111-111111111111"
MAIN = PROJECT / f"{SESSION}.jsonl"
SUBAGENT = PROJECT / SESSION / "subagents" / "agent-a1b2c3.jsonl"
SAMPLES = ("short.jsonl", "tool_heavy.jsonl", "subagent.jsonl", "daaain_edge_cases.jsonl",
           "daaain_representative_messages.jsonl", "daaain_session_b.jsonl", "simonw_sample_session.jsonl")


def all_turns(paths: HomePaths) -> list[Turn]:
    turns: list[Turn] = []
    for day in list_day_files(paths):
        reading = read_day(day.path)
        assert not reading.bad_lines
        turns.extend(reading.turns)
    return turns


# --- an independent count of what a transcript holds ------------------------------------------------

def _blocks(content: Any) -> list[Any]:
    return [content] if isinstance(content, str) else content


# Openings of text Claude Code writes into user records, and the type they give (module notes).
INJECTED_OPENINGS = {
    "<system-reminder>": "meta", "<local-command-caveat>": "meta", "Caveat: The messages below": "meta",
    "[Request interrupted by user": "meta", "This session is being continued": "meta",
    "<user-prompt-submit-hook>": "meta", "<task-notification>": "meta",
    "<command-name>": "action", "<command-message>": "action", "<bash-input>": "action",
    "<local-command-stdout>": "action", "<local-command-stderr>": "action", "<bash-stdout>": "action",
    "<bash-stderr>": "action",
}


def _user_text_type(record: dict[str, Any], text: str) -> str:
    if any(record.get(flag) for flag in ("isMeta", "isCompactSummary", "isVisibleInTranscriptOnly")):
        return "meta"
    if "toolUseResult" in record:
        return "action"
    return next((kind for opening, kind in INJECTED_OPENINGS.items() if text.lstrip().startswith(opening)), "text")


def conversation(turns: list[Turn]) -> list[Turn]:
    """The turns without the session headers the importer adds."""
    return [t for t in turns if not t.id.endswith(":session")]


def expected_types(path: Path) -> Counter[str]:
    """Turn types a transcript should give, counted straight from its JSON (not with the importer)."""
    counts: Counter[str] = Counter()
    sessions: set[str] = set()  # each session's first own record in the file adds one header (meta)

    def header(record: dict[str, Any]) -> None:
        session = record["sessionId"] + (f"#agent-{record['agentId']}" if record.get("isSidechain") else "")
        counts["meta"] += session not in sessions
        sessions.add(session)

    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if not isinstance(record, dict):
            continue
        kind = record.get("type")
        if kind == "system":
            if str(record.get("content") or "").strip():
                header(record)
                counts["meta"] += 1
            continue
        data = record.get("data")
        nested = False
        if kind == "progress" and isinstance(data, dict) and data.get("type") == "agent_progress":
            record = data["message"]
            kind = record.get("type")
            nested = True
        if kind not in ("user", "assistant"):
            continue
        message = record.get("message")
        if not (isinstance(message, dict) and "content" in message and "uuid" in record and "timestamp" in record):
            continue  # quarantined
        if not nested:
            header(record)
        for block in _blocks(message["content"]):
            text = block if isinstance(block, str) else block.get("text") if block.get("type") == "text" else None
            if text is not None and kind == "user":
                counts[_user_text_type(record, text)] += bool(text.strip())
            elif text is not None:
                counts["text"] += bool(text.strip())
            elif block.get("type") in ("tool_use", "server_tool_use"):
                counts["action"] += 1
            elif block.get("type") == "tool_result":
                counts["action"] += bool(render_tool_result(block).strip())
            elif block.get("type") == "thinking":
                counts["meta"] += bool(block.get("thinking", "").strip())
    return +counts


def expected_skips(path: Path) -> Counter[str]:
    """Records of types that are not conversation, counted straight from the file."""
    counts: Counter[str] = Counter()
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and record.get("type") in ("file-history-snapshot", "summary", "queue-operation"):
            counts[record["type"]] += 1
        elif isinstance(record, dict) and record.get("type") == "progress":
            counts[f"progress:{record['data'].get('type')}"] += 1
    return counts


# --- shared samples -----------------------------------------------------------------------------------

@pytest.mark.shared_data
@pytest.mark.parametrize("name", SAMPLES)
def test_each_shared_sample_imports_every_turn(paths: HomePaths, shared_data: Path, name: str) -> None:
    sample = shared_data / "claude-code" / name
    report = ingest(paths, [sample])
    turns = all_turns(paths)
    assert Counter(t.type for t in turns) == expected_types(sample)
    assert report.added == len(turns) == sum(expected_types(sample).values())
    skips = expected_skips(sample)
    for kind in ("file-history-snapshot", "summary", "queue-operation"):
        matching = [count for reason, count in report.skipped.items() if reason.startswith(f"claude-code: {kind} ")]
        assert sum(matching) == skips[kind], kind
    progress_skipped = sum(c for r, c in report.skipped.items() if r.startswith("claude-code: progress record"))
    not_agent = [c for k, c in skips.items() if k.startswith("progress:") and k != "progress:agent_progress"]
    assert progress_skipped == sum(not_agent)
    assert all(t.source == f"claude-code:{sample}" for t in turns)
    assert len({t.id for t in turns}) == len(turns)
    again = ingest(paths, [sample])
    assert (again.added, again.duplicates) == (0, report.added)


@pytest.mark.shared_data
def test_known_counts_of_two_samples(paths: HomePaths, shared_data: Path) -> None:
    report = ingest(paths, [shared_data / "claude-code" / "simonw_sample_session.jsonl"])
    turns = all_turns(paths)
    assert report.added == 9  # 8 turns and the session's header
    assert Counter(t.type for t in turns) == {"text": 4, "action": 4, "meta": 1}
    assert turns[0].text == "Claude Code session in project (/project), branch main"
    assert [t.id for t in turns][1:4] == ["msg-001:0", "msg-002:0", "msg-002:1"]
    assert turns[3].text.startswith('Write {"file_path": "/project/hello.py"')
    report = ingest(paths, [shared_data / "claude-code" / "short.jsonl"])
    # 1 user prompt, 1 interruption notice, 1 reply, 1 thinking, 2 tool uses, 2 results, 2 /model
    # records, and the header
    assert report.added == 11
    short = [t for t in all_turns(paths) if t.source.endswith("short.jsonl")]
    assert [t.text for t in short if (t.type, t.actor) == ("text", "user")] == ["mix phx.server doesnt seem to start"]
    assert report.skipped["claude-code: empty text block"] == 1
    assert report.skipped["claude-code: progress record (hook_progress)"] == 3


@pytest.mark.shared_data
def test_edge_case_sample_quarantines_each_bad_line(paths: HomePaths, shared_data: Path) -> None:
    sample = shared_data / "claude-code" / "daaain_edge_cases.jsonl"
    report = ingest(paths, [sample])
    assert [(q.line, q.reason) for q in report.quarantined] == [
        (10, "message.content: missing"),
        (11, "timestamp: missing"),
        (13, "not a JSON object (got str)"),
        (14, "type: missing"),
        (15, "not a JSON object (got int)"),
        (16, "not a JSON object (got list)"),
    ]
    assert all(q.file == str(sample) for q in report.quarantined)
    assert report.exit_code == 0  # quarantined beside imported turns: a warning
    turns = {t.text: t for t in all_turns(paths)}
    assert (turns["wow error"].type, turns["wow error"].actor) == ("action", "claude-code")  # a tool's output
    assert any("café, naïve" in text for text in turns)


@pytest.mark.shared_data
def test_agent_progress_messages_become_the_subagent_session(paths: HomePaths, shared_data: Path) -> None:
    ingest(paths, [shared_data / "claude-code" / "subagent.jsonl"])
    turns = all_turns(paths)
    agent = [t for t in turns if t.session.endswith("#agent-afb92ff")]
    assert len(agent) == 19  # from the parent's agent_progress records: no header of its own
    assert {t.model for t in agent if t.role == "assistant"} == {"claude-haiku-4-5-20251001"}
    assert agent[0].session == "491e126e-1e71-469c-ade2-fcc8af567c74#agent-afb92ff"


# --- own fixtures -------------------------------------------------------------------------------------

def test_fixture_transcript_turns_and_reports(paths: HomePaths) -> None:
    report = ingest(paths, [MAIN])
    turns = all_turns(paths)
    assert report.added == 11 == len(turns)  # 10 and the session's header
    assert Counter(t.type for t in turns) == expected_types(MAIN)
    by_id = {t.id: t for t in turns}
    first = by_id["00000000-0000-4000-8000-000000000003:0"]
    assert (first.role, first.actor, first.type, first.session) == ("user", "user", "text", SESSION)
    assert first.text == "Let's plan the walk in 서울숲 for Saturday"
    thinking = by_id["00000000-0000-4000-8000-000000000004:0"]
    assert (thinking.type, thinking.actor, thinking.model) == ("meta", "claude-opus-4-6", "claude-opus-4-6")
    tool = by_id["00000000-0000-4000-8000-000000000006:0"]
    assert tool.type == "action" and tool.text.startswith('Task {"description": "Find a route"')
    result = by_id["00000000-0000-4000-8000-000000000008:0"]
    assert (result.actor, result.type) == ("claude-code", "action")
    assert result.text == "Route: enter at gate 2, lake loop, deer park.\n[image image/png]"
    assert by_id["00000000-0000-4000-8000-000000000016:0"].text == "[error] Permission denied"
    assert by_id["00000000-0000-4000-8000-000000000009:0"].type == "meta"
    assert by_id["00000000-0000-4000-8000-000000000010:0"].role == "system"
    assert by_id["00000000-0000-4000-8000-000000000017:1"].text == "Here is the map photo"
    nested = by_id["00000000-0000-4000-8000-000000000101:0"]
    assert nested.session == f"{SESSION}#agent-a1b2c3"
    assert [(q.line, q.reason) for q in report.quarantined] == [
        (12, "timestamp: missing"),
        (13, "not JSON: Unterminated string starting at (column 57)"),
    ]
    assert report.skipped == {
        "claude-code: file-history-snapshot record (file backups)": 1,
        "claude-code: progress record (hook_progress)": 1,
        "claude-code: system record without text (turn_duration)": 1,
        "claude-code: summary record (a generated title, no timestamp)": 1,
        "claude-code: empty text block": 1,
        "claude-code: image block (binary, not stored)": 1,
        "claude-code: unknown record type 'mystery-record'": 1,
    }


def test_turns_land_in_their_utc_day(paths: HomePaths) -> None:
    ingest(paths, [MAIN])
    days = {d.day: len(read_day(d.path).turns) for d in list_day_files(paths)}
    assert days == {"2026-03-03": 5, "2026-03-04": 6}
    march_4 = paths.logs / "2026" / "03" / "2026-03-04.jsonl"
    assert march_4.exists() and march_4.stat().st_mode & 0o777 == 0o600


def test_project_tree_walk_includes_subagent_files_once(paths: HomePaths) -> None:
    report = ingest(paths, [FIXTURES / "projects"])
    assert report.files == 2
    assert report.skipped["file in a folder that is not a known transcript format"] == 1  # settings.json
    # 10 turns and a header from each file; the subagent's prompt came via agent_progress too
    assert report.added == 13 and report.duplicates == 1
    agent = conversation([t for t in all_turns(paths) if t.session == f"{SESSION}#agent-a1b2c3"])
    assert [t.actor for t in agent] == ["user", "claude-haiku-4-5-20251001"]
    assert [t.source for t in agent] == [f"claude-code:{MAIN}", f"claude-code:{SUBAGENT}"]


def test_reingest_adds_nothing_and_quarantine_is_not_duplicated(paths: HomePaths) -> None:
    first = ingest(paths, [FIXTURES])
    before = {d.day: d.path.read_bytes() for d in list_day_files(paths)}
    second = ingest(paths, [FIXTURES, MAIN])
    assert second.added == 0 and second.duplicates == first.added + first.duplicates
    assert {d.day: d.path.read_bytes() for d in list_day_files(paths)} == before
    kept = [json.loads(line) for f in paths.quarantine.glob("*.jsonl") for line in f.read_text().splitlines()]
    assert len(kept) == 2
    assert {(k["line"], k["source"]) for k in kept} == {(12, str(MAIN)), (13, str(MAIN))}
    assert kept[1]["raw"].startswith('{"type": "user", "message": {"role": "user", "content": "cut')


def test_same_id_with_other_content_keeps_the_stored_turn(paths: HomePaths, tmp_path: Path) -> None:
    original = tmp_path / "a.jsonl"
    record = {"type": "user", "uuid": "u-1", "sessionId": "s", "timestamp": "2026-01-05T10:00:00Z",
              "message": {"role": "user", "content": "first words"}}
    original.write_text(json.dumps(record) + "\n")
    ingest(paths, [original])
    record["message"]["content"] = "edited words"
    edited = tmp_path / "b.jsonl"
    edited.write_text(json.dumps(record) + "\n")
    report = ingest(paths, [edited])
    assert report.added == 0
    assert report.skipped == {"id already stored with other content (the stored turn is kept)": 1}
    assert [t.text for t in conversation(all_turns(paths))] == ["first words"]
