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

Bytecode: the processes keep compiled modules in a private ``PYTHONPYCACHEPREFIX`` (a temporary folder,
filled by the warm-up runs), as an installed Reverie has its ``.pyc`` files, even where the
environment says ``PYTHONDONTWRITEBYTECODE`` (this machine's does: then every process compiles every
module it imports, which costs the checked path, importing more modules, about 0.2 s more);
``--no-bytecode-cache`` keeps the environment as it is.

Runtime agreement (default backend only): in this process, the bench's memories and drafts (and a
near copy of a memory) embedded by ONNX Runtime, which serves a process's first few texts, and by
OpenVINO, which serves bulk (:mod:`core.embed.quick_start`): the lowest cosine between the two
runtimes' vectors of the same text, and whether the duplicate check (every memory, the configured
threshold) decides the same for each draft with either runtime.
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
from core.vault.store import MemoryStore

ROOT = Path(__file__).resolve().parents[2]

PASSPHRASE = "a passphrase for timing"
PEOPLE = ("Mina", "grandpa", "Joon", "the neighbours", "Aunt Sook", "my sister", "the kids")
DOINGS = (
    "walked along the river",
    "baked bread",
    "planted tomatoes",
    "watched the first snow",
    "took the night train to Busan",
    "fixed the old bicycle",
    "read a story aloud",
)
WHENS = (
    "on a rainy Sunday",
    "after the school concert",
    "during the summer holiday",
    "the morning of the move",
    "on New Year's Eve",
    "before the storm",
    "at Chuseok",
)


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
    done = subprocess.run(
        [sys.executable, *flags, "-m", "tui_app.cli.main", *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
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


DRAFTS = (
    "Mina and I walked along the river, take 1.",
    "A quick note, take 1.",
    "We baked bread together on a quiet morning.",
    "Grandpa and I planted tomatoes last spring.",
    "Mina and I walked along the river on a rainy Sunday; memory number 1.",
)


def runtime_agreement(memories: list[str], model_cache: Path | None, threshold: float) -> dict[str, object]:
    """ONNX Runtime's and OpenVINO's vectors of the same texts, and the duplicate check with each."""
    from core.duplicates import check_duplicate
    from core.embed.onnx_backend import OnnxEmbedder
    from core.embed.openvino_backend import OpenVinoEmbedder
    from core.index.model import MemoryDoc

    docs = [MemoryDoc(f"m{i}", "2026-01-01T00:00:00+00:00", text) for i, text in enumerate(memories)]
    texts = [*memories, *DRAFTS]
    quick, bulk = OnnxEmbedder(cache_dir=model_cache), OpenVinoEmbedder(cache_dir=model_cache)
    cosines = (quick.embed(texts) * bulk.embed(texts)).sum(axis=1)
    decisions = []
    for draft in DRAFTS:
        a, b = (check_duplicate(draft, e, threshold=threshold, memories=docs) for e in (quick, bulk))
        best = (a.matches[0].similarity, b.matches[0].similarity)
        decisions.append(
            {
                "draft": draft,
                "duplicate": [a.duplicate is not None, b.duplicate is not None],
                "best_cosine": best,
                "same": (a.duplicate is None) == (b.duplicate is None),
            }
        )
    return {
        "texts": len(texts),
        "min_cosine": float(cosines.min()),
        "mean_cosine": float(cosines.mean()),
        "openvino_precision": bulk.precision,
        "decisions": decisions,
        "all_same": all(d["same"] for d in decisions),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memories", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--backend", default=None, help="embedding.backend for the home's config.toml (default: the product's own)"
    )
    parser.add_argument(
        "--model-cache",
        type=Path,
        help="a models cache to reuse (default: a fresh one, so the first run prepares the model)",
    )
    parser.add_argument(
        "--no-bytecode-cache",
        action="store_true",
        help="leave PYTHONDONTWRITEBYTECODE and PYTHONPYCACHEPREFIX as the environment has them",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-draft-") as tmp_name:
        tmp = Path(tmp_name)
        paths = HomePaths(tmp / "home", tmp / "cache").ensure()
        if args.backend:
            paths.config.write_text(f'[embedding]\nbackend = "{args.backend}"\n', encoding="utf-8")
        args.backend = args.backend or f"{EmbeddingConfig().backend} (the default)"
        vault = MemoryStore.create(paths, PASSPHRASE, KdfParams())
        for text in memory_texts(args.memories):
            vault.add_memory(text, ["family"])
        env = {
            **os.environ,
            "REVERIE_HOME": str(paths.root),
            "REVERIE_CACHE": str(tmp / "cache-root"),
            "REVERIE_PASSPHRASE": PASSPHRASE,
        }
        env.pop("REVERIE_MODEL_CACHE", None)
        if args.model_cache is not None:
            env["REVERIE_MODEL_CACHE"] = str(args.model_cache.absolute())
        if not args.no_bytecode_cache:  # compiled once by the warm-up runs, as an installed package has them
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
        first_checked, _, first_notes = run(
            env, "draft", "new", "We baked bread together on a quiet morning.", "--on-duplicate", "keep-both"
        )
        first_plain, out, _ = run(
            env, "draft", "new", "Grandpa and I planted tomatoes last spring.", "--no-duplicate-check"
        )
        draft_id = out.strip().splitlines()[0]
        commands: dict[str, tuple[str, ...]] = {
            "draft new (duplicate check)": (
                "draft",
                "new",
                "Mina and I walked along the river, take {i}.",
                "--on-duplicate",
                "keep-both",
            ),
            "draft new --no-duplicate-check": ("draft", "new", "A quick note, take {i}.", "--no-duplicate-check"),
            "context": ("context", "when did we bake bread with grandpa"),
            "suggest --dry-run": ("suggest", draft_id, "--dry-run"),
            "draft list (no model)": ("draft", "list"),
        }
        run(env, *commands["context"])  # its first run syncs the vault into the index: warm-up, not timed
        run(env, *(a.format(i="warm") for a in commands["suggest --dry-run"]))  # compiles its modules too
        times: dict[str, list[float]] = {name: [] for name in commands}
        notes = ""
        for i in range(args.runs):
            for name, argv in commands.items():  # interleaved, so load changes hit every row alike
                seconds, _, err = run(env, *(a.format(i=i) for a in argv))
                times[name].append(seconds)
                if name.startswith("draft new (dup"):
                    notes = err
        imports = {
            name: heavy_imports(run(env, *(a.format(i=99) for a in argv), importtime=True)[2])
            for name, argv in commands.items()
        }
        agreement = None
        if args.backend.startswith("openvino"):
            from core.config import RecallConfig

            model_cache = Path(env.get("REVERIE_MODEL_CACHE") or tmp / "cache-root" / "models")
            agreement = runtime_agreement(memory_texts(args.memories), model_cache, RecallConfig().duplicate_threshold)
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
        "bytecode_cache": not args.no_bytecode_cache,
        "runtime_agreement": agreement,
    }
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(
        f"reverie, {args.memories} memories, backend {args.backend}, median of {args.runs} (whole process), "
        f"load average {' '.join(f'{x:.1f}' for x in result['load_average'])}, "
        f"bytecode cache {'on' if result['bytecode_cache'] else 'as the environment says'}"
    )
    print(f"  {'command':34} {'median s':>8} {'× draft list':>12}  heavy imports   runs")
    for name, m in medians.items():
        print(
            f"  {name:34} {m:8.2f} {result['vs_no_model_command'][name]:12.2f}  "
            f"{','.join(imports[name]) or '-':15} {[round(t, 2) for t in times[name]]}"
        )
    print(f"  draft new, check / no check: {result['ratio']:.2f}   (target ≤ 2)")
    print(f"  first run ever, checked      {first_checked:6.2f} s   notices {result['first_checked_notices']}")
    print(f"  first run ever, unchecked    {first_plain:6.2f} s")
    print(f"  notices on later checked runs: {result['later_checked_notices']}")
    if agreement is not None:
        precision = agreement["openvino_precision"]
        print(
            f"  ONNX Runtime vs OpenVINO ({precision}) on {agreement['texts']} texts: cosine min "
            f"{agreement['min_cosine']:.6f}, mean {agreement['mean_cosine']:.6f}; duplicate check decides the same "
            f"for every draft: {agreement['all_same']}"
        )
        for d in agreement["decisions"]:
            print(
                f"    {d['draft'][:50]:50} duplicate {d['duplicate']}  best cosine "
                f"{d['best_cosine'][0]:.5f} / {d['best_cosine'][1]:.5f}"
            )


if __name__ == "__main__":
    main()
