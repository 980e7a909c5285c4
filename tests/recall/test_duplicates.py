"""The near-duplicate check on capture: threshold, candidates from the index, decisions that delete nothing."""

from __future__ import annotations

from datetime import UTC, timedelta

import numpy as np
import pytest

from core.duplicates import DuplicateCheck, DuplicateError, check_duplicate, decide
from core.index import HomeDayLogs, MemoryDoc, Reindexer, SearchIndex
from core.recall import sync_vault
from core.typed import to_builtins
from tests.helpers.recall import NOW, ConceptEmbedder, indexed, turn
from tests.helpers.vault import make_vault


class FixedEmbedder:
    """Vectors chosen per text, so similarities are exact and known."""

    name = "fixed-test"
    dim = 3

    def __init__(self, table: dict[str, tuple[float, float, float]]) -> None:
        self.table = table

    def embed(self, texts):
        return np.array([self.table[t] for t in texts], dtype=np.float32)


def docs(*pairs: tuple[str, str]) -> list[MemoryDoc]:
    return [MemoryDoc(id=i, ts="2026-11-01T00:00:00Z", text=t, reviewed=i.endswith("r")) for i, t in pairs]


def angle(cos: float) -> tuple[float, float, float]:
    return (cos, float(np.sqrt(1 - cos * cos)), 0.0)


@pytest.mark.parametrize(("similarity", "is_duplicate"), [(0.96, True), (0.95, True), (0.949, False), (0.5, False)])
def test_threshold(similarity, is_duplicate):
    emb = FixedEmbedder({"new": (1.0, 0.0, 0.0), "old": angle(similarity)})
    check = check_duplicate("new", emb, threshold=0.95, memories=docs(("mem_r", "old")))
    assert (check.duplicate is not None) == is_duplicate
    assert check.matches[0].similarity == pytest.approx(similarity, abs=1e-5)


def test_nearest_duplicate_first_and_exclusions():
    emb = FixedEmbedder({"new": (1.0, 0.0, 0.0), "a": angle(0.97), "b": angle(0.99), "c": angle(0.2)})
    memories = docs(("mem_ar", "a"), ("mem_b", "b"), ("mem_c", "c"))
    check = check_duplicate("new", emb, memories=memories)
    assert [m.memory_id for m in check.duplicates] == ["mem_b", "mem_ar"]
    assert check.duplicate.reviewed is False and check.duplicates[1].reviewed is True
    assert check_duplicate("new", emb, memories=memories, exclude=["mem_b"]).duplicate.memory_id == "mem_ar"
    assert check_duplicate("new", emb, threshold=0.98, memories=memories).duplicates[0].memory_id == "mem_b"


def test_decisions_delete_nothing():
    emb = FixedEmbedder({"new": (1.0, 0.0, 0.0), "old": angle(0.99)})
    check = check_duplicate("new", emb, memories=docs(("mem_old", "old")))
    replace = decide(check, "replace")
    assert (replace.keep_new, replace.supersedes) == (True, "mem_old")
    assert to_builtins(decide(check, "keep_both")) == {"choice": "keep_both", "keep_new": True, "supersedes": None}
    assert decide(check, "cancel").keep_new is False
    with pytest.raises(DuplicateError, match="choice"):
        decide(check, "delete")
    with pytest.raises(DuplicateError, match="no near-duplicate"):
        decide(DuplicateCheck(0.95), "replace")


def test_bad_input_is_a_clear_error():
    emb = FixedEmbedder({})
    with pytest.raises(DuplicateError, match="empty"):
        check_duplicate("  ", emb, memories=[])
    with pytest.raises(DuplicateError, match="threshold"):
        check_duplicate("x", emb, threshold=1.5, memories=[])
    with pytest.raises(DuplicateError, match="index"):
        check_duplicate("x", emb)
    assert check_duplicate("x", emb, memories=[]).duplicate is None


def test_candidates_come_from_the_index_with_and_without_vectors(paths):
    vault = make_vault(paths)
    kept = vault.add_memory("We planted tomatoes on the balcony", ["garden"])
    vault.add_memory("The report deadline is Friday", [])
    embedder = ConceptEmbedder()
    index = indexed(paths, [turn(NOW - timedelta(days=1), "We planted tomatoes on the balcony")], embedder)
    sync_vault(index, vault, UTC)  # no embedder: the memories have no vectors yet, exact finds them
    check = check_duplicate("We planted tomatoes on the balcony!", embedder, index=index)
    assert check.duplicate is not None and check.duplicate.memory_id == kept.memory_id
    assert all(m.memory_id.startswith("mem_") for m in check.matches)  # turns are never candidates
    Reindexer(index, HomeDayLogs(paths), embedder=lambda: embedder).run()  # embeds the waiting memories
    semantic = check_duplicate("seeds garden plants", embedder, index=index, threshold=0.8)
    assert semantic.matches and semantic.matches[0].memory_id == kept.memory_id
    index.close()
    assert len(vault.list_memories()) == 2  # nothing was touched


def test_an_empty_index(paths):
    index = SearchIndex.open(paths)
    assert check_duplicate("anything", ConceptEmbedder(), index=index).matches == []
    index.close()
