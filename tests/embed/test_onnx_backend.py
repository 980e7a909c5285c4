"""The ONNX Runtime backend: agreement with the torch reference, a prepared model made once and
atomically, damaged copies rebuilt with a notice, the fast load path, backend names and threads."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from core.config import EmbeddingConfig, parse_config
from core.embed import available_cores, make_embedder, resolve_threads
from core.embed import onnx_prepare as prep
from core.embed.onnx_backend import OnnxEmbedder
from core.embed.protocol import EmbeddingError
from core.embed.sentence_transformers_backend import SentenceTransformerEmbedder
from core.errors import ConfigError
from tests.helpers.embed_model import packaged_source

SENTENCES = [
    "I drank coffee this morning before the meeting.",
    "An espresso at breakfast",
    "The tax form is due on Friday; the accountant needs the receipts.",
    "서울숲에서 산책했어요",
    "会議の準備に移った",
    "ok",
    "Caroline: I went to a LGBTQ support group yesterday and it was so powerful. " * 6,  # long: padding
]


def copy_prepared(prepared_root: Path, into: Path) -> Path:
    """A private copy of the module's prepared model (to damage without touching the original)."""
    source = packaged_source()
    original = prep.prepared_folder(source, prepared_root)
    target = prep.prepared_folder(source, into)
    target.mkdir(parents=True)
    os.link(original / prep.MODEL_FILE, target / prep.MODEL_FILE)  # replaced, never written in place
    (target / prep.MANIFEST_FILE).write_bytes((original / prep.MANIFEST_FILE).read_bytes())
    return target


# -- with the model ------------------------------------------------------------------------------


@pytest.mark.model
def test_onnx_vectors_agree_with_the_torch_reference(prepared_root: Path) -> None:
    notices: list[str] = []
    onnx = OnnxEmbedder(cache_dir=prepared_root, notice=notices.append, batch_size=3)
    got = onnx.embed(SENTENCES)
    want = SentenceTransformerEmbedder(threads=1).embed(SENTENCES)
    assert got.shape == (len(SENTENCES), 384) and got.dtype == np.float32
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)
    cosines = (got * want).sum(axis=1)
    assert cosines.min() >= 0.99, cosines
    assert cosines.min() >= 0.9999  # float32 throughout: equal to rounding
    # sorted by length and batched three at a time, rows still come back in the order given
    alone = np.stack([onnx.embed([s])[0] for s in SENTENCES])
    assert np.allclose(alone, got, atol=1e-4)
    # batches run two at a time (two one-thread streams) or one at a time on two threads: same rows
    for streams in (2, 1):
        other = OnnxEmbedder(cache_dir=prepared_root, batch_size=2, threads=2, streams=streams)
        assert other.streams == streams
        many = other.embed(SENTENCES * 3)  # 21 texts: 11 batches, so streams overlap
        assert np.allclose(many, np.concatenate([got] * 3), atol=1e-4)
    assert onnx.name == "all-MiniLM-L6-v2" and onnx.dim == 384
    assert notices == []  # already prepared: nothing to announce


@pytest.mark.model
def test_the_prepared_model_is_reused_and_the_load_path_imports_no_torch(prepared_root: Path) -> None:
    import onnxruntime

    folder = prep.prepared_folder(packaged_source(), prepared_root)
    stamp = (folder / prep.MODEL_FILE).stat().st_ino, (folder / prep.MANIFEST_FILE).stat().st_mtime_ns
    optimized = folder / f"optimized-{onnxruntime.__version__}.onnx"
    optimized.write_bytes(b"not a graph")  # a damaged optimized copy: ignored, then written again
    code = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from core.config import EmbeddingConfig\n"
        "from core.embed import make_embedder\n"
        "e = make_embedder(EmbeddingConfig(backend='onnx', model='all-MiniLM-L6-v2'), "
        f"cache_dir=Path({str(prepared_root)!r}), notice=print)\n"
        "v = e.embed(['hello there'])\n"
        "print(sorted(m for m in ('torch', 'sentence_transformers', 'transformers') if m in sys.modules))\n"
        "print(json.dumps(v[0].tolist()))\n"
    )
    runs = [
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
        for _ in range(2)
    ]  # the first rewrites the optimized copy, the second loads it
    reference = SentenceTransformerEmbedder(threads=1).embed(["hello there"])[0]
    for out in runs:
        lines = out.splitlines()
        assert lines[0] == "[]" and len(lines) == 2  # no torch; no notice: nothing was prepared or rebuilt
        assert float(np.array(json.loads(lines[1]), dtype=np.float32) @ reference) >= 0.9999
    assert optimized.stat().st_size > 1_000_000
    assert ((folder / prep.MODEL_FILE).stat().st_ino, (folder / prep.MANIFEST_FILE).stat().st_mtime_ns) == stamp
    assert [p.name for p in prepared_root.iterdir() if not p.name.startswith(".") or p.suffix != ".lock"] == [
        folder.name
    ]  # no temporary folder left behind


