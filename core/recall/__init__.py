"""Recall: the one search entry point over conversation turns and finalized memories.

    from core.recall import Recaller
    with Recaller.open(paths, config) as recaller:
        answer = recaller.search("what did Kate say about skiing last Tuesday night", now=now, zone=zone,
                                 limit=10, mode="auto", filters=Filters(roles=("user",)))
    answer.range, answer.mode, answer.results, answer.note, answer.form()

Parse time (core.timeparse) → bound the range → rank inside it (core.recall.engine) → the original
sentences. Modules: ``text`` (cleaning, terms per language, word forms), ``query`` (analysis, names),
``pool`` (candidates and the filter gate), ``scoring`` (neighbours, speakers, fusion, recency),
``engine`` (the modes), ``browse`` (a range with nothing to rank by), ``memsync`` (vault → index).

Measured on the development benchmark (``tests/bench/bench_locomo_dev.py``, numbers and the ablation
in tests/bench/README.md): LoCoMo's ten conversations in one home, each question asked as written
and time-scoped ("3 days ago, …", "3일 전에, …", "3日前に、…"), tuned on five conversations and
reported on the other five. Report half, R@10 of the default (``auto``, hybrid for a question):
.959 time-scoped in each language (exact .921, semantic .933, oracle day + dense .764), .840 plain
without time words (exact .808, BM25 .602). The choices (:class:`core.recall.scoring.Ranking`):

- a question is fused (exact + 0.7 · semantic, each divided by its best) when vectors exist;
  keywords stay exact (and cheap);
- a turn shares its score with its session neighbours (0.4 / 0.16 exact, 0.2 semantic) and the turn
  right after a matching question gets 0.9 of it: the answer rarely repeats the question's words;
- the named person's turns ×1.5 (exact) / ×1.2 (semantic) and their sessions ×3: in a busy day of
  many conversations, the right one is the named person's;
- the index stems English words (FTS5 porter); the named speakers' names are taken out of the text
  given to the embedding model (a name drags the vector towards every turn that mentions them).
"""

from __future__ import annotations

from core.index import Filters
from core.recall.engine import MAX_LIMIT, Recaller, recall
from core.recall.memsync import memory_doc, sync_vault, vault_docs
from core.recall.model import MODES, RecallError, RecallItem, RecallResult
from core.recall.query import QueryPlan, analyze
from core.recall.scoring import DEFAULT_RANKING, Ranking
from core.recall.text import MAX_QUERY_CHARS, QueryError

__all__ = [
    "DEFAULT_RANKING",
    "MAX_LIMIT",
    "MAX_QUERY_CHARS",
    "MODES",
    "Filters",
    "QueryError",
    "QueryPlan",
    "Ranking",
    "RecallError",
    "RecallItem",
    "RecallResult",
    "Recaller",
    "analyze",
    "memory_doc",
    "recall",
    "sync_vault",
    "vault_docs",
]
