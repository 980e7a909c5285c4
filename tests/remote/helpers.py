"""Two homes for the remote tests: a "laptop" (no vault, a default remote) and a "home", a Claude Code
transcript written here in Claude Code's format, and a transport that runs the home's receiver as a
local process (the fake of ssh: the same protocol over a child's stdin and stdout)."""

from __future__ import annotations

import json
import sys
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path

from core.conversation import list_day_files, read_day
from core.paths import HomePaths
from core.remote.ship import CommandTransport
from core.turns import Turn
from core.workbench import Workbench

ROOT = Path(__file__).resolve().parents[2]
MACHINE = "laptop"


def write_transcript(path: Path, session: str, texts: list[str], start: str = "2026-03-02T09:00:00Z",
                     first: int = 0) -> None:
    """Append a Claude Code conversation: user and assistant records alternating, 30 s apart."""
    begin = datetime.fromisoformat(start.replace("Z", "+00:00"))
    lines = []
    for offset, text in enumerate(texts):
        i = first + offset
        ts = (begin + timedelta(seconds=30 * i)).isoformat().replace("+00:00", "Z")
        if i % 2 == 0:
            record = {"type": "user", "uuid": f"{session}-u{i}", "sessionId": session, "timestamp": ts,
                      "cwd": "/work/trip", "message": {"role": "user", "content": text}}
        else:
            record = {"type": "assistant", "uuid": f"{session}-a{i}", "sessionId": session, "timestamp": ts,
                      "message": {"role": "assistant", "model": "claude-test",
                                  "content": [{"type": "text", "text": text}]}}
        lines.append(json.dumps(record, ensure_ascii=False))
    with path.open("a", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")


def cli_argv(home: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "tui_app.cli.main", "--home", str(home), *args]


def receiver_transport(home: Path, machine: str = MACHINE, argv: list[str] | None = None) -> CommandTransport:
    """The home's ``remote receive`` as a local child process (or ``argv``, e.g. a killing receiver)."""
    return CommandTransport(argv or cli_argv(home, "remote", "receive", "--machine", machine), f"local {home}")


def laptop(root: Path, home: Path) -> Workbench:
    """A laptop home at ``root`` whose default remote is ``home`` (reached through a local process)."""
    workbench = Workbench(HomePaths.at(root))
    workbench.remote.add("home", "me@127.0.0.1", command=" ".join(cli_argv(home)))
    (root / "config.toml").write_text(f'[remote]\nmachine = "{MACHINE}"\n', encoding="utf-8")
    return Workbench(HomePaths.at(root))


def stored_turns(home: Path) -> list[Turn]:
    paths = HomePaths.at(home)
    return [turn for day in list_day_files(paths) for turn in read_day(day.path).turns]


def counts(home: Path) -> Counter[str]:
    """How many times each turn id is in the home's log."""
    return Counter(turn.id for turn in stored_turns(home))
