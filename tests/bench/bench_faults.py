"""Fault injection, the long run: tamper trials per class and crash trials per operation.

    python tests/bench/bench_faults.py                         # 200 tamper trials per class
    python tests/bench/bench_faults.py --trials 500 --seed 3 --json
    python tests/bench/bench_faults.py --crashes --crash-trials 30      # plus SIGKILL trials per operation
    python tests/bench/bench_faults.py --crashes --exhaustive           # kill at every file-system mutation
    python tests/bench/bench_faults.py --seed 7 --only flip --trial 12  # replay one tamper trial
    python tests/bench/bench_faults.py --crashes --seed 7 --only move --trial 3   # replay one crash trial

Tamper table: per class, trials, damage detected by ``verify`` (a problem other than ``incomplete``),
damage named (every damaged record's file, ledger line or id in a problem; a rollback reported as
``rolled_back`` against the checkpoint), records lost (untouched records that no longer load), crashes
(a traceback out of ``verify``), and the spread over the kinds of records damaged.

Crash table: per operation, trials, killed (the child died of SIGKILL before finishing), recovered
(after the next run ``verify`` is clean and the end state equals an uninterrupted run's), incomplete
(``verify`` named the interrupted operation right after the kill), lost records, half-written records,
crashes (a traceback from Reverie).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.faults.crashes import OPS, OpTally, crash_table, prepare, run_crash_trial
from tests.faults.homebuild import build_home
from tests.faults.tamper import CLASSES, ClassTally, run_trials, table


def tamper(args: argparse.Namespace, work: Path) -> tuple[dict[str, Any], bool]:
    classes = tuple(c for c in CLASSES if not args.only or c in args.only)
    started = time.perf_counter()
    template = build_home(work / "template")
    tallies, failures = run_trials(template, work / "trials", args.seed, args.trials, classes, args.trial,
                                   cleanup=not args.keep)
    seconds = time.perf_counter() - started
    if not args.json:
        print(f"Tamper trials (seed {args.seed}, {args.trials} per class, {seconds:.0f} s)")
        print(table(tallies))
        for failure in failures[:20]:
            print(failure.explain())
    data = {"seed": args.seed, "trials_per_class": args.trials, "seconds": round(seconds, 1),
            "classes": {cls: _tally(t) for cls, t in tallies.items()},
            "failures": [f.explain() for f in failures]}
    return data, not failures


def _tally(t: ClassTally) -> dict[str, Any]:
    return {"trials": t.trials, "detected": t.detected, "named": t.named, "lost": t.lost, "crashes": t.crashes,
            "by_target": {k: {"trials": v[0], "detected_and_named": v[1]} for k, v in sorted(t.by_target.items())}}


def crashes(args: argparse.Namespace, work: Path) -> tuple[dict[str, Any], bool]:
    ops = tuple(o for o in OPS if not args.only or o in args.only)
    tallies: dict[str, OpTally] = {}
    failures = []
    started = time.perf_counter()
    for op in ops:
        template = prepare(op, work / f"crash-{op}")
        tally = tallies.setdefault(op, OpTally())
        if args.trial is not None:
            numbers: list[int] = [args.trial]
        elif args.exhaustive and op != "reindex":
            numbers = list(range(template.events))
        else:
            numbers = list(range(args.crash_trials))
        for number in numbers:
            result = run_crash_trial(template, work / "crash-trials", args.seed, number,
                                     kill_at=number + 1 if args.exhaustive and op != "reindex" else None)
            tally.add(result)
            if not result.ok:
                failures.append(result)
            if not args.json and (number + 1) % 25 == 0:
                print(f"  {op}: {number + 1}/{len(numbers)}", file=sys.stderr)
    seconds = time.perf_counter() - started
    if not args.json:
        mode = "every mutation" if args.exhaustive else f"{args.crash_trials} per operation"
        print(f"\nCrash trials (seed {args.seed}, {mode}, {seconds:.0f} s)")
        print(crash_table(tallies))
        for failure in failures[:20]:
            print(failure.explain())
    data = {"seed": args.seed, "seconds": round(seconds, 1), "exhaustive": args.exhaustive,
            "operations": {op: dict(t.__dict__) for op, t in tallies.items()},
            "failures": [f.explain() for f in failures]}
    return data, not failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trials", type=int, default=200, help="tamper trials per class")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--only", action="append", help="a tamper class or crash operation (repeatable)")
    parser.add_argument("--trial", type=int, default=None, help="replay this one trial number")
    parser.add_argument("--crashes", action="store_true", help="also run the SIGKILL crash trials")
    parser.add_argument("--crash-trials", type=int, default=25, help="crash trials per operation")
    parser.add_argument("--exhaustive", action="store_true", help="kill at every file-system mutation in turn")
    parser.add_argument("--no-tamper", action="store_true", help="crash trials only")
    parser.add_argument("--keep", action="store_true", help="keep every trial's home (failed ones always stay)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="reverie-faults-"))
    report: dict[str, Any] = {"workdir": str(work)}
    ok = True
    try:
        if not args.no_tamper and not (args.crashes and args.only and all(o in OPS for o in args.only)):
            report["tamper"], passed = tamper(args, work)
            ok &= passed
        if args.crashes:
            report["crashes"], passed = crashes(args, work)
            ok &= passed
    finally:
        if ok and not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        elif not args.json:
            print(f"trial homes kept in {work}", file=sys.stderr)
    if args.json:
        print(json.dumps(report, indent=2))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
