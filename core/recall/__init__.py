"""Recall: the one search entry point over conversation turns and finalized memories.

    from core.recall import Recaller
    with Recaller.open(paths, config) as recaller:
        answer = recaller.search("what did Kate say about skiing last Tuesday night", now=now, zone=zone,
                                 limit=10, mode="auto", filters=Filters(roles=("user",)))
    answer.range, answer.mode, answer.results, answer.note, answer.to_dict()

Parse time (core.timeparse) → bound the range → rank inside it (core.recall.engine) → the original
sentences. Modules: ``text`` (cleaning, terms per language, word forms), ``query`` (analysis, names),
``pool`` (candidates and the filter gate), ``scoring`` (neighbours, speakers, fusion, recency),
``engine`` (the modes), ``browse`` (a range with nothing to rank by), ``memsync`` (vault → index).

Measured on LoCoMo (``tests/bench/bench_locomo.py``; 1,977 questions with valid evidence; one index
per conversation; R@k = an evidence turn in the top k). Baselines computed in the same run:

    nice python tests/bench/bench_locomo.py ../shared/data/locomo10.json   (2 cores, all-MiniLM-L6-v2)

    method            R@1   R@5   R@10  | R@10 by category: 1 multi-hop  2 temporal  3 open  4 single  5 advers.
    BM25 baseline     .322  .561  .636  |                   .488         .694        .382    .668      .679
    dense baseline    .162  .379  .479  |                   .505         .525        .393    .532      .345
    RRF baseline      .249  .495  .583  |                   .544         .641        .326    .631      .527
    Reverie exact     .351  .664  .753  |                   .648         .753        .427    .822      .753
    Reverie semantic  .266  .619  .728  |                   .705         .703        .528    .775      .713
    Reverie hybrid    .376  .714  .803  |                   .719         .775        .539    .857      .827
    Reverie auto      .351  .664  .753  |                   .648         .756        .427    .822      .753

Auto answered 1,923 questions in exact mode, 46 in semantic and 8 in hybrid (exact matched fewer than
three). 282 questions carry a time expression (now = the last session's date); for 213 of them the
range holds an evidence turn (LoCoMo asks about when things happened, the log knows when they were
said). Bounding still pays on those 282: exact R@1 .337 bounded against .262 unbounded (R@10 .642 /
.649).

How the ranking was chosen (R@10 unless said; ablations on the same questions, most with an in-memory
FTS5 of the same tokenizer, so a few points off the table):

- BM25 .636 → + regular English word forms .650 (a prefix query on stems would give .677; the index
  builds its own MATCH and offers none) → + the named speaker's turns ×1.5 .686 → + session neighbours
  sharing 0.4 / 0.16 of a turn's score (the answer sits next to the question) = exact .753.
  Neighbours 0.3 / 0.1: .735; 0.5 / 0.25: .756 but R@1 .346; speaker ×2: R@1 .341; pseudo-relevance
  feedback (terms of the top 5 added): no gain; spreading only the top 25: −.012.
- Dense .479 with the question as asked; .653 with the speakers' names taken out of it (a name drags
  the vector towards every turn that mentions the person); + neighbours 0.2 and speaker ×1.2 =
  semantic .728.
- Fusion of the two: reciprocal rank fusion (k=60) R@10 .807 but R@1 .352; the weighted sum of
  max-normalised scores (exact + 0.7 · semantic) R@10 .803, R@1 .376, R@5 .714: kept.
"""

from __future__ import annotations

from core.index import Filters
from core.recall.engine import MAX_LIMIT, Recaller, recall
from core.recall.memsync import memory_doc, sync_vault, vault_docs
from core.recall.model import MODES, RecallError, RecallItem, RecallResult
from core.recall.query import QueryPlan, analyze
from core.recall.text import MAX_QUERY_CHARS, QueryError

__all__ = [
    "MAX_LIMIT",
    "MAX_QUERY_CHARS",
    "MODES",
    "Filters",
    "QueryError",
    "QueryPlan",
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
