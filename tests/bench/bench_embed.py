"""Embedding throughput and agreement, in one run on the same LoCoMo turns.

    nice python tests/bench/bench_embed.py ../shared/data/locomo10.json [--turns 3000] [--json]
        [--model-cache DIR] [--skip-cold] [--skip-st-reindex]

all-MiniLM-L6-v2 (the former default) on each backend; the default model, multilingual-e5-small, is
measured on the paths a person runs by ``bench_embed_paths.py`` and against the other candidates by
``bench_multilingual.py``.

Rows, all on the same texts (the first ``--turns`` LoCoMo turns, the text Reverie embeds, i.e. the
turn's words without the speaker):

- torch raw: ``SentenceTransformer(...).encode(texts)`` with torch's defaults (its thread count,
  batch size 32, its own sort by length over the whole call), after a warm-up on 128 texts (as the
  ONNX rows). This is the reference; it runs twice, first and near the end, and the ratios are
  against the mean of the two, so load that changes during the run hits both sides.
- openvino raw: ``OpenVinoEmbedder.embed(texts)`` in one call, bf16 where the CPU has it (the
  default) and float32, one one-thread stream per core.
- onnx raw: ``OnnxEmbedder.embed(texts)`` (float ONNX Runtime, one one-thread stream per core, the
  previous default).
- reverie reindex: a home holding the turns as day files (one LoCoMo session per day), then
  ``Reindexer.run()`` end to end (exact index, embedding, storage) with the default backend
  (openvino), with onnx, and with sentence-transformers (torch behind Reverie's windows;
  ``--skip-st-reindex`` leaves it out).

Each row shows wall seconds and texts/s, the CPU seconds of the whole process during the row (user +
sys of every thread: ``time.process_time``) and texts per CPU second, both as × the torch reference,
and the 1-minute load average just before it. On a loaded machine wall-clock rates mostly measure
the other work; the CPU figures say what each backend costs.

Recall@10 of the new vectors against the float torch vectors: per conversation wholly inside the
turns, each question's top 10 turns by cosine with torch vectors against the top 10 with each
backend's vectors (float from the raw rows, and as stored in the index by the reindex rows: int8),
and the mix a short-lived search gets with the default backend (``core.embed.quick_start``): the
question embedded by ONNX Runtime, the turns as OpenVINO's reindex stored them. Cold load: a fresh
process per backend, from the first import to the first vector (the ONNX model prepared beforehand;
the one-off preparation is timed separately when the cache is empty). The machine is shared: compare
ratios within a run.
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
from core.embed.openvino_backend import OpenVinoEmbedder
from core.embed.sentence_transformers_backend import resolve_model
from core.index import HomeDayLogs, Reindexer, SearchIndex
from core.paths import HomePaths
from core.turns import Turn, day_file

MINILM = "all-MiniLM-L6-v2"  # this benchmark measures the backends on the English model (the former default)

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
                    turns.append(
                        {
                            "dia_id": str(item["dia_id"]),
                            "speaker": str(item.get("speaker") or "unknown"),
                            "text": text,
                            "session": n,
                            "ts": start.replace(tzinfo=UTC) + timedelta(seconds=i),
                        }
                    )
        out.append(Conversation(str(sample.get("sample_id") or f"conv-{number}"), turns, list(sample.get("qa") or [])))
    return out


COLD = """
import json, sys, time
t0 = time.perf_counter()
from pathlib import Path
from core.config import EmbeddingConfig
from core.embed import make_embedder
e = make_embedder(EmbeddingConfig(backend=sys.argv[1], model='all-MiniLM-L6-v2'), cache_dir=Path(sys.argv[2]))
t1 = time.perf_counter()
e.embed(["a first sentence"])
t2 = time.perf_counter()
e.embed(["one more sentence to embed"])
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "first_vector": t2 - t0, "warm_one": t3 - t2,
                  "torch_imported": "torch" in sys.modules, "cpu": time.process_time()}))
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


def cpu_timed(fn: Any, *args: Any) -> tuple[Any, float, float]:
    """``fn(*args)``, its wall seconds and the CPU seconds of the whole process (every thread)."""
    started, cpu = time.perf_counter(), time.process_time()
    out = fn(*args)
    return out, time.perf_counter() - started, time.process_time() - cpu


