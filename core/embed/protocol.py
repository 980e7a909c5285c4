"""What the index needs from an embedding model, and nothing more.

An embedder has a ``name`` (recorded in the index with the dimension: a change of either makes
``reverie reindex`` embed everything again), a ``dim``, and ``embed(texts)`` returning one L2-normalised
float32 row per text. Cosine similarity is then a dot product.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from core.errors import ReverieError

if TYPE_CHECKING:
    import numpy as np


class EmbeddingError(ReverieError):
    """The embedding model cannot be loaded or used; the message names the setting or the model."""


@runtime_checkable
class Embedder(Protocol):
    @property
    def name(self) -> str:
        """The model's identity as recorded in the index (a name or an absolute path)."""
        ...

    @property
    def dim(self) -> int:
        """Length of each vector (may load the model)."""
        ...

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """``(len(texts), dim)`` float32, each row of unit length."""
        ...


def normalize_rows(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (zero rows stay zero), as float32."""
    import numpy as np  # heavy: numpy, ~50 ms; `import core.embed` loads none

    out = np.asarray(vectors, dtype=np.float32)
    if out.ndim != 2:
        raise EmbeddingError(f"embedding: expected a 2-d array of vectors, got shape {out.shape}")
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    return np.divide(out, norms, out=np.zeros_like(out), where=norms > 0)
