"""A search answer as every interface receives it: the recall result and what the index held."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import msgspec

from core.recall.model import MODES, ItemForm
from core.recall.text import search_terms, stem

if TYPE_CHECKING:
    from core.recall import RecallResult
    from core.sharing import SharedRecall
    from core.workbench.freshness import Freshness, IndexForm

SEARCH_MODES: tuple[str, ...] = tuple(MODES)  # the one list of modes; interfaces offer exactly these
USES_VECTORS = ("semantic", "hybrid")
MAX_MARKED = 12  # characters of a Korean or Japanese term considered for highlighting


@dataclass(frozen=True)
class SearchAnswer:
    result: RecallResult
    freshness: Freshness
    shared: SharedRecall | None = None  # the answer through a sharing profile, when one was asked for

    @property
    def index_notes(self) -> list[str]:
        """What the index did not hold for this answer (behind the log, vectors missing for its mode)."""
        return self.freshness.notes(semantic=self.result.mode in USES_VECTORS)

    @property
    def notes(self) -> list[str]:
        """The recall note (fallbacks, the time parser's readings) and the index's completeness."""
        return ([self.result.note] if self.result.note else []) + self.index_notes

    def form(self) -> SearchForm:
        """The published form (``reverie search --json``): the recall answer's, with ``notes`` and ``index``."""
        result = self.result.form()
        return SearchForm(result.range, result.mode, result.results, self.notes, self.freshness.form())


class SearchForm(msgspec.Struct, frozen=True):
    """A search answer as ``reverie search --json`` prints it: recall's ``range``, ``mode`` and
    ``results``, then the notes and what the index held."""

    range: dict[str, str] | None
    mode: str
    results: list[ItemForm]
    notes: list[str]
    index: IndexForm


@dataclass(frozen=True)
class TermMarks:
    """What to highlight in results: the query's terms as the exact index matched them. Latin words by
    the index's own stems (:func:`core.recall.text.stem`: "decide" marks "Decided", "happy" marks
    "happiness"); Korean and Japanese by the runs of ``pattern``."""

    stems: frozenset[str]
    pattern: re.Pattern[str] | None

    def spans(self, text: str) -> list[tuple[int, int]]:
        """``[start, end)`` of every marked stretch of ``text``, in order, none overlapping."""
        found = [(m.start(), m.end()) for m in _WORD.finditer(text) if self.stems and stem(m.group()) in self.stems]
        if self.pattern is not None:
            found += [m.span() for m in self.pattern.finditer(text) if m.end() > m.start()]
        out: list[tuple[int, int]] = []
        for start, end in sorted(found, key=lambda span: (span[0], -span[1])):
            if not out or start >= out[-1][1]:
                out.append((start, end))
        return out


_WORD = re.compile(r"[^\W_]+")


def term_pattern(rest: str) -> TermMarks | None:
    """The :class:`TermMarks` of a query's rest (what was ranked): Latin terms by their stems, as
    whole words; Korean and Japanese by runs of two or more characters, as they are indexed by pairs
    ("결정했지" marks "결정했" in "결정했어"). ``None`` when nothing is to be marked."""
    stems: set[str] = set()
    pieces: set[str] = set()
    for term in search_terms(rest):
        if term.isascii():
            if len(term) >= 2:
                stems.add(stem(term))
        elif len(term) <= 2:
            pieces.add(re.escape(term))
        else:  # every run of two or more of its characters: the longest one found is marked whole
            short = term[:MAX_MARKED]
            pieces.update(re.escape(short[i:j]) for i in range(len(short)) for j in range(i + 2, len(short) + 1))
    stems.discard("")
    if not stems and not pieces:
        return None
    pattern = re.compile("|".join(sorted(pieces, key=len, reverse=True)), re.IGNORECASE) if pieces else None
    return TermMarks(frozenset(stems), pattern)
