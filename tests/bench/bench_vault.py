"""Vault figures: finalize time per memory, and `verify` time over N memories, in one process and with
the pool over records (``core.vault.scan``), in the same run.

    python tests/bench/bench_vault.py --memories 10000 [--json] [--home DIR [--passphrase P]]

Builds a vault in a temporary folder with real Argon2id parameters (the defaults), finalizes N
reviewed drafts (each with two suggestions, one edited acceptance, one rejection), then times a
full verification (every record decrypted and checked, the ledger chain recomputed) twice: with the
records read in this process, and spread over the usable cores. Each row gives the wall time and the
CPU time (this process plus its workers) and the load average, since on a shared machine the wall
time mostly says how busy the others were. ``--home`` keeps the built vault there and reuses it on the
next run (building 10,000 takes minutes; only the verify rows are then measured).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.paths import HomePaths
from core.vault import scan
from core.vault.store import MemoryVault
from core.workbench.verify import verify_home


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def build(vault: MemoryVault, count: int) -> list[float]:
    finalize_ms: list[float] = []
    for i in range(count):
        draft = vault.create_draft(f"Memory number {i}: we walked by the river and talked about the plan.", ["bench"])
        draft = draft.add_suggestion("location", "Seoul", "bench", model="m", confidence=0.7, suggestion_id="a")
        draft = draft.add_suggestion("title", "Walk", "bench", suggestion_id="b")
        draft = draft.accept("a", reviewer="me", value="Seoul Forest").reject_suggestion("b", reviewer="me")
        draft = draft.approve(reviewer="me")
        vault.save_draft(draft)
        t0 = time.perf_counter()
        vault.finalize(draft.draft_id)
        finalize_ms.append((time.perf_counter() - t0) * 1000)
    return finalize_ms


def timed_verify(paths: HomePaths, vault: MemoryVault, workers: int) -> dict[str, float]:
    """One full verification with the record scans in ``workers`` processes (1: this process)."""
    chosen = scan.default_workers
    scan.default_workers = lambda: workers  # the benchmark chooses; the code asks the machine
    try:
        load = os.getloadavg()[0]
        cpu0, child0, wall0 = time.process_time(), _children_cpu(), time.perf_counter()
        report = verify_home(paths, vault.keys)
        wall = time.perf_counter() - wall0
        cpu = time.process_time() - cpu0 + _children_cpu() - child0
    finally:
        scan.default_workers = chosen
    assert report.ok, report.problems[:3]
    return {"wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "load": round(load, 1)}


def run(paths: HomePaths, passphrase: str, count: int) -> dict[str, Any]:
    result: dict[str, Any] = {"memories": count}
    if paths.vault_header.exists():
        vault = MemoryVault.unlock(paths, passphrase)
        found = len(scan.record_files(paths.vault, "mem_"))
        result["memories"] = found
        result["built"] = "reused"
    else:
        started = time.perf_counter()
        vault = MemoryVault.create(paths, passphrase)
        result["create_vault_s (Argon2id t=3, 64 MiB, p=4)"] = round(time.perf_counter() - started, 3)
        finalize_ms = build(vault, count)
        last_100 = statistics.mean(finalize_ms[-100:])
        finalize_ms.sort()
        result["finalize_ms_p50"] = round(statistics.median(finalize_ms), 2)
        result["finalize_ms_p95"] = round(finalize_ms[int(len(finalize_ms) * 0.95) - 1], 2)
        result["finalize_ms_last_100_mean"] = round(last_100, 2)
    cores = scan.usable_cores()
    for label, workers in (("verify, one process", 1), (f"verify, pool of {cores}", cores)):
        figures = timed_verify(paths, vault, workers)
        for key, value in figures.items():
            result[f"{label}: {key}"] = value
    result["verify_ms_per_memory (pool)"] = round(result[f"verify, pool of {cores}: wall_s"] * 1000
                                                  / max(1, result["memories"]), 3)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--home", type=Path, help="build the vault here and keep it (reused when it exists)")
    parser.add_argument("--passphrase", default="bench passphrase")
    args = parser.parse_args()
    if args.home is not None:
        result = run(HomePaths(args.home / "home", args.home / "cache"), args.passphrase, args.memories)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            result = run(HomePaths(Path(tmp) / "home", Path(tmp) / "cache"), args.passphrase, args.memories)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        width = max(len(k) for k in result)
        print("| measure | value |\n|---|---|")
        for key, value in result.items():
            print(f"| {key:<{width}} | {value} |")


if __name__ == "__main__":
    main()
