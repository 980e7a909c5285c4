"""ChatGPT exports: the visible thread, branches as their own sessions, null times, placeholders."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.conversation import detect_format, ingest, list_day_files, read_day
from core.paths import HomePaths
from core.turns import Turn

EXPORT = Path(__file__).parents[1] / "fixtures" / "conversation" / "chatgpt" / "conversations.json"
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


# --- streaming: each conversation read alone ---------------------------------------------------------

CONV_A_TURNS = 8
CONV_C_TURNS = 2


def conversations() -> list[dict]:
    return json.loads(EXPORT.read_text())


def write(tmp_path: Path, data: bytes, name: str = "conversations.json") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def quarantined_bytes(paths: HomePaths) -> list[bytes]:
    """What the quarantine kept of each rejected entry, in order."""
    kept = []
    for text in next(paths.quarantine.glob("*.jsonl")).read_text().splitlines():
        entry = json.loads(text)
        kept.append((paths.quarantine / entry["raw_file"]).read_bytes() if "raw_file" in entry
                    else entry["raw"].encode())
    return kept


@pytest.fixture
def tiny_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every conversation crosses chunk boundaries and is too long to hold: the byte scanner measures
    each one before it is parsed alone."""
    from core.conversation import json_stream

    monkeypatch.setattr(json_stream, "CHUNK", 7)
    monkeypatch.setattr(json_stream, "HOLD_BYTES", 16)


@pytest.mark.parametrize("indent", [None, 1])
def test_a_truncated_export_keeps_the_whole_conversations_and_quarantines_the_tail(
        paths: HomePaths, tmp_path: Path, indent: int | None) -> None:
    # Lossless either way, but refusing the file would hold back conversations that parsed whole on their
    # own; the cut one is kept byte for byte, and a complete export ingested later adds only what is new.
    a, _b, c = conversations()
    text = json.dumps([a, c], indent=indent).encode()
    cut = text.rindex(b'"c-3"')
    report = ingest(paths, [write(tmp_path, text[:cut])], fmt="chatgpt")
    assert report.added == CONV_A_TURNS
    (entry,) = report.quarantined
    assert entry.reason == ("not JSON: the file ends inside conversation 2 (a truncated export?); "
                            "the rest of the file is not read")
    assert quarantined_bytes(paths) == [text[text.rindex(b"{", 0, text.index(b'"conversation_id"')):cut]]
    whole = ingest(paths, [write(tmp_path, text, "complete.json")], fmt="chatgpt")
    assert (whole.added, whole.duplicates) == (CONV_C_TURNS, CONV_A_TURNS)


def test_an_export_cut_between_conversations(paths: HomePaths, tmp_path: Path) -> None:
    a, _b, c = conversations()
    text = json.dumps([a, c]).encode()
    end_of_a = len(json.dumps([a]).encode()) - 1
    for cut in (end_of_a, end_of_a + 1):  # after conversation 1, then after its ','
        report = ingest(paths, [write(tmp_path, text[:cut])], fmt="chatgpt")
        found = report.quarantined or report.already_quarantined  # the same tail again: no news
        assert [q.reason for q in found] == [
            "not JSON: the file ends before the list is closed (a truncated export?); the rest of the file is not read"]
    assert all_turns(paths).keys() == {"a-2", "a-3", "a-3b", "a-4", "a-5", "a-6", "a-7", "a-9"}


def test_garbage_between_conversations_is_quarantined_alone(paths: HomePaths, tmp_path: Path) -> None:
    a, _b, c = conversations()
    garbage = b'oops {"not": ["a conversation"]} 42'  # garbage whose brackets do not balance runs to the end
    data = b"[" + json.dumps(a).encode() + b"\n " + garbage + b"\n,\n" + json.dumps(c).encode() + b"]"
    report = ingest(paths, [write(tmp_path, data)])
    assert report.added == CONV_A_TURNS + CONV_C_TURNS
    assert [(q.line, q.reason) for q in report.quarantined] == [
        (2, "not JSON: unexpected data after conversation 1 (expected ',' or ']')"),
        (4, "conversation conv-c node c-2: message.create_time: not a number of seconds"),
    ]
    assert quarantined_bytes(paths)[0] == garbage


def test_a_conversation_that_is_not_json_is_rejected_alone(paths: HomePaths, tmp_path: Path) -> None:
    a, _b, c = conversations()
    broken = b'{"id": "x", "mapping": {"a": {"id": "a"} "b": 1}}'  # a missing ','
    data = b"[" + json.dumps(a).encode() + b",\n" + broken + b",\n" + json.dumps(c).encode() + b"]"
    report = ingest(paths, [write(tmp_path, data)])
    assert report.added == CONV_A_TURNS + CONV_C_TURNS
    at = data.index(b' "b"') + 1
    assert report.quarantined[0].reason == f"conversation 2: not JSON: Expecting ',' delimiter (line 2, byte {at})"
    assert quarantined_bytes(paths)[0] == broken


def test_a_compact_single_conversation_and_what_follows_it(paths: HomePaths, tmp_path: Path) -> None:
    (first, *_rest) = conversations()
    report = ingest(paths, [write(tmp_path, json.dumps(first).encode() + b"\n{}\n", "one.json")], fmt="chatgpt")
    assert report.added == CONV_A_TURNS
    assert [(q.line, q.reason) for q in report.quarantined] == [
        (2, "not JSON: extra data after the conversation; the rest of the file is not read")]
    assert quarantined_bytes(paths) == [b"{}\n"]


