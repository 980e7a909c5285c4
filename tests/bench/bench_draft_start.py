"""``reverie draft new`` with the near-duplicate check against ``--no-duplicate-check``, whole process.

    nice python tests/bench/bench_draft_start.py [--memories 50] [--runs 3] [--backend NAME] [--json]

A temporary home gets a vault (the real Argon2id parameters, as a person's vault has them) holding
``--memories`` finalized memories. Then ``reverie draft new "…"`` runs as a fresh process, with the
passphrase in ``REVERIE_PASSPHRASE``: first once each way to warm up (the first check prepares the
ONNX model and embeds the memories: timed and shown apart), then ``--runs`` times each way,
alternating with ``reverie context "…"``, ``reverie suggest <draft> --dry-run`` and ``reverie draft
list`` (a command on the same home that needs no model: the baseline). Reported: the median wall
time of each, the check's ratio (target ≤ 2), each command against ``draft list``, which heavy
packages each command imports (one more run under ``python -X importtime``), and what the model's
``notice`` lines said.
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

from core.config import EmbeddingConfig
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


HEAVY = ("torch", "sentence_transformers", "transformers", "onnxruntime")


def run(env: dict[str, str], *args: str, importtime: bool = False) -> tuple[float, str, str]:
    """One ``reverie`` process: wall seconds, stdout, stderr (``importtime``: under ``-X importtime``)."""
    flags = ["-X", "importtime"] if importtime else []
    started = time.perf_counter()
    done = subprocess.run([sys.executable, *flags, "-m", "tui_app.cli.main", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"reverie {' '.join(args)} failed ({done.returncode}): {done.stderr.strip()[-400:]}")
    return seconds, done.stdout, done.stderr


def heavy_imports(stderr: str) -> list[str]:
    """The heavy top-level packages a ``-X importtime`` run imported."""
    seen = set()
    for line in stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            name = line.rsplit("|", 1)[1].strip()
            if name.split(".")[0] in HEAVY:
                seen.add(name.split(".")[0])
    return sorted(seen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memories", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--backend", default=None,
                        help="embedding.backend for the home's config.toml (default: the product's own)")
    parser.add_argument("--model-cache", type=Path,
                        help="a models cache to reuse (default: a fresh one, so the first run prepares the model)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-draft-") as tmp_name:
        tmp = Path(tmp_name)
        paths = HomePaths(tmp / "home", tmp / "cache").ensure()
        if args.backend:
            paths.config.write_text(f'[embedding]\nbackend = "{args.backend}"\n', encoding="utf-8")
        args.backend = args.backend or f"{EmbeddingConfig().backend} (the default)"
        vault = MemoryVault.create(paths, PASSPHRASE, KdfParams())
        for text in memory_texts(args.memories):
            vault.add_memory(text, ["family"])
        env = {**os.environ, "REVERIE_HOME": str(paths.root), "REVERIE_CACHE": str(tmp / "cache-root"),
               "REVERIE_PASSPHRASE": PASSPHRASE}
        env.pop("REVERIE_MODEL_CACHE", None)
        if args.model_cache is not None:
            env["REVERIE_MODEL_CACHE"] = str(args.model_cache.absolute())
        first_checked, _, first_notes = run(env, "draft", "new", "We baked bread together on a quiet morning.",
                                            "--on-duplicate", "keep-both")
        first_plain, out, _ = run(env, "draft", "new", "Grandpa and I planted tomatoes last spring.",
                                  "--no-duplicate-check")
        draft_id = out.strip().splitlines()[0]
        commands: dict[str, tuple[str, ...]] = {
            "draft new (duplicate check)": ("draft", "new", "Mina and I walked along the river, take {i}.",
                                            "--on-duplicate", "keep-both"),
            "draft new --no-duplicate-check": ("draft", "new", "A quick note, take {i}.", "--no-duplicate-check"),
            "context": ("context", "when did we bake bread with grandpa"),
            "suggest --dry-run": ("suggest", draft_id, "--dry-run"),
            "draft list (no model)": ("draft", "list"),
        }
        run(env, *commands["context"])  # its first run syncs the vault into the index: warm-up, not timed
        times: dict[str, list[float]] = {name: [] for name in commands}
        notes = ""
        for i in range(args.runs):
            for name, argv in commands.items():  # interleaved, so load changes hit every row alike
                seconds, _, err = run(env, *(a.format(i=i) for a in argv))
                times[name].append(seconds)
                if name.startswith("draft new (dup"):
                    notes = err
        imports = {name: heavy_imports(run(env, *(a.format(i=99) for a in argv), importtime=True)[2])
                   for name, argv in commands.items()}
    medians = {name: statistics.median(values) for name, values in times.items()}
    plain = medians["draft new --no-duplicate-check"]
    no_model = medians["draft list (no model)"]
    result = {
        "memories": args.memories,
        "backend": args.backend,
        "runs": args.runs,
        "load_average": os.getloadavg(),
        "median_s": medians,
        "runs_s": times,
        "heavy_imports": imports,
        "checked_median_s": medians["draft new (duplicate check)"],
        "no_check_median_s": plain,
        "ratio": medians["draft new (duplicate check)"] / plain,
        "vs_no_model_command": {name: m / no_model for name, m in medians.items()},
        "first_checked_s": first_checked,
        "first_no_check_s": first_plain,
        "first_checked_notices": [line for line in first_notes.splitlines() if "model" in line],
        "later_checked_notices": [line for line in notes.splitlines() if "model" in line],
    }
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(f"reverie, {args.memories} memories, backend {args.backend}, median of {args.runs} (whole process), "
          f"load average {' '.join(f'{x:.1f}' for x in result['load_average'])}")
    print(f"  {'command':34} {'median s':>8} {'× draft list':>12}  heavy imports   runs")
    for name, m in medians.items():
        print(f"  {name:34} {m:8.2f} {result['vs_no_model_command'][name]:12.2f}  "
              f"{','.join(imports[name]) or '-':15} {[round(t, 2) for t in times[name]]}")
    print(f"  draft new, check / no check: {result['ratio']:.2f}   (target ≤ 2)")
    print(f"  first run ever, checked      {first_checked:6.2f} s   notices {result['first_checked_notices']}")
    print(f"  first run ever, unchecked    {first_plain:6.2f} s")
    print(f"  notices on later checked runs: {result['later_checked_notices']}")


if __name__ == "__main__":
    main()
