"""Two models as one embedder (core.embed.ensemble), with model-free parts: the arithmetic of the
joined vectors, the query form that leaves an English-only part out of a Korean question, and the
setting that names the parts."""

from __future__ import annotations

import numpy as np
import pytest

from core.config import EmbeddingConfig
from core.embed import EmbeddingError, make_embedder, query_vectors
from core.embed.ensemble import EnsembleEmbedder, latin_share, load_for_bulk, part_names, weights_for
from core.embed.hashing import HashingEmbedder

E5, MINI = "multilingual-e5-small", "all-MiniLM-L6-v2"
TEXTS = ["the plumber fixed the leaking faucet", "서울숲에서 산책했다", "漏れている蛇口を直した", "a new dog"]


def _pair() -> tuple[EnsembleEmbedder, HashingEmbedder, HashingEmbedder]:
    multilingual, english = HashingEmbedder(32, name=E5), HashingEmbedder(16, name=MINI)
    return EnsembleEmbedder([multilingual, english], [E5, MINI]), multilingual, english


def test_stored_cosine_is_the_weighted_sum_of_the_parts() -> None:
    ensemble, multilingual, english = _pair()
    joined = ensemble.embed(TEXTS)
    a, b = multilingual.embed(TEXTS), english.embed(TEXTS)
    assert joined.shape == (4, 48) and ensemble.dim == 48
    assert np.allclose(np.linalg.norm(joined, axis=1), 1.0, atol=1e-5)
    expected = 0.8 * (a @ a.T) + 0.2 * (b @ b.T)
    assert np.allclose(joined @ joined.T, expected, atol=1e-5)
    assert ensemble.name == f"{E5}+{MINI}"


def test_a_korean_query_is_compared_by_the_multilingual_part_alone() -> None:
    ensemble, multilingual, _ = _pair()
    stored = ensemble.embed(TEXTS)
    query = ensemble.embed_query(["서울숲 산책"])[0]
    assert np.allclose(query[16 + 16:], 0.0)  # the English part's block is empty
    by_ensemble = np.argsort(-(stored @ query))
    by_part = np.argsort(-(multilingual.embed(TEXTS) @ multilingual.embed(["서울숲 산책"])[0]))
    assert list(by_ensemble) == list(by_part)


def test_an_english_query_uses_both_parts_and_a_mixed_one_part_of_the_english() -> None:
    ensemble, _, _ = _pair()
    english = ensemble.embed_query(["leaking faucet"])[0]
    mixed = ensemble.embed_query(["faucet 수리"])[0]
    assert np.linalg.norm(english[32:]) == pytest.approx(np.sqrt(0.2), abs=1e-5)
    assert 0 < np.linalg.norm(mixed[32:]) < np.linalg.norm(english[32:])


def test_query_vectors_falls_back_to_embed_for_a_single_model() -> None:
    single = HashingEmbedder(16)
    assert np.array_equal(query_vectors(single, ["x y"]), single.embed(["x y"]))


@pytest.mark.parametrize(("text", "share"), [("abc", 1.0), ("가나", 0.0), ("ab가나", 0.5), ("123 !", 1.0),
                                             ("café", 1.0)])
def test_latin_share(text: str, share: float) -> None:
    assert latin_share(text) == pytest.approx(share)


def test_weights_of_known_and_unknown_parts() -> None:
    assert weights_for([E5, MINI]) == pytest.approx([0.8, 0.2])
    assert weights_for(["a", "b"]) == pytest.approx([0.5, 0.5])
    assert weights_for([E5, "other"]) == pytest.approx([0.8, 0.2])


@pytest.mark.parametrize("model", ["a++b", "+a", "a+", "a+a"])
def test_a_malformed_setting_is_one_clear_line(model: str) -> None:
    with pytest.raises(EmbeddingError, match=r"embedding\.model"):
        part_names(model)


def test_the_default_setting_names_both_models_and_builds_an_ensemble_without_loading() -> None:
    assert part_names(EmbeddingConfig().model) == [E5, MINI]
    embedder = make_embedder(EmbeddingConfig())
    assert isinstance(embedder, EnsembleEmbedder)
    assert [type(p).__name__ for p in embedder.parts] == ["QuickStartEmbedder", "QuickStartEmbedder"]
    assert part_names("all-MiniLM-L6-v2") is None


def test_a_few_texts_are_embedded_by_the_parts_at_once_with_the_same_vectors() -> None:
    ensemble, _, _ = _pair()
    together = ensemble.embed_query(["서울숲 산책", "leaking faucet"])
    ensemble.parallel = False
    assert np.array_equal(together, ensemble.embed_query(["서울숲 산책", "leaking faucet"]))
    many = [f"text {i}" for i in range(20)]  # bulk too: the parts at once
    ensemble.parallel = True
    assert np.array_equal(ensemble.embed(many), EnsembleEmbedder(ensemble.parts, [E5, MINI]).embed(many))


def test_load_for_bulk_loads_every_part_as_bulk_embedding_will() -> None:
    loaded: list[str] = []

    class Bulk(HashingEmbedder):
        def load_bulk(self) -> None:
            loaded.append(self.name)

    ensemble = EnsembleEmbedder([Bulk(32, name=E5), Bulk(16, name=MINI)], [E5, MINI])
    load_for_bulk(ensemble)
    assert loaded == [E5, MINI]
    load_for_bulk(HashingEmbedder(8))  # no bulk runtime: loads as for its dim, without error
