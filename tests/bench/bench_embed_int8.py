"""Int8 where it does not hurt? A per-group sensitivity pass over the prepared ONNX graph.

    nice python tests/bench/bench_embed_int8.py ../shared/data/locomo10.json [--select-turns 300]
        [--threshold 0.995] [--model-cache DIR]

Each MatMul group of each of the 6 layers (query+key+value, attention output, feed-forward in,
feed-forward out) is quantized alone (ONNX Runtime dynamic int8, weights per channel), and its
recall@10 against the float graph is measured on a SELECTION conversation (LoCoMo's 6th, its first
``--select-turns`` turns and all its questions). The groups that keep ``--threshold`` alone are then
quantized together and REPORTED on other conversations (the 1st and 2nd), so the choice is not fit
to the figure, with texts per CPU second against the float graph in the same process. The float
graph is the reference: its vectors equal the float torch vectors (cosine 1.000000 in bench_embed).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_embed import Conversation, load, overlap, top10

from core.embed.onnx_backend import OnnxEmbedder

GROUPS = {
    "qkv": ("attention/self/query/MatMul", "attention/self/key/MatMul", "attention/self/value/MatMul"),
    "attn_out": ("attention/output/dense/MatMul",),
    "ffn_in": ("intermediate/dense/MatMul",),
    "ffn_out": ("output/dense/MatMul",),
}


def questions(conv: Conversation) -> list[str]:
    return [str(q.get("question") or "") for q in conv.qa if q.get("question")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("locomo", type=Path)
    parser.add_argument("--select-turns", type=int, default=300)
    parser.add_argument("--threshold", type=float, default=0.995)
    parser.add_argument("--model-cache", type=Path)
    args = parser.parse_args()
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    import onnx
    import onnxruntime
    from onnxruntime.quantization import QuantType, quantize_dynamic

    convs = load(args.locomo)
    select, report = convs[5], convs[:2]
    select.turns = select.turns[: args.select_turns]
    with tempfile.TemporaryDirectory(prefix="bench-int8-") as tmp_name:
        tmp = Path(tmp_name)
        cache = args.model_cache or tmp / "models"
        base = OnnxEmbedder(cache_dir=cache, threads=2)
        base.embed(["warm up"])
        assert base.prepared is not None
        source = str(base.prepared.model_file)
        names = {n.name for n in onnx.load(source).graph.node if n.op_type == "MatMul"}
        reference: dict[str, Any] = {}

        def quantized(nodes: list[str], path: Path) -> OnnxEmbedder:
            quantize_dynamic(source, str(path), nodes_to_quantize=nodes, per_channel=True,
                             weight_type=QuantType.QInt8)
            embedder = OnnxEmbedder(cache_dir=cache, threads=2)
            embedder.embed(["warm up"])
            options = onnxruntime.SessionOptions()
            options.intra_op_num_threads = 1
            options.log_severity_level = 3
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            embedder._session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
            return embedder

        def recall(embedder: OnnxEmbedder, conv: Conversation) -> float:
            texts = [t["text"] for t in conv.turns]
            if conv.sample_id not in reference:
                reference[conv.sample_id] = top10(base.embed(questions(conv)), base.embed(texts))
            return overlap(reference[conv.sample_id], top10(embedder.embed(questions(conv)), embedder.embed(texts)))

        kept: list[str] = []
        print(f"selection: {select.sample_id}, {len(select.turns)} turns, {len(questions(select))} questions; "
              f"recall@10 against the float graph with one group in int8")
        print(f"{'layer':>5} " + " ".join(f"{g:>9}" for g in GROUPS))
        for layer in range(6):
            cells = []
            for group, suffixes in GROUPS.items():
                nodes = [f"/inner/encoder/layer.{layer}/{s}" for s in suffixes]
                missing = [n for n in nodes if n not in names]
                if missing:
                    raise SystemExit(f"{source}: no node {missing[0]} (another graph layout)")
                r = recall(quantized(nodes, tmp / f"q-{layer}-{group}.onnx"), select)
                cells.append(f"{r:9.4f}")
                if r >= args.threshold:
                    kept += nodes
            print(f"{layer:>5} " + " ".join(cells), flush=True)
        print(f"kept (≥ {args.threshold} alone): {len(kept)} MatMuls")
        if not kept:
            return
        together = quantized(kept, tmp / "q-kept.onnx")
        for conv in report:
            print(f"report {conv.sample_id}: recall@10 {recall(together, conv):.4f} ({len(questions(conv))} questions)")
        texts = [t["text"] for conv in report for t in conv.turns]
        for label, embedder in (("float graph", base), ("kept groups in int8", together)):
            load_before = os.getloadavg()[0]
            started, cpu = time.perf_counter(), time.process_time()
            embedder.embed(texts)
            wall, cpu = time.perf_counter() - started, time.process_time() - cpu
            print(f"{label:22} {len(texts) / wall:7.1f} texts/s {len(texts) / cpu:7.1f} texts/CPU-s "
                  f"(load {load_before:.1f})")


if __name__ == "__main__":
    main()
