"""Searching the mirror as the local index is searched: bound by the query's time range first, then
PostgreSQL full-text search and pgvector inside it, fused as the local default fuses
(:func:`core.recall.scoring.fuse`), with the local recall's handling of named speakers, session
neighbours, the session prior and widening. Not repeated here: the rarity weighing of exact hits,
several-term coordination, mentions of the range said at another time and misspelt names
(tests/bench/bench_mirror_parity.py measures how far the two answers agree). Inside a range the
nearest vectors are computed exactly over the range's rows (the HNSW index would filter after it found
its neighbours); without a range the HNSW index answers.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

import msgspec

from core.embed.ensemble import query_vectors
from core.mirror.connect import vector_literal
from core.mirror.schema import SCHEMA, TEXT_CONFIG
from core.recall.query import named_actors
from core.recall.scoring import DEFAULT_RANKING, fuse, normalized, ranked, recency, session_prior, spread

if TYPE_CHECKING:
    import psycopg

    from core.embed.protocol import Embedder
    from core.recall.query import QueryPlan
    from core.recall.scoring import Ranking

Row = tuple[str, datetime, str, str, str]  # kind, ts, actor, session, text
Bounds = tuple[datetime | None, datetime | None]

MAX_TERMS = 8
NEIGHBOUR_REACH = 2  # session neighbours on each side of a turn (core.recall.pool)
EXACT_POOL = 200
VECTOR_POOL = 100


@dataclass(frozen=True)
class MirrorHit:
    kind: str  # "turn" | "memory"
    id: str
    ts: datetime
    who: str  # the actor of a turn; "" for a memory
    session: str
    text: str
    score: float

    def form(self) -> MirrorHitForm:
        """The published form: the time as ``isoformat`` gives it, the score to six places."""
        return MirrorHitForm(self.kind, self.id, self.ts.isoformat(), self.who, self.session, self.text,
                             round(self.score, 6))


class MirrorHitForm(msgspec.Struct, frozen=True):
    """A mirror hit as ``reverie mirror search --json`` prints it (``actor``: the speaker, "" for a memory)."""

    kind: str
    id: str
    ts: str
    actor: str
    session: str
    text: str
    score: float


@dataclass(frozen=True)
class MirrorAnswer:
    plan: QueryPlan
    mode: str  # "exact" | "hybrid" | "latest"
    hits: list[MirrorHit]
    note: str | None = None  # why the answer is words only, when it is

    def form(self) -> MirrorAnswerForm:
        """The published form; the range as :meth:`core.timeparse.TimeRange.to_dict` writes it."""
        span = self.plan.range
        return MirrorAnswerForm(span.to_dict() if span is not None else None, self.plan.expression, self.mode,
                                self.note, [hit.form() for hit in self.hits])


class MirrorAnswerForm(msgspec.Struct, frozen=True):
    """A mirror answer as ``reverie mirror search --json`` prints it."""

    range: dict[str, str] | None
    expression: str | None
    mode: str
    note: str | None
    results: list[MirrorHitForm]


class MirrorSearch:
    """Searches one mirror (an open autocommit connection). ``embedder`` embeds the query with the
    model the mirror's vectors came from; None searches words only."""

    def __init__(self, conn: psycopg.Connection[Any], embedder: Embedder | None, *, ranking: Ranking | None = None,
                 half_life_days: float = 30.0) -> None:
        self.conn = conn
        self.embedder = embedder
        self.ranking = ranking or DEFAULT_RANKING
        self.half_life_days = half_life_days

    def search(self, plan: QueryPlan, now: datetime, limit: int = 10) -> MirrorAnswer:
        terms = list(plan.terms) or (list(plan.words)[:MAX_TERMS] if plan.range is None else [])
        if not terms:
            return MirrorAnswer(plan, "latest", self._latest(plan, limit) if plan.range is not None else [])
        r = self.ranking
        bounds = self._bounds(plan)
        names = named_actors(plan, self._actors())
        if plan.is_question and r.silent_named and names and not self._speak(names, bounds):
            bounds = (None, None)  # the people it names say nothing in its range: any time (as recall)
        scores, rows, mode, matched = self._scored(plan, terms, names, bounds, limit)
        first = set(scores)
        if bounds != (None, None) and plan.is_question and r.widen and matched == 0 \
                and (len(scores) < limit or r.widen_unmatched):
            scores, first = self._widened(plan, terms, names, limit, now, scores, rows)
        elif bounds == (None, None):
            memories = {key: row[1] for key, row in rows.items() if row[0] == "memory"}
            scores = recency(scores, memories, now, self.half_life_days)
        order = {key: row[1].isoformat() for key, row in rows.items()}
        best = [key for key in ranked(scores, order) if key in rows][:limit]
        if plan.range is not None:  # time order, the range's own first when it was widened
            best.sort(key=lambda key: (key not in first, rows[key][1], key))
        return MirrorAnswer(plan, mode, [_hit(key, rows[key], scores[key]) for key in best])

    def _scored(self, plan: QueryPlan, terms: list[str], names: dict[str, str], bounds: Bounds,
                limit: int) -> tuple[dict[str, float], dict[str, Row], str, int]:
        """One ranked search inside ``bounds``: scores, the rows they need, the mode, how many matched words."""
        r = self.ranking
        asks = plan.is_question or not r.keywords_find_the_turn
        spoken = {word for key in names.values() for word in key.split()}
        exact = self._exact([t for t in terms if t.casefold() not in spoken] or terms, bounds,
                            max(EXACT_POOL, 2 * limit))
        matched = len(exact)
        rows = self._rows(list(exact))
        exact = self._spread(exact, rows, bounds, r.spread_exact, r.answer_share if asks else 0.0)
        scores, mode = self._speakers(exact, rows, names, r.speaker_exact), "exact"
        if self.embedder is not None:
            semantic = self._semantic(plan, names, scores, bounds, limit)
            rows.update(self._rows([key for key in semantic if key not in rows]))
            semantic = self._spread(semantic, rows, bounds, r.spread_semantic,
                                    r.answer_share_semantic if asks else 0.0)
            semantic = self._speakers(semantic, rows, names, r.speaker_semantic)
            if semantic:
                scores, mode = fuse(scores, semantic, r.fusion_weight), "hybrid"
        if r.session_prior > 0 and asks:
            sessions = {key: rows[key][3] for key in scores if key in rows and rows[key][0] == "turn"}
            scores = session_prior(scores, sessions, r.session_prior, r.session_prior_top)
        return scores, rows, mode, matched

    def _widened(self, plan: QueryPlan, terms: list[str], names: dict[str, str], limit: int, now: datetime,
                 inside: dict[str, float], rows: dict[str, Row]) -> tuple[dict[str, float], set[str]]:
        """A question whose range matched none of its words: the range's own first (its best half when it
        holds ``limit`` or more), then the best of any time, each part divided by its best (as recall's
        ``_widened``). Returns the merged scores and the keys that count as the range's."""
        wide, wide_rows, _, _ = self._scored(plan, terms, names, (None, None), limit)
        rows.update(wide_rows)
        outside = {key: value for key, value in wide.items() if key not in inside}
        memories = {key: rows[key][1] for key in outside if key in rows and rows[key][0] == "memory"}
        outside = recency(outside, memories, now, self.half_life_days)
        first = set(ranked(inside)[: limit // 2]) if len(inside) >= limit else set(inside)
        merged = {key: 1.0 + value if key in first else value for key, value in normalized(inside).items()}
        merged.update(normalized(outside))
        return merged, first

    def _speak(self, names: dict[str, str], bounds: Bounds) -> bool:
        found = self.conn.execute(
            f"SELECT 1 FROM {SCHEMA}.turns WHERE actor = ANY(%s) AND (%s::timestamptz IS NULL OR ts >= %s) "
            "AND (%s::timestamptz IS NULL OR ts < %s) LIMIT 1",
            (sorted(names), bounds[0], bounds[0], bounds[1], bounds[1])).fetchone()
        return found is not None

    def _spread(self, scores: dict[str, float], rows: dict[str, Row], bounds: Bounds, weights: tuple[float, ...],
                answer_share: float) -> dict[str, float]:
        """Session neighbours share the best turns' scores, the turn after a question most
        (:func:`core.recall.scoring.spread`, with the local recall's reach and number of sources)."""
        sources = [key for key in ranked(scores) if rows.get(key, ("",))[0] == "turn"][: self.ranking.spread_sources]
        if not sources:
            return scores
        near: dict[str, list[tuple[str, int]]] = {}
        side = ("SELECT id, {sign} row_number() OVER (ORDER BY ts {order}, id {order}) FROM (SELECT id, ts "
                f"FROM {SCHEMA}.turns t WHERE t.session = s.session AND (t.ts, t.id) {{cmp}} (s.ts, s.id) "
                "AND (%(lo)s::timestamptz IS NULL OR t.ts >= %(lo)s) "
                "AND (%(hi)s::timestamptz IS NULL OR t.ts < %(hi)s) "
                "ORDER BY t.ts {order}, t.id {order} LIMIT %(reach)s) AS x")
        before = side.format(sign="-", order="DESC", cmp="<")
        after = side.format(sign="", order="ASC", cmp=">")
        found = self.conn.execute(
            f"SELECT s.id, n.id, n.d FROM (SELECT id, session, ts FROM {SCHEMA}.turns WHERE id = ANY(%(ids)s)) AS s "
            f"CROSS JOIN LATERAL ({before} UNION ALL {after}) AS n(id, d)",
            {"ids": sources, "lo": bounds[0], "hi": bounds[1], "reach": NEIGHBOUR_REACH}).fetchall()
        for source, other, distance in found:
            near.setdefault(source, []).append((other, int(distance)))
        rows.update(self._rows([other for pairs in near.values() for other, _ in pairs if other not in rows]))
        asking = {key for key in sources if "?" in rows[key][4] or "？" in rows[key][4]}
        return spread(scores, near, weights, self.ranking.spread_after, asking, answer_share)

    def _semantic(self, plan: QueryPlan, names: dict[str, str], exact: dict[str, float],
                  bounds: Bounds, limit: int) -> dict[str, float]:
        """Cosines of the nearest inside the bounds, and of every exact hit; above the worst of them
        for a model whose cosines sit close together (``semantic_floor``, as the local recall)."""
        assert self.embedder is not None
        vector = vector_literal(query_vectors(self.embedder, [plan.semantic_text(names.values())])[0])
        semantic = self._nearest(vector, bounds, max(VECTOR_POOL, 2 * limit))
        semantic.update(self._cosines(vector, [key for key in exact if key not in semantic]))
        if self.ranking.semantic_floor and semantic:
            floor = min(semantic.values())
            semantic = {key: max(value - floor, 0.0) for key, value in semantic.items()}
        return semantic

    def _speakers(self, scores: dict[str, float], rows: dict[str, Row], names: dict[str, str],
                  factor: float) -> dict[str, float]:
        """The named people's turns × ``factor`` and the sessions they speak in × ``session_of_named``."""
        if not names:
            return scores
        sessions = {rows[key][3] for key in scores if key in rows and rows[key][2] in names}
        out = {}
        for key, value in scores.items():
            row = rows.get(key)
            if row is not None and row[0] == "turn":
                value *= self.ranking.session_of_named if row[3] in sessions else 1.0
                value *= factor if row[2] in names else 1.0
            out[key] = value
        return out

    def _actors(self) -> list[str]:
        return [actor for (actor,) in self.conn.execute(f"SELECT DISTINCT actor FROM {SCHEMA}.turns").fetchall()]

    @staticmethod
    def _bounds(plan: QueryPlan) -> Bounds:
        return (plan.range.start, plan.range.end) if plan.range is not None else (None, None)

    def _exact(self, terms: list[str], bounds: Bounds, k: int) -> dict[str, float]:
        query = " || ".join([f"plainto_tsquery('{TEXT_CONFIG}', %s)"] * len(terms))
        out: dict[str, float] = {}
        for table in ("turns", "memories"):
            sql = (f"SELECT id, ts_rank(tsv, q) FROM {SCHEMA}.{table}, ({'SELECT ' + query} AS q) AS w "
                   "WHERE tsv @@ q AND (%s::timestamptz IS NULL OR ts >= %s) AND (%s::timestamptz IS NULL OR ts < %s) "
                   "ORDER BY 2 DESC, id LIMIT %s")
            params = [*terms, bounds[0], bounds[0], bounds[1], bounds[1], k]
            out.update((key, float(score)) for key, score in self.conn.execute(sql, params).fetchall())
        return out

    def _nearest(self, vector: str, bounds: Bounds, k: int) -> dict[str, float]:
        out: dict[str, float] = {}
        for table in ("turns", "memories"):
            if bounds == (None, None):
                with self.conn.transaction():
                    self.conn.execute(f"SET LOCAL hnsw.ef_search = {max(40, min(k, 1000))}")
                    found = self.conn.execute(
                        f"SELECT id, 1 - (embedding <=> %s::vector) FROM {SCHEMA}.{table} "
                        "WHERE embedding IS NOT NULL ORDER BY embedding <=> %s::vector LIMIT %s",
                        (vector, vector, k)).fetchall()
            else:
                found = self.conn.execute(
                    f"WITH r AS MATERIALIZED (SELECT id, embedding FROM {SCHEMA}.{table} WHERE embedding IS NOT NULL "
                    "AND (%s::timestamptz IS NULL OR ts >= %s) AND (%s::timestamptz IS NULL OR ts < %s)) "
                    "SELECT id, 1 - (embedding <=> %s::vector) AS c FROM r ORDER BY c DESC, id LIMIT %s",
                    (bounds[0], bounds[0], bounds[1], bounds[1], vector, k)).fetchall()
            out.update((key, max(float(score), 0.0)) for key, score in found)
        return out

    def _cosines(self, vector: str, ids: list[str]) -> dict[str, float]:
        if not ids:
            return {}
        out: dict[str, float] = {}
        for table in ("turns", "memories"):
            found = self.conn.execute(f"SELECT id, 1 - (embedding <=> %s::vector) FROM {SCHEMA}.{table} "
                                      "WHERE id = ANY(%s) AND embedding IS NOT NULL", (vector, ids)).fetchall()
            out.update((key, max(float(score), 0.0)) for key, score in found)
        return out

    def _rows(self, ids: list[str]) -> dict[str, Row]:
        if not ids:
            return {}
        rows = self.conn.execute(
            f"SELECT 'turn', id, ts, actor, session, text FROM {SCHEMA}.turns WHERE id = ANY(%(ids)s) "
            f"UNION ALL SELECT 'memory', id, ts, '', '', content FROM {SCHEMA}.memories WHERE id = ANY(%(ids)s)",
            {"ids": ids}).fetchall()
        return {row[1]: (row[0], row[2], row[3], row[4], row[5]) for row in rows}

    def _latest(self, plan: QueryPlan, limit: int) -> list[MirrorHit]:
        start, end = self._bounds(plan)
        rows = self.conn.execute(
            f"SELECT 'turn', id, ts, actor, session, text FROM {SCHEMA}.turns WHERE ts >= %s AND ts < %s "
            f"UNION ALL SELECT 'memory', id, ts, '', '', content FROM {SCHEMA}.memories WHERE ts >= %s AND ts < %s "
            "ORDER BY 3 DESC, 2 LIMIT %s", (start, end, start, end, limit)).fetchall()
        return [_hit(row[1], (row[0], row[2], row[3], row[4], row[5]), 0.0) for row in reversed(rows)]


def _hit(key: str, row: Row, score: float) -> MirrorHit:
    kind, ts, who, session, text = row
    return MirrorHit(kind, key, ts, who, session, text, score)
