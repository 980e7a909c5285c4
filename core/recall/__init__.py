"""Recall: the one search entry point over conversation turns and finalized memories.

    from core.recall import Recaller
    with Recaller.open(paths, config) as recaller:
        answer = recaller.search("what did Kate say about skiing last Tuesday night", now=now, zone=zone,
                                 limit=10, mode="auto", filters=Filters(roles=("user",)))
    answer.range, answer.mode, answer.results, answer.note, answer.form()

Modules: ``text`` (cleaning, terms per language, word forms), ``query`` (analysis, names), ``pool``
(candidates and the filter gate), ``scoring`` (neighbours, speakers, fusion, recency), ``engine`` (the
modes), ``browse`` (a range with nothing to rank by), ``memsync`` (vault → index). Quality figures:
tests/bench/README.md (``bench_locomo_dev.py``, ``bench_busy.py``).
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
