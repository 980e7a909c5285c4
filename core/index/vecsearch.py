"""Nearest vectors inside doc ranges: bound first, then score only the rows of the range.

Rows are sorted by doc and docs are in time order, so a time range is one slice of each segment. A
slice of up to ``EXACT_MAX`` rows is scored exactly (int8 dot products summed in int32 by ``einsum``,
divided by the norms: cosine); a larger one is first narrowed by Hamming distance over the sign bits
to the best ``candidates(n, k)`` rows, which are then scored exactly. Figures: tests/bench/README.md
("1,000,000 turns", "Figures the index's layout rests on").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from core.index.quantize import hamming, sign_words, smallest, to_int8
from core.index.vecview import Segment

EXACT_MAX = 16_384  # above this, Hamming + rescoring is faster than scoring every row, at the same recall
CANDIDATES_MIN = 512
CANDIDATES_PER_K = 50
CANDIDATES_DIVISOR = 500  # at least n / 500 candidates: 2,000 of 1M rows


def candidates(n: int, k: int) -> int:
    return min(n, max(CANDIDATES_MIN, k * CANDIDATES_PER_K, n // CANDIDATES_DIVISOR))


@dataclass(frozen=True)
class Band:
    """A doc range to search, optionally limited to ``allowed`` docs (sorted int64)."""

    lo: int
    hi: int
    allowed: np.ndarray | None = None


@dataclass(frozen=True)
class Query:
    q: np.ndarray  # int8
    norm: float
    words: np.ndarray  # uint64 sign words
    live: tuple[int, ...] | None = None  # the sign words in which the query has a non-zero component

    @classmethod
    def of(cls, vector: np.ndarray) -> Query:
        q = to_int8(np.asarray(vector, dtype=np.float32).reshape(1, -1))[0]
        norm = float(np.sqrt(np.dot(q.astype(np.int32), q.astype(np.int32)))) or 1.0
        words = sign_words(q.reshape(1, -1))[:, 0]
        padded = np.zeros(len(words) * 64, dtype=bool)
        padded[: len(q)] = q != 0
        live = tuple(int(w) for w in np.flatnonzero(padded.reshape(len(words), 64).any(axis=1)))
        return cls(q=q, norm=norm, words=words, live=None if len(live) == len(words) else live)


def _score(segment: Segment, rows: slice | np.ndarray, query: Query) -> np.ndarray:
    dots = np.einsum("ij,j->i", segment.q[rows], query.q, dtype=np.int32)
    return dots.astype(np.float32) / (segment.norms[rows] * query.norm)


def _top(rows: np.ndarray, scores: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    if len(scores) > k:
        keep = np.argpartition(-scores, k)[:k]
        rows, scores = rows[keep], scores[keep]
    return rows, scores


def _search_slice(segment: Segment, a: int, b: int, mask: np.ndarray | None, query: Query, k: int):
    n = (b - a) if mask is None else int(mask.sum())
    if n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
    if n <= EXACT_MAX:
        if mask is None:
            rows = np.arange(a, b)
            scores = _score(segment, slice(a, b), query)
        else:
            rows = a + np.flatnonzero(mask)
            scores = _score(segment, rows, query)
        return _top(rows, scores, k)
    distances = hamming(segment.words, query.words, a, b, query.live)
    if mask is not None:
        distances[~mask] = np.iinfo(distances.dtype).max
    picked = smallest(distances, candidates(n, k))
    if mask is not None:
        picked = picked[mask[picked]]
    rows = a + np.sort(picked)
    return _top(rows, _score(segment, rows, query), k)


def search(segments: Sequence[Segment], vector: np.ndarray, bands: Sequence[Band], k: int) -> list[tuple[int, float]]:
    """The ``k`` best (doc, cosine) over the bands, best first."""
    query = Query.of(vector)
    found_docs: list[np.ndarray] = []
    found_scores: list[np.ndarray] = []
    for segment in segments:
        for band in bands:
            a = int(np.searchsorted(segment.docs, band.lo, side="left"))
            b = int(np.searchsorted(segment.docs, band.hi, side="right"))
            if b <= a:
                continue
            mask = None if segment.alive is None else np.asarray(segment.alive[a:b])
            if band.allowed is not None:
                allowed = np.isin(segment.docs[a:b], band.allowed)
                mask = allowed if mask is None else (mask & allowed)
            rows, scores = _search_slice(segment, a, b, mask, query, k)
            found_docs.append(np.asarray(segment.docs[rows]))
            found_scores.append(scores)
    if not found_docs:
        return []
    docs = np.concatenate(found_docs)
    scores = np.concatenate(found_scores)
    order = np.argsort(-scores, kind="stable")[:k]
    return [(int(docs[i]), float(scores[i])) for i in order]


def score_docs(segments: Sequence[Segment], vector: np.ndarray, docs: Sequence[int]) -> dict[int, float]:
    """The cosine of each of ``docs`` that holds a live vector (the others are left out), scored
    as :func:`search` scores them: for candidates found another way (a keyword match) whose
    nearness is wanted too."""
    query = Query.of(vector)
    wanted = np.unique(np.asarray(docs, dtype=np.int64))
    out: dict[int, float] = {}
    for segment in segments:
        if not len(wanted) or not len(segment.docs):
            continue
        at = np.searchsorted(segment.docs, wanted)
        inside = at < len(segment.docs)
        at, found = at[inside], wanted[inside]
        same = np.asarray(segment.docs[at]) == found
        at, found = at[same], found[same]
        if segment.alive is not None:
            live = np.asarray(segment.alive[at])
            at, found = at[live], found[live]
        if len(at):
            out.update(zip(found.tolist(), _score(segment, at, query).tolist(), strict=True))
    return out