@pytest.mark.model
def test_a_damaged_prepared_model_is_rebuilt_with_a_notice(prepared_root: Path, tmp_path: Path) -> None:
    folder = copy_prepared(prepared_root, tmp_path)
    model = folder / prep.MODEL_FILE
    size = model.stat().st_size
    model.unlink()
    model.write_bytes(b"\0garbage" * (size // 8) + b"\0" * (size % 8))  # same size: the manifest agrees
    notices: list[str] = []
    embedder = OnnxEmbedder(cache_dir=tmp_path, notice=notices.append)
    vector = embedder.embed(["still works"])
    assert vector.shape == (1, 384)
    assert len(notices) == 2 and "damaged" in notices[0] and "ONNX Runtime cannot open" in notices[0]
    assert notices[1] == prep.PREPARING
    assert prep.check_prepared(folder, packaged_source())[0] is not None
    assert model.stat().st_size != size or model.read_bytes()[:8] != b"\0garbage"


# -- without the model ---------------------------------------------------------------------------


def test_partial_or_mismatched_prepared_folders_are_detected(tmp_path: Path) -> None:
    source = packaged_source()
    folder = prep.prepared_folder(source, tmp_path)
    assert prep.check_prepared(folder, source) == (None, "absent")
    folder.mkdir()
    (folder / prep.MODEL_FILE).write_bytes(b"x" * 100)
    found, why = prep.check_prepared(folder, source)
    assert found is None and "manifest.json is missing" in why  # the manifest is written last
    (folder / prep.MANIFEST_FILE).write_text('{"format": ')
    assert "unreadable" in prep.check_prepared(folder, source)[1]
    manifest = {**prep._expected(source), "size": 100, "dim": 384}
    (folder / prep.MANIFEST_FILE).write_text(json.dumps(manifest))
    assert "check is not 4 vectors of 384 numbers" in prep.check_prepared(folder, source)[1]  # format 1
    manifest["check"] = [[0.5] * 384] * 3 + [[0.5] * 383]
    (folder / prep.MANIFEST_FILE).write_text(json.dumps(manifest))
    assert "check is not 4 vectors" in prep.check_prepared(folder, source)[1]
    manifest["check"] = [[0.5] * 384] * 4
    (folder / prep.MANIFEST_FILE).write_text(json.dumps(manifest))
    found, why = prep.check_prepared(folder, source)
    assert found == prep.Prepared(folder, 384) and why == ""
    assert found.check == tuple([(0.5,) * 384] * 4)
    (folder / prep.MODEL_FILE).write_bytes(b"x" * 60)  # truncated
    assert "holds 60 bytes, the manifest says 100" in prep.check_prepared(folder, source)[1]
    (folder / prep.MANIFEST_FILE).write_text(json.dumps({**manifest, "size": 60, "format": prep.FORMAT - 1}))
    assert "format" in prep.check_prepared(folder, source)[1]  # an older layout is rebuilt


def test_an_export_that_fails_leaves_nothing_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def half_written(source: prep.SourceModel, out: Path) -> int:
        (out / prep.MODEL_FILE).write_bytes(b"partial")
        raise EmbeddingError("embedding.model 'x': cannot convert it to ONNX (disk full)")

    monkeypatch.setattr(prep, "_export_into", half_written)
    notices: list[str] = []
    with pytest.raises(EmbeddingError, match="disk full"):
        prep.prepare(packaged_source(), tmp_path, notice=notices.append)
    assert notices == [prep.PREPARING]
    assert [p for p in tmp_path.iterdir() if p.suffix != ".lock"] == []


def test_models_the_onnx_graph_cannot_reproduce_are_refused_with_the_reason(tmp_path: Path) -> None:
    folder = tmp_path / "cls-model"
    (folder / "1_Pooling").mkdir(parents=True)
    (folder / "tokenizer.json").write_text("{}")
    (folder / "modules.json").write_text(
        json.dumps(
            [
                {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
                {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
            ]
        )
    )
    (folder / "1_Pooling" / "config.json").write_text(json.dumps({"pooling_mode_cls_token": True}))
    with pytest.raises(EmbeddingError, match=r"is not mean pooling; use embedding\.backend"):
        OnnxEmbedder(str(folder)).embed(["x"])
    (folder / "tokenizer.json").unlink()
    with pytest.raises(EmbeddingError, match=r"has no tokenizer\.json"):
        OnnxEmbedder(str(folder)).embed(["x"])
    with pytest.raises(EmbeddingError, match="needs the packaged model or a local folder"):
        OnnxEmbedder("some-org/not-here").embed(["x"])


def test_backend_names_and_threads_are_validated_in_config() -> None:
    assert EmbeddingConfig().backend == "openvino" and EmbeddingConfig().threads == 0
    assert parse_config('[embedding]\nbackend = "onnx"\n').embedding.backend == "onnx"
    assert parse_config('[embedding]\nbackend = "sentence-transformers"\nthreads = 1\n').embedding.threads == 1
    with pytest.raises(ConfigError, match=r"config.toml: .*embedding\.backend"):
        parse_config('[embedding]\nbackend = "onnx-int4"\n')
    with pytest.raises(ConfigError, match=r"config.toml: .*embedding\.threads"):
        parse_config("[embedding]\nthreads = -1\n")


def test_threads_default_to_the_cores_this_process_may_use() -> None:
    cores = len(os.sched_getaffinity(0))
    assert available_cores() == cores and resolve_threads(0) == cores and resolve_threads(1) == 1
    for default in make_embedder(EmbeddingConfig()).parts:  # type: ignore[attr-defined]  # both models
        # each part's two runtimes (core.embed.quick_start)
        assert default.bulk.threads == default.quick.threads == cores
        assert default.bulk.streams == cores  # one one-thread stream per core by default
    for part in make_embedder(EmbeddingConfig(threads=1)).parts:  # type: ignore[attr-defined]
        assert part.bulk.threads == 1
    for part in make_embedder(EmbeddingConfig(backend="onnx", threads=1)).parts:  # type: ignore[attr-defined]
        assert part.threads == 1
    # never more streams than threads
    assert OnnxEmbedder(threads=2, streams=5).streams == 2 and OnnxEmbedder(threads=2, streams=0).streams == 1
    assert SentenceTransformerEmbedder()._threads == cores
    with pytest.raises(ValueError, match=r"embedding\.threads"):
        resolve_threads(-2)
    code = "import os; os.sched_setaffinity(0, {0}); from core.embed import available_cores; print(available_cores())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "1"  # an affinity mask (taskset, a container) lowers the default
