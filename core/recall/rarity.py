"""How much of a query its best word match explains, each word weighted by its rarity.

Fusing exact and semantic scores each divided by its best lets a common word decide: when the only
word a paraphrase shares with the log is "new" or "week", the best exact hit still scores 1 and
outranks the turn that means the same thing in other words. :func:`explained` measures what the words
found: the share of the query's rarity (BM25's idf, from the whole index) held by the exact hit that
holds the most of it. Fusion weighs exact scores by that share (core.recall.scoring.fuse): a query
whose rare words all occur in some turn keeps the exact side whole; one whose rare words occur
nowhere lets meaning lead.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping

from core.recall.text import stem, stems

_LATIN_WORD = re.compile(r"^[0-9A-Za-z\u00c0-\u024f'’-]+\Z")


def idf(total: int, frequency: int) -> float:
    """BM25's inverse document frequency in its always-positive form, ``log(1 + (N − n + ½) / (n + ½))``
    (Lucene's): a word in half the turns of a small home still counts, a word in none counts most."""
    frequency = min(max(frequency, 0), max(total, 0))
    return math.log1p((total - frequency + 0.5) / (frequency + 0.5))


def weights(total: int, frequencies: Mapping[str, int]) -> dict[str, float]:
    """Each term's idf among ``total`` documents."""
    return {term: idf(total, count) for term, count in frequencies.items()}


def _form(term: str) -> tuple[bool, str]:
    """(by stem, the form looked for): an English word by its stem, a Korean or Japanese run as it is
    (the index finds it inside a longer word)."""
    return (True, stem(term)) if _LATIN_WORD.match(term) else (False, term.casefold())


def explained(term_weights: Mapping[str, float], texts: Iterable[str]) -> float:
    """The largest share of the terms' total weight that one of ``texts`` holds (0 when none holds
    any, 1 when one holds every term)."""
    total = sum(term_weights.values())
    if total <= 0:
        return 1.0
    forms = [(_form(term), w) for term, w in term_weights.items()]
    best = 0.0
    for text in texts:
        held, folded = stems(text), text.casefold()
        share = sum(w for (by_stem, form), w in forms if (form in held if by_stem else form in folded)) / total
        best = max(best, share)
        if best >= 1.0:
            break
    return best
