"""The home's receiver: it checks the protocol line and each batch's checksum, refuses with one line
(``ERROR ...`` on stdout, the error raised) storing nothing of a bad batch, stores a good batch
through the ingest path (same ids, quarantine rules) with the machine on each turn, and acknowledges
it by id."""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
from pathlib import Path

import pytest

from core.paths import HomePaths
from core.remote.batch import Group, encode
from core.remote.protocol import HELLO, ProtocolError
from core.workbench import Workbench
from tests.remote.helpers import cli_argv, stored_turns

TURN = {"id": "u1:0", "ts": "2026-03-02T09:00:00.000000Z", "actor": "user", "role": "user", "type": "text",
        "text": "book the ferry", "model": None, "session": "s1", "source": "claude-code:/p/s1.jsonl"}


def _frame(payload: bytes, batch: str = "0000000001", digest: str | None = None) -> bytes:
    digest = digest or hashlib.sha256(payload).hexdigest()
    return f"BATCH {batch} {len(payload)} {digest}\n".encode() + payload + b"\n"


def _receive(home: Path, wire: bytes) -> tuple[list[str], Exception | None]:
    out = io.BytesIO()
    error = None
    with Workbench(HomePaths.at(home)) as workbench:
        try:
            workbench.remote.receive(io.BytesIO(wire), out, machine="laptop")
        except ProtocolError as exc:
            error = exc
    return out.getvalue().decode().splitlines(), error


def test_a_batch_is_stored_with_its_machine_and_acknowledged_once_per_delivery(tmp_path: Path) -> None:
    payload = encode([Group(origin="/p/s1.jsonl", turns=[TURN])])
    hello = f"{HELLO}\n".encode()
    lines, error = _receive(tmp_path / "home", hello + _frame(payload) + b"END\n")
    assert error is None and lines == [HELLO, "ACK 0000000001 1 0 0"]
    lines, _ = _receive(tmp_path / "home", hello + _frame(payload) + b"END\n")  # resent: nothing twice
    assert lines == [HELLO, "ACK 0000000001 0 1 0"]
    [turn] = stored_turns(tmp_path / "home")
    assert (turn.id, turn.text, turn.machine, turn.source) == ("u1:0", "book the ferry", "laptop", TURN["source"])


def test_a_bad_checksum_is_refused_in_one_line_and_nothing_of_it_is_stored(tmp_path: Path) -> None:
    payload = encode([Group(origin="/p/s1.jsonl", turns=[TURN])])
    lines, error = _receive(tmp_path / "home", f"{HELLO}\n".encode() + _frame(payload, digest="0" * 64))
    assert isinstance(error, ProtocolError) and "checksum mismatch" in str(error) and "\n" not in str(error)
    assert lines[-1] == f"ERROR {error}"
    assert stored_turns(tmp_path / "home") == []


@pytest.mark.parametrize(("wire", "said"), [
    (b"HELLO 1\n", "did not start with 'REVERIE-REMOTE 1'"),
    (b"REVERIE-REMOTE 2\n", "speaks protocol 2, this reverie speaks 1"),
    (f"{HELLO}\nBATCH 1 2 3\n{{}}\n".encode(), "not a protocol line: 'BATCH 1 2 3'"),
])
def test_a_bad_protocol_line_is_refused_in_one_line_storing_nothing(tmp_path: Path, wire: bytes, said: str) -> None:
    lines, error = _receive(tmp_path / "home", wire)
    assert error is not None and said in str(error) and lines[-1].startswith("ERROR ")
    assert stored_turns(tmp_path / "home") == []


def test_a_payload_that_is_not_a_batch_is_refused_whole(tmp_path: Path) -> None:
    payload = json.dumps({"format": "reverie-batch", "version": 1, "groups": [{"origin": "/p", "turns": "no"}]})
    _lines, error = _receive(tmp_path / "home", f"{HELLO}\n".encode() + _frame(payload.encode()))
    assert error is not None and "groups[0].turns: missing or not a list" in str(error)
    assert stored_turns(tmp_path / "home") == []


def test_the_home_applies_its_own_quarantine_rules_to_shipped_turns(tmp_path: Path) -> None:
    """A turn dated years ahead, or one whose session holds a line break, is quarantined on the home
    (as a local import would), the good turn beside it stored."""
    future = {**TURN, "id": "u2:0", "ts": "2099-01-01T00:00:00.000000Z"}
    forged = {**TURN, "id": "u3:0", "session": "s1\nfake"}
    payload = encode([Group(origin="/p/s1.jsonl", turns=[TURN, future, forged])])
    lines, error = _receive(tmp_path / "home", f"{HELLO}\n".encode() + _frame(payload) + b"END\n")
    assert error is None and lines[-1] == "ACK 0000000001 1 0 2"
    assert [t.id for t in stored_turns(tmp_path / "home")] == ["u1:0"]
    kept = "".join(p.read_text() for p in HomePaths.at(tmp_path / "home").quarantine.glob("*.jsonl"))
    assert "more than 1 day after the import" in kept and "U+000A" in kept


def test_the_receive_command_says_a_bad_batch_in_one_line_with_exit_code_2(tmp_path: Path) -> None:
    payload = encode([Group(origin="/p/s1.jsonl", turns=[TURN])])
    wire = f"{HELLO}\n".encode() + _frame(payload, digest="f" * 64)
    done = subprocess.run(cli_argv(tmp_path / "home", "remote", "receive", "--machine", "laptop"), input=wire,
                          capture_output=True, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stderr.decode().strip().count("\n") == 0 and "checksum mismatch" in done.stderr.decode()
    assert stored_turns(tmp_path / "home") == []
