"""The default backend's two runtimes: ONNX Runtime for a process's first few texts, OpenVINO for bulk.

A short command (the duplicate check of ``draft new``, ``suggest``, a search query) pays a runtime's
start-up, not its throughput: texts go to ONNX Runtime while OpenVINO is not loaded and a call holds
at most :data:`FEW_TEXTS` texts; the first larger call loads OpenVINO, which then takes every call.
Both run the same prepared graph and agree to cosine ≥ 0.9999, so the index records both under the
model's one name. Figures: tests/bench/README.md, ``bench_draft_start.py`` and ``bench_embed.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from core.embed.onnx_backend import OnnxEmbedder
from core.embed.openvino_backend import OpenVinoEmbedder
from core.embed.protocol import EmbeddingError

if TYPE_CHECKING:
    import numpy as np

# The most texts a call may hold and still go to ONNX Runtime while OpenVINO is not loaded: one
# default batch. Past it OpenVINO's faster embedding repays its slower start (see the README figures).
FEW_TEXTS = 64


class QuickStartEmbedder:
    """An :class:`~core.embed.protocol.Embedder` over ``bulk`` (OpenVINO) that sends calls of at most
    ``few`` texts to ``quick`` (ONNX Runtime, same graph) until ``bulk`` is loaded. When ``quick``
    cannot run (ONNX Runtime missing or unable to open the graph), everything goes to ``bulk``."""

    backend = "openvino"

    def __init__(self, bulk: OpenVinoEmbedder, quick: OnnxEmbedder, *, few: int = FEW_TEXTS) -> None:
        self.bulk = bulk
        self.quick = quick
        self.few = few
        self._quick_failed = False

    @property
    def name(self) -> str:
        return self.bulk.name

    @property
    def loaded(self) -> bool:
        return self.bulk.loaded or self.quick.loaded

    @property
    def precision(self) -> str | None:
        """What OpenVINO runs once loaded (``None`` before); ONNX Runtime always runs float32."""
        return self.bulk.precision

    @property
    def dim(self) -> int:
        """Reads the prepared model's manifest; loads no runtime (a bulk caller then loads only OpenVINO)."""
        if self.bulk.loaded:
            return self.bulk.dim
        if self.quick.loaded:
            return self.quick.dim
        return self.quick.prepare_model().dim

    def warm(self) -> None:
        """Load now the runtime a call of a few texts would use (ONNX Runtime; OpenVINO when it cannot run),
        so that a caller can overlap the load with other work (the vault's key derivation)."""
        if self.bulk.loaded:
            return
        if not self._quick_failed:
            try:
                _ = self.quick.dim  # loads the session
                return
            except EmbeddingError:
                self._quick_failed = True
        _ = self.bulk.dim

    def load_bulk(self) -> None:
        """Load OpenVINO now, for a caller about to embed many texts that has other work to overlap
        with the load (an ingest writing the log and the word index first)."""
        _ = self.bulk.dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not self.bulk.loaded and not self._quick_failed and len(texts) <= self.few:
            try:
                return self.quick.embed(texts)
            except EmbeddingError:
                if self.quick.loaded:  # it ran before: this is a real failure, not a missing runtime
                    raise
                self._quick_failed = True  # e.g. onnxruntime not installed: OpenVINO alone
        return self.bulk.embed(texts)
