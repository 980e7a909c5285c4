"""Several machines over a real sshd on loopback (``conftest.sshd``): a "laptop" home without a vault
ships a Claude Code session to the "home" through ``reverie remote``; with the home unreachable (its
reverie's path broken) more turns are captured into the spool, ``remote status`` shows them, and once
the home is back ``remote push`` ships them: every turn is on the home exactly once, with its
machine. SIGKILL on either side while shipping over ssh, twice in a row, loses and duplicates nothing.
And an assistant on the laptop reaches the home's memory with ``ssh HOST reverie mcp --profile NAME``.

Skips, with the reason, where sshd or ssh is not installed.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from core.paths import HomePaths
from tests.e2e.remote import ROOT, SshServer, free_port, reverie_command
from tests.remote.helpers import MACHINE, stored_turns, write_transcript

pytestmark = pytest.mark.e2e

KILLING = ROOT / "tests" / "remote" / "killing.py"


def reverie(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tui_app.cli.main", "--home", str(home), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False,
                          env={k: v for k, v in os.environ.items() if k != "REVERIE_PASSPHRASE"})


def point_at_home(laptop: Path, sshd: SshServer, command: str) -> None:
    done = reverie(laptop, "remote", "add", "home", f"{sshd.user}@127.0.0.1", "--port", str(sshd.port),
                   "--identity", str(sshd.folder / "client_ed25519"), "--command", command, "--default",
                   "-o", f"UserKnownHostsFile={sshd.folder / 'known_hosts'}", "-o", "StrictHostKeyChecking=yes")
    assert done.returncode == 0, done.stderr


def make_laptop(tmp_path: Path, sshd: SshServer, home: Path) -> Path:
    laptop = tmp_path / "laptop"
    point_at_home(laptop, sshd, reverie_command(home, Path(os.environ["REVERIE_CACHE"])))
    (laptop / "config.toml").write_text(f'[remote]\nmachine = "{MACHINE}"\n', encoding="utf-8")
    return laptop


def test_a_laptop_ships_a_session_and_its_spool_to_the_home_over_ssh(tmp_path: Path, sshd: SshServer) -> None:
    home = tmp_path / "home"
    laptop = make_laptop(tmp_path, sshd, home)
    transcript = tmp_path / "projects" / "trip" / "s1.jsonl"
    transcript.parent.mkdir(parents=True)
    write_transcript(transcript, "s1", ["which ferry tomorrow?", "the 9:40 from the pier", "and back?", "17:10"])
    done = reverie(laptop, "ingest", str(transcript))
    assert done.returncode == 0 and "shipped 5 turns in 1 batch to home: 5 added" in done.stdout, done
    first = {turn.id for turn in stored_turns(home)}
    assert len(first) == 5

    point_at_home(laptop, sshd, "/nonexistent/bin/reverie")  # the home is unreachable
    write_transcript(transcript, "s1", ["book two seats", "booked: seats 12A and 12B"], first=4)
    done = reverie(laptop, "ingest", str(transcript))
    assert done.returncode == 0 and "the home has no reverie at this command" in done.stderr, done
    status = json.loads(reverie(laptop, "remote", "status", "--json").stdout)
    assert (status["batches"], status["turns"]) == (1, 7) and status["bytes"] > 0
    assert status["oldest_turn"] == "2026-03-02T09:00:00.000000Z" and "no reverie" in status["last_error"]
    assert len(stored_turns(home)) == 5  # nothing new reached the home

    closed = free_port()  # sshd not listening there: as if the home machine were off
    done = reverie(laptop, "remote", "add", "home", f"{sshd.user}@127.0.0.1", "--port", str(closed))
    write_transcript(transcript, "s1", ["window or aisle?", "window"], first=6)
    done = reverie(laptop, "watch", "--once", "--follow", str(transcript.parent))  # the follower spools too
    assert done.returncode == 0 and "spooled +9 turns" in done.stdout and "cannot reach the home" in done.stderr, done
    status = json.loads(reverie(laptop, "remote", "status", "--json").stdout)
    assert (status["batches"], status["turns"]) == (2, 7 + 9) and "cannot reach the home" in status["last_error"]

    point_at_home(laptop, sshd, reverie_command(home, Path(os.environ["REVERIE_CACHE"])))
    done = reverie(laptop, "remote", "push")
    assert done.returncode == 0 and "4 added, 12 already there" in done.stdout, done
    turns = stored_turns(home)
    assert Counter(turn.id for turn in turns) == Counter(first | {"s1-u4:0", "s1-a5:0", "s1-u6:0", "s1-a7:0"})
    assert {turn.machine for turn in turns} == {MACHINE} and "booked: seats 12A and 12B" in {t.text for t in turns}
    status = json.loads(reverie(laptop, "remote", "status", "--json").stdout)
    assert (status["turns"], status["bytes"]) == (0, 0) and status["last_ship"]
    assert sorted(path.name for path in laptop.iterdir()) == ["config.toml", "remotes.json", "spool"]


@pytest.mark.parametrize(("side", "event"), [("push", "sent"), ("receive", "stored")])
def test_a_kill_while_shipping_over_ssh_twice_loses_and_duplicates_nothing(tmp_path: Path, sshd: SshServer,
                                                                           side: str, event: str) -> None:
    home = tmp_path / "home"
    laptop = make_laptop(tmp_path, sshd, home)
    point_at_home(laptop, sshd, "/nonexistent/bin/reverie")
    for n in range(2):
        transcript = tmp_path / f"s{n}.jsonl"
        write_transcript(transcript, f"s{n}", [f"turn {i} of {n}" for i in range(3)],
                         start=f"2026-03-0{n + 2}T09:00:00Z")
        assert reverie(laptop, "ingest", str(transcript)).returncode == 0
    cache = Path(os.environ["REVERIE_CACHE"])
    for _ in range(2):
        if side == "push":
            point_at_home(laptop, sshd, reverie_command(home, cache))
            argv = [sys.executable, str(KILLING), "push", str(laptop), str(home), event, "1", "ssh"]
            killed = subprocess.run(argv, cwd=ROOT, capture_output=True, timeout=120, check=False)
            assert killed.returncode == -9, killed.stderr.decode()[-2000:]
        else:
            # A receiver that SIGKILLs itself; the "#" comments out the "remote receive ..." ssh appends.
            script = f"cd {ROOT} && exec {sys.executable} {KILLING} receive {home} {MACHINE} {event} 1 #"
            point_at_home(laptop, sshd, script)
            assert reverie(laptop, "remote", "push").returncode == 2
        assert set(Counter(turn.id for turn in stored_turns(home)).values()) <= {1}
    point_at_home(laptop, sshd, reverie_command(home, cache))
    done = reverie(laptop, "remote", "push")
    assert done.returncode == 0, done
    ids = Counter(turn.id for turn in stored_turns(home))
    assert len(ids) == 2 * 4 and set(ids.values()) == {1}


def _reply(process: subprocess.Popen[bytes], timeout: float = 60) -> dict[str, Any]:
    assert process.stdout is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stdout], [], [], 0.5)
        if ready:
            return json.loads(process.stdout.readline())
        assert process.poll() is None, "the server exited"
    raise AssertionError("no reply")


def test_an_assistant_on_the_laptop_reaches_the_home_memory_with_ssh_reverie_mcp(tmp_path: Path,
                                                                                 sshd: SshServer) -> None:
    from tests.helpers.sharing_world import build_world
    from tests.helpers.vault import PASSPHRASE

    paths = HomePaths.at(tmp_path / "home")
    build_world(paths)
    remote = reverie_command(paths.root, Path(os.environ["REVERIE_CACHE"]), "mcp", "--profile", "claude",
                             env={"REVERIE_PASSPHRASE": PASSPHRASE})
    process = subprocess.Popen([*sshd.ssh_args(tty=False), remote], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    assert process.stdin is not None
    try:
        for message in ({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                            "protocolVersion": "2025-06-18", "capabilities": {},
                            "clientInfo": {"name": "laptop-claude", "version": "1"}}},
                        {"jsonrpc": "2.0", "method": "notifications/initialized"},
                        {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                         "params": {"name": "where_are_we", "arguments": {}}}):
            process.stdin.write(json.dumps(message).encode() + b"\n")
            process.stdin.flush()
            if "id" in message:
                reply = _reply(process)
                assert reply["id"] == message["id"] and "error" not in reply, reply
                if message["id"] == 1:
                    assert reply["result"]["serverInfo"]["name"]
        assert not reply["result"].get("isError") and "planning the Niseko ski trip" in json.dumps(reply["result"])
    finally:
        process.stdin.close()
        process.wait(timeout=30)
    assert process.returncode == 0
