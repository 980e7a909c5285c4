"""A query that uses only part of the vector (an ensemble's multilingual half for a Korean question,
core.embed.ensemble) is prefiltered by the signs of that part only: the zero half's sign bits say
nothing, and counting them adds to every row's Hamming distance a term unrelated to the query."""

from __future__ import annotations

import numpy as np

from core.index import vecsearch
from core.index.quantize import int8_norms, sign_words, to_int8
from core.index.vecview import Segment


def _segment(vectors: np.ndarray) -> Segment:
    q = to_int8(vectors)
    return Segment(docs=np.arange(len(q), dtype=np.int64), q=q, norms=int8_norms(q), words=sign_words(q))


def test_a_half_zero_query_finds_what_its_half_alone_finds() -> None:
    rng = np.random.default_rng(7)
    rows = vecsearch.EXACT_MAX * 2  # large enough for the Hamming prefilter
    first = rng.normal(size=(rows, 128)).astype(np.float32)
    second = rng.normal(size=(rows, 128)).astype(np.float32) * 3  # a loud half the query does not use
    vectors = np.concatenate([first, second], axis=1)
    query_half = rng.normal(size=128).astype(np.float32)
    targets = rng.choice(rows, size=10, replace=False)
    first[targets] = query_half + rng.normal(scale=2.0, size=(10, 128)).astype(np.float32)
    vectors[:, :128] = first
    query = np.concatenate([query_half, np.zeros(128, dtype=np.float32)])

    found = {doc for doc, _ in vecsearch.search([_segment(vectors)], query, [vecsearch.Band(0, rows)], 10)}

    cosines = first @ query_half / np.linalg.norm(first, axis=1)  # the query's half is all it says
    oracle = {int(doc) for doc in np.argsort(-cosines)[:10]}
    assert len(found & oracle) >= 9
    assert vecsearch.Query.of(query).live == (0, 1)


def test_a_query_with_every_part_uses_every_word() -> None:
    query = np.random.default_rng(1).normal(size=256).astype(np.float32)
    assert vecsearch.Query.of(query).live is None
