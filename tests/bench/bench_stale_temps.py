"""What the sweep for killed writers' temporary files adds to each ledger append (issue 11, F3).

Every append (and ``Ledger.complete_interrupted``) calls ``core.fsutil.remove_stale_temps`` on the home,
``vault/``, ``vault/.pending/`` and ``drafts/``: one ``scandir`` per folder, and a ``stat`` + ``flock`` try
only for names shaped like a temporary file. This times that call on a vault folder of N memory files
(empty 0600 files named as records are) with and without a few leftover temporary files, and prints a
table. Run::

    python tests/bench/bench_stale_temps.py [--sizes 1000,10000,30000] [--repeat 20]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.fsutil import remove_stale_temps


def _folder(root: Path, files: int) -> Path:
    vault = root / "vault"
    vault.mkdir()
    for n in range(files):
        (vault / f"mem_{n:024x}.json").touch(mode=0o600)
    return vault


def _leftovers(vault: Path, count: int) -> None:
    past = time.time() - 60
    for n in range(count):
        path = vault / f".mem_{n:024x}.json.x{n}y.tmp"
        path.write_bytes(b"half")
        os.utime(path, (past, past))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,30000")
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    print(f"{'files in vault/':>16} {'sweep, none left (ms)':>22} {'sweep, 5 left (ms)':>19} {'removed':>8}")
    for size in (int(s) for s in args.sizes.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            vault = _folder(Path(tmp), size)
            folders = (Path(tmp), vault, vault / ".pending", Path(tmp) / "drafts")
            clean = []
            for _ in range(args.repeat):
                start = time.perf_counter()
                remove_stale_temps(folders)
                clean.append((time.perf_counter() - start) * 1000)
            dirty, removed = [], 0
            for _ in range(args.repeat):
                _leftovers(vault, 5)
                start = time.perf_counter()
                removed += remove_stale_temps(folders)
                dirty.append((time.perf_counter() - start) * 1000)
            print(f"{size:>16,} {statistics.median(clean):>22.2f} {statistics.median(dirty):>19.2f} "
                  f"{removed // args.repeat:>8}")


if __name__ == "__main__":
    main()
