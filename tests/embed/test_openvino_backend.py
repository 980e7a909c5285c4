"""The OpenVINO backend (the default): bf16 where the CPU has it, checked against the torch vectors
the export recorded, float32 when bf16 fails the check, a graph it cannot compile rebuilt with a
notice, repeated texts embedded once, and a load path without torch (a process's first few texts on
ONNX Runtime: tests/embed/test_quick_start.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from core.config import EmbeddingConfig
from core.embed import Embedder, make_embedder
from core.embed import onnx_prepare as prep
from core.embed import openvino_backend as ovb
from core.embed.ensemble import EnsembleEmbedder
from core.embed.onnx_backend import OnnxEmbedder
from core.embed.openvino_backend import OpenVinoEmbedder
from core.embed.protocol import EmbeddingError
from core.embed.quick_start import QuickStartEmbedder
from core.embed.sentence_transformers_backend import SentenceTransformerEmbedder
from tests.helpers.embed_model import packaged_source

SENTENCES = [
    "I drank coffee this morning before the meeting.",
    "An espresso at breakfast",
    "서울숲에서 산책했어요",
    "会議の準備に移った",
    "ok",
    "Caroline: I went to a LGBTQ support group yesterday and it was so powerful. " * 6,
]


def native_bf16() -> bool:
    import openvino

    return "BF16" in openvino.Core().get_property("CPU", "OPTIMIZATION_CAPABILITIES")


# -- with the model ------------------------------------------------------------------------------


@pytest.mark.model
def test_openvino_vectors_agree_with_torch_in_each_precision(prepared_root: Path) -> None:
    want = SentenceTransformerEmbedder(threads=1).embed(SENTENCES)
    default = OpenVinoEmbedder(cache_dir=prepared_root, batch_size=2)
    got = default.embed(SENTENCES)
    assert default.precision == ("bf16" if native_bf16() else "f32")
    assert got.shape == (len(SENTENCES), 384) and got.dtype == np.float32
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)
    assert float((got * want).sum(axis=1).min()) >= ovb.MIN_CHECK_COSINE[default.precision]
    assert default.name == "all-MiniLM-L6-v2" and default.dim == 384  # the same index serves every backend
    # shortest first, two per batch, two streams: rows still come back in the order given
    alone = np.stack([default.embed([s])[0] for s in SENTENCES])
    assert float((alone * got).sum(axis=1).min()) >= 0.999
    one_stream = OpenVinoEmbedder(cache_dir=prepared_root, batch_size=2, threads=1)
    assert one_stream.streams == 1
    assert float((one_stream.embed(SENTENCES) * got).sum(axis=1).min()) >= 0.999
    f32 = OpenVinoEmbedder(cache_dir=prepared_root, precision="f32").embed(SENTENCES)
    assert float((f32 * want).sum(axis=1).min()) >= 0.9999  # float32: torch's vectors to rounding
    folder = prep.prepared_folder(packaged_source(), prepared_root)
    assert [p.name for p in folder.glob(f"{ovb.CACHE_PREFIX}*")]  # compiled copies kept for the next process


@pytest.mark.model
def test_repeated_texts_are_embedded_once(prepared_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    embedder = OpenVinoEmbedder(cache_dir=prepared_root, batch_size=2)
    ran: list[int] = []
    real = OpenVinoEmbedder._run_batches

    def counting(self: OpenVinoEmbedder, session: object, batches: list, feeds: object, out: np.ndarray) -> None:
        ran.append(sum(len(rows) for rows in batches))
        real(self, session, batches, feeds, out)  # type: ignore[arg-type]

    monkeypatch.setattr(OpenVinoEmbedder, "_run_batches", counting)
    texts = ["[Request interrupted by user]", "a", "[Request interrupted by user]", "b", "a"]
    rows = embedder.embed(texts)
    assert ran == [3]  # three distinct texts
    assert rows.shape == (5, 384)
    assert np.array_equal(rows[0], rows[2]) and np.array_equal(rows[1], rows[4])
    assert float(rows[0] @ rows[1]) < 0.99
    assert float(rows[3] @ embedder.embed(["b"])[0]) >= 0.999


@pytest.mark.model
def test_bf16_that_fails_the_check_falls_back_to_float(prepared_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if not native_bf16():
        pytest.skip("this CPU has no native bf16: auto runs float32 already")
    monkeypatch.setitem(ovb.MIN_CHECK_COSINE, "bf16", 1.01)  # no bf16 result can pass
    embedder = OpenVinoEmbedder(cache_dir=prepared_root)
    want = SentenceTransformerEmbedder(threads=1).embed(SENTENCES[:2])
    assert float((embedder.embed(SENTENCES[:2]) * want).sum(axis=1).min()) >= 0.9999
    assert embedder.precision == "f32"


@pytest.mark.model
def test_a_graph_openvino_cannot_compile_is_rebuilt_with_a_notice(prepared_root: Path, tmp_path: Path) -> None:
    source = packaged_source()
    original = prep.prepared_folder(source, prepared_root)
    folder = prep.prepared_folder(source, tmp_path)
    folder.mkdir(parents=True)
    size = (original / prep.MODEL_FILE).stat().st_size
    (folder / prep.MODEL_FILE).write_bytes(b"\0garbage" * (size // 8) + b"\0" * (size % 8))  # the manifest agrees
    (folder / prep.MANIFEST_FILE).write_bytes((original / prep.MANIFEST_FILE).read_bytes())
    notices: list[str] = []
    embedder = OpenVinoEmbedder(cache_dir=tmp_path, notice=notices.append, compile_cache=False)
    assert embedder.embed(["still works"]).shape == (1, 384)
    assert len(notices) == 2 and "damaged" in notices[0] and "OpenVINO: cannot compile" in notices[0]
    assert notices[1] == prep.PREPARING
    assert (folder / prep.MODEL_FILE).read_bytes()[:8] != b"\0garbage"


@pytest.mark.model
def test_the_default_load_path_imports_no_torch(prepared_root: Path) -> None:
    """A few texts run on ONNX Runtime without importing OpenVINO; a bulk call then loads OpenVINO
    (from a damaged cached copy: compiled again, no notice) and serves every later call."""
    folder = prep.prepared_folder(packaged_source(), prepared_root)
    for cached in folder.glob(f"{ovb.CACHE_PREFIX}*/*"):
        cached.unlink()  # (OpenVINO writes its copies read-only)
        cached.write_bytes(b"not a compiled model")  # a damaged cached copy: compiled again, no notice
    code = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from core.config import EmbeddingConfig\n"
        "from core.embed import make_embedder\n"
        f"e = make_embedder(EmbeddingConfig(model='all-MiniLM-L6-v2'), cache_dir=Path({str(prepared_root)!r}), "
        "notice=print)\n"
        "heavy = ('torch', 'sentence_transformers', 'transformers', 'onnxruntime', 'openvino')\n"
        "few = e.embed(['hello there'])\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
        "bulk = e.embed(['hello there'] + [f'text {i}' for i in range(e.few)])\n"
        "again = e.embed(['hello there'])\n"
        "print(sorted(m for m in heavy if m in sys.modules), e.bulk.loaded, e.precision)\n"
        "print(json.dumps([few[0].tolist(), bulk[0].tolist(), again[0].tolist()]))\n"
    )
    reference = SentenceTransformerEmbedder(threads=1).embed(["hello there"])[0]
    precision = "bf16" if native_bf16() else "f32"
    for _ in range(2):  # the first compiles (and caches) again, the second loads the cached copy
        lines = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
        lines = lines.splitlines()
        assert lines[0] == "['onnxruntime']" and len(lines) == 3  # no torch, no OpenVINO yet, no notice
        assert lines[1] == f"['onnxruntime', 'openvino'] True {precision}"
        few, bulk, again = np.array(json.loads(lines[2]), dtype=np.float32)
        assert float(few @ reference) >= 0.9999  # float ONNX Runtime: torch's vector to rounding
        assert float(bulk @ reference) >= ovb.MIN_CHECK_COSINE[precision] and float(bulk @ few) >= 0.999
        assert np.array_equal(again, bulk)  # once OpenVINO is loaded, it serves the few texts too


# -- without the model ---------------------------------------------------------------------------


def test_the_default_backend_is_openvino_and_nothing_loads_until_a_vector_is_needed() -> None:
    ensemble = make_embedder(EmbeddingConfig())
    assert isinstance(ensemble, EnsembleEmbedder) and isinstance(ensemble, Embedder)
    for embedder in ensemble.parts:
        assert isinstance(embedder, QuickStartEmbedder)
        assert isinstance(embedder.bulk, OpenVinoEmbedder)
        assert isinstance(embedder.quick, OnnxEmbedder) and not isinstance(embedder.quick, OpenVinoEmbedder)
        assert not embedder.loaded and embedder.precision is None
    for part in make_embedder(EmbeddingConfig(backend="onnx")).parts:  # type: ignore[attr-defined]
        assert isinstance(part, OnnxEmbedder) and not isinstance(part, OpenVinoEmbedder)
    code = (
        "import sys\n"
        "from core.config import EmbeddingConfig\n"
        "from core.embed import make_embedder\n"
        "make_embedder(EmbeddingConfig())\n"
        "print(sorted(m for m in ('openvino', 'onnxruntime', 'torch', 'tokenizers') if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    ).stdout
    assert out.strip() == "[]"


def test_an_unknown_precision_is_refused() -> None:
    with pytest.raises(EmbeddingError, match=r"embedding precision 'fp8': expected one of auto, bf16, f32"):
        OpenVinoEmbedder(precision="fp8")


def test_the_check_compares_rows_with_the_recorded_torch_vectors(tmp_path: Path) -> None:
    rows = np.eye(4, 8, dtype=np.float32)
    prepared = prep.Prepared(tmp_path, 8, tuple(tuple(float(x) for x in row) for row in rows))
    assert prep.check_cosine(prepared, rows * 3) == pytest.approx(1.0)  # scale does not matter
    turned = rows.copy()
    turned[2] = np.eye(1, 8, 7, dtype=np.float32)
    assert prep.check_cosine(prepared, turned) == pytest.approx(0.0)
    assert prep.check_cosine(prepared, rows[:3]) == -1.0  # a wrong shape never passes
