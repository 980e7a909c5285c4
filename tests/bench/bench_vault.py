"""Vault figures: finalize time per memory, and `verify` time over N memories, in one process and with
the pool over records (``core.vault.scan``), this tree and (``--against REV``) an earlier commit, in the
same run.

    python tests/bench/bench_vault.py --memories 10000 [--json] [--home DIR [--passphrase P]]
                                      [--against REV] [--runs 3]

Builds a vault in a temporary folder with real Argon2id parameters (the defaults), finalizes N
reviewed drafts (each with two suggestions, one edited acceptance, one rejection), then times a
full verification (every record decrypted and checked, the ledger chain recomputed): with the records
read in one process, and spread over the usable cores. Each verification runs in a process of its own
(the vault unlocked before the clock starts), ``--runs`` times, the trees alternating so that they
share the machine's load; the table gives the medians of the wall time and of the CPU time (the
process plus its workers), and the load average. On a shared machine the wall time mostly says how
busy the others were; compare the CPU times, and the ratios within one run. ``--against`` is checked
out into a temporary git worktree and run with this venv (it must have ``core.workbench.verify``).
``--home`` keeps the built vault there and reuses it on the next run (building 10,000 takes minutes;
only the verify rows are then measured).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.paths import HomePaths
from core.vault import scan
from core.vault.store import MemoryStore

ROOT = Path(__file__).resolve().parents[2]


def build(vault: MemoryStore, count: int) -> list[float]:
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


# One verification, in a process of its own run from a tree (argv: tree, home, cache, passphrase, workers);
# prints its figures as JSON. Written against the API both trees share.
CHILD = """
import json, os, resource, sys, time
tree, home, cache, passphrase, workers = sys.argv[1:6]
sys.path.insert(0, tree)
from pathlib import Path
from core.paths import HomePaths
from core.vault import scan
from core.vault.crypto import unlock
from core.workbench.verify import verify_home
paths = HomePaths(Path(home), Path(cache))
keys = unlock(paths.vault_header, passphrase)
scan.default_workers = lambda: int(workers)  # the benchmark chooses; the code asks the machine
def children():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime
load = os.getloadavg()[0]
cpu0, child0, wall0 = time.process_time(), children(), time.perf_counter()
report = verify_home(paths, keys)
wall = time.perf_counter() - wall0
cpu = time.process_time() - cpu0 + children() - child0
assert report.ok, report.problems[:3]
print(json.dumps({"wall_s": wall, "cpu_s": cpu, "load": load, "memories": report.counts["memories"]}))
"""


def timed_verify(tree: Path, paths: HomePaths, passphrase: str, workers: int) -> dict[str, float]:
    """One full verification by the code of ``tree``, with the record scans in ``workers`` processes."""
    done = subprocess.run([sys.executable, "-c", CHILD, str(tree), str(paths.root), str(paths.cache), passphrase,
                           str(workers)], capture_output=True, text=True, check=False, cwd=tree)
    if done.returncode != 0:
        raise SystemExit(f"verify with {tree} failed: {done.stderr.strip().splitlines()[-1:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def run(paths: HomePaths, passphrase: str, count: int, trees: dict[str, Path], runs: int) -> dict[str, Any]:
    result: dict[str, Any] = {"memories": count}
    if paths.vault_header.exists():
        result["memories"] = len(scan.record_names(paths.vault, "mem_"))
        result["built"] = "reused"
    else:
        started = time.perf_counter()
        vault = MemoryStore.create(paths, passphrase)
        result["create_vault_s (Argon2id t=3, 64 MiB, p=4)"] = round(time.perf_counter() - started, 3)
        finalize_ms = build(vault, count)
        last_100 = statistics.mean(finalize_ms[-100:])
        finalize_ms.sort()
        result["finalize_ms_p50"] = round(statistics.median(finalize_ms), 2)
        result["finalize_ms_p95"] = round(finalize_ms[int(len(finalize_ms) * 0.95) - 1], 2)
        result["finalize_ms_last_100_mean"] = round(last_100, 2)
    cores = scan.usable_cores()
    ways = (("one process", 1), (f"pool of {cores}", cores))
    figures: dict[tuple[str, str], list[dict[str, float]]] = {}
    for _ in range(runs):
        for way, workers in ways:
            for label, tree in trees.items():
                figures.setdefault((label, way), []).append(timed_verify(tree, paths, passphrase, workers))
    for (label, way), rows in figures.items():
        for key in ("wall_s", "cpu_s", "load"):
            result[f"verify {label}, {way}: {key}"] = round(statistics.median(r[key] for r in rows), 2)
    for label in trees:
        best = min(result[f"verify {label}, {way}: wall_s"] for way, _ in ways)
        result[f"verify {label}: ms per memory (best way)"] = round(best * 1000 / max(1, result["memories"]), 3)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--home", type=Path, help="build the vault here and keep it (reused when it exists)")
    parser.add_argument("--passphrase", default="bench passphrase")
    parser.add_argument("--against", help="an earlier commit to time in the same run (a temporary git worktree)")
    parser.add_argument("--runs", type=int, default=3, help="verifications per tree and way (medians)")
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        trees = {"this tree": ROOT}
        if args.against:
            old = Path(stack.enter_context(tempfile.TemporaryDirectory())) / "old"
            subprocess.run(["git", "worktree", "add", "--detach", str(old), args.against], cwd=ROOT, check=True,
                           capture_output=True)
            stack.callback(subprocess.run, ["git", "worktree", "remove", "--force", str(old)], cwd=ROOT,
                           capture_output=True)
            trees[args.against] = old
        base = args.home if args.home is not None else Path(stack.enter_context(tempfile.TemporaryDirectory()))
        result = run(HomePaths(base / "home", base / "cache"), args.passphrase, args.memories, trees, args.runs)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        width = max(len(k) for k in result)
        print("| measure | value |\n|---|---|")
        for key, value in result.items():
            print(f"| {key:<{width}} | {value} |")


if __name__ == "__main__":
    main()
