"""What an ingest did: the log's report, then how far the index followed before the command returned."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from core.conversation import IngestReport
    from core.index import ReindexReport


@dataclass
class IngestOutcome:
    report: IngestReport
    index: ReindexReport | None = None  # the exact index's catch-up (None: it could not run)
    index_note: str | None = None  # why the exact index did not follow, when it did not
    vectors: int = 0  # embedded during this ingest
    pending_vectors: int = 0  # turns and memories still without a vector
    stopped: bool = False  # the person stopped the embedding (what was embedded is kept)

    @property
    def exit_code(self) -> int:
        return self.report.exit_code

    @property
    def searchable(self) -> bool:
        """Whether every imported turn is in the exact index."""
        return self.index is not None

    def to_dict(self) -> dict[str, Any]:
        """What ``ingest --json`` prints: the log's report in its own form, then ``index`` (how far the
        index followed: ``turns_added`` of the catch-up, ``vectors_embedded``…). A dict because it
        extends :meth:`core.conversation.IngestReport.to_dict`, itself a dict (days and reasons sorted)."""
        return {
            **self.report.to_dict(),
            "index": {
                "turns_added": self.index.turns_added if self.index is not None else 0,
                "searchable": self.searchable,
                "note": self.index_note,
                "vectors_embedded": self.vectors,
                "vectors_pending": self.pending_vectors,
                "stopped": self.stopped,
            },
        }
