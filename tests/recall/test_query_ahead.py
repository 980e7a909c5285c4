"""A search that ranks by meaning starts embedding its query at once, in a thread, while exact search
runs; the answer is the same as when the query is embedded where it is needed, and a text is embedded
once per search."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from datetime import UTC, timedelta

import numpy as np
import pytest

from core.recall import Recaller
from tests.helpers.recall import NOW, ConceptEmbedder, indexed, recaller, turn


class Watched(ConceptEmbedder):
    """Records each text it embeds and the thread that asked; ``gate`` (when set) holds an embedding
    until the test opens it."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[str, str]] = []
        self.gate: threading.Event | None = None

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if self.gate is not None:
            assert self.gate.wait(10)
        self.seen.extend((text, threading.current_thread().name) for text in texts)
        return super().embed(texts)


@pytest.fixture
def home(paths):
    start = NOW - timedelta(days=2)
    turns = [turn(start + timedelta(hours=i), f"The weekend was quiet, we read book number {i}", session=f"c{i}",
                  actor="tom") for i in range(6)]
    turns.append(turn(start + timedelta(hours=3, minutes=30), "We went skiing on the slopes", session="ski",
                      actor="kate"))
    embedder = Watched()
    index = indexed(paths, turns, embedder)
    embedder.seen.clear()
    yield index, embedder
    index.close()


def _answer(found: Recaller, query: str, mode: str = "auto") -> list[tuple[str, float]]:
    return [(item.text, round(item.score, 6)) for item in found.search(query, now=NOW, zone=UTC, mode=mode).results]


@pytest.mark.parametrize("mode", ["auto", "hybrid", "semantic"])
@pytest.mark.parametrize("query", ["snowboarding weekend", "what did kate do on the snowboard weekend?",
                                   "last week, what did Kate do on the snowboard weekend?"])
def test_the_query_is_embedded_ahead_once_with_the_same_answer(home, mode: str, query: str) -> None:
    index, embedder = home
    ahead = recaller(index, embedder)
    got = _answer(ahead, query, mode)
    texts = [text for text, _ in embedder.seen]
    assert 1 <= len(texts) == len(set(texts)) <= 2  # each text once: with and without the named speaker
    assert all(name.startswith("recall-query") for _, name in embedder.seen)  # none in the searching thread
    embedder.seen.clear()
    where_needed = recaller(index, embedder)
    where_needed.embed_ahead = False
    assert _answer(where_needed, query, mode) == got
    needed = [text for text, _ in embedder.seen]
    assert needed and set(needed) <= set(texts)  # what the search asked for was embedded ahead
    assert all(not name.startswith("recall-query") for _, name in embedder.seen)
    ahead.close()


def test_the_embedding_runs_while_exact_search_does(home) -> None:
    """Held until exact search has run: a search that embedded before searching words would wait forever."""
    index, embedder = home
    found = recaller(index, embedder)
    embedder.gate = threading.Event()
    searched = index.exact_search

    def exact_then_open(*args, **kwargs):
        out = searched(*args, **kwargs)
        embedder.gate.set()  # type: ignore[union-attr]
        return out

    index.exact_search = exact_then_open  # type: ignore[method-assign]
    answer = found.search("snowboarding weekend", now=NOW, zone=UTC)
    assert answer.mode == "hybrid" and embedder.gate.is_set()
    assert embedder.seen and embedder.seen[0][1].startswith("recall-query")


def test_exact_mode_and_an_index_without_vectors_embed_nothing(home, paths) -> None:
    index, embedder = home
    assert _answer(recaller(index, embedder), "weekend book", "exact")
    assert embedder.seen == []


def test_an_embedding_error_reaches_the_searcher_as_before(home) -> None:
    index, _ = home

    class Broken(Watched):
        def embed(self, texts: Sequence[str]) -> np.ndarray:
            from core.embed import EmbeddingError

            raise EmbeddingError("embedding.model 'concept-test-32': cannot run")

    answer = recaller(index, Broken()).search("weekend book", now=NOW, zone=UTC)
    assert answer.mode == "exact" and "semantic search unavailable" in (answer.note or "")
    with pytest.raises(Exception, match="cannot run"):
        recaller(index, Broken()).search("weekend book", now=NOW, zone=UTC, mode="semantic")
