"""Claude Code JSONL transcripts (``~/.claude/projects/<project>/<session>.jsonl`` and subagent files
``<session>/subagents/agent-<id>.jsonl``), read as a person reads them: what the person said is
``text`` by actor ``user``; what tools, commands and Claude Code itself produced is ``action`` or
``meta`` by actor ``claude-code``, so recall and ``context`` can keep to the conversation.

What becomes a turn (``id`` = ``<record uuid>:<content block index>``, ``source`` = ``claude-code:<path>``):

- ``user`` records: a string content or each ``text`` block → ``text`` turn, actor ``user``, unless
  the text is something Claude Code put there:

  - records Claude Code injects (``isMeta``, ``isCompactSummary``, ``isVisibleInTranscriptOnly``),
    text that opens with one of its wrappers (``<system-reminder>``, ``<local-command-caveat>``,
    the local-command caveat sentence, ``<user-prompt-submit-hook>``, ``<task-notification>``), the
    interruption notices (``[Request interrupted by user…]``) and compaction summaries ("This
    session is being continued from a previous conversation…") → ``meta``, actor ``claude-code``;
  - a slash command or ``!`` shell input the person typed (``<command-name>``, ``<bash-input>``) →
    ``action``, actor ``user`` (the person acted; the text is kept as typed);
  - the output of a local command (``<local-command-stdout>``/``-stderr>``, ``<bash-stdout>``/
    ``-stderr>``) and any record that carries a ``toolUseResult`` (a tool's output, whatever shape
    its content has: WebSearch and WebFetch results, file reads, shell output) → ``action``, actor
    ``claude-code``.

  Each ``tool_result`` block → ``action`` turn, actor ``claude-code``, text = the result content
  (text items joined, images as ``[image <type>]``), prefixed ``[error] `` when ``is_error``.
- ``assistant`` records (actor and ``model`` = ``message.model``, else ``assistant``): ``text`` blocks
  → ``text``; ``tool_use`` / ``server_tool_use`` → ``action`` with ``<tool name> <input JSON>``;
  other tool results (``web_search_tool_result``, ``advisor_tool_result``…) → ``action``;
  ``thinking`` → ``meta`` (the reasoning is kept, marked as such); API error messages → ``meta``.
- ``system`` records with text (``local_command`` output, compaction notices, API errors, away
  summaries...) → ``meta``, role ``system``, actor ``claude-code``.
- ``attachment`` records of type ``queued_command`` (a prompt the person typed while Claude was
  answering) → ``text`` turn, actor ``user``; every other attachment (hook output, file and memory
  context, reminders) is context Claude Code attached: skipped, counted by its type.
- ``progress`` records of type ``agent_progress`` carry a subagent's messages: imported like the
  records above, with the message's own uuid, so they deduplicate against the subagent's own file.

Sessions: ``sessionId``; a subagent's turns (sidechain records with an ``agentId``, and
``agent_progress`` messages) go to ``<sessionId>#agent-<agentId>`` so its thread reads on its own.

Session header. So that a session is shown with its project rather than only a UUID, the first
message record of each session in a file also gives one ``meta`` turn, role ``system``, actor
``claude-code``, id ``<session>:session``, at that record's time, with the text
``Claude Code session in <project> (<cwd>), branch <gitBranch>`` (the branch when recorded; a
subagent's reads ``Claude Code subagent <agentId> in …``). ``<project>`` is the last part of the
record's ``cwd``, else the name of the transcript's project folder. The index finds it by id and the
person's first prompt as the session's first ``text`` turn of actor ``user``
(``core.index.catalog.session_summaries``). A header is only made from a session's own records (not
from a parent's ``agent_progress`` copies), so the same file always gives the same header.

Everything else is counted as skipped with its reason: other progress events, file-history
snapshots, summaries, queue operations (the prompt arrives again as a ``user`` record), titles,
last-prompt copies, other attachments, empty text blocks, images, redacted thinking, system
records without text. Malformed records (not JSON, a missing ``uuid``, ``timestamp``,
``sessionId`` or ``message.content``, a time more than a day after the import) are rejected with
the field named. Checked against every record type of the published session schema (v2.1.144).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from core.conversation.items import ImportItem, Malformed, Progress, Rejected, Skipped, make_turn, one_line
from core.conversation.lines import iter_lines, json_line
from core.turns import Turn, TurnError

NAME = "claude-code"
ACTOR = "claude-code"
RECORD_TYPES = (
    "user", "assistant", "system", "summary", "file-history-snapshot", "queue-operation", "progress",
    "pr-link", "agent-name", "custom-title", "last-prompt", "attachment", "permission-mode", "ai-title",
    "agent-setting", "bridge-session", "worktree-state",
)
_NOT_TURNS = {
    "summary": "summary record (a generated title, no timestamp)",
    "file-history-snapshot": "file-history-snapshot record (file backups)",
    "queue-operation": "queue-operation record (prompt queue bookkeeping)",
    "pr-link": "pr-link record",
    "agent-name": "agent-name record",
    "custom-title": "custom-title record",
    "last-prompt": "last-prompt record (a copy of a prompt)",
    "permission-mode": "permission-mode record",
    "ai-title": "ai-title record",
    "agent-setting": "agent-setting record",
    "bridge-session": "bridge-session record",
    "worktree-state": "worktree-state record",
}
_INJECTED_FLAGS = ("isMeta", "isCompactSummary", "isVisibleInTranscriptOnly")
# How text in a user record opens → (type, actor) of its turn; see the module notes.
_OPENINGS: tuple[tuple[str, str, str], ...] = (
    ("<system-reminder>", "meta", ACTOR),
    ("<local-command-caveat>", "meta", ACTOR),
    ("Caveat: The messages below were generated by the user while running local commands", "meta", ACTOR),
    ("<user-prompt-submit-hook>", "meta", ACTOR),
    ("<task-notification>", "meta", ACTOR),
    ("[Request interrupted by user", "meta", ACTOR),
    ("This session is being continued from a previous conversation", "meta", ACTOR),
    ("<command-name>", "action", "user"),
    ("<command-message>", "action", "user"),
    ("<bash-input>", "action", "user"),
    ("<local-command-stdout>", "action", ACTOR),
    ("<local-command-stderr>", "action", ACTOR),
    ("<bash-stdout>", "action", ACTOR),
    ("<bash-stderr>", "action", ACTOR),
)


def user_text_kind(text: str) -> tuple[str, str]:
    """(type, actor) for a text of a ``user`` record without flags: the person's words are
    ``("text", "user")``; what Claude Code wrapped or injected is told by how it opens."""
    head = text.lstrip()[:120]
    for opening, kind, actor in _OPENINGS:
        if head.startswith(opening):
            return kind, actor
    return "text", "user"


def _skip(reason: str) -> Skipped:
    return Skipped(f"{NAME}: {reason}")


def _field(obj: dict[str, Any], name: str, prefix: str = "") -> str:
    value = obj.get(name)
    if not isinstance(value, str) or not value:
        raise Malformed(f"{prefix}{name}: {'missing' if value is None else 'not a non-empty string'}")
    return value


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def render_tool_use(block: dict[str, Any]) -> str:
    return f"{block.get('name') or 'tool'} {_json(block.get('input', {}))}"


def render_tool_result(block: dict[str, Any]) -> str:
    content = block.get("content")
    if isinstance(content, str):
        text = content
    elif isinstance(content, list):
        parts = []
        for item in content:
            if isinstance(item, str):
                parts.append(item)
            elif isinstance(item, dict) and item.get("type") == "text" and isinstance(item.get("text"), str):
                parts.append(item["text"])
            elif isinstance(item, dict) and item.get("type") == "image":
                source = item.get("source")
                kind = source.get("media_type", "") if isinstance(source, dict) else ""
                parts.append(f"[image {kind}]".replace(" ]", "]"))
            else:
                parts.append(_json(item))
        text = "\n".join(parts)
    elif content is None:
        text = ""
    else:
        text = _json(content)
    if block.get("is_error") is True and text:
        text = "[error] " + text
    return text


class _File:
    """What every record of one transcript file shares: where it came from, the latest time it may
    hold, the project folder it lies in, and the sessions whose header was already given."""

    def __init__(self, path: Path, latest: str | None = None) -> None:
        self.source = f"{NAME}:{path}"
        self.latest = latest
        folder = path.parent
        if folder.name == "subagents":
            folder = folder.parent.parent  # <project>/<session>/subagents/agent-<id>.jsonl
        self.folder_project = folder.name
        self.headed: set[str] = set()


class _Context:
    """What every turn of one record shares."""

    def __init__(self, record: dict[str, Any], session: str, file: _File, prefix: str = "") -> None:
        self.uuid = _field(record, "uuid", prefix)
        self.ts = record.get("timestamp")
        if not isinstance(self.ts, str):
            raise Malformed(f"{prefix}timestamp: {'missing' if self.ts is None else 'not a string'}")
        self.session = session
        self.file = file
        self.prefix = prefix

    def turn(self, index: int | str, *, role: str, actor: str, kind: str, text: str, model: str | None,
             turn_id: str | None = None) -> Turn:
        try:
            return make_turn(id=turn_id or f"{self.uuid}:{index}", ts=self.ts, actor=actor, role=role, type=kind,
                             text=text, model=model, session=self.session, source=self.file.source,
                             latest=self.file.latest)
        except TurnError as exc:
            raise Malformed(f"{self.prefix}{exc}") from exc


def session_header_text(record: dict[str, Any], session: str, folder_project: str) -> str:
    """The text of a session's header turn (see the module notes)."""
    cwd = record.get("cwd") if isinstance(record.get("cwd"), str) and record.get("cwd") else None
    project = (Path(cwd).name or cwd) if cwd else folder_project
    where = f"{project} ({cwd})" if cwd else project
    branch = record.get("gitBranch")
    agent = session.partition("#agent-")[2]
    head = f"Claude Code subagent {agent}" if agent else "Claude Code session"
    text = f"{head} in {one_line(where, 200)}"
    if isinstance(branch, str) and branch.strip():
        text += f", branch {one_line(branch, 80)}"
    return text