def write_home(root: Path, turns: Sequence[dict[str, Any]]) -> HomePaths:
    """The turns as day files, one LoCoMo session per day (sessions of one conversation are days
    apart; conversations are shifted by a year each so their days do not mix)."""
    paths = HomePaths(root / "home", root / "cache").ensure()
    convs: dict[str, int] = {}
    by_day: dict[str, list[str]] = {}
    for t in turns:
        shift = convs.setdefault(t["conv"], len(convs))
        ts = t["ts"] + timedelta(days=366 * shift)
        turn = Turn(
            id=f"{t['conv']}:{t['dia_id']}",
            ts=ts.strftime("%Y-%m-%dT%H:%M:%S.%f") + "Z",
            actor=t["speaker"],
            role="user",
            type="text",
            text=t["text"],
            model=None,
            session=f"{t['conv']}:S{t['session']}",
            source="locomo",
        )
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
        report, seconds, cpu = cpu_timed(reindexer.run)
        rows = reindexer.conn.execute("SELECT t.id, v.v FROM vectors v JOIN turns t ON t.doc = v.doc").fetchall()
        window = reindexer.window
    stored = {turn_id: np.frombuffer(blob, dtype=np.int8).astype(np.float32) for turn_id, blob in rows}
    days = len(list(paths.logs.rglob("*.jsonl")))
    return {
        "seconds": seconds,
        "cpu": cpu,
        "embedded": report.embedded,
        "days": days,
        "stored": stored,
        "window": window,
    }


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
        out = subprocess.run(
            [sys.executable, "-c", COLD, backend, str(cache)],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).resolve().parents[2],
        )
        sample = json.loads(out.stdout.strip().splitlines()[-1])
        sample["process"] = time.perf_counter() - started
        samples.append(sample)
    keys = ("import", "first_vector", "warm_one", "process", "cpu")
    return {k: statistics.median(s[k] for s in samples) for k in keys} | {
        "torch_imported": samples[0]["torch_imported"],
        "runs": runs,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("locomo", type=Path)
    parser.add_argument("--turns", type=int, default=3000)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--model-cache", type=Path, help="where the ONNX model is prepared (default: a temp folder)")
    parser.add_argument("--skip-cold", action="store_true", help="leave out the cold-process load rows")
    parser.add_argument("--skip-st-reindex", action="store_true", help="leave out the sentence-transformers reindex")
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
        default = OpenVinoEmbedder(cache_dir=cache)
        _, results["openvino_compile_seconds"] = timed(lambda: default.dim)
        results["openvino_precision"] = default.precision
        f32 = OpenVinoEmbedder(cache_dir=cache, precision="f32")

        if not args.skip_cold:
            results["cold"] = {b: cold(b, cache, args.cold_runs) for b in ("openvino", "onnx", "sentence-transformers")}

        import torch
        from sentence_transformers import SentenceTransformer

        st = SentenceTransformer(resolve_model("all-MiniLM-L6-v2"), device="cpu")
        results["torch_threads"] = torch.get_num_threads()
        # warm all up first (torch builds kernels per shape on first use): the rows time steady work
        st.encode(texts[:128], normalize_embeddings=True, show_progress_bar=False)
        for embedder in (default, f32, onnx):
            embedder.embed(texts[:128])
        rows: list[tuple[str, float, float, float]] = []  # label, seconds, CPU seconds, load average before

        def row(label: str, fn: Any) -> Any:
            before = os.getloadavg()[0]
            out, seconds, cpu = cpu_timed(fn)
            rows.append((label, seconds, cpu, before))
            return out

        def reindex_row(label: str, name: str, config: EmbeddingConfig) -> dict[str, Any]:
            before = os.getloadavg()[0]
            run = reindex(tmp / name, turns, config, cache)
            rows.append((label, run["seconds"], run["cpu"], before))  # the reindex alone, not writing the home
            return run

        def torch_raw() -> Any:
            return st.encode(texts, normalize_embeddings=True, show_progress_bar=False)

        streams = f"{default.streams} streams × {default.threads // default.streams} thread"
        reference = row("torch raw (sentence-transformers, torch defaults), 1st", torch_raw)
        raw = {
            f"openvino {default.precision}": row(
                f"openvino raw, {default.precision} (default), {streams}", lambda: default.embed(texts)
            ),
            "openvino f32": row(f"openvino raw, f32, {streams}", lambda: f32.embed(texts)),
            "onnx (float ORT)": row(f"onnx raw (float ONNX Runtime), {streams}", lambda: onnx.embed(texts)),
        }
        stored_runs = {
            f"openvino {default.precision}": reindex_row(
                "reverie reindex end to end, openvino", "ov", EmbeddingConfig(model=MINILM)
            ),
            "onnx (float ORT)": reindex_row(
                "reverie reindex end to end, onnx", "onnx", EmbeddingConfig(backend="onnx", model=MINILM)
            ),
        }
        row("torch raw (sentence-transformers, torch defaults), 2nd", torch_raw)
        if not args.skip_st_reindex:
            stored_runs["torch"] = reindex_row(
                "reverie reindex end to end, sentence-transformers",
                "st",
                EmbeddingConfig(backend="sentence-transformers", model=MINILM),
            )
        torch_rows = [(s, c) for label, s, c, _ in rows if label.startswith("torch raw")]
        raw_rate = rate(len(texts), statistics.mean(s for s, _ in torch_rows))  # both torch runs: load hits both
        raw_cpu_rate = rate(len(texts), statistics.mean(c for _, c in torch_rows))
        results["load_average_end"] = os.getloadavg()
        results["rates"] = [
            {
                "row": label,
                "seconds": round(s, 2),
                "per_second": round(rate(len(texts), s), 1),
                "vs_torch_raw": round(rate(len(texts), s) / raw_rate, 2),
                "cpu_seconds": round(c, 2),
                "per_cpu_second": round(rate(len(texts), c), 1),
                "cpu_vs_torch_raw": round(rate(len(texts), c) / raw_cpu_rate, 2),
                "load_before": round(load, 1),
            }
            for label, s, c, load in rows
        ]
        results["embedded_by_reindex"] = stored_runs[f"openvino {default.precision}"]["embedded"]

        results["cosine_vs_torch"] = {
            name: {"min": float((v * reference).sum(axis=1).min()), "mean": float((v * reference).sum(axis=1).mean())}
            for name, v in raw.items()
        }
        position = {f"{t['conv']}:{t['dia_id']}": i for i, t in enumerate(turns)}
        queries = {f"openvino {default.precision}": default, "openvino f32": f32, "onnx (float ORT)": onnx}
        recall: dict[str, list[float]] = {}
        questions_used = 0
        for conv in whole:
            questions = [str(q.get("question") or "") for q in conv.qa if q.get("question")]
            ids = [f"{conv.sample_id}:{t['dia_id']}" for t in conv.turns]
            at = [position[i] for i in ids]
            q_ref = st.encode(questions, normalize_embeddings=True, show_progress_bar=False)
            ref = top10(q_ref, reference[at])
            q_new = {name: embedder.embed(questions) for name, embedder in queries.items()}
            for name, vectors in raw.items():
                recall.setdefault(f"{name}, float", []).extend(
                    [overlap(ref, top10(q_new[name], vectors[at]))] * len(questions)
                )
            for name, run in stored_runs.items():
                stored = np.stack([run["stored"][i] for i in ids])
                q = q_ref if name == "torch" else q_new[name]
                recall.setdefault(f"{name}, as stored (int8)", []).extend(
                    [overlap(ref, top10(q, stored))] * len(questions)
                )
            # a short-lived search with the default backend: the question on ONNX Runtime (core.embed.quick_start),
            # the turns as OpenVINO's reindex stored them
            stored = np.stack([stored_runs[f"openvino {default.precision}"]["stored"][i] for i in ids])
            mixed = f"questions onnx (float ORT), turns openvino {default.precision} as stored (int8)"
            recall.setdefault(mixed, []).extend(
                [overlap(ref, top10(q_new["onnx (float ORT)"], stored))] * len(questions)
            )
            questions_used += len(questions)
        results["recall_at_10_vs_torch_float"] = {
            k: round(float(np.mean(v)), 4) if v else None for k, v in recall.items()
        }
        results["recall_questions"] = questions_used
        results["recall_conversations"] = [c.sample_id for c in whole]

    if args.json:
        print(json.dumps(results, indent=1))
        return
    print(
        f"{results['turns']:,} LoCoMo turns, {results['cores']} cores (torch threads {results['torch_threads']}); "
        f"ONNX model {results['onnx_model_mb']} MB, prepared in {results['prepare_seconds']:.1f} s; "
        f"openvino runs {results['openvino_precision']} (compiled in {results['openvino_compile_seconds']:.2f} s)"
    )
    print(f"{'':58} {'seconds':>8} {'texts/s':>8} {'× torch':>8} {'CPU s':>7} {'/CPU-s':>7} {'× torch':>8} {'load':>5}")
    for r in results["rates"]:
        print(
            f"{r['row']:58} {r['seconds']:8.1f} {r['per_second']:8.1f} {r['vs_torch_raw']:8.2f} "
            f"{r['cpu_seconds']:7.1f} {r['per_cpu_second']:7.1f} {r['cpu_vs_torch_raw']:8.2f} "
            f"{r['load_before']:5.1f}"
        )
    print(
        f"(× torch: against the mean of the two torch runs, wall and CPU; load: 1-minute load average before "
        f"the row, {results['load_average_end'][0]:.1f} at the end)"
    )
    for name, c in results["cosine_vs_torch"].items():
        print(f"cosine {name} vs torch per text: min {c['min']:.6f}, mean {c['mean']:.6f}")
    print(
        f"recall@10 against torch float vectors ({questions_used} questions, "
        f"{', '.join(results['recall_conversations'])}):"
    )
    for name, value in results["recall_at_10_vs_torch_float"].items():
        print(f"  {name:36} {value}")
    for backend, r in results.get("cold", {}).items():
        print(
            f"cold load {backend:22} import {r['import']:.2f} s, first vector {r['first_vector']:.2f} s, "
            f"CPU {r['cpu']:.2f} s, whole process {r['process']:.2f} s, torch imported: {r['torch_imported']} "
            f"(median of {r['runs']})"
        )


if __name__ == "__main__":
    main()
