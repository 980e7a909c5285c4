"""Recall and the duplicate check with the real embedding model (all-MiniLM-L6-v2, packaged offline)."""

from __future__ import annotations

from datetime import UTC, timedelta

import pytest

from core.config import EmbeddingConfig
from core.duplicates import check_duplicate
from core.embed import make_embedder
from core.index import MemoryDoc
from tests.helpers.recall import NOW, indexed, recaller, turn

pytestmark = pytest.mark.model


@pytest.fixture(scope="module")
def model():
    return make_embedder(EmbeddingConfig())


def test_semantic_fallback_finds_meaning_without_shared_words(paths, model):
    turns = [
        turn(NOW - timedelta(days=3), "We went skiing in the Alps and the slopes were icy", session="a"),
        turn(NOW - timedelta(days=2), "The quarterly report is due on Friday", session="b"),
        turn(NOW - timedelta(days=1), "I cooked pasta with garlic for dinner", session="c"),
    ]
    index = indexed(paths, turns, model)
    answer = recaller(index, model).search("snowboarding holiday", now=NOW, zone=UTC)
    assert answer.mode == "semantic" and "exact matched nothing" in answer.note
    assert answer.results[0].text.startswith("We went skiing")
    hybrid = recaller(index, model).search("what did I cook", now=NOW, zone=UTC, mode="hybrid")
    assert hybrid.mode == "hybrid" and hybrid.results[0].text.startswith("I cooked pasta")
    index.close()


def test_duplicate_threshold_with_the_real_model(model):
    memories = [MemoryDoc(id="mem_a", ts="2026-11-01T00:00:00Z", text="We planted tomatoes on the balcony.",
                          reviewed=True),
                MemoryDoc(id="mem_b", ts="2026-11-02T00:00:00Z", text="The report deadline moved to Friday.")]
    same = check_duplicate("We planted tomatoes on the balcony", model, memories=memories)
    assert same.duplicate is not None and same.duplicate.memory_id == "mem_a" and same.duplicate.reviewed
    different = check_duplicate("We planted basil in the garden last spring", model, memories=memories)
    assert different.duplicate is None and different.matches[0].memory_id == "mem_a"
