"""A search answer as every interface receives it: the recall result and what the index held."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.recall.model import MODES

if TYPE_CHECKING:
    from core.recall import RecallResult
    from core.sharing import SharedRecall
    from core.workbench.freshness import Freshness

SEARCH_MODES: tuple[str, ...] = tuple(MODES)  # the one list of modes; interfaces offer exactly these
USES_VECTORS = ("semantic", "hybrid")


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

    def to_dict(self) -> dict[str, Any]:
        """The recall answer's JSON (``range``, ``mode``, ``results``), with ``notes`` and ``index``."""
        return {**self.result.to_dict(), "notes": self.notes, "index": self.freshness.to_dict()}
