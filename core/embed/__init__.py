"""Embedding models behind one small protocol. Importing this package is cheap: the model library
loads only when a vector is first needed."""

from __future__ import annotations

from core.config import EmbeddingConfig
from core.embed.protocol import Embedder, EmbeddingError, normalize_rows

__all__ = ["Embedder", "EmbeddingError", "make_embedder", "normalize_rows"]


def make_embedder(config: EmbeddingConfig) -> Embedder:
    """The embedder ``config`` describes (nothing is loaded yet)."""
    if config.backend == "sentence-transformers":
        from core.embed.sentence_transformers_backend import SentenceTransformerEmbedder

        return SentenceTransformerEmbedder(config.model, threads=config.threads, batch_size=config.batch_size)
    if config.backend == "openai-compatible":
        from core.embed.openai_compatible import OpenAICompatibleEmbedder

        if not config.endpoint:
            raise EmbeddingError("config.toml: embedding.endpoint is required for the openai-compatible backend")
        return OpenAICompatibleEmbedder(config.endpoint, config.model, batch_size=config.batch_size)
    raise EmbeddingError(f"config.toml: embedding.backend {config.backend!r} is not known")