def test_a_bom_is_ignored_and_spans_skip_it(paths: HomePaths, tmp_path: Path) -> None:
    text = EXPORT.read_bytes()
    report = ingest(paths, [write(tmp_path, b"\xef\xbb\xbf" + text)])
    assert report.added == CONV_A_TURNS + CONV_C_TURNS
    conv_b = text.index(b'{\n  "id": "conv-b"')
    assert report.quarantined[0].line == text.count(b"\n", 0, conv_b) + 1
    assert quarantined_bytes(paths)[0] == text[conv_b:text.index(b"}", conv_b) + 1]


def test_quotes_and_brackets_inside_strings(paths: HomePaths, tmp_path: Path, tiny_chunks: None) -> None:
    a, b, c = conversations()
    tricky = 'say "}]," then \\"[{\\" and a lone \\\\ before "]" ' * 3
    a["mapping"]["a-2"]["message"]["content"]["parts"] = [tricky]
    a["title"] = '"], {"id": "fake", "mapping": {}}, ["'
    data = json.dumps([a, b, c], indent=1).encode()
    report = ingest(paths, [write(tmp_path, data)])
    assert report.added == CONV_A_TURNS + CONV_C_TURNS
    assert all_turns(paths)["a-2"].text == tricky
    assert [q.reason for q in report.quarantined] == [
        "conversation 2: mapping: missing",
        "conversation conv-c node c-2: message.create_time: not a number of seconds",
    ]


def test_the_scanner_path_reads_what_the_fast_path_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from core.conversation import chatgpt, json_stream

    export = write(tmp_path, b"\xef\xbb\xbf" + EXPORT.read_bytes())
    fast = list(chatgpt.read(export))
    monkeypatch.setattr(json_stream, "CHUNK", 5)
    monkeypatch.setattr(json_stream, "HOLD_BYTES", 1)
    assert list(chatgpt.read(export)) == fast


def test_unicode_escapes_and_a_lone_surrogate(paths: HomePaths, tmp_path: Path, tiny_chunks: None) -> None:
    a, _b, c = conversations()
    a["mapping"]["a-2"]["message"]["content"]["parts"] = ["caf\u00e9 \U0001f600 \ub098\ubb34"]
    a["mapping"]["a-4"]["message"]["content"]["parts"] = ["half a pair: \ud800"]
    data = json.dumps([a, c]).encode("ascii")  # every non-ASCII character as a \u escape
    report = ingest(paths, [write(tmp_path, data)])
    assert all_turns(paths)["a-2"].text == "caf\u00e9 \U0001f600 \ub098\ubb34"
    assert report.added == CONV_A_TURNS - 1 + CONV_C_TURNS
    reasons = [q.reason for q in report.quarantined]
    assert reasons[0] == "conversation conv-a node a-4: text: holds an unpaired UTF-16 surrogate at character 13"


def test_invalid_utf8_rejects_only_its_conversation(paths: HomePaths, tmp_path: Path) -> None:
    a, _b, c = conversations()
    a["title"] = "TITLE"
    raw_a = json.dumps(a).encode().replace(b"TITLE", b"T\xffTLE")
    data = b"[" + raw_a + b"," + json.dumps(c).encode() + b"]"
    report = ingest(paths, [write(tmp_path, data)])
    assert report.added == CONV_C_TURNS
    bad = data.index(b"\xff")
    assert report.quarantined[0].reason == f"conversation 1: not UTF-8 at byte {bad}"
    assert quarantined_bytes(paths)[0] == raw_a


def test_an_oversized_conversation_is_copied_not_parsed(
        paths: HomePaths, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from core.conversation import chatgpt

    a, _b, c = conversations()
    monkeypatch.setattr(chatgpt, "MAX_CONVERSATION_BYTES", len(json.dumps(c)) + 1)
    data = json.dumps([c, a, c]).encode()
    report = ingest(paths, [write(tmp_path, data)])
    assert report.added == CONV_C_TURNS
    start = data.index(b'{"id": "conv-a"')
    end = start + len(json.dumps(a))
    assert report.quarantined[1].reason.startswith(f"conversation 2 (bytes {start}-{end}) is {end - start} bytes, over")
    assert quarantined_bytes(paths)[1] == data[start:end]


def test_reingesting_an_export_adds_nothing(paths: HomePaths, tmp_path: Path) -> None:
    export = write(tmp_path, EXPORT.read_bytes()[:-40])  # with a broken tail, too
    first = ingest(paths, [export])
    quarantine = sorted(p.read_bytes() for p in paths.quarantine.iterdir())
    again = ingest(paths, [export])
    assert first.added > 0 and (again.added, again.duplicates) == (0, first.added)
    assert again.quarantined == [] and again.exit_code == 0  # nothing new: a re-ingest is quiet
    assert [str(q) for q in again.already_quarantined] == [str(q) for q in first.quarantined]
    assert again.quarantine_note == f"{len(first.quarantined)} lines already quarantined"
    assert sorted(p.read_bytes() for p in paths.quarantine.iterdir()) == quarantine


def test_progress_counts_every_byte(tmp_path: Path) -> None:
    from core.conversation import chatgpt

    export = write(tmp_path, b"\xef\xbb\xbf" + EXPORT.read_bytes() + b"  \n")
    steps: list[int] = []
    list(chatgpt.read(export, steps.append))
    assert sum(steps) == export.stat().st_size and all(step > 0 for step in steps)
