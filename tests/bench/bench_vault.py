"""Vault figures: finalize time per memory, and `verify` time over N memories.

    python tests/bench/bench_vault.py --memories 10000 [--json]

Builds a vault in a temporary folder with real Argon2id parameters (the defaults), finalizes N
reviewed drafts (each with two suggestions, one edited acceptance, one rejection), then times a
full verification (every record decrypted and checked, the ledger chain recomputed).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.paths import HomePaths
from core.vault.store import MemoryVault
from core.vault.verify import verify_home


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        paths = HomePaths(Path(tmp) / "home", Path(tmp) / "cache")
        started = time.perf_counter()
        vault = MemoryVault.create(paths, "bench passphrase")
        unlock_s = time.perf_counter() - started
        finalize_ms: list[float] = []
        for i in range(args.memories):
            draft = vault.create_draft(f"Memory number {i}: we walked by the river and talked about the plan.",
                                       ["bench"])
            draft = draft.add_suggestion("location", "Seoul", "bench", model="m", confidence=0.7, suggestion_id="a")
            draft = draft.add_suggestion("title", "Walk", "bench", suggestion_id="b")
            draft = draft.accept("a", reviewer="me", value="Seoul Forest").reject_suggestion("b", reviewer="me")
            draft = draft.approve(reviewer="me")
            t0 = time.perf_counter()
            vault.finalize_draft(draft)
            finalize_ms.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        report = verify_home(paths, vault.keys)
        verify_s = time.perf_counter() - t0
        assert report.ok, report.problems[:3]
        last_100 = statistics.mean(finalize_ms[-100:])
        finalize_ms.sort()
        result = {
            "memories": args.memories,
            "create_vault_s (Argon2id t=3, 64 MiB, p=4)": round(unlock_s, 3),
            "finalize_ms_p50": round(statistics.median(finalize_ms), 2),
            "finalize_ms_p95": round(finalize_ms[int(len(finalize_ms) * 0.95) - 1], 2),
            "finalize_ms_last_100_mean": round(last_100, 2),
            "verify_s": round(verify_s, 2),
            "verify_ms_per_memory": round(verify_s * 1000 / args.memories, 3),
        }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        width = max(len(k) for k in result)
        print("| measure | value |\n|---|---|")
        for key, value in result.items():
            print(f"| {key:<{width}} | {value} |")


if __name__ == "__main__":
    main()
