"""The embedding layer: quantization, the model-free embedder, backends, and lazy loading."""

from __future__ import annotations

import http.server
import json
import subprocess
import sys
import threading

import numpy as np
import pytest

from core.config import EmbeddingConfig
from core.embed import Embedder, EmbeddingError, make_embedder
from core.embed.hashing import HashingEmbedder
from core.embed.openai_compatible import OpenAICompatibleEmbedder, check_loopback
from core.embed.sentence_transformers_backend import SentenceTransformerEmbedder, resolve_model
from core.index.quantize import hamming, int8_norms, sign_words, smallest, to_int8


def test_int8_uses_the_whole_range_per_vector() -> None:
    rows = np.array([[0.1, -0.2, 0.05], [0.0, 0.0, 0.0], [3.0, 1.0, -1.5]], dtype=np.float32)
    q = to_int8(rows)
    assert q.dtype == np.int8
    assert q[0].tolist() == [64, -127, 32] and q[1].tolist() == [0, 0, 0] and q[2].tolist() == [127, 42, -64]
    assert int8_norms(q)[1] == 1.0  # zero rows divide safely


def test_int8_cosine_is_close_to_float_cosine() -> None:
    rng = np.random.default_rng(1)
    a = rng.normal(size=(200, 384)).astype(np.float32)
    a /= np.linalg.norm(a, axis=1, keepdims=True)
    q = to_int8(a).astype(np.float32)
    approx = (q @ q[0]) / (np.linalg.norm(q, axis=1) * np.linalg.norm(q[0]))
    assert np.max(np.abs(approx - a @ a[0])) < 0.01


def test_sign_words_and_hamming_match_a_plain_count() -> None:
    rng = np.random.default_rng(2)
    q = to_int8(rng.normal(size=(50, 100)))  # 100 bits: padded to two words
    words = sign_words(q)
    assert words.shape == (2, 50) and words.dtype == np.uint64
    distances = hamming(words, words[:, 7], 10, 40)
    plain = [(np.sign(q[i]) > 0).astype(int) for i in range(50)]
    assert distances.tolist() == [int(np.sum(plain[i] != plain[7])) for i in range(10, 40)]


def test_smallest_returns_the_lowest_values() -> None:
    values = np.array([5, 1, 9, 1, 3, 7, 0, 2], dtype=np.uint16)
    assert sorted(smallest(values, 3).tolist()) == [1, 3, 6]
    crowded = np.zeros(1000, dtype=np.uint16)
    assert len(smallest(crowded, 10)) == 10
    assert len(smallest(values, 100)) == 8


def test_hashing_embedder_is_deterministic_and_lexical() -> None:
    embedder = HashingEmbedder(dim=128)
    assert isinstance(embedder, Embedder)
    texts = ["ski trip in the alps", "alps ski trip", "tax return", "서울숲 산책", "서울숲에서 산책"]
    vectors = embedder.embed(texts)
    assert vectors.shape == (5, 128) and np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
    assert np.array_equal(vectors, HashingEmbedder(dim=128).embed(texts))
    assert vectors[0] @ vectors[1] > 0.6 > vectors[0] @ vectors[2]
    assert vectors[3] @ vectors[4] > 0.5


def test_make_embedder_does_not_import_the_model_library() -> None:
    code = (
        "import sys\n"
        "from core.config import EmbeddingConfig\n"
        "import core.index, core.embed\n"
        "e = core.embed.make_embedder(EmbeddingConfig())\n"
        "print(e.name)\n"
        "print(any(m in sys.modules for m in ('sentence_transformers', 'torch', 'transformers')))\n"
        "print('numpy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["multilingual-e5-small+all-MiniLM-L6-v2", "False", "False"]  # the default model


def test_model_names_resolve_offline(tmp_path) -> None:
    assert resolve_model("all-MiniLM-L6-v2").endswith("model")
    folder = tmp_path / "my-model"
    folder.mkdir()
    (folder / "config.json").write_text("{}")
    embedder = SentenceTransformerEmbedder(str(folder))
    first = embedder.name
    assert first.startswith(str(folder)) and "@" in first
    (folder / "config.json").write_text('{"hidden_size": 768}')
    assert embedder.name != first  # a model replaced in place is another model
    file = tmp_path / "weights.bin"
    file.write_bytes(b"x")
    with pytest.raises(EmbeddingError, match=r"embedding\.model"):
        resolve_model(str(file))


def test_unknown_backend_and_missing_endpoint_are_clear_errors() -> None:
    with pytest.raises(EmbeddingError, match=r"embedding\.endpoint is required"):
        make_embedder(EmbeddingConfig(backend="openai-compatible"))
    with pytest.raises(EmbeddingError, match="only loopback"):
        check_loopback("http://example.com:8080/v1")
    assert check_loopback("http://127.0.0.1:8080/v1/") == "http://127.0.0.1:8080/v1"
    assert check_loopback("http://localhost:1/v1") == "http://localhost:1/v1"


@pytest.fixture
def embedding_server():
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            data = [{"index": i, "embedding": [float(len(text)), 1.0, 0.0]} for i, text in enumerate(body["input"])]
            payload = json.dumps({"data": list(reversed(data))}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()


def test_openai_compatible_backend(embedding_server: str) -> None:
    config = EmbeddingConfig(backend="openai-compatible", endpoint=embedding_server, model="m", batch_size=2)
    embedder = make_embedder(config)
    assert isinstance(embedder, OpenAICompatibleEmbedder) and embedder.name == f"m@{embedding_server}"
    vectors = embedder.embed(["a", "bbb", "cc"])
    assert vectors.shape == (3, 3) and embedder.dim == 3
    assert np.allclose(vectors[1], np.array([3.0, 1.0, 0.0]) / np.sqrt(10))
    broken = OpenAICompatibleEmbedder("http://127.0.0.1:9/v1", "m")
    with pytest.raises(EmbeddingError, match="request failed"):
        broken.embed(["x"])


@pytest.mark.model
def test_the_packaged_model_embeds_offline_on_the_reference_backend() -> None:
    embedder = make_embedder(EmbeddingConfig(backend="sentence-transformers", model="all-MiniLM-L6-v2", threads=1))
    vectors = embedder.embed(["I drank coffee this morning", "An espresso at breakfast", "The tax form is due"])
    assert embedder.dim == 384 and vectors.shape == (3, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]
    import torch

    assert torch.get_num_threads() == 1  # embedding.threads lowers the default (every core)


@pytest.mark.model
def test_an_unknown_model_name_fails_without_the_network() -> None:
    with pytest.raises(EmbeddingError, match="cannot load it offline"):
        SentenceTransformerEmbedder("no-such-org/no-such-model").embed(["x"])
