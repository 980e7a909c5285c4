"""Which files to read and in which format.

``collect_sources`` expands folders (recursively, hidden entries and symlinked folders skipped), keeps
``.jsonl`` and ``.json`` files and tells each file's format from its first recognisable record:
ChatGPT (a JSON document with a ``mapping``), Claude Code (a Claude Code ``type`` with a ``sessionId``
or ``uuid``), Codex (a rollout line or a legacy session header) or generic (``ts`` and ``text``). A
file named on the command line whose format cannot be told is an error before anything is written;
one met in a folder is counted as skipped. A FIFO, socket or device is never opened (reading it could
wait forever): it is listed in ``SourcePlan.not_read`` with its reason.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from core.conversation import chatgpt, claude_code, codex, generic
from core.conversation.lines import kind_of_special, open_regular
from core.errors import NotFound, ReverieError

FORMATS = (claude_code.NAME, codex.NAME, chatgpt.NAME, generic.NAME)
_EXTENSIONS = (".jsonl", ".json")
_PEEK_LINES = 50
_PEEK_BYTES = 1024 * 1024


class FormatError(ReverieError):
    """A file's format cannot be told, or the format asked for is unknown."""


@dataclass(frozen=True)
class Source:
    path: Path
    format: str
    size: int


@dataclass
class SourcePlan:
    sources: list[Source] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)  # reason → files
    not_read: list[str] = field(default_factory=list)  # "PATH: reason" of each special file left alone

    @property
    def total_bytes(self) -> int:
        return sum(source.size for source in self.sources)


def _jsonl_format(path: Path) -> str | None:
    with open_regular(path) as handle:
        for _ in range(_PEEK_LINES):
            line = handle.readline(_PEEK_BYTES)
            if not line:
                return None
            try:
                value = json.loads(line)
            except (ValueError, RecursionError):
                continue
            if claude_code.looks_like(value):
                return claude_code.NAME
            if codex.looks_like(value):
                return codex.NAME
            if chatgpt.looks_like(value):
                return chatgpt.NAME
            if isinstance(value, dict) and "ts" in value and "text" in value:
                return generic.NAME
    return None


def detect_format(path: Path) -> str | None:
    """The format of ``path``, or ``None`` when it is empty or none of the known formats.
    ``NotRegularFile`` (an ``OSError``) for a FIFO, socket or device, without blocking on it."""
    with open_regular(path) as handle:
        head = handle.read(_PEEK_BYTES)
    stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if not stripped:
        return None
    if stripped.startswith(b"["):
        return chatgpt.NAME if b'"mapping"' in head else None
    found = _jsonl_format(path)
    if found is not None:
        return found
    # A pretty-printed single conversation: its first line is not a whole JSON value.
    if stripped.startswith(b"{") and b'"mapping"' in head and b'"current_node"' in head:
        return chatgpt.NAME
    return None


def _walk(folder: Path) -> list[Path]:
    found: list[Path] = []
    for root, dirs, files in os.walk(folder, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if not name.startswith(".") and name.endswith(_EXTENSIONS):
                found.append(Path(root) / name)
    return found


def collect_sources(inputs: list[Path], fmt: str = "auto") -> SourcePlan:
    """The files to read, each with its format; raises before anything is read if one is wrong."""
    if fmt != "auto" and fmt not in FORMATS:
        raise FormatError(f"--format: must be auto or one of {', '.join(FORMATS)}, got {fmt!r}")
    plan = SourcePlan()
    seen: set[Path] = set()
    for given in inputs:
        path = Path(given).expanduser()
        if not path.exists():
            raise NotFound(f"{path}: no such file or folder")
        walked = path.is_dir()
        for file in _walk(path) if walked else [path]:
            resolved = file.resolve()
            if resolved in seen:
                continue
            seen.add(resolved)
            try:
                info = resolved.stat()
                special = kind_of_special(info.st_mode)
                if special is not None:  # reading a FIFO would wait forever for a writer
                    reason = f"{special} named like a transcript, not a regular file: not read"
                    plan.skipped[reason] = plan.skipped.get(reason, 0) + 1
                    plan.not_read.append(f"{file}: {reason}")
                    continue
                size = info.st_size
                found = fmt if fmt != "auto" else detect_format(resolved)
            except OSError as exc:
                raise FormatError(f"{file}: cannot be read: {exc.strerror or exc}") from exc
            if found is None:
                if size and not walked:
                    raise FormatError(
                        f"{file}: not a Claude Code transcript, Codex session, ChatGPT export or generic JSONL; "
                        "name the format with --format"
                    )
                reason = "empty file" if not size else "file in a folder that is not a known transcript format"
                plan.skipped[reason] = plan.skipped.get(reason, 0) + 1
                continue
            plan.sources.append(Source(path=resolved, format=found, size=size))
    return plan