def _header(record: dict[str, Any], ctx: _Context) -> Iterator[Turn]:
    """The session's header turn, the first time one of its own records is read from this file."""
    if ctx.prefix or ctx.session in ctx.file.headed:
        return
    ctx.file.headed.add(ctx.session)
    text = session_header_text(record, ctx.session, ctx.file.folder_project)
    yield ctx.turn(0, role="system", actor=ACTOR, kind="meta", text=text, model=None,
                   turn_id=f"{ctx.session}:session")


def _session(record: dict[str, Any], inherited: str | None, agent: str | None, prefix: str) -> str:
    session = inherited if inherited is not None else _field(record, "sessionId", prefix)
    if agent is None and record.get("isSidechain") is True and isinstance(record.get("agentId"), str):
        agent = record["agentId"]
    return f"{session}#agent-{agent}" if agent else session


def _content(record: dict[str, Any], prefix: str) -> str | list[Any]:
    message = record.get("message")
    if not isinstance(message, dict):
        raise Malformed(f"{prefix}message: {'missing' if message is None else 'not an object'}")
    content = message.get("content")
    if isinstance(content, str | list):
        return content
    raise Malformed(f"{prefix}message.content: {'missing' if content is None else 'not a string or a list'}")


def _user_turns(record: dict[str, Any], ctx: _Context) -> Iterator[ImportItem]:
    content = _content(record, ctx.prefix)
    injected = any(record.get(flag) is True for flag in _INJECTED_FLAGS)
    tool_output = "toolUseResult" in record
    blocks: list[Any] = [content] if isinstance(content, str) else content
    for index, block in enumerate(blocks):
        kind = block.get("type") if isinstance(block, dict) else None
        if isinstance(block, str) or kind == "text":
            text = block if isinstance(block, str) else block.get("text")
            if isinstance(text, str) and text.strip():
                if injected:
                    kind_of_text, actor = "meta", ACTOR
                elif tool_output:
                    kind_of_text, actor = "action", ACTOR
                else:
                    kind_of_text, actor = user_text_kind(text)
                yield ctx.turn(index, role="user", actor=actor, kind=kind_of_text, text=text, model=None)
            else:
                yield _skip("empty text block")
        elif kind == "tool_result":
            text = render_tool_result(block)
            if text.strip():
                yield ctx.turn(index, role="user", actor=ACTOR, kind="action", text=text, model=None)
            else:
                yield _skip("empty tool_result block")
        else:
            yield _skip_block(block)


