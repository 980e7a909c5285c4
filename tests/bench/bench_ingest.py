"""Ingest throughput of the lossless log, without embedding.

    python tests/bench/bench_ingest.py --turns 100000 [--days 365] [--json]

Writes N synthetic generic-JSONL turns (English, Korean and Japanese sentences, ~30 sessions, spread
over D days), then times, in a fresh home in a temporary folder:

- first ingest (every turn new: parse, validate, dedup index, one append + fsync per day per batch);
- re-ingest of the same file (every turn a duplicate: nothing written);
- an incremental ingest of 1% new turns into the existing days;
- reading every day file back through ``read_day`` (what an indexer does first);
- a second ingest of a file whose 1,000 lines are all already quarantined (exit code 0).

CPU seconds are printed beside wall seconds where they matter: on a shared machine they vary less.

For embedding throughput (measured by the index engineer), call ``build_home(folder, turns)``: it
returns the ``HomePaths`` of a home whose log holds the synthetic turns, and the ingest time, so
``turns / seconds`` can be set beside the embedding rate on the same turns.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.conversation import ingest, list_day_files, read_day
from core.paths import HomePaths

_SENTENCES = (
    "We walked along the river and talked about the plan for next week.",
    "The meeting moved to Thursday afternoon because of the release.",
    "어제 서울숲에서 산책하면서 이사 이야기를 했어.",
    "다음 주 화요일 저녁에 회의가 있어.",
    "先週の火曜日の夜に会議の準備をしました。",
    "明日の朝は駅で待ち合わせにしましょう。",
    "Remind me what Kate said about skiing in March.",
    "The index rebuild went from forty seconds to about one second.",
)
_START = datetime(2025, 1, 1, tzinfo=UTC)


def synthetic_records(turns: int, days: int = 365, seed: int = 0, prefix: str = "bench") -> Iterator[dict[str, object]]:
    """Generic-JSONL records in time order over ``days`` days: ``ts``, ``role``, ``text``, ``actor``,
    ``session``, ``id`` (``<prefix>-<n>``)."""
    rng = random.Random(seed)
    step = days * 86400 / max(turns, 1)
    for n in range(turns):
        moment = _START + timedelta(seconds=n * step)
        role = "user" if n % 2 == 0 else "assistant"
        text = " ".join(rng.choice(_SENTENCES) for _ in range(rng.randint(1, 3)))
        yield {"ts": moment.isoformat(), "role": role, "text": f"{text} (#{n})",
               "actor": "me" if role == "user" else "model-x", "session": f"s{n // 40 % 30}", "id": f"{prefix}-{n}"}


def write_corpus(path: Path, turns: int, days: int = 365, seed: int = 0, prefix: str = "bench") -> Path:
    with path.open("w", encoding="utf-8") as out:
        for record in synthetic_records(turns, days, seed, prefix):
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return path


def build_home(folder: Path, turns: int, days: int = 365) -> tuple[HomePaths, float]:
    """A home under ``folder`` whose log holds ``turns`` synthetic turns, and the ingest seconds."""
    paths = HomePaths(folder / "home", folder / "cache")
    corpus = write_corpus(folder / "corpus.jsonl", turns, days)
    started = time.perf_counter()
    report = ingest(paths, [corpus], fmt="generic")
    elapsed = time.perf_counter() - started
    assert report.added == turns and not report.quarantined, report.to_dict()
    return paths, elapsed


def measure(turns: int, days: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        paths, first_s = build_home(folder, turns, days)
        corpus = folder / "corpus.jsonl"
        size = corpus.stat().st_size

        started, cpu = time.perf_counter(), time.process_time()
        again = ingest(paths, [corpus], fmt="generic")
        again_s, again_cpu = time.perf_counter() - started, time.process_time() - cpu
        assert again.added == 0 and again.duplicates == turns

        extra = max(turns // 100, 1)
        extra_file = write_corpus(folder / "extra.jsonl", extra, days, seed=1, prefix="extra")
        started = time.perf_counter()
        more = ingest(paths, [extra_file], fmt="generic")
        more_s = time.perf_counter() - started
        assert more.added == extra

        started, cpu = time.perf_counter(), time.process_time()
        day_files = list_day_files(paths)
        read = sum(len(read_day(day.path).turns) for day in day_files)
        read_s, read_cpu = time.perf_counter() - started, time.process_time() - cpu

        # a file with bad lines, ingested twice: the second run reports them as already quarantined
        broken = folder / "broken.jsonl"
        broken.write_text("".join(f'{{"ts": "2025-01-0{1 + n % 9}T00:00:00Z", "role": "nobody", "text": "x"}}\n'
                                  for n in range(1000)))
        first_bad = ingest(paths, [broken], fmt="generic")
        started = time.perf_counter()
        second_bad = ingest(paths, [broken], fmt="generic")
        quiet_s = time.perf_counter() - started
        assert len(first_bad.quarantined) == 1000 and second_bad.exit_code == 0
        assert len(second_bad.already_quarantined) == 1000
        assert read == turns + extra
        log_bytes = sum(day.size for day in day_files)

    return {
        "turns": turns,
        "days": len(day_files),
        "input_MB": round(size / 1e6, 1),
        "log_MB": round(log_bytes / 1e6, 1),
        "first_ingest_s": round(first_s, 2),
        "first_ingest_turns_per_s": round(turns / first_s),
        "first_ingest_MB_per_s": round(size / 1e6 / first_s, 1),
        "reingest_all_duplicates_s": round(again_s, 2),
        "reingest_turns_per_s": round(turns / again_s),
        "reingest_cpu_s": round(again_cpu, 2),
        f"incremental_{extra}_turns_s": round(more_s, 2),
        "read_back_all_days_s": round(read_s, 2),
        "read_back_turns_per_s": round((turns + extra) / read_s),
        "read_back_cpu_s": round(read_cpu, 2),
        "reingest_1000_known_bad_lines_s": round(quiet_s, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=100_000)
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = measure(args.turns, args.days)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    width = max(len(key) for key in result)
    print("| measure | value |\n|---|---|")
    for key, value in result.items():
        print(f"| {key:<{width}} | {value} |")


if __name__ == "__main__":
    main()
