"""A push or a receiver that SIGKILLs itself at a chosen point (for tests/remote/test_kills.py).

``python killing.py push LAPTOP HOME EVENT N [ssh]``: the laptop's push (through its configured
ssh remote with ``ssh``), killed at the Nth ``EVENT``
("connect": before anything is sent; "sent": after the home has stored the batch, before its ACK is
read). ``python killing.py receive HOME MACHINE EVENT N``: the home's receiver, killed at the Nth
``EVENT`` ("read": a batch checked, not stored; "stored": stored, not acknowledged)."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.paths import HomePaths
from core.remote.batch import decode
from core.workbench import Workbench
from tests.remote.helpers import counts, receiver_transport


def killer(event: str, nth: int, before_kill: object = None) -> object:
    seen = [0]

    def hook(name: str, batch: str) -> None:
        if name != event:
            return
        seen[0] += 1
        if seen[0] == nth:
            if callable(before_kill):
                before_kill(batch)
            os.kill(os.getpid(), signal.SIGKILL)

    return hook


def main() -> None:
    mode, first, second, event, nth = sys.argv[1:6]
    over_ssh = sys.argv[6:7] == ["ssh"]  # push through the laptop's configured remote, not a local process
    if mode == "push":
        laptop = Workbench(HomePaths.at(first))
        home = Path(second)

        def wait_stored(batch: str) -> None:
            record = next(r for r in laptop.remote.spool.read().records if r.batch_id == batch)
            ids = {t.id for _, items in decode(record.payload, machine="x", latest="9").groups for t in items}
            deadline = time.monotonic() + 30
            while not ids <= set(counts(home)) and time.monotonic() < deadline:
                time.sleep(0.02)

        hook = killer(event, int(nth), wait_stored if event == "sent" else None)
        transport = None if over_ssh else receiver_transport(home)
        laptop.remote.push(transport=transport, hook=hook)  # type: ignore[arg-type]
    else:
        home_bench = Workbench(HomePaths.at(first))
        home_bench.remote.receive(sys.stdin.buffer, sys.stdout.buffer, machine=second,
                                  hook=killer(event, int(nth)))  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
