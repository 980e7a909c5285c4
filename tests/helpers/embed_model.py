"""The packaged all-MiniLM-L6-v2 as the embedding backends' tests read it."""

from __future__ import annotations

from pathlib import Path

from core.embed import onnx_prepare as prep
from core.embed.sentence_transformers_backend import resolve_model


def packaged_source() -> prep.SourceModel:
    return prep.inspect_source(Path(resolve_model("all-MiniLM-L6-v2")), "all-MiniLM-L6-v2")
