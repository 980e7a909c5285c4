"""How bulk embedding is cut and scheduled (token-budget batches, the ensemble's parts at once), and
that the default model's vectors stay what the plain path (64 rows a batch, one part after the
other) gives: a stored vector must not change with the schedule."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from core.config import EmbeddingConfig
from core.embed import make_embedder
from core.embed.e5_backend import E5OpenVinoEmbedder
from core.embed.ensemble import EnsembleEmbedder
from core.embed.onnx_backend import OnnxEmbedder
from core.embed.openvino_backend import TOKEN_BUDGET, OpenVinoEmbedder

E5, MINI = "multilingual-e5-small", "all-MiniLM-L6-v2"


def _cut(lengths: list[int], *, budget: int, rows: int) -> list[list[int]]:
    embedder = OnnxEmbedder(MINI, batch_size=rows, token_budget=budget)  # nothing loads
    order = np.argsort(np.array(lengths), kind="stable")
    return [batch.tolist() for batch in embedder._batches(order, np.array(lengths))]


def test_a_batch_ends_before_its_padded_tokens_pass_the_budget() -> None:
    lengths = [10, 10, 10, 10, 30, 30, 30, 200, 5]
    batches = _cut(lengths, budget=64, rows=64)
    assert sorted(i for batch in batches for i in batch) == list(range(len(lengths)))  # each row once
    assert [i for batch in batches for i in batch] == [8, 0, 1, 2, 3, 4, 5, 6, 7]  # shortest first, kept
    for batch in batches:
        width = max(lengths[i] for i in batch)
        assert len(batch) * width <= 64 or len(batch) == 1  # a text past the budget runs alone
    assert batches[-1] == [7]


def test_the_row_limit_still_holds_and_no_budget_means_rows_only() -> None:
    assert [len(b) for b in _cut([3] * 10, budget=1000, rows=4)] == [4, 4, 2]
    assert [len(b) for b in _cut([300] * 10, budget=0, rows=4)] == [4, 4, 2]


def test_openvino_cuts_by_tokens_by_default() -> None:
    assert OpenVinoEmbedder(MINI).token_budget == TOKEN_BUDGET > 0
    assert OnnxEmbedder(MINI).token_budget == 0


# -- with the model ------------------------------------------------------------------------------


def _texts() -> list[str]:
    base = ["고양이가 아파서 아침에 동물병원에 갔어", "猫の具合が悪くて朝に動物病院へ行った", "ok",
            "I went hiking in the mountains last weekend with my sister.", "회의 " * 120,
            "We talked about the plumber, the leaking faucet and what it would cost to replace the sink. " * 4]
    return [f"{text} {i}" for i in range(20) for text in base]  # 120 texts: the bulk runtime, many widths


@pytest.mark.model
def test_the_default_gives_the_vectors_of_the_plain_schedule(model_cache: Path) -> None:
    texts = _texts()
    default = make_embedder(EmbeddingConfig(), cache_dir=model_cache)
    assert default.name == f"{E5}+{MINI}"
    got = default.embed(texts)
    plain = EnsembleEmbedder([E5OpenVinoEmbedder(E5, cache_dir=model_cache, token_budget=0),
                              OpenVinoEmbedder(MINI, cache_dir=model_cache, token_budget=0)], [E5, MINI])
    plain.parallel = False
    before = plain.embed(texts)
    assert got.shape == before.shape == (len(texts), 768)
    assert float((got * before).sum(axis=1).min()) > 0.9999
    assert np.allclose(got, before, atol=2e-3)
    parts = [part.bulk for part in default.parts]  # type: ignore[attr-defined]
    assert all(part.loaded and part.token_budget == TOKEN_BUDGET for part in parts)  # the new schedule ran
