"""What checking the limits on assistant proposals costs as drafts pile up.

    python tests/bench/bench_proposal_limits.py [--drafts 1000]

The limits (``[assistants]`` in config.toml) are counted from the drafts themselves, so they hold
across processes and restarts. Listing drafts decrypts each one; the counter remembers what it read
per file and reads again only files whose inode, size or times changed (drafts are replaced by rename).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.assist.proposal_limits import ProposalCounter
from core.clock import utc_now
from core.config import AssistantsConfig
from core.paths import HomePaths
from core.vault.crypto import KdfParams
from core.vault.store import MemoryStore


def ms(action: Callable[[], object], repeat: int = 1) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--drafts", type=int, default=1000)
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="reverie-bench-limits-"))
    try:
        paths = HomePaths(root=base / "home", cache=base / "cache").ensure()
        vault = MemoryStore.create(paths, "bench", KdfParams.for_tests())
        for i in range(args.drafts):
            draft = vault.create_draft(f"draft {i} " + "words " * 40, (), created_by="mcp:bench", save=False)
            for j in range(3):
                draft = draft.add_suggestion("title", f"t{j}", "mcp:bench", model="m", process_version="v",
                                             confidence=0.5)
            vault.save_draft(draft)
        unlimited = AssistantsConfig(proposals_per_hour=10**6, open_proposals=10**6)
        counter = ProposalCounter(vault, unlimited)
        rows = [
            ("list every draft (decrypts each)", ms(vault.list_drafts, 3)),
            ("stat every draft file", ms(lambda: [os.stat(p) for p in paths.drafts.glob("*.json")], 3)),
            ("first check in a process (reads every draft)", ms(lambda: counter.check_proposal("mcp:bench", 1,
                                                                                              utc_now()))),
            ("next check (nothing changed)", ms(lambda: counter.check_proposal("mcp:bench", 1, utc_now()), 5)),
        ]
        changed = vault.list_drafts()[0]
        vault.save_draft(changed.add_suggestion("mood", "calm", "me"))
        rows.append(("check after one draft changed", ms(lambda: counter.check_proposal("mcp:bench", 1, utc_now()))))
        print(f"{args.drafts:,} drafts of 3 suggestions each (median ms)\n")
        print("| step | ms |\n|---|---:|")
        for what, value in rows:
            print(f"| {what} | {value:,.1f} |")
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
