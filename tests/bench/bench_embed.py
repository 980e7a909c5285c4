"""Embedding throughput and agreement, in one run on the same LoCoMo turns.

    nice python tests/bench/bench_embed.py ../shared/data/locomo10.json [--turns 3000] [--json]
        [--model-cache DIR] [--skip-cold]

Rows, all on the same texts (the first ``--turns`` LoCoMo turns, the text Reverie embeds, i.e. the
turn's words without the speaker):

- torch raw: ``SentenceTransformer(...).encode(texts)`` with torch's defaults (its thread count,
  batch size 32, its own sort by length over the whole call), after a warm-up on 128 texts (as the
  ONNX rows). This is the reference; it runs twice, first and near the end, and the ratios are
  against the mean of the two, so load that changes during the run hits both sides.
- onnx raw: ``OnnxEmbedder.embed(texts)`` in one call with the defaults (one one-thread stream per
  core), the same with the previous default (one stream on all cores, intra-op threads spinning),
  and in windows of ``Reindexer.window`` texts with and without the sort by length (what sorting buys).
- reverie reindex: a home holding the turns as day files (one LoCoMo session per day), then
  ``Reindexer.run()`` with the default embedder end to end: exact index, embedding, storage.
- the same reindex with the sentence-transformers backend (torch behind Reverie's windows).

Each row also shows the 1-minute load average just before it.

Recall@10 of the new vectors against the float torch vectors: per conversation wholly inside the
turns, each question's top 10 turns by cosine with torch vectors against the top 10 with the ONNX
vectors (float, and as stored in the index: int8). Cold load: a fresh process per backend, from
the first import to the first vector (the ONNX model prepared beforehand; the one-off preparation
is timed separately when the cache is empty). The machine is shared: compare ratios within a run.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.config import EmbeddingConfig
from core.embed import make_embedder
from core.embed.onnx_backend import OnnxEmbedder
from core.embed.sentence_transformers_backend import resolve_model
from core.index import HomeDayLogs, Reindexer, SearchIndex
from core.paths import HomePaths
from core.turns import Turn, day_file

DATE_FORMAT = "%I:%M %p on %d %B, %Y"


@dataclass
class Conversation:
    sample_id: str
    turns: list[dict[str, Any]]  # dia_id, speaker, text, session, ts
    qa: list[dict[str, Any]]


def load(path: Path) -> list[Conversation]:
    """LoCoMo's conversations: dated sessions in order, empty turns left out (as bench_locomo.py reads them;
    not imported from it, so this benchmark needs no part of Reverie beyond embedding and the index)."""
    out = []
    for number, sample in enumerate(json.loads(path.read_text(encoding="utf-8"))):
        conv = sample.get("conversation") or {}
        sessions = sorted(int(m.group(1)) for k in conv if (m := re.fullmatch(r"session_(\d+)", k)))
        turns: list[dict[str, Any]] = []
        for n in sessions:
            try:
                start = datetime.strptime(" ".join(str(conv.get(f"session_{n}_date_time")).split()), DATE_FORMAT)
            except ValueError:
                continue
            for i, item in enumerate(conv[f"session_{n}"]):
                text = str(item.get("text") or "").strip()
                if text and item.get("dia_id"):
                    turns.append({"dia_id": str(item["dia_id"]), "speaker": str(item.get("speaker") or "unknown"),
                                  "text": text, "session": n, "ts": start.replace(tzinfo=UTC) + timedelta(seconds=i)})
        out.append(Conversation(str(sample.get("sample_id") or f"conv-{number}"), turns, list(sample.get("qa") or [])))
    return out

COLD = """
import json, sys, time
t0 = time.perf_counter()
from pathlib import Path
from core.config import EmbeddingConfig
from core.embed import make_embedder
e = make_embedder(EmbeddingConfig(backend=sys.argv[1]), cache_dir=Path(sys.argv[2]))
t1 = time.perf_counter()
e.embed(["a first sentence"])
t2 = time.perf_counter()
e.embed(["one more sentence to embed"])
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "first_vector": t2 - t0, "warm_one": t3 - t2,
                  "torch_imported": "torch" in sys.modules}))
