"""Compact vectors: int8 for scoring, sign bits for a Hamming prefilter.

One int8 scale per vector (max |x| → 127) keeps recall@10 above 0.99 of float32 cosine, where a fixed
unit scale wastes most of the int8 range (MiniLM's components are small). The scale need not be
stored: cosine ranking divides by the int8 row's norm. The sign bits are computed from the int8 signs,
so they need no storage of their own. Figures: tests/bench/README.md, "Figures the index's layout
rests on".
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def to_int8(vectors: np.ndarray) -> np.ndarray:
    """Each row scaled so its largest component is ±127, rounded. Shape kept; zero rows stay zero."""
    rows = np.atleast_2d(np.asarray(vectors, dtype=np.float32))
    peak = np.abs(rows).max(axis=1, keepdims=True)
    scale = np.divide(127.0, peak, out=np.zeros_like(peak), where=peak > 0)
    return np.clip(np.rint(rows * scale), -127, 127).astype(np.int8)


def int8_norms(q: np.ndarray) -> np.ndarray:
    """Euclidean norm of each int8 row, as float32 (1 for zero rows, so division is safe)."""
    norms = np.sqrt(np.einsum("ij,ij->i", q, q, dtype=np.int32).astype(np.float32))
    norms[norms == 0] = 1.0
    return norms


def words_per_vector(dim: int) -> int:
    return (dim + 63) // 64


def sign_words(q: np.ndarray) -> np.ndarray:
    """Sign bits of each row packed into uint64 words, column-major: shape ``(words, rows)``, so that
    the Hamming distance over a run of rows reads each word column contiguously."""
    rows = np.atleast_2d(q)
    dim = rows.shape[1]
    width = words_per_vector(dim) * 64
    packed = np.zeros((rows.shape[0], width // 8), dtype=np.uint8)
    packed[:, : (dim + 7) // 8] = np.packbits(rows > 0, axis=1)
    return np.ascontiguousarray(packed.view(np.uint64).T)


def hamming(words: np.ndarray, query_words: np.ndarray, start: int = 0, stop: int | None = None,
            only: Sequence[int] | None = None) -> np.ndarray:
    """Hamming distance from ``query_words`` (``(words,)``) to rows ``start:stop`` of ``words``, over
    the words ``only`` (default: all; a query whose components are all zero in a word, such as an
    ensemble part it does not use, says nothing about those signs)."""
    stop = words.shape[1] if stop is None else stop
    out = np.zeros(stop - start, dtype=np.uint16)
    scratch = np.empty(stop - start, dtype=np.uint64)
    for w in range(words.shape[0]) if only is None else only:
        np.bitwise_xor(words[w, start:stop], query_words[w], out=scratch)
        out += np.bitwise_count(scratch)
    return out


def smallest(values: np.ndarray, count: int) -> np.ndarray:
    """Indices of (at least) the ``count`` smallest small-integer ``values``, via a histogram threshold:
    every value up to the threshold is kept, ties included. Cheaper than argpartition on 1M rows."""
    if count >= len(values):
        return np.arange(len(values))
    histogram = np.bincount(values)
    threshold = int(np.searchsorted(np.cumsum(histogram), count))
    chosen = np.flatnonzero(values <= threshold)
    if len(chosen) > 2 * count:  # a crowded threshold bucket: cut it down to exactly ``count``
        chosen = chosen[np.argpartition(values[chosen], count)[:count]]
    return chosen
