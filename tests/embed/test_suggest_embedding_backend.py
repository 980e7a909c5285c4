"""The OpenAI-compatible embedding backend (a local Ollama, llama.cpp, LM Studio…), against a small
fake server on loopback that answers in that API's shape; and the tag suggester running on it."""

from __future__ import annotations

import json
from collections.abc import Iterator

import numpy as np
import pytest

from core.config import Config, EmbeddingConfig
from core.embed import EmbeddingError, make_embedder
from core.embed.openai_compatible import OpenAICompatibleEmbedder
from core.paths import HomePaths
from core.suggest import SuggestContext
from core.suggest.tags import TagSuggester
from core.vault.review import StoredDraft
from tests.helpers.embedding_server import HASHING, FakeServer, Reply
from tests.helpers.vault import make_vault


@pytest.fixture
def server() -> Iterator[FakeServer]:
    with FakeServer() as running:
        yield running


def test_vectors_come_back_in_order_normalised_and_batched(server: FakeServer) -> None:
    embedder = OpenAICompatibleEmbedder(server.url, "nomic-embed-text", batch_size=2)
    texts = ["powder snow in Niseko", "tax forms", "hiking Bukhansan"]
    vectors = embedder.embed(texts)
    assert vectors.shape == (3, 64) and vectors.dtype == np.float32
    assert np.allclose(vectors, HASHING.embed(texts), atol=1e-6)
    assert [len(body["input"]) for _, body, _ in server.requests] == [2, 1]
    path, body, headers = server.requests[0]
    assert path == "/v1/embeddings" and body["model"] == "nomic-embed-text" and body["encoding_format"] == "float"
    assert "authorization" not in headers
    assert embedder.dim == 64 and embedder.name == f"nomic-embed-text@{server.url}"
    assert embedder.embed([]).shape == (0, 64)


def test_the_endpoint_may_name_the_embeddings_path_and_a_key_is_sent_when_set(
        server: FakeServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REVERIE_EMBEDDING_API_KEY", "local-key")
    embedder = OpenAICompatibleEmbedder(server.url + "/embeddings/", "m")
    embedder.embed(["x"])
    assert server.requests[-1][0] == "/v1/embeddings"
    assert server.requests[-1][2]["authorization"] == "Bearer local-key"


def test_proxy_settings_never_see_the_texts(server: FakeServer, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "ALL_PROXY"):
        monkeypatch.setenv(name, "http://127.0.0.1:9")  # nothing listens there
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    assert OpenAICompatibleEmbedder(server.url, "m").embed(["private words"]).shape == (1, 64)


@pytest.mark.parametrize(("reply", "message"), [
    (lambda b, h: (307, {"Location": "http://example.com/v1/embeddings"}, b""), "redirect to http://example.com"),
    (lambda b, h: (404, {}, json.dumps({"error": {"message": "model 'm' not found, try pulling it"}}).encode()),
     "HTTP 404: model 'm' not found, try pulling it"),
    (lambda b, h: (500, {}, b"<html>oops</html>"), "HTTP 500"),
    (lambda b, h: (200, {}, b"not json"), "request failed"),
    (lambda b, h: (200, {}, json.dumps({"embeddings": []}).encode()), "answer has no data[].embedding"),
    (lambda b, h: (200, {}, json.dumps({"data": [{"index": 0, "embedding": [1, 2]},
                                                 {"index": 1, "embedding": [1]}]}).encode()), "of one length"),
    (lambda b, h: (200, {}, b'{"data": [{"index": 0, "embedding": [NaN, 1]}, {"index": 1, "embedding": [1, 1]}]}'),
     "not a finite number"),
    (lambda b, h: (200, {}, json.dumps({"data": [{"index": 0, "embedding": [1.0]}]}).encode()), "1 vectors for 2"),
])
def test_bad_answers_are_one_line_errors_naming_the_endpoint(server: FakeServer, reply: Reply, message: str) -> None:
    server.reply = reply
    with pytest.raises(EmbeddingError) as caught:
        OpenAICompatibleEmbedder(server.url, "m").embed(["a", "b"])
    text = str(caught.value)
    assert message in text and f"embedding.endpoint {server.url}" in text and "\n" not in text


@pytest.mark.parametrize("endpoint", ["http://10.0.0.7:11434/v1", "http://example.com/v1", "ftp://127.0.0.1/v1",
                                      "http://[2001:db8::1]:8080/v1", "127.0.0.1:11434"])
def test_only_loopback_http_endpoints_are_accepted(endpoint: str) -> None:
    with pytest.raises(EmbeddingError, match=r"embedding\.endpoint"):
        OpenAICompatibleEmbedder(endpoint, "m")


def test_ipv6_loopback_and_bad_settings() -> None:
    assert OpenAICompatibleEmbedder("http://[::1]:11434/v1", "m").endpoint == "http://[::1]:11434/v1"
    with pytest.raises(EmbeddingError, match=r"embedding\.model: required"):
        OpenAICompatibleEmbedder("http://127.0.0.1:1/v1", " ")
    with pytest.raises(EmbeddingError, match=r"embedding\.batch_size"):
        OpenAICompatibleEmbedder("http://127.0.0.1:1/v1", "m", batch_size=0)


def test_the_tag_suggester_runs_on_the_configured_backend(server: FakeServer, paths: HomePaths) -> None:
    settings = Config()
    settings.embedding = EmbeddingConfig(backend="openai-compatible", endpoint=server.url, model="nomic-embed-text")
    assert isinstance(make_embedder(settings.embedding), OpenAICompatibleEmbedder)
    vault = make_vault(paths)
    for content, tags in (("hiking up Bukhansan in the rain", ["hiking"]), ("tax forms for the accountant", ["admin"])):
        d = vault.create_draft(content, tags).approve(reviewer="me")
        vault.save_draft(d)
        vault.finalize_draft(d)
    from core.index import HomeDayLogs, Reindexer, SearchIndex
    from core.recall import vault_docs

    embedder = make_embedder(settings.embedding)
    with SearchIndex.open(paths) as index:
        # the workbench's part: the vault's memories in the index, embedded by the configured model
        with Reindexer(index, HomeDayLogs(paths), embedder=lambda: embedder,
                       memory_source=lambda: vault_docs(vault, settings.zone())) as reindexer:
            reindexer.run()
        ctx = SuggestContext(vault=vault, config=settings, paths=paths, memory_index=lambda: index)
        draft = StoredDraft(draft_id="draft_e1", content="hiking up Bukhansan again",
                            created_at="2026-11-25T12:00:00+00:00")
        found = TagSuggester().propose(draft, ctx)
    assert [p.value for p in found if p.attach] == [["hiking"]]
    assert TagSuggester().model_name(ctx) == f"nomic-embed-text@{server.url}"
    assert any(len(body["input"]) == 2 for _, body, _ in server.requests)  # the memories were embedded
