"""The one recall entry point: parse time → bound the range → rank inside it → original sentences.

Modes: ``exact`` (FTS5 bm25 over the query's terms inside the range), ``semantic`` (the nearest
vectors inside the range, the speakers' names left out of the query), ``hybrid`` (both, fused) and
``auto`` (a question is answered hybrid when the index holds vectors, keywords exact; semantic joins
when exact matches fewer than ``recall.min_exact_results``). The answer's ``mode`` is always the one
that produced its results, and its note says why. With a range, the best ``limit`` inside it are
chosen by relevance and shown in time order; a question's range is a strong prior, not a wall
(:meth:`Recaller._widens`, :meth:`Recaller._silent`). Without a range, by relevance, memories boosted
by recency; a range with nothing to rank by lists its latest turns (:mod:`core.recall.browse`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING

from core import clock
from core.config import Config, RecallConfig, SharingProfile, load_config
from core.embed.ensemble import query_vectors
from core.embed.protocol import Embedder
from core.errors import ReverieError
from core.index import BusyPolicy, Filters, SearchIndex, VectorModel
from core.paths import HomePaths
from core.recall import browse, rarity
from core.recall.model import MODES, RecallError, RecallItem, RecallResult
from core.recall.names import first_names, read_names
from core.recall.pool import Gate, Pool
from core.recall.query import QueryPlan, analyze, name_words, named_actors
from core.recall.scoring import (
    DEFAULT_RANKING,
    Ranking,
    Scores,
    fuse,
    normalized,
    ranked,
    ranking_for,
    recency,
    session_prior,
    spread,
)
from core.recall.text import EN_STOPWORDS, MAX_TERMS, stem, stems
from core.timeparse import LANGUAGES
from core.turns import format_ts, parse_ts

if TYPE_CHECKING:
    import numpy as np

MAX_LIMIT = 1000
NAME_COMMON = 2  # a word the log holds in more documents than this is a word, never read as a misspelt name

EmbedderSource = Embedder | Callable[[], Embedder]
Found = tuple[tuple[str, ...], tuple[str, ...]]  # the terms exact search used, the documents it matched


def _share(actors: set[str], names: dict[str, str], weight: dict[str, float]) -> float:
    """How many of the people ``names`` names speak among ``actors``: each word once, by the weight of
    its best reading that speaks (1 as written, less for a second reading)."""
    best: dict[str, float] = {}
    for actor in actors:
        best[names[actor]] = max(best.get(names[actor], 0.0), weight[actor])
    return sum(best.values())


def _row(rows: Future[np.ndarray], row: int) -> Future[np.ndarray]:
    """A future of one row of ``rows``' result (its error, if it fails)."""
    out: Future[np.ndarray] = Future()

    def done(whole: Future[np.ndarray]) -> None:
        error = whole.exception()
        if error is not None:
            out.set_exception(error)
        else:
            out.set_result(whole.result()[row])

    rows.add_done_callback(done)
    return out


