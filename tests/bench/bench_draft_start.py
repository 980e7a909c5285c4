"""``reverie draft new`` with the near-duplicate check against ``--no-duplicate-check``, whole process.

    nice python tests/bench/bench_draft_start.py [--memories 50] [--runs 3] [--backend onnx] [--json]

A temporary home gets a vault (the real Argon2id parameters, as a person's vault has them) holding
``--memories`` finalized memories. Then ``reverie draft new "…"`` runs as a fresh process, with the
passphrase in ``REVERIE_PASSPHRASE``: first once each way to warm up (the first check prepares the
ONNX model and embeds the memories: timed and shown apart), then ``--runs`` times each way,
alternating. Reported: the median wall time of each and their ratio (target ≤ 2), and how much of
a checked run is the model (its ``notice`` lines say when a load starts).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.paths import HomePaths
from core.vault.crypto import KdfParams
from core.vault.store import MemoryVault

ROOT = Path(__file__).resolve().parents[2]

PASSPHRASE = "a passphrase for timing"
PEOPLE = ("Mina", "grandpa", "Joon", "the neighbours", "Aunt Sook", "my sister", "the kids")
DOINGS = ("walked along the river", "baked bread", "planted tomatoes", "watched the first snow",
          "took the night train to Busan", "fixed the old bicycle", "read a story aloud")
WHENS = ("on a rainy Sunday", "after the school concert", "during the summer holiday",
         "the morning of the move", "on New Year's Eve", "before the storm", "at Chuseok")


def memory_texts(n: int) -> list[str]:
    out = []
    for i in range(n):
        person, doing, when = PEOPLE[i % 7], DOINGS[(i // 7) % 7], WHENS[(i * 3) % 7]
        out.append(f"{person} and I {doing} {when}; memory number {i + 1}.")
    return out


def run(env: dict[str, str], *args: str) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "tui_app.cli.main", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"reverie {' '.join(args)} failed ({done.returncode}): {done.stderr.strip()[-400:]}")
    return seconds, done.stderr


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memories", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--backend", default="onnx", help="embedding.backend written to the home's config.toml")
    parser.add_argument("--model-cache", type=Path,
                        help="a models cache to reuse (default: a fresh one, so the first run prepares the model)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-draft-") as tmp_name:
        tmp = Path(tmp_name)
        paths = HomePaths(tmp / "home", tmp / "cache").ensure()
        paths.config.write_text(f'[embedding]\nbackend = "{args.backend}"\n', encoding="utf-8")
        vault = MemoryVault.create(paths, PASSPHRASE, KdfParams())
        for text in memory_texts(args.memories):
            vault.add_memory(text, ["family"])
        env = {**os.environ, "REVERIE_HOME": str(paths.root), "REVERIE_CACHE": str(tmp / "cache-root"),
               "REVERIE_PASSPHRASE": PASSPHRASE}
        env.pop("REVERIE_MODEL_CACHE", None)
        if args.model_cache is not None:
            env["REVERIE_MODEL_CACHE"] = str(args.model_cache.absolute())
        first_checked, first_notes = run(env, "draft", "new", "We baked bread together on a quiet morning.",
                                         "--on-duplicate", "keep-both")
        first_plain, _ = run(env, "draft", "new", "A note without the check.", "--no-duplicate-check")
        checked: list[float] = []
        plain: list[float] = []
        notes = ""
        for i in range(args.runs):
            seconds, notes = run(env, "draft", "new", f"Mina and I walked along the river, take {i}.",
                                 "--on-duplicate", "keep-both")
            checked.append(seconds)
            plain.append(run(env, "draft", "new", f"A quick note, take {i}.", "--no-duplicate-check")[0])
    result = {
        "memories": args.memories,
        "backend": args.backend,
        "runs": args.runs,
        "checked_median_s": statistics.median(checked),
        "no_check_median_s": statistics.median(plain),
        "ratio": statistics.median(checked) / statistics.median(plain),
        "checked_runs_s": checked,
        "no_check_runs_s": plain,
        "first_checked_s": first_checked,
        "first_no_check_s": first_plain,
        "first_checked_notices": [line for line in first_notes.splitlines() if "model" in line],
        "later_checked_notices": [line for line in notes.splitlines() if "model" in line],
    }
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(f"reverie draft new, {args.memories} memories, backend {args.backend}, median of {args.runs} (whole process)")
    print(f"  with the duplicate check     {result['checked_median_s']:6.2f} s   runs {checked}")
    print(f"  --no-duplicate-check         {result['no_check_median_s']:6.2f} s   runs {plain}")
    print(f"  ratio                        {result['ratio']:6.2f}   (target ≤ 2)")
    print(f"  first run ever, checked      {first_checked:6.2f} s   notices {result['first_checked_notices']}")
    print(f"  first run ever, unchecked    {first_plain:6.2f} s")
    print(f"  notices on later checked runs: {result['later_checked_notices']}")


if __name__ == "__main__":
    main()
