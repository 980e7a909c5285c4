"""What the freshness policy costs a search: how long a read takes when the log is ahead of the index.

    python tests/bench/bench_freshness.py [--base 100000] [--json]

A home with ``--base`` synthetic turns (``bench_ingest.synthetic_records``), fully indexed, no
vectors. For each lag (new turns of one day appended to its day file by another writer, as
``watch --follow`` or a second ingest would), one process-local ``Workbench.search`` of a rare word is timed end to end:
the lag check (stat calls), the catch-up of the exact index, the search. The reference is the same
search with nothing to catch up, measured in the same run. The table says what a lag of N MiB costs,
which is what ``core.workbench.freshness.CATCH_UP_BYTES`` is chosen from.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench_ingest import synthetic_records

from core.config import Config
from core.conversation import ingest
from core.paths import HomePaths
from core.workbench import Workbench

LAGS = (100, 1_000, 5_000, 10_000, 30_000)


def write(path: Path, records: object) -> Path:
    with path.open("w", encoding="utf-8") as handle:
        for record in records:  # type: ignore[attr-defined]
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    return path


def timed_search(bench: Workbench, query: str) -> tuple[float, int]:
    started = time.perf_counter()
    answer = bench.search(query)
    return time.perf_counter() - started, answer.freshness.caught_up_turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", type=int, default=100_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        paths = HomePaths(root=folder / "home", cache=folder / "cache")
        ingest(paths, [write(folder / "base.jsonl", synthetic_records(args.base))])
        config = Config()
        config.general.timezone = "UTC"
        bench = Workbench(paths, config, catch_up_bytes=1 << 40)
        bench.log.reindex(embed=False)
        reference, _ = timed_search(bench, "zanzibar")
        reference = min(reference, *(timed_search(bench, "zanzibar")[0] for _ in range(4)))
        start = args.base
        for lag in LAGS:
            # new turns of one day (what a day's conversations or a followed transcript add)
            source = write(folder / f"lag{lag}.jsonl",
                           synthetic_records(lag, days=1, seed=lag, prefix=f"lag{lag}-"))
            before = sum(p.stat().st_size for p in paths.logs.rglob("*.jsonl"))
            ingest(paths, [source])  # the log grows; the index does not follow yet
            grown = sum(p.stat().st_size for p in paths.logs.rglob("*.jsonl")) - before
            seconds, caught = timed_search(bench, "zanzibar")
            rows.append({"lag_turns": lag, "lag_mib": round(grown / 1_048_576, 2), "search_s": round(seconds, 3),
                         "caught_up": caught, "ratio": round(seconds / reference, 1)})
            start += lag
    if args.json:
        print(json.dumps({"base_turns": args.base, "reference_s": reference, "rows": rows}, indent=2))
        return
    print(f"base: {args.base:,} turns indexed; search with nothing to catch up: {reference * 1000:.1f} ms")
    print("| lag (turns) | lag (MiB of day files) | search incl. catch-up (s) | × reference |")
    print("|---|---|---|---|")
    for row in rows:
        print(f"| {row['lag_turns']:,} | {row['lag_mib']} | {row['search_s']} | {row['ratio']} |")


if __name__ == "__main__":
    main()
