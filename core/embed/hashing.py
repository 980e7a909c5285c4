"""A model-free embedder: feature hashing of words and CJK bigrams into a small vector.

Cosine between two texts grows with the words they share; it knows nothing of meaning. It loads in
no time and is deterministic, which is what tests of the index need (a real model costs seconds to
load and ~100 sentences/s here); it also lets the index run where torch cannot be installed.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

from core.embed.protocol import normalize_rows
from core.index.tokenize import index_text

_TOKEN = re.compile(r"[^\W_]+")


class HashingEmbedder:
    def __init__(self, dim: int = 64, *, name: str | None = None) -> None:
        if dim < 8:
            raise ValueError("hashing embedder: dim must be at least 8")
        self._dim = dim
        self._name = name or f"hashing-{dim}"
        self.calls = 0  # texts embedded so far (tests count model work with it)

    @property
    def name(self) -> str:
        return self._name

    @property
    def dim(self) -> int:
        return self._dim

    def _tokens(self, text: str) -> list[str]:
        return _TOKEN.findall(index_text(text).casefold())

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self._dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for token in self._tokens(text):
                digest = hashlib.blake2b(token.encode("utf-8"), digest_size=8).digest()
                for part in (digest[:4], digest[4:]):
                    value = int.from_bytes(part, "little")
                    out[row, value % self._dim] += 1.0 if value & (1 << 31) else -1.0
        self.calls += len(texts)
        return normalize_rows(out)
