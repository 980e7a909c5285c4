"""ChatGPT exports: the visible thread, branches as their own sessions, null times, placeholders."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.conversation import detect_format, ingest, list_day_files, read_day
from core.paths import HomePaths
from core.turns import Turn

EXPORT = Path(__file__).parent / "fixtures" / "conversation" / "chatgpt" / "conversations.json"
T = 1772409600.0  # 2026-03-02T00:00:00Z, conv-a's create_time


def all_turns(paths: HomePaths) -> dict[str, Turn]:
    return {t.id: t for d in list_day_files(paths) for t in read_day(d.path).turns}


def visible_path(conversation: dict) -> list[str]:
    """Node ids from the root to current_node, walked up through parent (independently of the importer)."""
    path, node = [], conversation["current_node"]
    while node is not None:
        path.append(node)
        node = conversation["mapping"][node]["parent"]
    return path[::-1]


@pytest.mark.shared_data
def test_shared_sample_visible_thread_and_branch(paths: HomePaths, shared_data: Path) -> None:
    sample = shared_data / "chatgpt" / "mitkury_example-conversation.json"
    (conversation,) = json.loads(sample.read_text())
    report = ingest(paths, [sample])
    turns = all_turns(paths)
    with_text = {nid for nid, node in conversation["mapping"].items() if "".join(node["message"]["content"]["parts"])}
    visible = [nid for nid in visible_path(conversation) if nid in with_text]
    assert report.added == len(with_text) == 5
    assert report.skipped == {"chatgpt: empty message (placeholder parts)": 1}
    assert [nid for nid, t in turns.items() if t.session == "conv-123"] == visible
    branch = sorted(with_text - set(visible))
    assert branch == ["msg-5"]
    assert turns["msg-5"].session == "conv-123#branch-msg-5"
    assert turns["msg-3"].actor == turns["msg-3"].model == "gpt-4"
    assert turns["msg-2"].ts == "2024-01-01T00:01:40.000000Z"
    assert all(t.source == f"chatgpt:{sample}" for t in turns.values())
    assert ingest(paths, [sample]).added == 0


def test_fixture_export_turns(paths: HomePaths) -> None:
    report = ingest(paths, [EXPORT])
    turns = all_turns(paths)
    assert sorted(turns) == ["a-2", "a-3", "a-3b", "a-4", "a-5", "a-6", "a-7", "a-9", "c-1", "c-3"]
    assert report.skipped == {
        "chatgpt: node without a message (root placeholder)": 1,
        "chatgpt: empty message (placeholder parts)": 2,
    }
    conv_b_line = EXPORT.read_text().splitlines().index('  "id": "conv-b",')  # the "{" is the line before
    assert [(q.line, q.reason) for q in report.quarantined] == [
        (conv_b_line, "conversation 2: mapping: missing"),
        (conv_b_line + 6, "conversation conv-c node c-2: message.create_time: not a number of seconds"),
    ]


def test_branches_are_their_own_sessions(paths: HomePaths) -> None:
    ingest(paths, [EXPORT])
    turns = all_turns(paths)
    sessions = {nid: t.session for nid, t in turns.items()}
    for nid in ("a-2", "a-4", "a-5", "a-6", "a-7", "a-9"):
        assert sessions[nid] == "conv-a"
    assert sessions["a-3"] == sessions["a-3b"] == "conv-a#branch-a-3"  # the first answer and what followed it
    assert sessions["c-1"] == sessions["c-3"] == "conv-c"  # no current_node: the latest leaf is the thread


def test_null_times_inherit_the_nearest_earlier_time(paths: HomePaths) -> None:
    ingest(paths, [EXPORT])
    turns = all_turns(paths)
    # a-2 has a null create_time, as do all its ancestors: it takes the conversation's create_time.
    assert turns["a-2"].ts == "2026-03-02T00:00:00.000000Z"
    assert turns["a-3"].ts == "2026-03-02T00:01:00.000000Z"


def test_roles_types_and_rendered_parts(paths: HomePaths) -> None:
    ingest(paths, [EXPORT])
    turns = all_turns(paths)
    assert turns["a-5"].text == "[image_asset_pointer file-service://file-abc]\nHere is the map I found"
    assert (turns["a-5"].role, turns["a-5"].type) == ("user", "text")
    assert (turns["a-6"].type, turns["a-6"].text, turns["a-6"].model) == ("action", "print(2 * 3)", "gpt-4o")
    assert (turns["a-7"].role, turns["a-7"].actor, turns["a-7"].type, turns["a-7"].text) == (
        "assistant", "tool:python", "action", "6")
    assert (turns["a-9"].actor, turns["a-9"].type) == ("gpt-4o", "text")
    assert turns["c-3"].actor == "o3"


def test_a_single_conversation_object_is_accepted(paths: HomePaths, tmp_path: Path) -> None:
    (first, *_rest) = json.loads(EXPORT.read_text())
    single = tmp_path / "one.json"
    single.write_text(json.dumps(first, indent=2))
    assert detect_format(single) == "chatgpt"
    assert ingest(paths, [single]).added == 8


def test_a_syntax_error_keeps_what_came_before(paths: HomePaths, tmp_path: Path) -> None:
    conversations = json.loads(EXPORT.read_text())
    text = json.dumps([conversations[0], conversations[2]], indent=1)
    cut = text.rindex('"c-3"')
    broken = tmp_path / "conversations.json"
    broken.write_text(text[:cut] + "{{{ oops")
    report = ingest(paths, [broken], fmt="chatgpt")
    assert report.added == 8  # conv-a is whole; conv-c is cut off
    (entry,) = report.quarantined
    assert entry.reason.startswith("not JSON: ") and entry.reason.endswith("the rest of the file is not read")
    kept = json.loads(next(paths.quarantine.glob("*.jsonl")).read_text())
    raw = (paths.quarantine / kept["raw_file"]).read_text()
    assert raw.endswith("{{{ oops") and raw.lstrip().startswith("{")


def test_not_a_conversation_list(paths: HomePaths, tmp_path: Path) -> None:
    odd = tmp_path / "odd.json"
    odd.write_text('[{"mapping": {}}, 3]')
    report = ingest(paths, [odd])
    assert [q.reason for q in report.quarantined] == [
        "conversation 1: id: missing (neither 'id' nor 'conversation_id')",
        "conversation 2: not a conversation object (got int)",
    ]
