"""Pure scoring steps applied to candidate scores (``id → score``, higher is better).

Each step is measured on LoCoMo (tests/bench/bench_locomo.py, numbers in core.recall's docstring):

- :func:`spread` — a turn also earns part of its session neighbours' scores. In a conversation the
  words of a question and of its answer sit in neighbouring turns ("what did you paint?" / "a
  sunrise"), so the answer turn, which shares no word with the query, still ranks.
- :func:`boost` — turns of the people the query names count more, and so do the other turns of
  their sessions (DESIGN: "Names matter"). On LoCoMo, where both people speak in every session, only
  the first shows.
- :func:`fuse` — exact and semantic scores, each divided by its best, added with a weight. Plain
  reciprocal rank fusion loses to BM25 on LoCoMo; a weighted sum of normalised scores does not.
- :func:`recency` — memories gain up to ×2, halving with each half-life of age (vibe-memory's boost),
  only when the query has no time range.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime

Scores = dict[str, float]

SPREAD_EXACT = (0.4, 0.16)  # share of a turn's score given to turns 1 and 2 places away in its session
SPREAD_SEMANTIC = (0.2,)
SPREAD_SOURCES = 50  # only the best this many turns spread (each costs one session lookup)
SPEAKER_EXACT = 1.5
SPEAKER_SEMANTIC = 1.2
SESSION_OF_NAMED = 1.2  # turns of a session in which a named person speaks (theirs included)
FUSION_SEMANTIC_WEIGHT = 0.7  # exact/max(exact) + 0.7 · semantic/max(semantic)


def spread(scores: Mapping[str, float], neighbours: Mapping[str, Iterable[tuple[str, int]]],
           weights: tuple[float, ...]) -> Scores:
    """Each source ``id`` gives ``weights[d-1] × its score`` to every neighbour ``d`` places away.

    ``neighbours``: source id → (neighbour id, distance ≥ 1) for the turns allowed to receive.
    A source keeps its own score; a neighbour's gains add up.
    """
    out = dict(scores)
    for source, near in neighbours.items():
        value = scores.get(source, 0.0)
        if value <= 0:
            continue
        for other, distance in near:
            if 1 <= distance <= len(weights):
                out[other] = out.get(other, 0.0) + weights[distance - 1] * value
    return out


def boost(scores: Mapping[str, float], chosen: Iterable[str], factor: float) -> Scores:
    """Multiply the scores of the ``chosen`` ids by ``factor``."""
    picked = set(chosen)
    return {key: value * factor if key in picked else value for key, value in scores.items()}


def normalized(scores: Mapping[str, float]) -> Scores:
    """Scores divided by the best one (negative scores count as 0)."""
    best = max((v for v in scores.values() if v > 0), default=0.0)
    if best <= 0:
        return {key: 0.0 for key in scores}
    return {key: max(value, 0.0) / best for key, value in scores.items()}


def fuse(exact: Mapping[str, float], semantic: Mapping[str, float],
         weight: float = FUSION_SEMANTIC_WEIGHT) -> Scores:
    """``exact/max + weight · semantic/max`` over the union (a missing score counts 0)."""
    a, b = normalized(exact), normalized(semantic)
    return {key: a.get(key, 0.0) + weight * b.get(key, 0.0) for key in a.keys() | b.keys()}


def recency_factor(ts: datetime, now: datetime, half_life_days: float) -> float:
    """``1 + 0.5 ** (age / half_life)``: 2 for something from now, 1.5 one half-life ago, → 1."""
    age_days = max((now - ts).total_seconds(), 0.0) / 86400.0
    return 1.0 + 0.5 ** (age_days / half_life_days)


def recency(scores: Mapping[str, float], times: Mapping[str, datetime], now: datetime,
            half_life_days: float) -> Scores:
    """Boost the ids in ``times`` (memories) by :func:`recency_factor`; others are unchanged."""
    return {
        key: value * recency_factor(times[key], now, half_life_days) if key in times else value
        for key, value in scores.items()
    }


def ranked(scores: Mapping[str, float], tiebreak: Mapping[str, str] | None = None) -> list[str]:
    """Ids best first; equal scores by later ``tiebreak`` value (a timestamp), then id."""
    order = tiebreak or {}
    by_id = sorted(scores, reverse=True)
    by_time = sorted(by_id, key=lambda key: order.get(key, ""), reverse=True)
    return sorted(by_time, key=lambda key: -scores[key])