def _skip_block(block: Any) -> Skipped:
    if not isinstance(block, dict):
        return _skip(f"content block that is not an object ({type(block).__name__})")
    kind = block.get("type")
    if kind in ("image", "document"):
        return _skip(f"{kind} block (binary, not stored)")
    if kind == "redacted_thinking":
        return _skip("redacted_thinking block (encrypted)")
    return _skip(f"{one_line(str(kind), 40)} block")


def _assistant_turns(record: dict[str, Any], ctx: _Context) -> Iterator[ImportItem]:
    content = _content(record, ctx.prefix)
    message = record["message"]
    model = message.get("model") if isinstance(message.get("model"), str) and message.get("model") else None
    actor = model or "assistant"
    error = record.get("isApiErrorMessage") is True
    blocks: list[Any] = [content] if isinstance(content, str) else content
    for index, block in enumerate(blocks):
        kind = block.get("type") if isinstance(block, dict) else None
        if isinstance(block, str) or kind == "text":
            text = block if isinstance(block, str) else block.get("text")
            if isinstance(text, str) and text.strip():
                yield ctx.turn(index, role="assistant", actor=actor, kind="meta" if error else "text",
                               text=text, model=model)
            else:
                yield _skip("empty text block")
        elif kind in ("tool_use", "server_tool_use"):
            yield ctx.turn(index, role="assistant", actor=actor, kind="action", text=render_tool_use(block),
                           model=model)
        elif isinstance(kind, str) and kind.endswith("tool_result"):
            text = render_tool_result(block)
            if text.strip():
                yield ctx.turn(index, role="assistant", actor=actor, kind="action", text=text, model=model)
            else:
                yield _skip(f"empty {one_line(kind, 40)} block")
        elif kind == "thinking":
            text = block.get("thinking")
            if isinstance(text, str) and text.strip():
                yield ctx.turn(index, role="assistant", actor=actor, kind="meta", text=text, model=model)
            else:
                yield _skip("empty thinking block")
        else:
            yield _skip_block(block)


