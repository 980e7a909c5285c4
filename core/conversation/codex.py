"""Codex CLI session files ("rollouts"): ``~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl``,
in the current shape (every line ``{"timestamp", "type", "payload"}``) and the legacy one of the early
Rust CLI (a header ``{"id", "timestamp", "instructions"?}``, then bare response items and ``state``
lines).

Codex stores no item id, so a turn's ``id`` is ``<session>:<line>:<content block>``: rollouts are
append-only, so re-reading a grown file adds only the new turns. ``source`` is ``codex:<path>``;
``session`` the ``session_meta`` (or header) id, else the file name's uuid; ``model`` the latest
``turn_context.model`` (or ``session_meta.model``) seen so far. How each line is read:
:meth:`_Rollout.record`. Malformed records are rejected naming the field and quarantined with their line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from core.conversation.items import ImportItem, Malformed, Progress, Rejected, Skipped, make_turn, one_line
from core.conversation.lines import iter_lines, json_line
from core.turns import Turn, TurnError

NAME = "codex"
ACTOR = "codex"
ROLLOUT_TYPES = ("session_meta", "response_item", "event_msg", "turn_context", "compacted")
ITEM_TYPES = (
    "message", "reasoning", "local_shell_call", "function_call", "function_call_output", "custom_tool_call",
    "custom_tool_call_output", "web_search_call", "ghost_snapshot", "compaction", "compaction_summary",
)
# Start and end markers of the context Codex injects as ``user`` messages (codex-rs
# core/src/context/*, and the frozen legacy list in thread-store's rollout migration).
_CONTEXT_MARKERS = (
    ("# AGENTS.md instructions", "</INSTRUCTIONS>"),
    ("<user_instructions>", "</user_instructions>"),
    ("<environment_context>", "</environment_context>"),
    ("<skill>", "</skill>"),
    ("<turn_aborted>", "</turn_aborted>"),
    ("<subagent_notification>", "</subagent_notification>"),
    ("<recommended_plugins>", "</recommended_plugins>"),
    ("<goal_context>", "</goal_context>"),
    ("<codex_internal_context", "</codex_internal_context>"),
)
_SHELL_MARKERS = ("<user_shell_command>", "</user_shell_command>")
_ECHOED_EVENTS = {
    "user_message": "the same text as its response_item message",
    "agent_message": "the same text as its response_item message",
    "agent_reasoning": "the same text as its reasoning item",
    "agent_reasoning_raw_content": "the same text as its reasoning item",
    "token_count": "usage bookkeeping",
}
_FILE_UUID = re.compile(r"([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\.jsonl?\Z")


def _skip(reason: str) -> Skipped:
    return Skipped(f"{NAME}: {reason}")


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _kind(value: Any) -> str:
    return one_line(str(value), 40)


def injected_kind(text: str) -> str | None:
    """``"shell"`` for a ``<user_shell_command>`` block, ``"context"`` for other context Codex injects
    as a user message, ``None`` for what the person typed."""
    stripped = text.strip()
    if stripped.startswith(_SHELL_MARKERS[0]) and stripped.endswith(_SHELL_MARKERS[1]):
        return "shell"
    if any(stripped.startswith(start) and stripped.endswith(end) for start, end in _CONTEXT_MARKERS):
        return "context"
    return None


def render_output(output: Any) -> tuple[str, bool]:
    """A tool output as text, and whether Codex marked it a failure. Outputs are a string, a list of
    content items (newer) or ``{"content": ..., "success": ...}`` (older, and failures)."""
    failed = False
    if isinstance(output, dict):
        failed = output.get("success") is False
        output = output.get("content", output.get("content_items", output))
    if isinstance(output, str):
        return output, failed
    if isinstance(output, list):
        parts = []
        for item in output:
            if isinstance(item, str):
                parts.append(item)
            elif isinstance(item, dict) and isinstance(item.get("text"), str):
                parts.append(item["text"])
            elif isinstance(item, dict) and str(item.get("type", "")).endswith("image"):
                parts.append(f"[{item.get('type')}]")
            else:
                parts.append(_json(item))
        return "\n".join(parts), failed
    return ("" if output is None else _json(output)), failed


class _Rollout:
    """What the records of one file share: its session, the current model, the legacy header's time."""

    def __init__(self, path: Path, latest: str | None = None) -> None:
        self.source = f"{NAME}:{path}"
        self.latest = latest
        match = _FILE_UUID.search(path.name)
        self.fallback_session = match.group(1) if match else path.stem
        self.session: str | None = None
        self.model: str | None = None
        self.header_ts: str | None = None

    def turn(self, line: int, index: int, ts: str, *, role: str, actor: str, kind: str, text: str,
             model: str | None = None) -> Turn:
        session = self.session or self.fallback_session
        try:
            return make_turn(id=f"{session}:{line}:{index}", ts=ts, actor=actor, role=role, type=kind, text=text,
                             model=model, session=session, source=self.source, latest=self.latest)
        except TurnError as exc:
            raise Malformed(str(exc)) from exc

    @property
    def assistant(self) -> str:
        return self.model or "assistant"

    # -- records ---------------------------------------------------------------------------------

    def record(self, record: Any, line: int) -> Iterator[ImportItem]:
        """The items of one parsed line.

        - ``user`` messages: ``input_text`` → ``text`` by ``user``, except the context Codex injects as
          user messages (``<environment_context>``, ``# AGENTS.md instructions``, ``<skill>``…
          recognised by their start and end markers) → ``meta`` by ``codex``; ``<user_shell_command>``
          → ``action`` by the person. ``assistant``: ``output_text`` → ``text``, actor = model.
          ``developer``/``system`` → ``meta``, role ``system``.
        - Tool calls → ``action`` ``<tool name> <arguments>`` of the assistant; their outputs →
          ``action``, role ``user``, actor ``codex``, ``[error] `` first on a failure.
        - Readable ``reasoning``, ``compacted`` summaries, header or ``session_meta`` ``instructions``
          and a finished review (``exited_review_mode``) → ``meta``.
        - Skipped and counted by reason: ``event_msg`` records that repeat a response item and other UI
          events, bookkeeping (``turn_context``, ``session_meta``, legacy ``state``), images, encrypted
          reasoning, ghost snapshots, empty blocks, unknown types.
        """
        if not isinstance(record, dict):
            raise Malformed(f"not a JSON object (got {type(record).__name__})")
        kind = record.get("type")
        if kind in ROLLOUT_TYPES and "payload" in record:
            ts = record.get("timestamp")
            if not isinstance(ts, str):
                raise Malformed(f"timestamp: {'missing' if ts is None else 'not a string'}")
            payload = record["payload"]
            if not isinstance(payload, dict):
                raise Malformed("payload: not an object")
            yield from getattr(self, f"_{kind}")(payload, ts, line)
        elif "payload" in record and isinstance(kind, str) and "timestamp" in record:
            yield _skip(f"rollout record of type {_kind(kind)}")
        elif record.get("record_type") == "state":
            yield _skip("legacy state record (response id bookkeeping)")
        elif kind is None and "id" in record and "timestamp" in record:
            yield from self._header(record, line)
        elif isinstance(kind, str):
            ts = record.get("timestamp", self.header_ts)
            if not isinstance(ts, str):
                raise Malformed("timestamp: missing (a bare item with no session header before it)")
            yield from self._item(record, ts, line)
        else:
            raise Malformed("type: missing" if kind is None else "type: not a string")

    def _start(self, session: Any, ts: str, line: int, instructions: Any, field: str) -> Iterator[ImportItem]:
        if not isinstance(session, str) or not session:
            raise Malformed(f"{field}: {'missing' if session is None else 'not a non-empty string'}")
        if self.session is not None and session != self.session:
            yield _skip("session start of another session (copied history; its turns keep the file's first session)")
            return
        self.session = session
        if isinstance(instructions, str) and instructions.strip():
            yield self.turn(line, 0, ts, role="system", actor=ACTOR, kind="meta", text=instructions)

    def _header(self, record: dict[str, Any], line: int) -> Iterator[ImportItem]:
        ts = record["timestamp"]
        if not isinstance(ts, str):
            raise Malformed("timestamp: not a string")
        self.header_ts = ts
        yield from self._start(record["id"], ts, line, record.get("instructions"), "id")
        yield _skip("legacy session header (session id and time)")

    def _session_meta(self, payload: dict[str, Any], ts: str, line: int) -> Iterator[ImportItem]:
        if isinstance(payload.get("model"), str) and payload["model"]:
            self.model = payload["model"]
        yield from self._start(payload.get("id"), ts, line, payload.get("instructions"), "payload.id")
        if payload.get("base_instructions"):
            yield _skip("session_meta base_instructions (Codex's own system prompt)")
        yield _skip("session_meta record (session id, cwd, versions)")

    def _turn_context(self, payload: dict[str, Any], ts: str, line: int) -> Iterator[ImportItem]:
        if isinstance(payload.get("model"), str) and payload["model"]:
            self.model = payload["model"]
        yield _skip("turn_context record (model and policies)")

    def _compacted(self, payload: dict[str, Any], ts: str, line: int) -> Iterator[ImportItem]:
        message = payload.get("message")
        if isinstance(message, str) and message.strip():
            yield self.turn(line, 0, ts, role="system", actor=ACTOR, kind="meta", text=message)
        else:
            yield _skip("compacted record without a summary")
        if payload.get("replacement_history"):
            yield _skip("compacted replacement_history (copies of earlier items)")

    def _event_msg(self, payload: dict[str, Any], ts: str, line: int) -> Iterator[ImportItem]:
        kind = payload.get("type")
        if kind in _ECHOED_EVENTS:
            yield _skip(f"event_msg {kind} ({_ECHOED_EVENTS[kind]})")
        elif kind == "exited_review_mode" and payload.get("review_output"):
            review = payload["review_output"]
            yield self.turn(line, 0, ts, role="assistant", actor=self.assistant, kind="meta",
                            text=review if isinstance(review, str) else _json(review), model=self.model)
        else:
            yield _skip(f"event_msg {_kind(kind)}")

    def _response_item(self, payload: dict[str, Any], ts: str, line: int) -> Iterator[ImportItem]:
        yield from self._item(payload, ts, line)

    # -- response items --------------------------------------------------------------------------

    def _item(self, item: dict[str, Any], ts: str, line: int) -> Iterator[ImportItem]:
        kind = item.get("type")
        if kind == "message":
            yield from self._message(item, ts, line)
        elif kind == "reasoning":
            yield from self._reasoning(item, ts, line)
        elif kind in ("function_call", "custom_tool_call"):
            name = item.get("name") or "tool"
            arguments = item.get("arguments" if kind == "function_call" else "input", "")
            text = f"{name} {arguments if isinstance(arguments, str) else _json(arguments)}"
            yield self.turn(line, 0, ts, role="assistant", actor=self.assistant, kind="action", text=text,
                            model=self.model)
        elif kind in ("local_shell_call", "web_search_call"):
            name = "local_shell" if kind == "local_shell_call" else "web_search"
            yield self.turn(line, 0, ts, role="assistant", actor=self.assistant, kind="action",
                            text=f"{name} {_json(item.get('action', {}))}", model=self.model)
        elif kind in ("function_call_output", "custom_tool_call_output"):
            if "output" not in item:
                raise Malformed("output: missing")
            text, failed = render_output(item["output"])
            if not text.strip():
                yield _skip(f"empty {kind}")
                return
            yield self.turn(line, 0, ts, role="user", actor=ACTOR, kind="action",
                            text=("[error] " + text) if failed else text)
        elif kind == "ghost_snapshot":
            yield _skip("ghost_snapshot item (a git snapshot for undo)")
        elif kind in ("compaction", "compaction_summary"):
            yield _skip(f"{kind} item (encrypted)")
        else:
            yield _skip(f"response item of type {_kind(kind)}")

    def _message(self, item: dict[str, Any], ts: str, line: int) -> Iterator[ImportItem]:
        role = item.get("role")
        content = item.get("content")
        if isinstance(content, str):
            content = [{"type": "input_text" if role == "user" else "output_text", "text": content}]
        if not isinstance(content, list):
            raise Malformed(f"content: {'missing' if content is None else 'not a list'}")
        if role not in ("user", "assistant", "developer", "system"):
            yield _skip(f"message with role {_kind(role)}")
            return
        for index, block in enumerate(content):
            kind = block.get("type") if isinstance(block, dict) else None
            text = block.get("text") if isinstance(block, dict) else None
            if kind not in ("input_text", "output_text", "text"):
                yield _skip(f"{_kind(kind)} block (binary, not stored)" if "image" in str(kind) else
                            f"message block of type {_kind(kind)}")
                continue
            if not isinstance(text, str) or not text.strip():
                yield _skip("empty text block")
                continue
            if role == "assistant":
                yield self.turn(line, index, ts, role="assistant", actor=self.assistant, kind="text", text=text,
                                model=self.model)
            elif role in ("developer", "system"):
                yield self.turn(line, index, ts, role="system", actor=ACTOR, kind="meta", text=text)
            else:
                injected = injected_kind(text)
                if injected == "context":
                    yield self.turn(line, index, ts, role="user", actor=ACTOR, kind="meta", text=text)
                else:
                    yield self.turn(line, index, ts, role="user", actor="user",
                                    kind="action" if injected == "shell" else "text", text=text)

    def _reasoning(self, item: dict[str, Any], ts: str, line: int) -> Iterator[ImportItem]:
        parts = []
        for key in ("summary", "content"):
            blocks = item.get(key)
            for block in blocks if isinstance(blocks, list) else []:
                if isinstance(block, dict) and isinstance(block.get("text"), str) and block["text"].strip():
                    parts.append(block["text"])
        if parts:
            yield self.turn(line, 0, ts, role="assistant", actor=self.assistant, kind="meta",
                            text="\n\n".join(parts), model=self.model)
        else:
            yield _skip("reasoning item without readable text (encrypted)")


def read(path: Path, progress: Progress | None = None, *, latest: str | None = None) -> Iterator[ImportItem]:
    rollout = _Rollout(path, latest)
    for raw in iter_lines(path, progress=progress):
        value = json_line(raw)
        if isinstance(value, Rejected | Skipped):
            yield value
            continue
        try:
            items = list(rollout.record(value, raw.number))  # a record is imported whole or not at all
        except Malformed as exc:
            yield Rejected(raw.number, str(exc), raw=raw.data)
            continue
        yield from items


def looks_like(record: Any) -> bool:
    """Whether one parsed line is plainly part of a Codex rollout (for format detection): a current
    ``{"timestamp", "type", "payload"}`` line, a legacy header, a legacy ``state`` line or a bare item."""
    if not isinstance(record, dict):
        return False
    kind = record.get("type")
    if kind in ROLLOUT_TYPES:
        return "payload" in record and "timestamp" in record
    if kind is None:
        if record.get("record_type") == "state":
            return True
        return set(record) <= {"id", "timestamp", "instructions"} and {"id", "timestamp"} <= set(record)
    return kind in ITEM_TYPES and ("role" in record or "call_id" in record or "summary" in record)
