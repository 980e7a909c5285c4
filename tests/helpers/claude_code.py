"""A small Claude Code transcript written record by record (no real transcript is copied): the person
asks, the model (actor ``claude-opus-4-5-20251101``) answers and runs a tool, and the tool's output
(actor ``claude-code``) follows. Used by the TUI tests of speaker names and topic markers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

OPUS = "claude-opus-4-5-20251101"
SESSION = "5e551011-0000-4000-8000-00000000beef"
CWD = "/home/me/projects/lighthouse"


def transcript(folder: Path, day: str = "2026-08-01") -> Path:
    """A Claude Code session: the person asks, the model answers and runs a tool, the tool's output."""
    records: list[dict[str, Any]] = []

    def add(kind: str, minute: int, content: Any, **extra: Any) -> None:
        message: dict[str, Any] = {"role": "assistant" if kind == "assistant" else "user", "content": content}
        if kind == "assistant":
            message["model"] = OPUS
        records.append({"type": kind, "uuid": f"00000000-0000-4000-8000-{len(records) + 1:012d}",
                        "parentUuid": None, "sessionId": SESSION, "timestamp": f"{day}T10:{minute:02d}:00.000Z",
                        "version": "2.1.144", "cwd": CWD, "gitBranch": "main", "isSidechain": False,
                        "userType": "external", "message": message, **extra})

    add("user", 0, "Find the keeper's logbook from 1893")
    add("assistant", 1, [{"type": "text", "text": "Searching the archive for the logbook."},
                         {"type": "tool_use", "id": "toolu_01", "name": "WebSearch",
                          "input": {"query": "lighthouse keeper logbook 1893"}}])
    add("user", 2, [{"type": "tool_result", "tool_use_id": "toolu_01",
                     "content": "Web search results: the keeper's logbook of 1893 is in the county archive"}],
        toolUseResult={"query": "lighthouse keeper logbook 1893", "results": [], "durationSeconds": 1.2})
    add("assistant", 3, [{"type": "text", "text": "The logbook is in the county archive; I can request a scan."}])
    path = folder / f"{SESSION}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path