def _message_turns(record: dict[str, Any], *, file: _File, session: str, prefix: str = "") -> Iterator[ImportItem]:
    ctx = _Context(record, session, file, prefix)
    yield from _header(record, ctx)
    if record.get("type") == "user":
        yield from _user_turns(record, ctx)
    else:
        yield from _assistant_turns(record, ctx)


def _system_turns(record: dict[str, Any], file: _File) -> Iterator[ImportItem]:
    text = record.get("content")
    subtype = one_line(str(record.get("subtype") or "no subtype"), 40)
    if not isinstance(text, str) or not text.strip():
        yield _skip(f"system record without text ({subtype})")
        return
    ctx = _Context(record, _session(record, None, None, ""), file)
    yield from _header(record, ctx)
    yield ctx.turn(0, role="system", actor=ACTOR, kind="meta", text=text, model=None)


def _attachment_turns(record: dict[str, Any], file: _File) -> Iterator[ImportItem]:
    attachment = record.get("attachment")
    kind = attachment.get("type") if isinstance(attachment, dict) else None
    if kind != "queued_command" or not isinstance(attachment, dict):
        yield _skip(f"attachment record ({one_line(str(kind), 40)}: context Claude Code attached)")
        return
    prompt = attachment.get("prompt")
    blocks: list[Any] = [prompt] if isinstance(prompt, str) else prompt if isinstance(prompt, list) else []
    texts = [b if isinstance(b, str) else b.get("text") for b in blocks
             if isinstance(b, str) or (isinstance(b, dict) and b.get("type") == "text")]
    text = "\n\n".join(t for t in texts if isinstance(t, str) and t.strip())
    if not text:
        yield _skip("queued_command attachment without text")
        return
    ctx = _Context(record, _session(record, None, None, ""), file)
    yield from _header(record, ctx)
    kind_of_text, actor = (("meta", ACTOR) if attachment.get("isMeta") is True else user_text_kind(text))
    yield ctx.turn(0, role="user", actor=actor, kind=kind_of_text, text=text, model=None)


