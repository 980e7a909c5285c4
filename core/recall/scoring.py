"""Pure scoring steps applied to candidate scores (``id → score``, higher is better).

:func:`spread` gives a turn part of its session neighbours' scores, the turn right after a matching
question most (a question's words and its answer's sit in neighbouring turns); :func:`fuse` adds
exact and semantic scores, each divided by its best, with a weight; :func:`session_prior` gives a
turn a share of its session's best other candidate; :func:`recency` lifts memories by age when the
query has no time range. The people a query names are favoured in ``Recaller._speakers``.
:class:`Ranking` holds every tunable, its defaults measured on the development benchmark
(``bench_locomo_dev.py``; figures in tests/bench/README.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime

Scores = dict[str, float]

@dataclass(frozen=True)
class Ranking:
    """Every tunable of the ranking, in one place (the defaults are the measured ones; the
    development benchmark, tests/bench/bench_locomo_dev.py, passes variants for its ablations)."""

    spread_exact: tuple[float, ...] = (0.4, 0.16)  # share of a turn's score given to turns 1, 2 places away
    spread_semantic: tuple[float, ...] = (0.2,)
    spread_after: float = 1.0  # the share given to the turns after a source, times this
    answer_share: float = 0.9  # at least this share to the turn after a turn that asks a question (exact)
    answer_share_semantic: float = 0.9  # the same for semantic scores
    semantic_floor: bool = False  # semantic scores minus the worst admitted hit's before they spread
    floor_of_nearest: bool = True  # ... keywords: the worst of the nearest vector_pool, not of every filled one
    answer_max_semantic: bool = True  # semantic alone (not fused): the answer scores max(own, share × question)
    spread_sources: int = 50  # only the best this many turns spread (each costs one session lookup)
    speaker_exact: float = 1.5
    speaker_semantic: float = 1.5
    session_of_named: float = 3.0  # turns of a session in which a named person speaks (theirs included)
    fusion_weight: float = 0.7  # exact/max(exact) + weight · semantic/max(semantic)
    fusion_weight_range: float = 1.0  # the same inside a question's time range (candidates already narrowed by time)
    fill_semantic: bool = True  # fused: exact candidates beyond the nearest vector_pool get their cosine too
    auto_fuse: bool = True  # auto: fuse exact and semantic for a question when vectors can be searched
    auto_fuse_keywords: bool = True  # ... and for keywords too (a noun phrase, one word, a paraphrase)
    fusion_rarity: float = 8.0  # fused: exact scores × (the share of the query's rarity its words explain) ** this
    fusion_rarity_question: float = 0.3  # the same for a question (its words are more often its answer's)
    keywords_find_the_turn: bool = True  # keywords: no answer share, no session prior (Recaller._asks)
    read_names: bool = True  # misspelt and transliterated names read as speakers' (core.recall.names)
    named_together: bool = True  # several named people: only the sessions in which they all speak
    name_variant_weight: float = 0.5  # a name's second reading ("Jon" as John): its speaker factors ** this
    exact_pool: int = 200  # exact hits ranked per search (more when a larger limit is asked)
    vector_pool: int = 100
    widen: bool = True  # a question's range with too little in it: the rest from other times (Recaller._widens)
    widen_unmatched: bool = True  # ... also when it holds many turns but none holds a word of the question
    silent_named: bool = True  # a question whose named people say nothing in its range: ranked over any time
    told: bool = True  # a question's range admits the turns that speak of a time in it (core.index.mentions)
    session_prior: float = 0.3  # a turn gains this × its session's strength (:func:`session_prior`)
    session_prior_top: int = 1  # a session's strength: the mean of its best this many other turns
    exact_names_out: bool = True  # exact: search again without the names of people who speak
    coordination: float = 0.6  # exact: × (1 + this × share of the query's other terms a turn holds)

    def __post_init__(self) -> None:
        for name in ("spread_exact", "spread_semantic"):
            weights = getattr(self, name)
            if not all(isinstance(w, (int, float)) and 0 <= w <= 1 for w in weights):
                raise ValueError(f"ranking.{name}: weights must be numbers from 0 to 1, got {weights!r}")
        numbers = ("spread_after", "answer_share", "answer_share_semantic", "speaker_exact", "speaker_semantic",
                   "session_of_named", "fusion_weight", "fusion_weight_range", "session_prior", "coordination",
                   "fusion_rarity", "fusion_rarity_question", "name_variant_weight")
        for name in numbers:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise ValueError(f"ranking.{name}: must be a number ≥ 0, got {value!r}")
        for name in ("spread_sources", "exact_pool", "vector_pool", "session_prior_top"):
            if not isinstance(getattr(self, name), int) or getattr(self, name) < 1:
                raise ValueError(f"ranking.{name}: must be a whole number ≥ 1, got {getattr(self, name)!r}")


DEFAULT_RANKING = Ranking()

# Models whose cosine scores sit high and close together (multilingual-e5-small: 0.7–0.9 for nearly
# every turn): their semantic scores are taken above the worst hit before they spread or are fused.
# On bench_locomo.py with multilingual-e5-small: semantic R@10 .623 → .793, hybrid .831 → .853; with
# all-MiniLM-L6-v2 it is mixed (bench_locomo hybrid .846 → .849, the development benchmark's tuning
# half .795 → .789), so the shipped model keeps the default.
COMPRESSED_SCORE_MODELS = frozenset({"multilingual-e5-small", "multilingual-e5-small+all-MiniLM-L6-v2"})


def ranking_for(model: str) -> Ranking:
    """The measured ranking for the embedding model ``model`` (``config.embedding.model``)."""
    if model in COMPRESSED_SCORE_MODELS:
        return replace(DEFAULT_RANKING, semantic_floor=True)
    return DEFAULT_RANKING


def spread(scores: Mapping[str, float], neighbours: Mapping[str, Iterable[tuple[str, int]]],
           weights: tuple[float, ...], after: float = 1.0, asking: Iterable[str] = (),
           answer_share: float = 0.0, answer_max: bool = False) -> Scores:
    """Each source ``id`` gives ``weights[|d|-1] × its score`` to every neighbour ``d`` places away
    (``d`` < 0: before it, > 0: after it), times ``after`` for the turns that follow it (a question's
    answer comes after it). A source in ``asking`` (a turn that asks a question) gives the turn right
    after it at least ``answer_share`` of its score: that turn is most often the answer.

    ``neighbours``: source id → (neighbour id, signed distance ≠ 0) for the turns allowed to receive.
    A source keeps its own score; a neighbour's gains add up. ``answer_max``: the answer share is not
    added but taken as a floor (the answer scores at least ``answer_share`` × the question's score).
    """
    out = dict(scores)
    questions = set(asking)
    floors: Scores = {}
    for source, near in neighbours.items():
        value = scores.get(source, 0.0)
        if value <= 0:
            continue
        for other, distance in near:
            reach = abs(distance)
            share = weights[reach - 1] * (after if distance > 0 else 1.0) if 1 <= reach <= len(weights) else 0.0
            if distance == 1 and source in questions:
                if answer_max:
                    floors[other] = max(floors.get(other, 0.0), answer_share * value)
                else:
                    share = max(share, answer_share)
            if share > 0 and distance != 0:
                out[other] = out.get(other, 0.0) + share * value
    for other, floor in floors.items():
        out[other] = max(out.get(other, 0.0), floor)
    return out


def session_prior(scores: Mapping[str, float], sessions: Mapping[str, str], weight: float,
                  top: int = 1) -> Scores:
    """Each turn gains ``weight`` × the strength of its session: the mean of the best ``top`` scores of
    the *other* candidates of that session (a lone hit does not lift itself; a missing one counts 0).
    A turn that shares no word with the question but sits in the session where the question matched
    best rises above turns of equal score in other sessions.

    ``sessions``: candidate id → session id; ids without one (memories) keep their score. Only the
    candidates already scored take part: no lookup. Negative scores count as 0."""
    if weight <= 0:
        return dict(scores)
    members: dict[str, list[float]] = {}
    for key, value in scores.items():
        if key in sessions:
            members.setdefault(sessions[key], []).append(max(value, 0.0))
    for values in members.values():
        values.sort(reverse=True)
    out: Scores = {}
    for key, value in scores.items():
        session = sessions.get(key)
        if session is None:
            out[key] = value
            continue
        others = list(members[session])
        others.remove(max(value, 0.0))
        out[key] = value + weight * sum(others[:top]) / top
    return out


def normalized(scores: Mapping[str, float]) -> Scores:
    """Scores divided by the best one (negative scores count as 0)."""
    best = max((v for v in scores.values() if v > 0), default=0.0)
    if best <= 0:
        return {key: 0.0 for key in scores}
    return {key: max(value, 0.0) / best for key, value in scores.items()}


def fuse(exact: Mapping[str, float], semantic: Mapping[str, float],
         weight: float = DEFAULT_RANKING.fusion_weight, exact_weight: float = 1.0) -> Scores:
    """``exact_weight · exact/max + weight · semantic/max`` over the union (a missing score counts 0).
    ``exact_weight`` below 1: the words explain only part of the query (core.recall.rarity)."""
    a, b = normalized(exact), normalized(semantic)
    return {key: exact_weight * a.get(key, 0.0) + weight * b.get(key, 0.0) for key in a.keys() | b.keys()}


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
