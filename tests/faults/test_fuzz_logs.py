"""Fuzz every conversation loader: day-log lines, generic JSONL, Claude Code transcripts and ChatGPT
exports. Every input ends in turns, skipped records and rejected lines (each with a one-line reason), or
a one-line error naming the file; never a traceback, a hang, or a turn the log could not read back; and
an ingest never leaves a partial line behind.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from core.conversation import chatgpt, claude_code, generic, ingest, list_day_files, read_day
from core.conversation.items import Rejected, Skipped
from core.conversation.store import parse_line, turn_line
from core.errors import ReverieError
from core.paths import HomePaths
from core.turns import Turn, TurnError
from tests.faults.fuzzing import FUZZ, JSON, TEXT, assert_one_line, drop_some, maybe, within

TS = st.one_of(st.sampled_from(["2026-03-01T09:00:00Z", "2026-03-01T09:00:00+09:00", "2025-12-31T23:59:59.999999Z",
                                "1970-01-01T00:00:00Z", "0001-01-01T00:00:00Z", "2026-02-30T00:00:00Z",
                                "2026-03-01 09:00", "9999-12-31T23:59:59-12:00"]), TEXT)


def _check_items(items: list[Any], path: Path) -> list[Turn]:
    turns = []
    for item in items:
        if isinstance(item, Turn):
            line = turn_line(item).encode("utf-8")
            assert parse_line(line) == item, f"{item!r} does not read back from the log"
            turns.append(item)
        elif isinstance(item, Rejected):
            assert_one_line(ValueError(item.reason))
            assert item.line >= 1
        else:
            assert isinstance(item, Skipped), item
            assert_one_line(ValueError(item.reason))
    return turns


def _read_all(reader: Any, content: bytes, name: str) -> list[Turn]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        path.write_bytes(content)
        with within(what=f"{reader.__module__}.read"):
            items = list(reader(path, None))
        return _check_items(items, path)


# --- day-log lines -------------------------------------------------------------------------------------

LOG_FIELDS = {"id": TEXT, "ts": TS, "actor": TEXT, "role": st.sampled_from(["user", "assistant", "system", "bot"]),
              "type": st.sampled_from(["text", "action", "meta", "x"]), "text": TEXT, "model": st.none() | TEXT,
              "session": TEXT, "source": TEXT}


@st.composite
def log_line(draw: st.DrawFn) -> bytes:
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return draw(st.binary(max_size=200)).replace(b"\n", b" ")
    obj = {k: draw(maybe(v)) for k, v in LOG_FIELDS.items()}
    obj = drop_some(draw, obj) if kind == 2 else obj
    if kind == 3:
        obj[draw(TEXT)] = draw(JSON)
    return json.dumps(obj, ensure_ascii=draw(st.booleans())).encode("utf-8", "surrogatepass")


@FUZZ
@given(st.lists(log_line(), max_size=12), st.booleans())
def test_day_log_lines(lines: list[bytes], terminated: bool) -> None:
    content = b"\n".join(lines) + (b"\n" if terminated and lines else b"")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "2026-03-01.jsonl"
        path.write_bytes(content)
        with within(what="read_day"):
            reading = read_day(path)
        for bad in reading.bad_lines:
            assert_one_line(ValueError(str(bad)), str(path))
        assert len(reading.turns) + len(reading.bad_lines) == content.count(b"\n") + (not content.endswith(b"\n")
                                                                                       and bool(content))
        for line in lines:
            try:
                parse_line(line)
            except (TurnError, UnicodeDecodeError) as exc:
                assert_one_line(exc)


# --- generic JSONL -------------------------------------------------------------------------------------

GENERIC_FIELDS = {"ts": st.one_of(TS, st.integers(-(2**40), 2**40), st.floats()), "role": LOG_FIELDS["role"],
                  "text": TEXT, "actor": TEXT, "session": TEXT, "model": TEXT, "id": st.one_of(TEXT, st.integers()),
                  "type": LOG_FIELDS["type"]}


@st.composite
def generic_line(draw: st.DrawFn) -> bytes:
    if draw(st.integers(0, 5)) == 0:
        return draw(st.binary(max_size=120)).replace(b"\n", b" ")
    obj = drop_some(draw, {k: draw(maybe(v)) for k, v in GENERIC_FIELDS.items()})
    return json.dumps(obj).encode("utf-8", "surrogatepass")


@FUZZ
@given(st.lists(generic_line(), max_size=10))
def test_generic_jsonl(lines: list[bytes]) -> None:
    _read_all(generic.read, b"\n".join(lines) + b"\n", "chat.jsonl")


# --- Claude Code ---------------------------------------------------------------------------------------

BLOCK_TYPES = st.sampled_from(["text", "tool_use", "tool_result", "thinking", "redacted_thinking", "image",
                               "server_tool_use", "web_search_tool_result", "document", "weird"])


@st.composite
def cc_block(draw: st.DrawFn) -> Any:
    block: dict[str, Any] = {"type": draw(maybe(BLOCK_TYPES)), "text": draw(maybe(TEXT)), "id": draw(TEXT),
                             "name": draw(maybe(TEXT)), "input": draw(JSON), "thinking": draw(maybe(TEXT)),
                             "tool_use_id": draw(TEXT), "is_error": draw(maybe(st.booleans())),
                             "content": draw(st.one_of(TEXT, st.lists(st.fixed_dictionaries(
                                 {"type": maybe(st.sampled_from(["text", "image"])), "text": maybe(TEXT)}),
                                 max_size=3), JSON))}
    return drop_some(draw, block)


@st.composite
def cc_record(draw: st.DrawFn) -> Any:
    if draw(st.integers(0, 9)) == 0:
        return draw(JSON)
    message = drop_some(draw, {"role": draw(maybe(st.sampled_from(["user", "assistant"]))),
                               "model": draw(maybe(TEXT)),
                               "content": draw(st.one_of(TEXT, st.lists(cc_block(), max_size=4), JSON))})
    record = {"type": draw(maybe(st.sampled_from([*claude_code.RECORD_TYPES, "other"]))), "uuid": draw(maybe(TEXT)),
              "parentUuid": draw(maybe(TEXT)), "timestamp": draw(maybe(TS)), "sessionId": draw(maybe(TEXT)),
              "message": draw(maybe(st.just(message))), "isMeta": draw(maybe(st.booleans())),
              "isSidechain": draw(maybe(st.booleans())), "agentId": draw(maybe(TEXT)),
              "content": draw(maybe(TEXT)), "subtype": draw(maybe(TEXT)),
              "data": draw(maybe(st.just({"type": "agent_progress", "message": {"type": "assistant",
                                                                                 "message": message}})))}
    return drop_some(draw, record)


@FUZZ
@given(st.lists(cc_record(), max_size=8), st.lists(st.binary(max_size=60), max_size=2))
def test_claude_code_transcripts(records: list[Any], garbage: list[bytes]) -> None:
    lines = [json.dumps(r).encode("utf-8", "surrogatepass") for r in records]
    lines += [g.replace(b"\n", b" ") for g in garbage]
    _read_all(claude_code.read, b"\n".join(lines) + b"\n", "11111111-1111-4111-8111-111111111111.jsonl")


# --- ChatGPT -------------------------------------------------------------------------------------------


@st.composite
def chatgpt_conversation(draw: st.DrawFn) -> Any:
    ids = draw(st.lists(st.sampled_from(["root", "a", "b", "c", "d", "e"]), min_size=1, max_size=6, unique=True))
    mapping: dict[str, Any] = {}
    for nid in ids:
        parts = draw(st.lists(st.one_of(TEXT, JSON), max_size=3))
        message = drop_some(draw, {
            "id": nid, "author": draw(maybe(st.fixed_dictionaries({"role": maybe(st.sampled_from(
                ["user", "assistant", "tool", "system", "critic"])), "name": maybe(TEXT)}))),
            "create_time": draw(maybe(st.one_of(st.none(), st.floats(), st.integers(-(2**40), 2**40)))),
            "content": draw(maybe(st.fixed_dictionaries({"content_type": maybe(st.sampled_from(
                ["text", "code", "multimodal_text", "thoughts", "user_editable_context", "odd"])),
                "parts": maybe(st.just(parts)), "text": maybe(TEXT)}))),
            "metadata": draw(maybe(st.fixed_dictionaries({"model_slug": maybe(TEXT),
                                                          "is_visually_hidden_from_conversation": maybe(
                                                              st.booleans())}))),
            "recipient": draw(maybe(st.sampled_from(["all", "python", "browser"])))})
        # Links may point anywhere, cycles included: a tree is what the format promises, not what arrives.
        mapping[nid] = drop_some(draw, {"id": nid, "message": draw(maybe(st.just(message))),
                                        "parent": draw(st.one_of(st.none(), st.sampled_from(ids), TEXT)),
                                        "children": draw(st.lists(st.one_of(st.sampled_from(ids), TEXT),
                                                                  max_size=3))})
    return drop_some(draw, {"id": draw(maybe(TEXT)), "title": draw(maybe(TEXT)),
                            "create_time": draw(maybe(st.floats())), "update_time": draw(maybe(st.floats())),
                            "current_node": draw(maybe(st.one_of(st.sampled_from(ids), TEXT))),
                            "mapping": draw(maybe(st.just(mapping)))})


@FUZZ
@given(st.one_of(st.lists(chatgpt_conversation(), max_size=3), chatgpt_conversation(), JSON), st.booleans(),
       st.booleans())
def test_chatgpt_exports(document: Any, pretty: bool, escaped: bool) -> None:
    """Lone surrogates arrive both as ``\\ud800`` escapes and as raw (invalid UTF-8) bytes."""
    text = json.dumps(document, indent=1 if pretty else None, ensure_ascii=escaped)
    _read_all(chatgpt.read, text.encode("utf-8", "surrogatepass"), "conversations.json")


def test_a_chatgpt_node_with_a_lone_surrogate_is_rejected_not_a_traceback() -> None:
    node = {"id": "a", "parent": None, "children": [], "message": "\ud800"}
    document = [{"id": "c1", "title": "t", "create_time": 0.0, "current_node": "a", "mapping": {"a": node}}]
    turns = _read_all(chatgpt.read, json.dumps(document).encode("ascii"), "conversations.json")
    assert turns == []


@FUZZ
@given(st.binary(max_size=300))
def test_chatgpt_export_bytes(data: bytes) -> None:
    _read_all(chatgpt.read, data, "conversations.json")


# --- ingest end to end ---------------------------------------------------------------------------------


@FUZZ
@given(st.sampled_from(["generic", "claude-code", "auto"]), st.lists(st.one_of(generic_line(), cc_record().map(
    lambda r: json.dumps(r).encode("utf-8", "surrogatepass"))), min_size=1, max_size=8), st.booleans())
def test_an_ingest_of_anything_writes_only_whole_turns(fmt: str, lines: list[bytes], terminated: bool) -> None:
    content = b"\n".join(lines) + (b"\n" if terminated else b"")
    with tempfile.TemporaryDirectory() as tmp:
        paths = HomePaths(root=Path(tmp) / "home", cache=Path(tmp) / "cache")
        source = Path(tmp) / "input.jsonl"
        source.write_bytes(content)
        try:
            with within(what="ingest"):
                report = ingest(paths, [source], fmt)
        except ReverieError as exc:
            assert_one_line(exc, str(source), "input.jsonl", "--format")
            report = None
        stored = 0
        for day in list_day_files(paths):
            reading = read_day(day.path)
            assert not reading.bad_lines and not reading.incomplete_tail, reading.bad_lines
            stored += len(reading.turns)
        if report is not None:
            assert stored == report.added
            for entry in report.quarantined:
                assert_one_line(ValueError(str(entry)), str(source))
            again = ingest(paths, [source], fmt)
            assert again.added == 0
