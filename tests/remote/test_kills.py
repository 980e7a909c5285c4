"""SIGKILL on either side while shipping, twice in a row at each point, loses and duplicates nothing:
the laptop's push before it sends and after the home stored a batch but before the ACK was read; the
home's receiver with a batch read but not stored, and stored but not acknowledged. Afterwards a plain
push ships what is left and every turn is in the home's log exactly once, with its machine."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from core.remote.capture import capture
from tests.remote.helpers import MACHINE, counts, laptop, receiver_transport, stored_turns, write_transcript

KILLING = Path(__file__).with_name("killing.py")


def _spool_three_sessions(root: Path, home: Path, tmp_path: Path) -> set[str]:
    bench = laptop(root, home)
    for n in range(3):
        transcript = tmp_path / f"session{n}.jsonl"
        write_transcript(transcript, f"s{n}", [f"turn {i} of session {n}" for i in range(4)],
                         start=f"2026-03-0{n + 2}T09:00:00Z")
        capture(bench.remote.spool, bench.log.plan_ingest([transcript]))
    assert [r.batch for r in bench.remote.spool.read().records] == [1, 2, 3]
    return {turn["id"] for r in bench.remote.spool.read().records for turn in _turns(r.payload)}


def _turns(payload: bytes) -> list[dict]:
    import json

    return [t for group in json.loads(payload)["groups"] for t in group["turns"]]


@pytest.mark.parametrize(("side", "event", "nth"), [
    ("push", "connect", 1),  # before anything is sent
    ("push", "sent", 2),  # the home stored batch 2, its ACK not read
    ("receive", "read", 2),  # the home read batch 2, stored nothing of it
    ("receive", "stored", 1),  # the home stored batch 1, sent no ACK
])
def test_a_kill_at_any_point_twice_loses_and_duplicates_nothing(tmp_path: Path, side: str, event: str,
                                                                 nth: int) -> None:
    root, home = tmp_path / "laptop", tmp_path / "home"
    expected = _spool_three_sessions(root, home, tmp_path)
    for _ in range(2):
        if side == "push":
            argv = [sys.executable, str(KILLING), "push", str(root), str(home), event, str(nth)]
            done = subprocess.run(argv, capture_output=True, timeout=120, check=False)
            assert done.returncode == -9, done.stderr.decode()[-2000:]
        else:
            transport = receiver_transport(home, argv=[sys.executable, str(KILLING), "receive", str(home), MACHINE,
                                                       event, str(nth)])
            from core.remote.ship import RemoteUnreachable

            with pytest.raises(RemoteUnreachable):
                laptop(root, home).remote.push(transport=transport)
        stored = counts(home)
        assert all(count == 1 for count in stored.values()), stored  # never twice, even mid-way
        assert laptop(root, home).remote.status().turns > 0  # what is not acknowledged still waits
    report = laptop(root, home).remote.push(transport=receiver_transport(home))
    assert report.waiting == 0
    stored = counts(home)
    assert set(stored) == expected and set(stored.values()) == {1}
    assert {turn.machine for turn in stored_turns(home)} == {MACHINE}
    status = laptop(root, home).remote.status()
    assert (status.turns, status.batches, status.bytes) == (0, 0, 0) and status.last_ship
