"""The program the passphrase crash tests kill (this module holds no tests).

    python -m tests.vault.passphrase_crashchild '{"op": "change", "header": "/tmp/h/vault.json", "kill_at": 3}'

Ops: ``change`` (old → new passphrase), ``recover`` (recovery key → new passphrase), ``recovery-key``
(make a recovery key) and ``migrate`` (unlock a version 1 header). With ``kill_at`` N > 0 the process sends
itself SIGKILL at its N-th file-system mutation (``tests.faults.crashchild.KillSwitch``); with 0 it
runs to its end and prints ``IO_EVENTS <count>``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.faults.crashchild import KillSwitch


def main() -> None:
    spec = json.loads(sys.argv[1])
    header = Path(spec["header"])
    from core.vault import crypto

    switch = KillSwitch(int(spec["kill_at"]), seed=int(spec.get("seed", 1)))
    switch.install()
    if spec["op"] == "change":
        crypto.change_passphrase(header, spec["new"], passphrase=spec["old"])
    elif spec["op"] == "recover":
        crypto.change_passphrase(header, spec["new"], recovery_key=spec["recovery_key"])
    elif spec["op"] == "recovery-key":
        crypto.create_recovery_key(header, spec["old"], now="2026-12-01T00:00:00+00:00")
    elif spec["op"] == "migrate":
        crypto.unlock(header, spec["old"])
    else:
        raise SystemExit(f"unknown op {spec['op']!r}")
    print(f"IO_EVENTS {switch.events}", flush=True)


if __name__ == "__main__":
    main()