class Recaller:
    """Searches one index. Keep one per process: the embedding model loads once, on first need."""

    def __init__(self, index: SearchIndex, config: RecallConfig | None = None, *,
                 embedder: EmbedderSource | None = None, languages: Sequence[str] = LANGUAGES,
                 zone: tzinfo | None = None, ranking: Ranking | None = None, fiscal_year_start: int = 1,
                 model_named: Callable[[str], Embedder] | None = None) -> None:
        """``model_named``: builds the model of a name the index's vectors were made by, when the
        configured model is another one (:meth:`_older_model`)."""
        self.index = index
        self.fiscal_year_start = fiscal_year_start
        self.config = config or RecallConfig()
        self.ranking = ranking or DEFAULT_RANKING
        self.languages = tuple(languages)
        self.zone = zone
        self._embedder_source = embedder
        self._embedder: Embedder | None = None
        self._embedder_lock = threading.Lock()  # TUI workers may search at once: load the model once
        self._model_named = model_named
        self._older: dict[str, Embedder | str] = {}  # name → the older model, or why it cannot be built
        self.embed_ahead = True  # the query embedded while exact search runs (:meth:`_ahead`); False to measure
        self._ahead_pool: ThreadPoolExecutor | None = None
        self._search = threading.local()  # this thread's search: its query vectors by (model, text)

    @classmethod
    def open(cls, paths: HomePaths, config: Config, *, embedder: EmbedderSource | None = None,
             busy: BusyPolicy | None = None, index: SearchIndex | None = None) -> Recaller:
        """A recaller over ``paths``' index with the settings of ``config`` (the model from
        ``config.embedding`` unless ``embedder`` is given; loaded only when vectors are needed).
        ``busy``: how long to wait, and where to say so, while another process upgrades or writes
        the index (:class:`core.index.BusyPolicy`). ``index``: that index already open (closing the
        recaller closes it)."""
        if embedder is None:
            from core.embed import make_embedder  # late-bound: tests replace core.embed.make_embedder

            settings = config.embedding
            embedder = lambda: make_embedder(settings)  # noqa: E731
        return cls(index if index is not None else SearchIndex.open(paths, busy=busy), config.recall, embedder=embedder,
                   languages=config.general.languages, zone=config.zone(),
                   ranking=ranking_for(config.embedding.model),
                   fiscal_year_start=config.timeparse.fiscal_year_start,
                   model_named=_same_settings(config))

    def close(self) -> None:
        if self._ahead_pool is not None:
            self._ahead_pool.shutdown(wait=True)
        self.index.close()

    def __enter__(self) -> Recaller:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the entry point -------------------------------------------------------------------------

    def search(self, query: str, *, now: datetime | None = None, zone: tzinfo | None = None,
               limit: int | None = None, mode: str = "auto", filters: Filters | None = None,
               profile: SharingProfile | None = None) -> RecallResult:
        """Search ``query`` as of ``now`` in ``zone``. ``filters`` narrow what may be returned; a
        sharing ``profile`` narrows it further (denied wins) and caps the number of results."""
        if mode not in MODES:
            raise RecallError(f"mode: must be one of {', '.join(MODES)}, got {mode!r}")
        limit = self._limit(limit, profile)
        zone = zone or self.zone or UTC
        now = clock.utc_now() if now is None else now
        if now.tzinfo is None:
            now = now.replace(tzinfo=zone)
        plan = self._people(analyze(query, now, zone, self.languages, fiscal_year_start=self.fiscal_year_start))
        gate = Gate.build(filters, plan.range, profile)
        if gate.empty:
            return self._answer(plan, "exact" if mode == "auto" else mode, [], note="the filters exclude everything")
        silent = self._silent(plan, gate)
        if silent:
            return self._not_about_range(plan, gate, silent, mode, limit, now)
        if plan.range is not None and plan.is_question and gate.filters.wants_turns and self.ranking.told:
            told = self.index.told_of(plan.range.start, plan.range.end)
            gate = replace(gate, told=frozenset(turn_id for _, turn_id in told), told_docs=tuple(d for d, _ in told))
        terms = list(plan.terms) or (list(plan.words)[:MAX_TERMS] if plan.range is None else [])
        if not terms and plan.range is None:
            return self._answer(plan, "exact" if mode == "auto" else mode, [], note="nothing to search for")
        if not terms:
            return self._listing(plan, gate, limit)
        return self._ranked(plan, terms, gate, mode, limit, now)

    def latest(self, *, now: datetime | None = None, limit: int | None = None, filters: Filters | None = None,
               profile: SharingProfile | None = None) -> RecallResult:
        """The newest turns and memories up to ``now`` (in time order), for a view without a query."""
        limit = self._limit(limit, profile)
        gate = Gate.build(filters, None, profile)
        if now is not None:
            gate = replace(gate, end=format_ts(now if now.tzinfo else now.replace(tzinfo=self.zone or UTC)))
        plan = QueryPlan(query="", range=None, expression=None, rest="", terms=(), words=())
        if gate.empty:
            return self._answer(plan, "exact", [], note="the filters exclude everything")
        return self._listing(plan, gate, limit)

    def _people(self, plan: QueryPlan) -> QueryPlan:
        """``plan`` with the speakers its words name however they are spelt (core.recall.names), and
        a note for each word read as someone's name."""
        words = name_words(plan)
        if not words or not self.ranking.read_names:
            return plan
        actors = self.index.actors()
        # a word the index holds as a speaker's name ("Melany" and "Melanie" are both 'melani') counts
        # that name's own mentions, not a word's: it is read as the name however often the log says it
        own = {stem(name) for actor in actors for name in first_names(actor)} - {""}
        frequency = lambda word: 0 if stem(word) in own else self._frequency(word)  # noqa: E731
        readings = read_names(words, actors, frequency=frequency, common=NAME_COMMON, stopwords=EN_STOPWORDS)
        if not readings:
            return plan
        notes = tuple(note for note in dict.fromkeys(r.note() for r in readings) if note)
        first = {r.actor for r in readings if r.also is None}
        second = frozenset(r.actor for r in readings if r.also is not None) - first
        return replace(plan, people=tuple((r.actor, r.word) for r in readings), notes=(*plan.notes, *notes),
                       second=second)

    def _frequency(self, word: str) -> int:
        """In how many documents the log holds ``word`` (counted up to one more than ``NAME_COMMON``)."""
        return self.index.doc_frequencies([word], cap=NAME_COMMON + 1)[1].get(word, 0)

    def _limit(self, limit: int | None, profile: SharingProfile | None) -> int:
        limit = self.config.default_limit if limit is None else limit
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
            raise RecallError(f"limit: must be a whole number from 1 to {MAX_LIMIT}, got {limit!r}")
        return min(limit, profile.max_items) if profile is not None else limit

    # -- modes -----------------------------------------------------------------------------------

    def _ranked(self, plan: QueryPlan, terms: list[str], gate: Gate, mode: str, limit: int,
                now: datetime) -> RecallResult:
        """A ranked search with its query vectors kept for its length (:meth:`_query_vector`), the
        likely one started at once (:meth:`_ahead`)."""
        if getattr(self._search, "vectors", None) is not None:  # inside a search already
            return self._ranked_in(plan, terms, gate, mode, limit, now)
        self._search.vectors = {}
        try:
            self._ahead(plan, mode)
            return self._ranked_in(plan, terms, gate, mode, limit, now)
        finally:
            self._search.vectors = None

    def _ahead(self, plan: QueryPlan, mode: str) -> None:
        """Start embedding the query in a thread when the search will rank by meaning, so that the
        models run while exact search, time and names are worked out (the runtimes release the GIL).
        :meth:`_semantic` leaves out of the text the people the query names who speak among the exact
        matches: both texts it may ask for when one or all of them do (or none) are embedded, in one
        call (two short texts cost about one); another one is embedded when asked for."""
        r = self.ranking
        fuses = r.auto_fuse and (plan.is_question or r.auto_fuse_keywords)
        if not self.embed_ahead or mode == "exact" or (mode == "auto" and not fuses):
            return
        try:
            embedder = self._vector_model()  # here: the thread must not touch the index's connection
        except ReverieError:
            return  # no vectors or no model: the search says so where it needs them
        texts = list(dict.fromkeys([plan.semantic_text(named_actors(plan, self.index.actors()).values()),
                                    plan.semantic_text()]))
        with self._embedder_lock:
            if self._ahead_pool is None:
                self._ahead_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="recall-query")
        both = self._ahead_pool.submit(query_vectors, embedder, texts)
        for row, text in enumerate(texts):
            self._search.vectors[(embedder.name, text)] = _row(both, row)

    def _query_vector(self, embedder: Embedder, text: str) -> np.ndarray:
        """``text``'s query vector by ``embedder``: the one started ahead or embedded earlier in this
        search if there is one (an embedding error is raised here, in the searching thread)."""
        vectors: dict[tuple[str, str], Future[np.ndarray]] | None = getattr(self._search, "vectors", None)
        known = vectors.get((embedder.name, text)) if vectors is not None else None
        if known is not None:
            return known.result()
        vector = query_vectors(embedder, [text])[0]
        if vectors is not None:
            done: Future[np.ndarray] = Future()
            done.set_result(vector)
            vectors[(embedder.name, text)] = done
        return vector

    def _ranked_in(self, plan: QueryPlan, terms: list[str], gate: Gate, mode: str, limit: int,
                   now: datetime) -> RecallResult:
        """Ranked inside the range; turns told of it (``gate.told``) rank with the range's own unless
        the range itself left too little, when the best of all times follow (:meth:`_widened`)."""
        proper = replace(gate, told=frozenset(), told_docs=()) if gate.told else gate
        pool, scores, used, note, matched = self._scored(plan, terms, proper, mode, limit)
        if self._widens(plan, scores, matched, limit):
            return self._widened(plan, terms, proper, mode, limit, now, (pool, scores, used, note, matched),
                                 gate.told)
        if gate.told:
            pool, scores, used, note, matched = self._scored(plan, terms, gate, mode, limit)
        if plan.range is None:
            times = {key: parse_ts(pool.memories[key].ts) for key in scores if key in pool.memories}
            scores = recency(scores, times, now, self.config.half_life_days)
        items = self._items(pool, scores, limit, plan)
        told = sum(1 for item in items if not gate.in_range(item.ts))
        if told and plan.range is not None:
            said = f"{told} said at another time about {plan.range.describe(now)}"
            note = f"{note}; {said}" if note else said
        return self._answer(plan, used, items, note=note, matched=matched)

    def _silent(self, plan: QueryPlan, gate: Gate) -> list[str]:
        """The people a question names (people who speak in the index) when none of them says anything
        in its time range, else nothing: "what did Maria donate last month?" is not about last month's
        turns if Maria said nothing in it (a misremembered time, or a date that names when something
        happened rather than when it was said). Not when the turns searched are narrowed (a sharing
        profile's sources, turn filters): who speaks is read from every turn of the range."""
        if plan.range is None or not plan.is_question or not self.ranking.silent_named or not gate.filters.wants_turns:
            return []
        if gate.sources or gate.filters.turn_fields:
            return []
        named = named_actors(plan, self.index.actors())
        if not named or self.index.speaks_between(list(named), gate.start, gate.end):
            return []
        return sorted(named)

    def _not_about_range(self, plan: QueryPlan, gate: Gate, silent: list[str], mode: str, limit: int,
                         now: datetime) -> RecallResult:
        """The answer to a question whose named people say nothing in its range (:meth:`_silent`): the
        question ranked over any time, the range kept in the answer, and the note saying why."""
        assert plan.range is not None
        terms = list(plan.terms) or list(plan.words)[:MAX_TERMS]
        wide = replace(gate, start=None, end=None)
        answer = self._ranked(replace(plan, range=None), terms, wide, mode, limit, now)
        why = f"{' and '.join(silent)} said nothing in {plan.range.describe(now)}: results from any time"
        note = "; ".join(n for n in (answer.note, why) if n)
        return replace(answer, range=plan.range, expression=plan.expression, note=note)

    def _widens(self, plan: QueryPlan, scores: Scores, matched: int, limit: int) -> bool:
        """Whether a question's time range left too little: none of its words matched in it (what it
        holds, if anything, is only near in meaning), and it holds fewer candidates than asked for or
        ``widen_unmatched`` is on (in a busy home every range holds something near in meaning)."""
        return (plan.range is not None and plan.is_question and self.ranking.widen
                and matched == 0 and (len(scores) < limit or self.ranking.widen_unmatched))

    def _scored(self, plan: QueryPlan, terms: list[str], gate: Gate, mode: str,
                limit: int) -> tuple[Pool, Scores, str, str | None, int]:
        """One ranked search inside ``gate``: the pool, the scores, the mode used, its note and how
        many documents exact search matched."""
        pool = Pool(self.index, gate)
        exact, matched, names, found = self._exact(plan, terms, gate, pool, limit, rank=mode != "semantic")
        note = None
        if mode == "exact":
            scores, used = exact, "exact"
        elif mode in ("semantic", "hybrid"):
            semantic = self._semantic(plan, gate, pool, names, limit, alone=mode == "semantic")
            if mode == "semantic":
                scores, used = semantic, "semantic"
            else:
                (scores, note), used = self._fuse(exact, semantic, found, pool, plan.is_question), "hybrid"
        else:
            scores, used, note = self._auto(plan, gate, pool, names, limit, exact, matched, found)
        if self.ranking.session_prior > 0 and self._asks(plan):
            sessions = {key: pool.turns[key].session for key in scores if key in pool.turns and pool.turns[key].session}
            scores = session_prior(scores, sessions, self.ranking.session_prior, self.ranking.session_prior_top)
        return pool, scores, used, note, matched

    def _widened(self, plan: QueryPlan, terms: list[str], gate: Gate, mode: str, limit: int, now: datetime,
                 inside: tuple[Pool, Scores, str, str | None, int], told: frozenset[str] = frozenset()) -> RecallResult:
        """The answer when a question's time range left too little (:meth:`_widens`): what it holds
        first, then the best of any other time. A range read from the question is a strong prior, not a
        wall: a person misremembers when something was said, and a date in a question may name when
        it happened rather than when it was talked about ("what did Kate do on 9 June 2023?").

        Scores: ``1 + s / best`` inside the range, ``s / best`` outside (each part divided by its own
        best), so every result from the range ranks above every other one; the range's results are
        shown first, each part in time order. A range that holds ``limit`` or more turns, none with a
        word of the question (``widen_unmatched``), puts only its best ``limit // 2`` first; the rest
        of it competes with other times. A turn of ``told`` (it speaks of a time in the range) that
        the wide search found counts as the range's."""
        pool, scores, used, note, matched = inside
        assert plan.range is not None
        wide = replace(gate, start=None, end=None, told=frozenset(), told_docs=())
        out_pool, outside, out_used, out_note, out_matched = self._scored(plan, terms, wide, mode, limit)
        outside = {key: value for key, value in outside.items() if key not in scores}
        times = {key: parse_ts(out_pool.memories[key].ts) for key in outside if key in out_pool.memories}
        outside = recency(outside, times, now, self.config.half_life_days)
        first = set(ranked(scores)[: limit // 2]) if len(scores) >= limit else set(scores)
        merged = {key: 1.0 + value if key in first else value for key, value in normalized(scores).items()}
        wide_scores = normalized(outside)
        merged.update((key, 1.0 + value if key in told else value) for key, value in wide_scores.items())
        times = {**{key: out_pool.ts(key) for key in outside}, **{key: pool.ts(key) for key in scores}}
        best = ranked(merged, times)[:limit]
        scores = {key: scores[key] for key in best if key in scores}
        extra = [key for key in best if key not in scores]
        pool.turns.update((key, out_pool.turns[key]) for key in extra if key in out_pool.turns)
        pool.memories.update((key, out_pool.memories[key]) for key in extra if key in out_pool.memories)
        where = plan.range.describe(now)
        if not extra:
            why = None
        elif len(first) < len(scores):
            why = f"no words matched in {where}: {len(extra)} of the results from other times"
        elif scores:
            why = f"no words matched in {where}, only {len(scores)} near in meaning: {len(extra)} more from other times"
        else:
            why = f"nothing in {where}: results from other times"
        said = "; ".join(n for n in (note if scores else None, out_note, why) if n) or None
        order = [*sorted(scores, key=pool.ts), *sorted(extra, key=pool.ts)]
        items = [self._item(pool, key, merged[key]) for key in order]
        return self._answer(plan, used if scores else out_used, items, note=said,
                            matched=max(matched, out_matched))  # the wide search holds the range too

    def _auto(self, plan: QueryPlan, gate: Gate, pool: Pool, names: dict[str, str], limit: int,
              exact: Scores, matched: int, found: Found) -> tuple[Scores, str, str | None]:
        """What ``auto`` answers: exact and semantic fused whenever the index holds vectors (questions,
        keywords, one word, a paraphrase alike: ``auto_fuse``, ``auto_fuse_keywords``); otherwise
        exact, with semantic joining when exact matched too little."""
        wanted = self.config.min_exact_results
        enough = matched >= wanted
        r = self.ranking
        fuses = r.auto_fuse and (plan.is_question or r.auto_fuse_keywords)
        if enough and not (fuses and self.index.vector_model() is not None):
            return exact, "exact", None
        try:
            semantic = self._semantic(plan, gate, pool, names, limit, alone=matched == 0)
        except ReverieError as exc:
            if enough:
                return exact, "exact", f"semantic search unavailable ({exc}): exact results only"
            return exact, "exact", f"exact matched {matched} (fewer than {wanted}); no semantic fallback: {exc}"
        if matched == 0:
            return semantic, "semantic", "exact matched nothing: semantic results"
        fused, weighed = self._fuse(exact, semantic, found, pool, plan.is_question)
        if enough:
            return fused, "hybrid", weighed
        why = f"exact matched only {matched} (fewer than {wanted}): fused with semantic"
        return fused, "hybrid", "; ".join(n for n in (why, weighed) if n)

    def _exact(self, plan: QueryPlan, terms: list[str], gate: Gate, pool: Pool, limit: int,
               rank: bool = True) -> tuple[Scores, int, dict[str, str], Found]:
        """Exact scores, how many documents matched, the actors the query names, and the terms
        searched with the documents that matched them (for :meth:`_fuse`). ``rank=False``: only the
        names are wanted (semantic mode), so neighbours are not looked up."""
        # the index stems English words itself (FTS5 porter, core.index.migrations.m005_fts_porter)
        hits = self.index.exact_search(" ".join(terms), gate.start, gate.end, also=gate.told_docs,
                                       limit=max(self.ranking.exact_pool, 2 * limit), filters=gate.filters)
        scores = pool.admit(hits)
        matched = len(scores)
        if not rank:
            return scores, matched, named_actors(plan, pool.actors()), (tuple(terms), tuple(scores))
        r = self.ranking
        if r.exact_names_out:
            names = named_actors(plan, pool.actors())
            spoken = {word for key in names.values() for word in key.split()}
            rest = [t for t in terms if t.casefold() not in spoken]
            if rest and len(rest) < len(terms):
                hits = self.index.exact_search(" ".join(rest), gate.start, gate.end, also=gate.told_docs,
                                               limit=max(r.exact_pool, 2 * limit), filters=gate.filters)
                scores = pool.admit(hits)
                matched = max(matched, len(scores))
                terms = rest
        found = (tuple(terms), tuple(scores))
        if r.coordination > 0:
            scores = self._coordinated(scores, terms, pool)
        turns = [key for key in ranked(scores) if key in pool.turns][: r.spread_sources]
        asking = pool.asking(turns) if self._asks(plan) else set()
        scores = spread(scores, pool.neighbours(turns), r.spread_exact, r.spread_after, asking,
                        r.answer_share)
        names = named_actors(plan, pool.actors())  # the speakers of the matches and of their neighbours
        return self._speakers(scores, pool, names, r.speaker_exact, plan.second), matched, names, found

    def _coordinated(self, scores: Scores, terms: list[str], pool: Pool) -> Scores:
        """Exact scores × (1 + ``coordination`` × the share of the query's other terms a document also
        holds): bm25 lets one rare word outweigh two ordinary ones. A document in which no term is
        seen by its stems (a Korean word matched inside a longer one) keeps its score."""
        wanted = {stem(t) for t in terms} - {""}
        if len(wanted) < 2:
            return scores
        out: Scores = {}
        for key, value in scores.items():
            doc = pool.turns.get(key) or pool.memories.get(key)
            held = len(wanted & stems(doc.text)) if doc is not None else 0
            out[key] = value * (1 + self.ranking.coordination * max(held - 1, 0) / (len(wanted) - 1))
        return out

    def _semantic(self, plan: QueryPlan, gate: Gate, pool: Pool, names: dict[str, str], limit: int,
                  alone: bool = False) -> Scores:
        """Semantic scores; ``alone``: they are the answer (not fused with exact scores), so the turn
        after a matching question gets at least, not in addition, its share (``answer_max_semantic``).
        Not alone, every candidate already in the pool (exact hits and their neighbours) is scored
        too (``fill_semantic``)."""
        embedder = self._vector_model()
        vector = self._query_vector(embedder, plan.semantic_text(names.values()))
        hits = self.index.vector_search(vector, gate.start, gate.end, k=max(self.ranking.vector_pool, 2 * limit),
                                        filters=gate.filters, also=gate.told_docs,
                                        model=embedder.name)  # a swap since _vector_model raises, never misranks
        scores = {key: max(value, 0.0) for key, value in pool.admit(hits).items()}
        r = self.ranking
        nearest_floor = min(scores.values(), default=0.0)
        if not alone and r.fill_semantic:
            # fused with exact: a keyword match beyond the nearest ``vector_pool`` is scored too, so
            # that fusion weighs its nearness instead of counting it 0
            missing = [key for key in [*pool.turns, *pool.memories] if key not in scores]
            scores.update((key, max(value, 0.0)) for key, value in self.index.vector_scores(vector, missing).items())
        if r.semantic_floor and scores:
            # cosine similarities sit on a floor (unrelated turns score 0.1–0.3): what spreads to a
            # neighbour, and what fusion normalises, is how far a turn stands above the worst hit
            # (keywords, ``floor_of_nearest``: the worst of the nearest ``vector_pool``, so the candidates
            # filled in for fusion do not lower it and the turn that says it ranks as it does alone)
            floor = nearest_floor if r.floor_of_nearest and not self._asks(plan) else min(scores.values())
            scores = {key: max(value - floor, 0.0) for key, value in scores.items()}
        turns = [key for key in ranked(scores) if key in pool.turns][: r.spread_sources]
        asking = pool.asking(turns) if self._asks(plan) else set()
        scores = spread(scores, pool.neighbours(turns), r.spread_semantic, r.spread_after, asking,
                        r.answer_share_semantic, alone and r.answer_max_semantic)
        return self._speakers(scores, pool, names, r.speaker_semantic, plan.second)

    def _asks(self, plan: QueryPlan) -> bool:
        """Whether the query looks for an answer (a question) rather than for the turn that says what
        it names (keywords, a paraphrase): only then does the turn after a matching question earn
        its share, and a turn its session's strength (``keywords_find_the_turn``)."""
        return plan.is_question or not self.ranking.keywords_find_the_turn

    def _speakers(self, scores: Scores, pool: Pool, names: dict[str, str], factor: float,
                  second: frozenset[str] = frozenset()) -> Scores:
        """Favour the named people's turns (× ``factor``) and their sessions (× ``session_of_named``,
        so a reply to Kate in Kate's conversation counts more than the same words elsewhere). A query
        naming several people favours the sessions in which they all speak (who speaks where is read
        from the index, not only from the candidates); when no session holds them all, a session's
        factor grows with the share of them who speak in it. The speakers one word may name ("Jonn":
        John or Jon) are one person: either of them speaking counts for that word. A speaker read only
        second (``second``: "Jon" read as John when Jon speaks too) counts ``name_variant_weight``:
        each factor is raised to that power."""
        if not names:
            return scores
        variant = self.ranking.name_variant_weight
        weight = {actor: variant if actor in second else 1.0 for actor in names}
        turns = [k for k in scores if k in pool.turns]
        named = {k: weight[pool.turns[k].actor] for k in turns if pool.turns[k].actor in names}
        together = self.ranking.session_of_named
        people = set(names.values())
        if len(people) < 2 or not self.ranking.named_together:
            sessions: dict[str | None, float] = {}
            for key, x in named.items():
                sessions[pool.turns[key].session] = max(sessions.get(pool.turns[key].session, 0.0), x)
            out = {key: value * together ** sessions.get(pool.turns[key].session, 0.0) if key in pool.turns
                   else value for key, value in scores.items()}
        else:
            candidates = sorted({pool.turns[k].session for k in turns if pool.turns[k].session})
            who = self.index.speakers_in(candidates, sorted(names))
            share = {session: _share(actors, names, weight) / len(people) for session, actors in who.items()}
            if any(value == 1.0 for value in share.values()):  # they talk together: only there
                share = {session: value for session, value in share.items() if value == 1.0}
            out = {key: value * (1 + (together - 1) * share.get(pool.turns[key].session, 0.0))
                   if key in pool.turns else value for key, value in scores.items()}
        return {key: value * factor ** named[key] if key in named else value for key, value in out.items()}

    def _fuse(self, exact: Scores, semantic: Scores, found: Found, pool: Pool,
              question: bool) -> tuple[Scores, str | None]:
        """Exact and semantic scores fused, the exact side weighed by how much of the query's rarity
        its best match holds (core.recall.rarity) to the power ``fusion_rarity`` (a question:
        ``fusion_rarity_question``; 0 weighs it 1), and a note when meaning leads. Inside a time range
        meaning weighs ``fusion_weight_range``: the candidates are already narrowed to a few
        conversations by time, and what tells them apart is more often meaning than a word."""
        power = self.ranking.fusion_rarity_question if question else self.ranking.fusion_rarity
        ranged = pool.gate.start is not None or pool.gate.end is not None
        meaning = self.ranking.fusion_weight_range if ranged else self.ranking.fusion_weight
        terms, hits = found
        share = 1.0
        if power > 0 and terms and hits:
            total, frequencies = self.index.doc_frequencies(terms)
            texts = [(pool.turns.get(key) or pool.memories[key]).text for key in hits
                     if key in pool.turns or key in pool.memories]
            share = rarity.explained(rarity.weights(total, frequencies), texts)
        weight = share**power
        note = None
        if weight < meaning:
            note = (f"the matching words hold {share:.0%} of the query's rarest words: "
                    "ranked by meaning first, words second")
        return fuse(exact, semantic, meaning, weight), note

    def _vector_model(self) -> Embedder:
        """The embedder, checked against the vectors the index holds (:class:`RecallError` if none)."""
        recorded = self.index.vector_model()
        if recorded is None:
            raise RecallError("the index holds no vectors yet; run `reverie reindex` for semantic search")
        with self._embedder_lock:
            if self._embedder is None:
                source = self._embedder_source
                if source is None:
                    raise RecallError("semantic search needs an embedding model and none is configured")
                self._embedder = source if isinstance(source, Embedder) else source()
        if self._embedder.name != recorded.name:
            return self._older_model(recorded)
        return self._embedder

    # -- vectors of an older model, while the configured one re-embeds (core.index.vectors: shadow set)

    def _older_model(self, recorded: VectorModel) -> Embedder:
        """The model the index's vectors come from, when the configured model is another one whose
        vectors are still being made: searches embed the query with it until the sets are swapped.
        Built once, with the configured backend settings; a model that cannot be built here (an
        unknown name, a missing package) or has another dimension is a :class:`RecallError`."""
        configured = self._embedder.name if self._embedder is not None else "another model"
        with self._embedder_lock:
            older = self._older.get(recorded.name)
            if older is None:
                try:
                    if self._model_named is None:
                        raise RecallError("no way to build it is configured")
                    built = self._model_named(recorded.name)
                    if int(built.dim) != recorded.dim:
                        raise RecallError(f"it makes {built.dim}-d vectors here, the index holds {recorded.dim}-d")
                    older = built
                except Exception as exc:  # any failure to load a model is said, never raised raw
                    older = " ".join(str(exc).split())[:200] or type(exc).__name__
                self._older[recorded.name] = older
        if isinstance(older, str):
            raise RecallError(f"the index's vectors come from {recorded.name}, but the configured model is "
                              f"{configured} and {recorded.name} cannot be loaded here ({older}); "
                              "run `reverie reindex`")
        return older

    def _older_vectors_note(self, mode: str, items: list[RecallItem]) -> str | None:
        """"vectors from all-MiniLM-L6-v2 while multilingual-e5-small embeds 1,234 of 5,678: semantic
        results from the old model", when an answer that used vectors used an older model's."""
        configured = self._embedder
        if mode not in ("semantic", "hybrid") or not items or configured is None:
            return None
        recorded = self.index.vector_model()
        if recorded is None or recorded.name == configured.name:
            return None
        status = self.index.status()
        if status.shadow_model == configured.name:
            done, total = status.shadow_vectors, status.shadow_vectors + status.shadow_pending
            return (f"vectors from {recorded.name} while {configured.name} embeds {done:,} of {total:,}: "
                    "semantic results from the old model")
        return (f"vectors from {recorded.name}; {configured.name} has embedded none of "
                f"{status.vectors + status.pending_vectors:,} yet (`reverie reindex` or `watch` does it): "
                "semantic results from the old model")

    # -- answers ---------------------------------------------------------------------------------

    def _listing(self, plan: QueryPlan, gate: Gate, limit: int) -> RecallResult:
        pool = browse.latest(self.index, gate, limit)
        keys = sorted([*pool.turns, *pool.memories], key=pool.ts, reverse=True)[:limit]
        items = [self._item(pool, key, 0.0) for key in sorted(keys, key=pool.ts)]
        why = "no words to rank by: the latest in the range" if plan.range is not None else "the latest"
        return self._answer(plan, "exact", items, note=why)

    def _items(self, pool: Pool, scores: Scores, limit: int, plan: QueryPlan) -> list[RecallItem]:
        best = ranked(scores, {key: pool.ts(key) for key in scores})[:limit]
        if plan.range is not None:
            best.sort(key=pool.ts)
        return [self._item(pool, key, scores[key]) for key in best]

    @staticmethod
    def _item(pool: Pool, key: str, score: float) -> RecallItem:
        if key in pool.turns:
            t = pool.turns[key]
            return RecallItem(id=t.id, ts=t.ts, text=t.text, kind="turn", score=score, session=t.session,
                              actor=t.actor, role=t.role, source=t.source)
        m = pool.memories[key]
        return RecallItem(id=m.id, ts=m.ts, text=m.text, kind="memory", score=score, reviewed=m.reviewed,
                          tags=m.tags)

    def _answer(self, plan: QueryPlan, mode: str, items: list[RecallItem], *, note: str | None = None,
                matched: int = 0) -> RecallResult:
        older = self._older_vectors_note(mode, items)
        said = "; ".join(dict.fromkeys([*plan.notes, *(n for n in (note, older) if n)])) or None
        return RecallResult(range=plan.range, expression=plan.expression, rest=plan.rest, mode=mode,
                            results=items, note=said, exact_hits=matched, notes=plan.notes)


def _same_settings(config: Config) -> Callable[[str], Embedder]:
    """Builds a model by name with ``config``'s embedding backend settings (threads, batch size...)."""

    def build(name: str) -> Embedder:
        from core.embed import make_embedder  # late-bound: tests replace core.embed.make_embedder

        return make_embedder(replace(config.embedding, model=name))

    return build


def recall(paths: HomePaths | str | Path | None, query: str, *, config: Config | None = None,
           now: datetime | None = None, zone: tzinfo | None = None, limit: int | None = None,
           mode: str = "auto", filters: Filters | None = None, profile: SharingProfile | None = None,
           embedder: EmbedderSource | None = None) -> RecallResult:
    """One search over a home's index (opens and closes it). Long-lived callers keep a :class:`Recaller`."""
    home = paths if isinstance(paths, HomePaths) else HomePaths.at(paths)
    settings = config or load_config(home.config)
    with Recaller.open(home, settings, embedder=embedder) as recaller:
        return recaller.search(query, now=now, zone=zone, limit=limit, mode=mode, filters=filters, profile=profile)
