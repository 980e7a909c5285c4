"""Embeddings from a local OpenAI-compatible server (Ollama, llama.cpp, LM Studio, vLLM…):
``embedding.backend = "openai-compatible"`` with ``endpoint`` (e.g. ``http://127.0.0.1:11434/v1``) and
``model``.

Each batch is one ``POST {endpoint}/embeddings``; rows come back in ``index`` order at unit length.
The texts are the person's conversations, so they never leave the machine: only loopback endpoints
are accepted, proxy settings are ignored and redirects refused. ``$REVERIE_EMBEDDING_API_KEY``, when
set, goes as a bearer token and is never written to the config or an error. Vectors are recorded as
``model@endpoint``: another server or model re-embeds everything at the next ``reverie reindex``.
"""

from __future__ import annotations

import json
import math
import os
import urllib.error
import urllib.request
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlparse

import numpy as np

from core.embed.protocol import EmbeddingError, normalize_rows
from core.loopback import is_loopback_address

TIMEOUT_S = 60.0
API_KEY_ENV = "REVERIE_EMBEDDING_API_KEY"


def check_loopback(endpoint: str) -> str:
    """``endpoint`` without a trailing slash; ``EmbeddingError`` unless it is http(s) on loopback."""
    parsed = urlparse(endpoint)
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        raise EmbeddingError(f"embedding.endpoint {endpoint!r}: not an http(s) URL")
    host = parsed.hostname
    if host != "localhost" and not is_loopback_address(host):
        raise EmbeddingError(f"embedding.endpoint {endpoint!r}: only loopback addresses are allowed")
    return endpoint.rstrip("/")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req: Any, fp: Any, code: int, msg: str, headers: Any, newurl: str) -> None:
        raise urllib.error.HTTPError(newurl, code, f"redirect to {newurl} refused", headers, fp)


def _opener() -> urllib.request.OpenerDirector:
    """No proxies (the environment's HTTP_PROXY must not see the texts), no redirects."""
    return urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirect())


def _server_error(body: bytes) -> str:
    """The message of an OpenAI-style ``{"error": {"message"}}`` (or ``{"error": "..."}``) body."""
    try:
        error = json.loads(body.decode("utf-8")).get("error")
    except (ValueError, AttributeError, UnicodeDecodeError):
        return ""
    message = error.get("message") if isinstance(error, dict) else error
    return " ".join(str(message).split())[:200] if message else ""


class OpenAICompatibleEmbedder:
    def __init__(self, endpoint: str, model: str, *, batch_size: int = 64) -> None:
        base = check_loopback(endpoint)
        self.endpoint = base[: -len("/embeddings")] if base.endswith("/embeddings") else base
        if not model.strip():
            raise EmbeddingError("embedding.model: required for the openai-compatible backend")
        if batch_size < 1:
            raise EmbeddingError("embedding.batch_size: must be at least 1")
        self._model = model
        self.batch_size = batch_size
        self._dim: int | None = None
        self._opener = _opener()

    @property
    def name(self) -> str:
        return f"{self._model}@{self.endpoint}"

    @property
    def dim(self) -> int:
        if self._dim is None:
            self.embed(["dimension probe"])
        assert self._dim is not None
        return self._dim

    def _request(self, texts: list[str]) -> urllib.request.Request:
        body = json.dumps({"model": self._model, "input": texts, "encoding_format": "float"}).encode("utf-8")
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        key = os.environ.get(API_KEY_ENV)
        if key:
            headers["Authorization"] = f"Bearer {key}"
        return urllib.request.Request(f"{self.endpoint}/embeddings", data=body, headers=headers, method="POST")

    def _post(self, texts: list[str]) -> list[list[float]]:
        where = f"embedding.endpoint {self.endpoint}"
        try:
            with self._opener.open(self._request(texts), timeout=TIMEOUT_S) as response:
                payload = json.loads(response.read().decode("utf-8"))
        except urllib.error.HTTPError as exc:
            detail = _server_error(exc.read() if exc.fp else b"") or exc.reason
            raise EmbeddingError(f"{where}: request failed: HTTP {exc.code}: {detail}") from exc
        except (urllib.error.URLError, OSError, ValueError) as exc:
            raise EmbeddingError(f"{where}: request failed: {exc}") from exc
        try:
            rows = sorted(payload["data"], key=lambda item: item["index"])
            vectors = [row["embedding"] for row in rows]
        except (KeyError, TypeError) as exc:
            raise EmbeddingError(f"{where}: answer has no data[].embedding") from exc
        if len(vectors) != len(texts):
            raise EmbeddingError(f"{where}: {len(vectors)} vectors for {len(texts)} texts")
        width = {len(v) if isinstance(v, list) else -1 for v in vectors}
        if len(width) != 1 or min(width) < 1:
            raise EmbeddingError(f"{where}: data[].embedding must be lists of numbers of one length")
        if not all(isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)
                   for v in vectors for x in v):
            raise EmbeddingError(f"{where}: data[].embedding holds something that is not a finite number")
        return vectors

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out: list[np.ndarray] = []
        for start in range(0, len(texts), self.batch_size):
            out.append(normalize_rows(np.array(self._post(list(texts[start : start + self.batch_size])))))
        if not out:
            return np.zeros((0, self._dim or 0), dtype=np.float32)
        matrix = np.vstack(out) if len({m.shape[1] for m in out}) == 1 else None
        if matrix is None:
            raise EmbeddingError(f"embedding.endpoint {self.endpoint}: the dimension changed between batches")
        if self._dim is None:
            self._dim = matrix.shape[1]
        elif matrix.shape[1] != self._dim:
            raise EmbeddingError(
                f"embedding.endpoint {self.endpoint}: dimension changed from {self._dim} to {matrix.shape[1]}"
            )
        return matrix
