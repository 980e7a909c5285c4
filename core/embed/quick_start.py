"""The default backend's two runtimes: ONNX Runtime for a process's first few texts, OpenVINO for bulk.

Why two. A short-lived command that embeds a handful of texts (the duplicate check of ``draft new``,
``suggest``, a search query) pays the runtime's start-up, not its throughput. Both runtimes run the
same prepared ONNX graph (:mod:`core.embed.onnx_prepare`), but they start differently: OpenVINO's
start is ``import openvino`` plus loading its compiled copy from the cache plus the check sentences
(0.55–0.80 s to the first vector from a cold process here, load 1.5–1.8), ONNX Runtime's is ``import
onnxruntime`` plus opening the saved optimized graph (0.22–0.51 s), and either embeds one text in
6–44 ms. In bulk the order reverses:
OpenVINO in bf16 embeds about 2× the texts per CPU second (:mod:`core.embed.openvino_backend`). So
texts go to ONNX Runtime while OpenVINO is not loaded and a call holds at most :data:`FEW_TEXTS`
texts; the first larger call loads OpenVINO, and from then on every call uses it (it is warm).
Figures: ``tests/bench/bench_draft_start.py`` and ``tests/bench/README.md``.

The vectors agree: float ONNX Runtime equals the torch reference to rounding, bf16 OpenVINO is at
cosine ≥ 0.9999 of it (min 0.99993 over 1,000 LoCoMo turns), and the index records both under the
model's one name, as it already did for the two backends. A question embedded by ONNX Runtime over
turns stored by OpenVINO keeps recall@10 0.9921 against float torch (304 LoCoMo questions; OpenVINO
for both: 0.9908), and the duplicate check decides the same with either runtime on the drafts of
``tests/bench/bench_draft_start.py`` (cosine between the runtimes ≥ 0.99997 there).
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

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not self.bulk.loaded and not self._quick_failed and len(texts) <= self.few:
            try:
                return self.quick.embed(texts)
            except EmbeddingError:
                if self.quick.loaded:  # it ran before: this is a real failure, not a missing runtime
                    raise
                self._quick_failed = True  # e.g. onnxruntime not installed: OpenVINO alone
        return self.bulk.embed(texts)
