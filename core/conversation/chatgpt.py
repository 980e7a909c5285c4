"""ChatGPT data exports: ``conversations.json`` (a list of conversations) or one conversation object.

Each conversation is a tree in ``mapping``. The visible thread (``current_node`` up through
``parent``, else from the latest leaf) is session ``<conversation id>``; other branches (edited
prompts, regenerated answers) are sessions ``<conversation id>#branch-<first node id>``. A turn's
``id`` is its node id, ``source`` ``chatgpt:<path>``; a null time inherits the nearest ancestor's,
then the conversation's. Tools, system and hidden messages are ``action`` or ``meta``; empty messages
are skipped and counted. A malformed conversation is rejected with the line where it starts, the
others are imported. The file is streamed a conversation at a time (:mod:`core.conversation.json_stream`);
one over ``MAX_CONVERSATION_BYTES`` is quarantined unparsed.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core.conversation import json_stream
from core.conversation.items import ImportItem, Malformed, Progress, Rejected, Skipped, make_turn, one_line
from core.turns import TurnError, format_ts

NAME = "chatgpt"
# Reading a conversation peaks at about 5x its bytes (text, objects, turns: 330 MiB for 63 MiB), and
# one of thousands of long messages is a few MiB. One over this is copied to the quarantine, not parsed.
MAX_CONVERSATION_BYTES = 64 * 1024 * 1024
_INLINE_BYTES = 1024 * 1024  # a rejected conversation up to this size is kept inline in the quarantine
_META_CONTENT = ("thoughts", "reasoning_recap", "user_editable_context", "model_editable_context")


def _skip(reason: str) -> Skipped:
    return Skipped(f"{NAME}: {reason}")


def _seconds(value: Any, what: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise Malformed(f"{what}: not a number of seconds")
    return float(value)


def _iso(seconds: float, what: str) -> str:
    try:
        return format_ts(datetime.fromtimestamp(seconds, UTC))
    except (OverflowError, OSError, ValueError) as exc:
        raise Malformed(f"{what}: {seconds!r} is out of range") from exc


def render_part(part: Any) -> str:
    if isinstance(part, str):
        return part
    if isinstance(part, dict):
        if isinstance(part.get("text"), str):
            return part["text"]
        pointer = part.get("asset_pointer")
        if isinstance(pointer, str):
            return f"[{part.get('content_type') or 'asset'} {pointer}]"
    return json.dumps(part, ensure_ascii=False)


def render_content(content: dict[str, Any]) -> str:
    kind = content.get("content_type")
    parts = content.get("parts")
    if isinstance(parts, list):
        return "\n".join(text for text in (render_part(part) for part in parts) if text)
    if isinstance(content.get("text"), str):
        return content["text"]
    if kind == "thoughts" and isinstance(content.get("thoughts"), list):
        return "\n\n".join(
            "\n".join(str(t.get(key)) for key in ("summary", "content") if isinstance(t, dict) and t.get(key))
            for t in content["thoughts"]
        ).strip()
    if kind == "reasoning_recap" and isinstance(content.get("content"), str):
        return content["content"]
    if kind == "user_editable_context":
        return "\n".join(str(content[key]) for key in ("user_profile", "user_instructions") if content.get(key))
    return json.dumps({k: v for k, v in content.items() if k != "content_type"}, ensure_ascii=False)


class _Conversation:
    def __init__(self, conv: Any, source: str, latest: str | None = None) -> None:
        self.latest = latest  # see ``make_turn``
        if not isinstance(conv, dict):
            raise Malformed(f"not a conversation object (got {type(conv).__name__})")
        mapping = conv.get("mapping")
        if not isinstance(mapping, dict):
            raise Malformed("mapping: missing" if mapping is None else "mapping: not an object")
        ident = conv.get("id") or conv.get("conversation_id")
        if not isinstance(ident, str) or not ident:
            raise Malformed("id: missing (neither 'id' nor 'conversation_id')")
        self.id = ident
        self.source = source
        self.mapping: dict[str, Any] = mapping
        self.start = _seconds(conv.get("create_time"), "create_time")
        if self.start is None:
            self.start = _seconds(conv.get("update_time"), "update_time")
        self.current = conv.get("current_node")

    def parent(self, nid: str) -> str | None:
        node = self.mapping.get(nid)
        parent = node.get("parent") if isinstance(node, dict) else None
        return parent if isinstance(parent, str) and parent in self.mapping and parent != nid else None

    def children(self, nid: str) -> list[str]:
        node = self.mapping.get(nid)
        kids = node.get("children") if isinstance(node, dict) else None
        if not isinstance(kids, list):
            return []
        return [kid for kid in kids if isinstance(kid, str) and self.parent(kid) == nid]

    def _time(self, nid: str) -> float | None:
        node = self.mapping.get(nid)
        message = node.get("message") if isinstance(node, dict) else None
        if not isinstance(message, dict):
            return None
        try:
            return _seconds(message.get("create_time"), "create_time")
        except Malformed:
            return None

    def visible(self) -> set[str]:
        current = self.current if isinstance(self.current, str) and self.current in self.mapping else None
        if current is None:
            leaves = [nid for nid in self.mapping if not self.children(nid)]
            if leaves:
                current = max(leaves, key=lambda nid: (self._time(nid) or -math.inf))
        path: set[str] = set()
        while current is not None and current not in path:
            path.add(current)
            current = self.parent(current)
        return path

    def walk(self) -> Iterator[tuple[str, str, float | None]]:
        """(node id, session, inherited time) for each reachable node, depth first, children in order."""
        visible = self.visible()
        roots = [nid for nid in self.mapping if self.parent(nid) is None]
        seen: set[str] = set()
        stack: list[tuple[str, str, float | None]] = []
        for root in reversed(roots):
            session = self.id if root in visible else f"{self.id}#branch-{root}"
            stack.append((root, session, self.start))
        while stack:
            nid, session, inherited = stack.pop()
            if nid in seen:
                continue
            seen.add(nid)
            yield nid, session, inherited
            own = self._time(nid)
            time = own if own is not None else inherited
            kids = self.children(nid)
            pushes = []
            for position, kid in enumerate(kids):
                if kid in visible:
                    kid_session = self.id
                elif nid in visible or position != len(kids) - 1:
                    kid_session = f"{self.id}#branch-{kid}"
                else:
                    kid_session = session
                pushes.append((kid, kid_session, time))
            stack.extend(reversed(pushes))
        for nid in self.mapping:
            if nid not in seen:
                yield nid, "", None  # unreachable: reported by the caller


def _role(message: dict[str, Any], content: dict[str, Any]) -> tuple[str, str, str, str | None] | None:
    """(role, actor, type, model) for a message, or ``None`` for an author role we do not know."""
    author = message.get("author")
    role = author.get("role") if isinstance(author, dict) else None
    if not isinstance(role, str):
        raise Malformed("message.author.role: missing")
    metadata = message.get("metadata") if isinstance(message.get("metadata"), dict) else {}
    model = metadata.get("model_slug") if isinstance(metadata.get("model_slug"), str) else None
    hidden = metadata.get("is_visually_hidden_from_conversation") is True
    meta = hidden or content.get("content_type") in _META_CONTENT
    recipient = message.get("recipient")
    if role == "user":
        return "user", "user", "meta" if meta else "text", None
    if role == "assistant":
        kind = "meta" if meta else ("action" if recipient not in (None, "all") else "text")
        return "assistant", model or "assistant", kind, model
    if role == "tool":
        name = author.get("name") if isinstance(author, dict) else None
        return "assistant", f"tool:{name}" if isinstance(name, str) and name else "tool", "action", model
    if role == "system":
        return "system", "system", "meta", None
    return None


def _node_item(conv: _Conversation, nid: str, session: str, inherited: float | None) -> ImportItem:
    node = conv.mapping[nid]
    if not isinstance(node, dict):
        raise Malformed("node is not an object")
    message = node.get("message")
    if message is None:
        return _skip("node without a message (root placeholder)")
    if not isinstance(message, dict):
        raise Malformed("message: not an object")
    content = message.get("content")
    if not isinstance(content, dict):
        raise Malformed("message.content: missing" if content is None else "message.content: not an object")
    who = _role(message, content)
    if who is None:
        author = message.get("author")
        role = author.get("role") if isinstance(author, dict) else None
        return _skip(f"message with author role {one_line(repr(role), 30)}")
    text = render_content(content)
    if not text.strip():
        return _skip("empty message (placeholder parts)")
    own = _seconds(message.get("create_time"), "message.create_time")
    seconds = own if own is not None else inherited
    if seconds is None:
        raise Malformed("message.create_time: null, and no earlier message or conversation time to inherit")
    role, actor, kind, model = who
    try:
        return make_turn(id=nid, ts=_iso(seconds, "message.create_time"), actor=actor, role=role, type=kind,
                         text=text, model=model, session=session, source=conv.source, latest=conv.latest)
    except TurnError as exc:
        raise Malformed(str(exc)) from exc


def conversation_items(value: Any, source: str, line: int, latest: str | None = None) -> Iterator[ImportItem]:
    """Turns, skips and node-level rejections of one conversation; ``Malformed`` if it is not one."""
    conv = _Conversation(value, source, latest)

    def rejected(nid: str, why: str) -> Rejected:
        raw = json.dumps(conv.mapping[nid], ensure_ascii=False).encode("utf-8", "surrogatepass")
        return Rejected(line, f"conversation {one_line(conv.id, 60)} node {one_line(nid, 60)}: {why}", raw=raw)

    for nid, session, inherited in conv.walk():
        if not session:
            yield rejected(nid, "not reachable from a root (broken parent links)")
            continue
        try:
            yield _node_item(conv, nid, session, inherited)
        except Malformed as exc:
            yield rejected(nid, str(exc))


def _rejected(path: Path, line: int, reason: str, start: int, end: int) -> Rejected:
    """A whole conversation's bytes: inline when small, else copied from the file by the quarantine."""
    if end - start > _INLINE_BYTES:
        return Rejected(line, reason, span=(start, end))
    with path.open("rb") as handle:
        handle.seek(start)
        return Rejected(line, reason, raw=handle.read(end - start))


def read(path: Path, progress: Progress | None = None, *, latest: str | None = None) -> Iterator[ImportItem]:
    source = f"{NAME}:{path}"
    size = path.stat().st_size
    reported = 0
    for element in json_stream.elements(path, MAX_CONVERSATION_BYTES, noun="conversation"):
        if isinstance(element, json_stream.Broken):
            yield Rejected(element.line, element.reason, span=(element.start, element.end))
        else:
            try:
                items = list(conversation_items(element.value, source, element.line, latest))
            except Malformed as exc:
                why = f"conversation {element.number}: {exc}"
                items = [_rejected(path, element.line, why, element.start, element.end)]
            yield from items
        if progress is not None and element.end > reported:
            progress(element.end - reported)
            reported = element.end
    if progress is not None and size > reported:
        progress(size - reported)


def looks_like(value: Any) -> bool:
    """Whether a parsed JSON value is plainly a ChatGPT export (for format detection)."""
    if isinstance(value, list):
        return bool(value) and isinstance(value[0], dict) and "mapping" in value[0]
    return isinstance(value, dict) and "mapping" in value
