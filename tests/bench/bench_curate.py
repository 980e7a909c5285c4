"""Benchmark curation: scan a scope of 10,000 files, then move 1,000 to cold storage and restore them.

    python tests/bench/bench_curate.py            # a table
    python tests/bench/bench_curate.py --json     # the same figures as JSON
    python tests/bench/bench_curate.py --files 2000 --moves 200

The scope is a folder of markdown notes with a realistic mix: frontmatter on a third of them, links
between recent notes, a skewed age distribution (most notes days old, a tail a year or more old),
sizes from a few hundred bytes to a few kilobytes. Every move is a real one (copy, fsync, verify,
tombstone, signed ledger entry, unlink) and every restore is verified before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.config import Config, ScopeConfig
from core.curate import engine
from core.paths import HomePaths
from core.vault.crypto import KdfParams, create_header

T = TypeVar("T")
NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
SINGLES = 20  # restores run as separate commands: each verifies the whole signed ledger first


def build_scope(root: Path, files: int, old: int, seed: int = 11) -> None:
    rng = random.Random(seed)
    recent = files - old
    for i in range(files):
        is_old = i >= recent
        age = rng.uniform(400, 1500) if is_old else rng.expovariate(1 / 20)
        parts = []
        if i % 3 == 0:
            parts.append(f"---\nname: note {i}\ndescription: a note\ntype: reference\n---\n")
        parts.append(f"# Note {i}\n\n" + "lorem ipsum dolor sit amet " * rng.randint(5, 120))
        if not is_old:
            parts.append(f"\n\nSee [[note-{(i + 1) % recent}]] and [prev](note-{(i - 1) % recent}.md).")
        path = root / f"d{i // 500:02d}" / f"note-{i}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(parts), encoding="utf-8")
        stamp = (NOW - timedelta(days=age)).timestamp()
        os.utime(path, (stamp, stamp))


def timed(label: str, rows: list[dict[str, object]], fn: Callable[[], T], count: int) -> T:
    start = time.perf_counter()
    result = fn()
    seconds = time.perf_counter() - start
    rows.append({"step": label, "items": count, "seconds": round(seconds, 3),
                 "per_item_ms": round(1000 * seconds / max(count, 1), 3)})
    return result


def run(files: int, moves: int) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="reverie-bench-") as tmp:
        base = Path(tmp)
        paths = HomePaths.at(base / "home").ensure()
        keys = create_header(paths.vault_header, "bench passphrase", KdfParams.for_tests())
        root = base / "notes"
        # twice as many old notes as moves: calibration calls the older half of them clearly old
        timed("write the scope", rows, lambda: build_scope(root, files, 2 * moves), files)
        config = Config()
        config.curation.scopes.append(ScopeConfig(name="notes", kind="markdown", path=str(root)))
        config.curation.report_only_runs = 0
        config.curation.auto_move_cap = moves
        report = timed("scan (first: reads, judges, calibrates)", rows,
                       lambda: engine.scan(paths, config, now=NOW), files)
        timed("scan (again)", rows, lambda: engine.scan(paths, config, now=NOW), files)
        high = sum(1 for c in report.candidates if c.tier == "high")
        applied = timed(f"apply: move {moves}", rows,
                        lambda: engine.apply(paths, config, unlock=lambda: keys, now=NOW), moves)
        if len(applied.moved) != moves or applied.errors:
            got = len(applied.moved)
            raise SystemExit(f"expected {moves} moves (high tier: {high}), got {got}: {applied.errors[:3]}")

        singles = [m.stone.move_id for m in applied.moved[:SINGLES]]
        batch = [m.stone.move_id for m in applied.moved[SINGLES:]]

        def restore_singly() -> None:
            for move_id in singles:
                engine.restore(paths, config, move_id, unlock=lambda: keys, now=NOW)

        def restore_batch() -> None:
            done, errors = engine.restore_many(paths, config, batch, unlock=lambda: keys, now=NOW)
            if errors or len(done) != len(batch):
                raise SystemExit(f"restore failed: {errors[:3]}")

        label = f"restore {len(singles)}, one command each (ledger {moves}+)"
        timed(label, rows, restore_singly, len(singles))
        timed(f"restore {len(batch)} in one batch", rows, restore_batch, len(batch))
        back = sum(1 for m in applied.moved if m.places.target.is_file())
        if back != moves:
            raise SystemExit(f"only {back} of {moves} records came back")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--moves", type=int, default=1_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = run(args.files, args.moves)
    if args.json:
        print(json.dumps({"files": args.files, "moves": args.moves, "rows": rows}, indent=2))
        return
    print(f"{'step':<42} {'items':>7} {'seconds':>9} {'ms/item':>9}")
    for row in rows:
        print(f"{row['step']:<42} {row['items']:>7} {row['seconds']:>9.2f} {row['per_item_ms']:>9.2f}")


if __name__ == "__main__":
    main()