def _progress_turns(record: dict[str, Any], file: _File) -> Iterator[ImportItem]:
    data = record.get("data")
    kind = data.get("type") if isinstance(data, dict) else None
    if kind != "agent_progress" or not isinstance(data, dict) or not isinstance(data.get("message"), dict):
        yield _skip(f"progress record ({one_line(str(kind), 40)})")
        return
    nested = data["message"]
    if nested.get("type") not in ("user", "assistant"):
        yield _skip(f"agent_progress message of type {one_line(str(nested.get('type')), 40)}")
        return
    agent = data.get("agentId") if isinstance(data.get("agentId"), str) and data.get("agentId") else "unknown"
    session = _session(record, None, agent, "")
    if "timestamp" not in nested and isinstance(record.get("timestamp"), str):
        nested = {**nested, "timestamp": record["timestamp"]}
    yield from _message_turns(nested, file=file, session=session, prefix="data.message.")


def record_items(record: Any, file: _File) -> Iterator[ImportItem]:
    """The items of one parsed transcript line; ``Malformed`` if it claims to be a turn but is not."""
    if not isinstance(record, dict):
        raise Malformed(f"not a JSON object (got {type(record).__name__})")
    kind = record.get("type")
    if not isinstance(kind, str):
        raise Malformed("type: missing" if kind is None else "type: not a string")
    if kind in ("user", "assistant"):
        yield from _message_turns(record, file=file, session=_session(record, None, None, ""))
    elif kind == "system":
        yield from _system_turns(record, file)
    elif kind == "attachment":
        yield from _attachment_turns(record, file)
    elif kind == "progress":
        yield from _progress_turns(record, file)
    elif kind in _NOT_TURNS:
        yield _skip(_NOT_TURNS[kind])
    else:
        yield _skip(f"unknown record type {one_line(repr(kind), 40)}")


def read(path: Path, progress: Progress | None = None, *, latest: str | None = None) -> Iterator[ImportItem]:
    file = _File(path, latest)
    for raw in iter_lines(path, progress=progress):
        value = json_line(raw)
        if isinstance(value, Rejected | Skipped):
            yield value
            continue
        headed = set(file.headed)
        try:
            items = list(record_items(value, file))  # a record is imported whole or not at all
        except Malformed as exc:
            file.headed = headed  # a rejected record gives no header; the next good one does
            yield Rejected(raw.number, str(exc), raw=raw.data)
            continue
        yield from items


def looks_like(record: Any) -> bool:
    """Whether one parsed line is plainly a Claude Code transcript record (for format detection)."""
    if not isinstance(record, dict) or record.get("type") not in RECORD_TYPES:
        return False
    return "sessionId" in record or "uuid" in record or record.get("type") in _NOT_TURNS
