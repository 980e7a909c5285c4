"""Two or more models as one embedder: ``embedding.model = "multilingual-e5-small+all-MiniLM-L6-v2"``.

Each part's unit vector is scaled by the square root of its weight (:data:`PART_WEIGHTS`) and the
parts are laid end to end, so the cosine of two stored vectors is the weighted sum of the parts'
cosines. A query (:meth:`EnsembleEmbedder.embed_query`) counts an English-only part in proportion to
its share of Latin letters, so a Korean or Japanese question is compared by the multilingual part
alone; :func:`query_vectors` falls back to ``embed`` (the stored form) for other embedders.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from core.embed.protocol import Embedder, EmbeddingError, normalize_rows

if TYPE_CHECKING:
    import numpy as np

SEPARATOR = "+"
# a part's share of the cosine, measured on bench_busy.py's tuning half (tests/bench/README.md): e5 is
# weak on short English paraphrases, MiniLM blind to Korean and Japanese. Parts not listed share what is
# left equally. The weights shape every stored vector, and the index knows vectors by the model's name
# only: a change here needs a new name.
PART_WEIGHTS = {"multilingual-e5-small": 0.8, "all-MiniLM-L6-v2": 0.2}
ENGLISH_ONLY = frozenset({"all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2"})


def part_names(model: str) -> list[str] | None:
    """The models an ``embedding.model`` setting joins with ``+``, or None for a single model. An
    empty part (``"a++b"``, a leading or trailing ``+``) or a repeated one is a clear error."""
    if SEPARATOR not in model:
        return None
    parts = [part.strip() for part in model.split(SEPARATOR)]
    if any(not part for part in parts):
        raise EmbeddingError(f"config.toml: embedding.model {model!r}: an empty model name between '+'")
    if len(set(parts)) != len(parts):
        raise EmbeddingError(f"config.toml: embedding.model {model!r}: a model named twice")
    return parts


def weights_for(names: Sequence[str]) -> list[float]:
    """Each part's weight (:data:`PART_WEIGHTS`; unknown parts share the rest equally), summing to 1."""
    known = {name: PART_WEIGHTS[name] for name in names if name in PART_WEIGHTS}
    unknown = [name for name in names if name not in known]
    rest = max(1.0 - sum(known.values()), 0.0)
    raw = [known.get(name, rest / len(unknown) if unknown else 0.0) for name in names]
    total = sum(raw)
    if total <= 0:
        return [1.0 / len(names)] * len(names)
    return [w / total for w in raw]


def latin_share(text: str) -> float:
    """The share of ``text``'s letters that are Latin (1.0 when it holds no letter at all)."""
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return 1.0
    return sum(1 for c in letters if c < "\u0250") / len(letters)


class EnsembleEmbedder:
    """The parts' vectors end to end, each scaled by the square root of its weight."""

    def __init__(self, parts: Sequence[Embedder], names: Sequence[str]) -> None:
        if len(parts) < 2 or len(parts) != len(names):
            raise EmbeddingError("an ensemble needs two or more models")
        self._parts = list(parts)
        self._names = list(names)
        self._weights = weights_for(self._names)
        self.parallel = True  # the parts embed at once (:meth:`_part_vectors`); False exists to measure it
        self._pool: ThreadPoolExecutor | None = None
        self._pool_lock = threading.Lock()

    @property
    def name(self) -> str:
        return SEPARATOR.join(part.name for part in self._parts)

    @property
    def parts(self) -> list[Embedder]:
        return list(self._parts)

    @property
    def dim(self) -> int:
        return sum(part.dim for part in self._parts)

    def load_bulk(self) -> None:
        """Load every part as bulk embedding will use it (:func:`load_for_bulk`)."""
        for part in self._parts:
            load_for_bulk(part)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """The stored form: every part at its weight (unit length)."""
        return self._joined(texts, [self._weights] * len(texts))

    def embed_query(self, texts: Sequence[str]) -> np.ndarray:
        """The query form: an English-only part weighed by each text's share of Latin letters."""
        rows = []
        for text in texts:
            share = latin_share(text)
            rows.append([w * share if name in ENGLISH_ONLY else w for name, w in zip(self._names, self._weights,
                                                                                     strict=True)])
        return self._joined(texts, rows)

    def _joined(self, texts: Sequence[str], weights: list[list[float]]) -> np.ndarray:
        import numpy as np  # heavy: numpy, ~50 ms; `import core.embed` loads none

        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        blocks = []
        for column, vectors in enumerate(self._part_vectors(list(texts))):
            scale = np.array([math.sqrt(row[column]) for row in weights], dtype=np.float32)[:, None]
            blocks.append(normalize_rows(vectors) * scale)
        return normalize_rows(np.concatenate(blocks, axis=1))

    def _part_vectors(self, texts: list[str]) -> list[np.ndarray]:
        """Each part's vectors, the parts embedding at once in threads (the runtimes release the GIL): a
        query waits for the slower model, not for both, and in bulk the cores one model leaves idle (a
        load, tokenizing, the last batch of a call) run the other's batches."""
        if not self.parallel:
            return [part.embed(texts) for part in self._parts]
        with self._pool_lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=len(self._parts), thread_name_prefix="ensemble")
        return list(self._pool.map(lambda part: part.embed(texts), self._parts))


def load_for_bulk(embedder: Embedder) -> None:
    """Load what ``embedder`` embeds many texts with (OpenVINO for the default backend, every part of
    an ensemble), so that the load can overlap other work; any other embedder loads as for its dim."""
    load_bulk = getattr(embedder, "load_bulk", None)
    if callable(load_bulk):
        load_bulk()
    else:
        _ = embedder.dim


def query_vectors(embedder: Embedder, texts: Sequence[str]) -> np.ndarray:
    """Vectors for search queries: the embedder's ``embed_query`` when it has one, else ``embed``."""
    embed_query = getattr(embedder, "embed_query", None)
    return embed_query(texts) if callable(embed_query) else embedder.embed(texts)
