"""The default backend's two runtimes (core.embed.quick_start): a process's first calls of a few texts on
ONNX Runtime, bulk on OpenVINO, the same vectors either way, OpenVINO alone when ONNX Runtime cannot run."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from core.duplicates import check_duplicate
from core.embed.onnx_backend import OnnxEmbedder
from core.embed.openvino_backend import OpenVinoEmbedder
from core.embed.protocol import EmbeddingError
from core.embed.quick_start import FEW_TEXTS, QuickStartEmbedder
from core.index.model import MemoryDoc

MEMORIES = [
    "Mina and I walked along the river on a rainy Sunday.",
    "Grandpa and I baked bread after the school concert.",
    "We watched the first snow from the old house.",
]


def pair(root: Path, few: int = FEW_TEXTS) -> QuickStartEmbedder:
    return QuickStartEmbedder(OpenVinoEmbedder(cache_dir=root, batch_size=2), OnnxEmbedder(cache_dir=root), few=few)


@pytest.mark.model
def test_few_texts_run_on_onnx_runtime_and_bulk_on_openvino_with_the_same_vectors(prepared_root: Path) -> None:
    embedder = pair(prepared_root, few=3)
    assert embedder.dim == 384 and not embedder.loaded  # the manifest says it: no runtime loaded
    few = embedder.embed(MEMORIES)
    assert embedder.quick.loaded and not embedder.bulk.loaded
    bulk = embedder.embed([*MEMORIES, "a fourth text"])  # more than `few`: OpenVINO loads
    assert embedder.bulk.loaded and embedder.precision in ("bf16", "f32")
    assert float((few * bulk[:3]).sum(axis=1).min()) >= 0.999
    assert np.array_equal(embedder.embed(MEMORIES[:1])[0], bulk[0])  # OpenVINO warm: it serves few texts too
    assert embedder.name == "all-MiniLM-L6-v2"  # one name: an index built by either serves both


@pytest.mark.model
def test_the_duplicate_check_decides_the_same_with_either_runtime(prepared_root: Path) -> None:
    docs = [MemoryDoc(f"m{i}", "2026-01-01T00:00:00+00:00", text) for i, text in enumerate(MEMORIES)]
    drafts = ["Mina and I walked along the river on a rainy Sunday!", "A quick note about taxes."]
    runtimes = (OnnxEmbedder(cache_dir=prepared_root), OpenVinoEmbedder(cache_dir=prepared_root))
    for draft in drafts:
        quick, bulk = (check_duplicate(draft, e, threshold=0.95, memories=docs) for e in runtimes)
        assert (quick.duplicate is None) == (bulk.duplicate is None)
        assert abs(quick.matches[0].similarity - bulk.matches[0].similarity) < 1e-3
    assert check_duplicate(drafts[0], runtimes[0], memories=docs).duplicate is not None


@pytest.mark.model
def test_without_onnx_runtime_openvino_serves_every_call(prepared_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    embedder = pair(prepared_root)

    def missing(self: OnnxEmbedder) -> None:
        raise EmbeddingError("embedding.backend onnx: the onnxruntime package is not installed")

    monkeypatch.setattr(OnnxEmbedder, "_import_runtime", missing)
    rows = embedder.embed(["hello there"])
    assert rows.shape == (1, 384) and embedder.bulk.loaded and not embedder.quick.loaded
    assert embedder.embed(["again"]).shape == (1, 384)


def test_a_failure_after_onnx_runtime_ran_is_not_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    class Ran(OnnxEmbedder):
        loaded = True  # type: ignore[assignment]

        def embed(self, texts: object) -> np.ndarray:
            raise EmbeddingError("embedding: a batch failed")

    embedder = QuickStartEmbedder(OpenVinoEmbedder(), Ran())
    with pytest.raises(EmbeddingError, match="a batch failed"):
        embedder.embed(["x"])
    assert not embedder.bulk.loaded


def test_load_bulk_loads_openvino_alone_and_then_serves_few_texts_too(prepared_root: Path) -> None:
    embedder = pair(prepared_root)
    embedder.load_bulk()  # what an ingest with vectors starts while its word index is written
    assert embedder.bulk.loaded and not embedder.quick.loaded
    assert embedder.embed(MEMORIES[:1]).shape == (1, 384)
    assert not embedder.quick.loaded  # a loaded OpenVINO takes every call
