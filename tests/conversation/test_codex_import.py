"""Codex CLI rollouts (``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``): both shapes, detection,
quarantine, idempotence and a folder walk. The fixtures are written here, in the shapes Codex writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.conversation import FORMATS, collect_sources, detect_format, ingest, list_day_files, read_day
from core.conversation.codex import injected_kind, read, render_output
from core.conversation.items import Rejected, Skipped
from core.paths import HomePaths
from core.turns import Turn
from tests.helpers.cli import in_process
from tui_app.cli import log_cmds

SESSION = "5973b6c0-94b8-487b-a530-2aeb6098ae0e"
LEGACY_SESSION = "0196a8f0-1111-7000-8000-000000000001"


def line(ts: str, kind: str, payload: dict) -> dict:
    return {"timestamp": ts, "type": kind, "payload": payload}


def message(role: str, *texts: str) -> dict:
    block = "output_text" if role == "assistant" else "input_text"
    return {"type": "message", "role": role, "content": [{"type": block, "text": text} for text in texts]}


def current_rollout() -> list[dict]:
    return [
        line("2026-03-02T09:00:00.000Z", "session_meta", {
            "id": SESSION, "timestamp": "2026-03-02T09:00:00.000Z", "cwd": "/home/me/proj",
            "originator": "codex_cli_rs", "cli_version": "0.46.0", "instructions": None, "source": "cli",
            "model_provider": "openai",
            "base_instructions": {"text": "You are Codex..."}, "git": {},
        }),
        line("2026-03-02T09:00:00.100Z", "response_item", message(
            "developer", "<permissions instructions>sandbox: workspace-write</permissions instructions>")),
        line("2026-03-02T09:00:00.200Z", "response_item", message(
            "user", "<user_instructions>\n\nUse 4 spaces.\n\n</user_instructions>")),
        line("2026-03-02T09:00:00.300Z", "response_item", message(
            "user", "<environment_context>\n  <cwd>/home/me/proj</cwd>\n</environment_context>")),
        line("2026-03-02T09:00:01.000Z", "response_item", message("user", "Why does the parser drop the last row?")),
        line("2026-03-02T09:00:01.000Z", "event_msg", {
            "type": "user_message", "message": "Why does the parser drop the last row?", "kind": "plain"}),
        line("2026-03-02T09:00:01.100Z", "turn_context", {
            "cwd": "/home/me/proj", "approval_policy": "on-request", "sandbox_policy": {"mode": "workspace-write"},
            "model": "gpt-5-codex", "effort": "medium", "summary": "auto"}),
        line("2026-03-02T09:00:02.000Z", "event_msg", {"type": "agent_reasoning", "text": "**Reading the parser**"}),
        line("2026-03-02T09:00:02.000Z", "response_item", {
            "type": "reasoning", "summary": [{"type": "summary_text", "text": "**Reading the parser**"}],
            "content": None, "encrypted_content": "gAAAA..."}),
        line("2026-03-02T09:00:02.500Z", "response_item", {
            "type": "reasoning", "summary": [], "encrypted_content": "gAAAA..."}),
        line("2026-03-02T09:00:03.000Z", "response_item", {
            "type": "function_call", "name": "shell",
            "arguments": "{\"command\":[\"sed\",\"-n\",\"1,40p\",\"parser.py\"]}", "call_id": "call_1"}),
        line("2026-03-02T09:00:03.500Z", "response_item", {
            "type": "function_call_output", "call_id": "call_1",
            "output": "{\"output\":\"for row in rows[:-1]:\",\"metadata\":{\"exit_code\":0}}"}),
        line("2026-03-02T09:00:04.000Z", "response_item", {
            "type": "custom_tool_call", "status": "completed", "call_id": "call_2", "name": "apply_patch",
            "input": "*** Begin Patch\n*** Update File: parser.py\n-rows[:-1]\n+rows\n*** End Patch"}),
        line("2026-03-02T09:00:04.200Z", "response_item", {
            "type": "custom_tool_call_output", "call_id": "call_2", "output": "Success. Updated parser.py"}),
        line("2026-03-02T09:00:04.300Z", "response_item", {
            "type": "function_call_output", "call_id": "call_3", "output": {"content": "timed out", "success": False}}),
        line("2026-03-02T09:00:04.400Z", "response_item", {
            "type": "local_shell_call", "call_id": "call_4", "status": "completed",
            "action": {"type": "exec", "command": ["pytest", "-q"]}}),
        line("2026-03-02T09:00:05.000Z", "event_msg", {"type": "agent_message", "message": "The slice dropped it."}),
        line("2026-03-02T09:00:05.000Z", "response_item", message("assistant", "The slice `rows[:-1]` dropped it.")),
        line("2026-03-02T09:00:05.100Z", "event_msg", {"type": "token_count", "info": None}),
        line("2026-03-02T09:00:06.000Z", "response_item", message(
            "user", "<user_shell_command>\n<command>git status</command>\n</user_shell_command>")),
        line("2026-03-02T09:00:07.000Z", "response_item", {
            "type": "message", "role": "user",
            "content": [{"type": "input_image", "image_url": "data:image/png;base64,AAAA"},
                        {"type": "input_text", "text": "and this screenshot?"}]}),
        line("2026-03-02T09:00:08.000Z", "compacted", {"message": "Summary: fixed the parser slice."}),
        line("2026-03-02T09:00:09.000Z", "response_item", {"type": "ghost_snapshot", "ghost_commit": {"id": "abc"}}),
    ]


def legacy_rollout() -> list[dict]:
    return [
        {"id": LEGACY_SESSION, "timestamp": "2025-05-07T17:24:21.123Z", "instructions": "Prefer small commits."},
        message("user", "<environment_context>\nCurrent working directory: /tmp\n</environment_context>"),
        message("user", "hello from the old cli"),
        {"record_type": "state"},
        message("assistant", "Hi! What shall we build?"),
        {"type": "function_call", "name": "shell", "arguments": "{\"command\":[\"ls\"]}", "call_id": "c1"},
        {"type": "function_call_output", "call_id": "c1", "output": {"content": "README.md", "success": True}},
        {"record_type": "state", "previous_response_id": "resp_1"},
    ]


def write(path: Path, records: list[dict], tail: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records) + tail, encoding="utf-8")
    return path


def rollout_path(root: Path, day: str = "2026/03/02", session: str = SESSION) -> Path:
    return root / "sessions" / day / f"rollout-{day.replace('/', '-')}T09-00-00-{session}.jsonl"


def items_of(path: Path) -> tuple[list[Turn], list[Rejected], list[Skipped]]:
    items = list(read(path))
    return ([i for i in items if isinstance(i, Turn)], [i for i in items if isinstance(i, Rejected)],
            [i for i in items if isinstance(i, Skipped)])


def stored(paths: HomePaths) -> list[Turn]:
    return [turn for day in list_day_files(paths) for turn in read_day(day.path).turns]


def test_current_rollout_maps_to_turns(tmp_path: Path) -> None:
    turns, rejected, skipped = items_of(write(rollout_path(tmp_path), current_rollout()))
    assert not rejected
    said = [(t.role, t.actor, t.type, t.text) for t in turns]
    assert said[0] == ("system", "codex", "meta",
                       "<permissions instructions>sandbox: workspace-write</permissions instructions>")
    # Context Codex injects as user messages is kept, but not as something the person said.
    assert said[1][:3] == ("user", "codex", "meta") and said[1][3].startswith("<user_instructions>")
    assert said[2][:3] == ("user", "codex", "meta") and said[2][3].startswith("<environment_context>")
    assert said[3] == ("user", "user", "text", "Why does the parser drop the last row?")
    assert said[4] == ("assistant", "gpt-5-codex", "meta", "**Reading the parser**")
    assert said[5] == ("assistant", "gpt-5-codex", "action",
                       'shell {"command":["sed","-n","1,40p","parser.py"]}')
    assert said[6][:3] == ("user", "codex", "action") and "rows[:-1]" in said[6][3]
    assert said[7][:3] == ("assistant", "gpt-5-codex", "action") and said[7][3].startswith("apply_patch *** Begin")
    assert said[8] == ("user", "codex", "action", "Success. Updated parser.py")
    assert said[9] == ("user", "codex", "action", "[error] timed out")
    assert said[10] == ("assistant", "gpt-5-codex", "action",
                        'local_shell {"type": "exec", "command": ["pytest", "-q"]}')
    assert said[11] == ("assistant", "gpt-5-codex", "text", "The slice `rows[:-1]` dropped it.")
    assert said[12][:3] == ("user", "user", "action") and "git status" in said[12][3]
    assert said[13] == ("user", "user", "text", "and this screenshot?")
    assert said[14] == ("system", "codex", "meta", "Summary: fixed the parser slice.")
    assert len(turns) == 15
    assert {t.session for t in turns} == {SESSION}
    assert {t.source for t in turns} == {f"codex:{rollout_path(tmp_path)}"}
    assert turns[3].model is None and turns[11].model == "gpt-5-codex"
    assert turns[3].id == f"{SESSION}:5:0" and turns[13].id == f"{SESSION}:21:1"
    assert turns[3].ts == "2026-03-02T09:00:01.000000Z"
    reasons = {s.reason for s in skipped}
    assert "codex: event_msg user_message (the same text as its response_item message)" in reasons
    assert "codex: event_msg token_count (usage bookkeeping)" in reasons
    assert "codex: turn_context record (model and policies)" in reasons
    assert "codex: session_meta base_instructions (Codex's own system prompt)" in reasons
    assert "codex: reasoning item without readable text (encrypted)" in reasons
    assert "codex: input_image block (binary, not stored)" in reasons
    assert "codex: ghost_snapshot item (a git snapshot for undo)" in reasons


def test_legacy_rollout_with_header_and_state_lines(tmp_path: Path) -> None:
    path = write(rollout_path(tmp_path, "2025/05/07", LEGACY_SESSION), legacy_rollout())
    turns, rejected, skipped = items_of(path)
    assert not rejected
    assert [(t.role, t.actor, t.type, t.text) for t in turns] == [
        ("system", "codex", "meta", "Prefer small commits."),
        ("user", "codex", "meta", "<environment_context>\nCurrent working directory: /tmp\n</environment_context>"),
        ("user", "user", "text", "hello from the old cli"),
        ("assistant", "assistant", "text", "Hi! What shall we build?"),
        ("assistant", "assistant", "action", 'shell {"command":["ls"]}'),
        ("user", "codex", "action", "README.md"),
    ]
    # Bare items carry no time of their own: they take the header's.
    assert {t.ts for t in turns} == {"2025-05-07T17:24:21.123000Z"}
    assert {t.session for t in turns} == {LEGACY_SESSION}
    assert [s.reason for s in skipped].count("codex: legacy state record (response id bookkeeping)") == 2


def test_malformed_lines_are_quarantined_with_their_line(paths: HomePaths, tmp_path: Path) -> None:
    records = current_rollout()[:5]
    path = write(rollout_path(tmp_path), records, tail=(
        "{not json\n"
        + json.dumps({"type": "response_item", "payload": message("user", "no time")}) + "\n"
        + json.dumps(line("2026-03-02T09:10:00Z", "response_item", {"type": "message", "role": "user"})) + "\n"
        + json.dumps(line("2026-03-02T09:11:00Z", "response_item", message("user", "still imported"))) + "\n"
        + '{"timestamp": "2026-03-02T09:12:00Z", "type": "resp'  # being written: not an error yet
    ))
    report = ingest(paths, [path])
    assert [(Path(q.file).name, q.line) for q in report.quarantined] == [(path.name, 6), (path.name, 7), (path.name, 8)]
    assert "not JSON" in report.quarantined[0].reason
    assert "timestamp: missing" in report.quarantined[1].reason
    assert "content: missing" in report.quarantined[2].reason
    assert report.exit_code == 0  # quarantined beside imported turns: a warning
    assert "still imported" in [t.text for t in stored(paths)]
    assert any("unterminated last line" in reason for reason in report.skipped)


def test_reingest_adds_nothing_and_a_grown_file_adds_only_the_new_turns(paths: HomePaths, tmp_path: Path) -> None:
    records = current_rollout()
    path = write(rollout_path(tmp_path), records[:12])
    first = ingest(paths, [path])
    assert first.added == 7 and not first.quarantined
    again = ingest(paths, [path])
    assert again.added == 0 and again.duplicates == 7
    write(path, records)
    grown = ingest(paths, [path])
    assert grown.added == 8 and grown.duplicates == 7
    assert len(stored(paths)) == 15
    assert len({t.id for t in stored(paths)}) == 15


def test_detection_of_both_shapes(tmp_path: Path) -> None:
    current = write(rollout_path(tmp_path), current_rollout())
    legacy = write(rollout_path(tmp_path, "2025/05/07", LEGACY_SESSION), legacy_rollout())
    assert detect_format(current) == "codex"
    assert detect_format(legacy) == "codex"
    # A file whose first line is a bare item (the header was lost) is still told apart.
    bare = write(tmp_path / "bare.jsonl", legacy_rollout()[2:])
    assert detect_format(bare) == "codex"
    # Claude Code and generic JSONL are not mistaken for Codex.
    claude = write(tmp_path / "claude.jsonl", [{"type": "user", "uuid": "u1", "sessionId": "s", "timestamp":
                                                "2026-01-01T00:00:00Z", "message": {"content": "hi"}}])
    generic = write(tmp_path / "generic.jsonl", [{"ts": "2026-01-01T00:00:00Z", "role": "user", "text": "x"}])
    assert detect_format(claude) == "claude-code"
    assert detect_format(generic) == "generic"
    assert "codex" in FORMATS


def test_walks_a_sessions_tree(paths: HomePaths, tmp_path: Path) -> None:
    codex_home = tmp_path / ".codex-home"
    write(rollout_path(codex_home), current_rollout())
    write(rollout_path(codex_home, "2025/05/07", LEGACY_SESSION), legacy_rollout())
    (codex_home / "sessions" / "2026" / "03" / "02" / "empty.jsonl").write_text("")
    plan = collect_sources([codex_home / "sessions"])
    assert sorted(s.format for s in plan.sources) == ["codex", "codex"]
    assert plan.skipped == {"empty file": 1}
    report = ingest(paths, plan=plan)
    assert report.added == 21 and not report.quarantined
    assert {t.session for t in stored(paths)} == {SESSION, LEGACY_SESSION}


def test_ingest_cli_accepts_format_codex(paths: HomePaths, tmp_path: Path) -> None:
    run = in_process(log_cmds)
    path = write(rollout_path(tmp_path), current_rollout())
    code, out, err = run("ingest", "--format", "codex", "--json", str(path))
    assert code == 0, err
    assert json.loads(out)["added"] == 15


@pytest.mark.parametrize(("text", "kind"), [
    ("<environment_context>\n<cwd>/x</cwd>\n</environment_context>", "context"),
    ("# AGENTS.md instructions for /x\n\n<INSTRUCTIONS>\nbe brief\n</INSTRUCTIONS>", "context"),
    ("  <turn_aborted>\ninterrupted\n</turn_aborted>\n", "context"),
    ("<user_shell_command>ls</user_shell_command>", "shell"),
    ("what does <environment_context> mean?", None),
    ("<environment_context> is a tag I saw", None),
])
def test_injected_context_is_told_from_what_the_person_typed(text: str, kind: str | None) -> None:
    assert injected_kind(text) == kind


def test_tool_output_shapes() -> None:
    assert render_output("plain") == ("plain", False)
    assert render_output({"content": "boom", "success": False}) == ("boom", True)
    assert render_output([{"type": "input_text", "text": "a"}, {"type": "input_image", "image_url": "x"}]) == (
        "a\n[input_image]", False)
