"""`reverie backup` against a plain copy of the same home, in one run.

A synthetic home: day logs of realistic JSONL turns (``--mb`` megabytes over ``--days`` days) and
``--records`` small record files of random bytes (the size of sealed memories). Timed, each against
the *reference* of the same run (``shutil.copytree`` of the home, page cache warm, no fsync):

- ``first backup``: every chunk new (HMAC, AES-256-GCM, a temporary file renamed per blob), then
  one ``sync(2)`` after the home's locks are released (``of which the sync``), the manifest last;
- ``unchanged``: a second backup with nothing changed (read and HMAC everything, write nothing);
- ``one day added``: a new day log of 1/``--days`` of the log;
- ``check`` and ``check --read-data``; ``restore`` (no reindex: the index is the reindex's cost).

The home's writers wait while a backup reads the home: ``first backup`` minus its sync, and
``unchanged``, are how long. Run::

    nice python tests/bench/bench_backup.py [--mb 100] [--days 365] [--records 2000] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.backup.check import check_repository
from core.backup.repository import Repository
from core.backup.restore import pick_snapshot, restore_snapshot
from core.backup.take import take_backup
from core.paths import HomePaths
from core.vault.crypto import KdfParams

T = TypeVar("T")
WORDS = ["we", "talked", "about", "the", "trip", "garden", "report", "dinner", "tomorrow", "snow", "deadline",
         "plan", "idea", "회의", "예산", "내일", "会議", "予算", "明日", "remember", "decided", "moved", "kept"]


def _day_log(day: int, size: int, rng: random.Random) -> bytes:
    lines, total, n = [], 0, 0
    while total < size:
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 60)))
        line = json.dumps({"id": f"t-{day}-{n}", "ts": f"2025-01-01T00:{n % 60:02d}:00Z", "actor": "me",
                           "role": "user", "type": "text", "text": text, "session": f"s{day}"},
                          ensure_ascii=False).encode() + b"\n"
        lines.append(line)
        total += len(line)
        n += 1
    return b"".join(lines)


def build(root: Path, mb: int, days: int, records: int) -> HomePaths:
    paths = HomePaths(root=root, cache=root / ".cache").ensure()
    rng = random.Random(7)
    per_day = mb * 1024 * 1024 // days
    for day in range(days):
        path = paths.logs / "2025" / f"{day:03d}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        path.write_bytes(_day_log(day, per_day, rng))
    for i in range(records):
        (paths.vault / f"mem_{i:024x}.json").write_bytes(os.urandom(rng.randint(900, 2500)))
    (paths.root / "ledger.jsonl").write_bytes(os.urandom(records * 400))
    return paths


class TimedRepository(Repository):
    """Records how long the sync after the home's locks took: the rest of a backup holds them."""

    synced = 0.0

    def sync(self) -> None:
        start = time.perf_counter()
        super().sync()
        self.synced = time.perf_counter() - start


def timed(fn: Callable[[], T]) -> tuple[float, T]:
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=int, default=100)
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-backup-") as tmp:
        base = Path(tmp)
        paths = build(base / "home", args.mb, args.days, args.records)
        size = sum(p.stat().st_size for p in paths.root.rglob("*") if p.is_file())
        files = sum(1 for p in paths.root.rglob("*") if p.is_file())
        reference, _ = timed(lambda: shutil.copytree(paths.root, base / "copy"))
        created = Repository.create(base / "repo", "bench passphrase", KdfParams.for_tests())
        repo = TimedRepository(created.root, created.keys, created.repo_id)
        rows: dict[str, float] = {"reference (copytree)": reference}
        rows["first backup"], first = timed(lambda: take_backup(paths, repo))
        rows["  of which the sync"] = repo.synced
        rows["unchanged"], again = timed(lambda: take_backup(paths, repo))
        extra = paths.logs / "2025" / "new.jsonl"
        extra.write_bytes(_day_log(999, size // args.days, random.Random(8)))
        rows["one day added"], third = timed(lambda: take_backup(paths, repo))
        rows["check"], report = timed(lambda: check_repository(repo))
        rows["check --read-data"], deep = timed(lambda: check_repository(repo, read_data=True))
        rows["restore"], _ = timed(lambda: restore_snapshot(repo, pick_snapshot(repo, None), base / "restored"))
        assert report.ok and deep.ok and again.new_blobs == 0 and third.new_blobs >= 1
        repo_bytes = sum(p.stat().st_size for p in (base / "repo").rglob("*") if p.is_file())
    result = {"home_bytes": size, "files": files, "repository_bytes": repo_bytes, "first_new_blobs": first.new_blobs,
              "added_new_blobs": third.new_blobs, "seconds": rows,
              "ratio_to_reference": {k: v / reference for k, v in rows.items()}}
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"home: {size / 1e6:.1f} MB in {files} files; repository after three snapshots: {repo_bytes / 1e6:.1f} MB "
          f"({first.new_blobs} blobs, then {third.new_blobs} for the added day)")
    print(f"{'':22} {'seconds':>8} {'× copytree':>10} {'MB/s':>8}")
    for name, seconds in rows.items():
        print(f"{name:22} {seconds:8.2f} {seconds / reference:10.1f} {size / 1e6 / seconds:8.0f}")


if __name__ == "__main__":
    main()