"""


def select(conversations: list[Any], limit: int) -> tuple[list[dict[str, Any]], list[Any]]:
    """The first ``limit`` turns (in conversation order) and the conversations wholly inside them."""
    turns: list[dict[str, Any]] = []
    whole = []
    for conv in conversations:
        room = limit - len(turns)
        if room <= 0:
            break
        for t in conv.turns[:room]:
            turns.append({**t, "conv": conv.sample_id})
        if len(conv.turns) <= room:
            whole.append(conv)
    return turns, whole


def rate(n: int, seconds: float) -> float:
    return n / seconds if seconds > 0 else float("inf")


def timed(fn: Any, *args: Any) -> tuple[Any, float]:
    started = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - started


def write_home(root: Path, turns: Sequence[dict[str, Any]]) -> HomePaths:
    """The turns as day files, one LoCoMo session per day (sessions of one conversation are days
    apart; conversations are shifted by a year each so their days do not mix)."""
    paths = HomePaths(root / "home", root / "cache").ensure()
    convs: dict[str, int] = {}
    by_day: dict[str, list[str]] = {}
    for t in turns:
        shift = convs.setdefault(t["conv"], len(convs))
        ts = t["ts"] + timedelta(days=366 * shift)
        turn = Turn(id=f"{t['conv']}:{t['dia_id']}", ts=ts.strftime("%Y-%m-%dT%H:%M:%S.%f") + "Z",
                    actor=t["speaker"], role="user", type="text", text=t["text"], model=None,
                    session=f"{t['conv']}:S{t['session']}", source="locomo")
        by_day.setdefault(turn.day, []).append(turn.to_json())
    for day, lines in by_day.items():
        path = day_file(paths.logs, day)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return paths


def reindex(root: Path, turns: Sequence[dict[str, Any]], config: EmbeddingConfig, cache: Path) -> dict[str, Any]:
    paths = write_home(root, turns)
    embedder = make_embedder(config, cache_dir=cache)
    _ = embedder.dim  # the model load is timed by the cold rows, not here
    with (
        SearchIndex.open(paths) as index,
        Reindexer(index, HomeDayLogs(paths), embedder=lambda: embedder, batch_size=config.batch_size) as reindexer,
    ):
        report, seconds = timed(reindexer.run)
        rows = reindexer.conn.execute("SELECT t.id, v.v FROM vectors v JOIN turns t ON t.doc = v.doc").fetchall()
        window = reindexer.window
    stored = {turn_id: np.frombuffer(blob, dtype=np.int8).astype(np.float32) for turn_id, blob in rows}
    days = len(list(paths.logs.rglob("*.jsonl")))
    return {"seconds": seconds, "embedded": report.embedded, "days": days, "stored": stored, "window": window}


def top10(questions: np.ndarray, corpus: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(corpus, axis=1, keepdims=True)
    unit = np.divide(corpus, norms, out=np.zeros_like(corpus), where=norms > 0)
    return np.argsort(-(questions @ unit.T), axis=1, kind="stable")[:, :10]


def overlap(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.mean([len(set(x) & set(y)) / 10 for x, y in zip(a, b, strict=True)]))


def cold(backend: str, cache: Path, runs: int) -> dict[str, Any]:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", COLD, backend, str(cache)], capture_output=True, text=True,
                             check=True, cwd=Path(__file__).resolve().parents[2])
        sample = json.loads(out.stdout.strip().splitlines()[-1])
        sample["process"] = time.perf_counter() - started
        samples.append(sample)
    keys = ("import", "first_vector", "warm_one", "process")
    return {k: statistics.median(s[k] for s in samples) for k in keys} | {
        "torch_imported": samples[0]["torch_imported"], "runs": runs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("locomo", type=Path)
    parser.add_argument("--turns", type=int, default=3000)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--model-cache", type=Path, help="where the ONNX model is prepared (default: a temp folder)")
    parser.add_argument("--skip-cold", action="store_true", help="leave out the cold-process load rows")
    parser.add_argument("--cold-runs", type=int, default=3)
    args = parser.parse_args()
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

    turns, whole = select(load(args.locomo), args.turns)
    texts = [t["text"] for t in turns]
    with tempfile.TemporaryDirectory(prefix="bench-embed-") as tmp_name:
        tmp = Path(tmp_name)
        cache = args.model_cache or tmp / "models"
        results: dict[str, Any] = {"turns": len(texts), "cores": len(os.sched_getaffinity(0))}

        # one-off preparation (export), if the cache does not hold it yet
        onnx = OnnxEmbedder(cache_dir=cache)
        _, results["prepare_seconds"] = timed(lambda: onnx.dim)
        prepared = onnx.prepared
        results["onnx_model_mb"] = round(prepared.model_file.stat().st_size / 1e6, 1) if prepared else None

        if not args.skip_cold:
            results["cold"] = {b: cold(b, cache, args.cold_runs) for b in ("onnx", "sentence-transformers")}

        import torch
        from sentence_transformers import SentenceTransformer

        st = SentenceTransformer(resolve_model("all-MiniLM-L6-v2"), device="cpu")
        results["torch_threads"] = torch.get_num_threads()
        # warm both up first (torch builds kernels per shape on first use): the rows time steady work
        st.encode(texts[:128], normalize_embeddings=True, show_progress_bar=False)
        onnx.embed(texts[:128])
        rows: list[tuple[str, float, tuple[float, ...]]] = []  # label, seconds, load average before

        def row(label: str, fn: Any, scale: float = 1.0) -> Any:
            before = os.getloadavg()
            out, seconds = timed(fn)
            rows.append((label, seconds * scale, before))
            return out

        def torch_raw() -> Any:
            return st.encode(texts, normalize_embeddings=True, show_progress_bar=False)

        reference = row("torch raw (sentence-transformers, torch defaults), 1st", torch_raw)
        new = row(f"onnx raw, one call ({onnx.streams} streams × {onnx.threads // onnx.streams} thread)",
                  lambda: onnx.embed(texts))
        before = OnnxEmbedder(cache_dir=cache, streams=1, spinning=True)  # the previous default
        before.embed(texts[:128])
        row(f"onnx raw, one call (1 stream × {before.threads} threads, spinning)", lambda: before.embed(texts))
        window = 4 * onnx.batch_size
        sample = texts[: min(len(texts), 512)]
        for sort in (True, False):
            embedder = OnnxEmbedder(cache_dir=cache, sort_by_length=sort)
            label = f"onnx raw, windows of {window}, {'sorted' if sort else 'unsorted'} ({len(sample)} texts)"
            row(label, lambda e=embedder: [e.embed(sample[i : i + window]) for i in range(0, len(sample), window)],
                len(texts) / len(sample))
        onnx_run = row("reverie reindex end to end, onnx (default)",
                       lambda: reindex(tmp / "onnx", turns, EmbeddingConfig(), cache))
        rows[-1] = (rows[-1][0], onnx_run["seconds"], rows[-1][2])  # the reindex alone, not writing the home
        row("torch raw (sentence-transformers, torch defaults), 2nd", torch_raw)
        st_run = row("reverie reindex end to end, sentence-transformers",
                     lambda: reindex(tmp / "st", turns, EmbeddingConfig(backend="sentence-transformers"), cache))
        rows[-1] = (rows[-1][0], st_run["seconds"], rows[-1][2])
        torch_seconds = [s for label, s, _ in rows if label.startswith("torch raw")]
        raw_rate = rate(len(texts), statistics.mean(torch_seconds))  # both torch runs: load hits them alike
        results["load_average_end"] = os.getloadavg()
        results["rates"] = [{"row": label, "seconds": round(s, 2), "per_second": round(rate(len(texts), s), 1),
                             "vs_torch_raw": round(rate(len(texts), s) / raw_rate, 2),
                             "load_before": round(load[0], 1)} for label, s, load in rows]
        results["embedded_by_reindex"] = onnx_run["embedded"]

        cosines = (new * reference).sum(axis=1)
        results["cosine_onnx_vs_torch"] = {"min": float(cosines.min()), "mean": float(cosines.mean())}
        position = {f"{t['conv']}:{t['dia_id']}": i for i, t in enumerate(turns)}
        recall = {"onnx float": [], "onnx as stored (int8)": [], "torch as stored (int8)": []}
        questions_used = 0
        for conv in whole:
            questions = [str(q.get("question") or "") for q in conv.qa if q.get("question")]
            ids = [f"{conv.sample_id}:{t['dia_id']}" for t in conv.turns]
            at = [position[i] for i in ids]
            ref = top10(st.encode(questions, normalize_embeddings=True, show_progress_bar=False), reference[at])
            q_new = onnx.embed(questions)
            recall["onnx float"] += [overlap(ref, top10(q_new, new[at]))] * len(questions)
            stored = np.stack([onnx_run["stored"][i] for i in ids])
            recall["onnx as stored (int8)"] += [overlap(ref, top10(q_new, stored))] * len(questions)
            stored_st = np.stack([st_run["stored"][i] for i in ids])
            q_ref = st.encode(questions, normalize_embeddings=True, show_progress_bar=False)
            recall["torch as stored (int8)"] += [overlap(ref, top10(q_ref, stored_st))] * len(questions)
            questions_used += len(questions)
        results["recall_at_10_vs_torch_float"] = {k: round(float(np.mean(v)), 4) if v else None
                                                  for k, v in recall.items()}
        results["recall_questions"] = questions_used
        results["recall_conversations"] = [c.sample_id for c in whole]

    if args.json:
        print(json.dumps(results, indent=1))
        return
    print(f"{results['turns']:,} LoCoMo turns, {results['cores']} cores (torch threads {results['torch_threads']}); "
          f"ONNX model {results['onnx_model_mb']} MB, prepared in {results['prepare_seconds']:.1f} s")
    print(f"{'':62} {'seconds':>8} {'texts/s':>8} {'× torch':>8} {'load':>5}")
    for r in results["rates"]:
        print(f"{r['row']:62} {r['seconds']:8.1f} {r['per_second']:8.1f} {r['vs_torch_raw']:8.2f} "
              f"{r['load_before']:5.1f}")
    print(f"(× torch: against the mean of the two torch runs; load: 1-minute load average before the row, "
          f"{results['load_average_end'][0]:.1f} at the end)")
    c = results["cosine_onnx_vs_torch"]
    print(f"cosine onnx vs torch per text: min {c['min']:.6f}, mean {c['mean']:.6f}")
    print(f"recall@10 against torch float vectors ({questions_used} questions, "
          f"{', '.join(results['recall_conversations'])}):")
    for name, value in results["recall_at_10_vs_torch_float"].items():
        print(f"  {name:28} {value}")
    for backend, row in results.get("cold", {}).items():
        print(f"cold load {backend:22} import {row['import']:.2f} s, first vector {row['first_vector']:.2f} s, "
              f"whole process {row['process']:.2f} s, torch imported: {row['torch_imported']} "
              f"(median of {row['runs']})")


if __name__ == "__main__":
    main()
