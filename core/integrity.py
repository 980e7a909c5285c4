"""What verification finds: one ``Problem`` per damaged record, named by kind and subject."""

from __future__ import annotations

from dataclasses import dataclass

# The kinds a problem can be. ``verify`` names every damaged record with one of these.
PROBLEM_KINDS = (
    "modified",  # bytes changed: content, metadata, provenance, signature or ledger entry
    "removed",  # the ledger says it exists; it does not
    "inserted",  # it exists (or a ledger entry does) but was never recorded / does not link
    "reordered",  # ledger entries out of order
    "swapped",  # a record sits under another record's name
    "forged",  # well formed but signed with another key
    "rolled_back",  # the home is older than a checkpoint the person kept
    "unreadable",  # not parseable at all
    "incomplete",  # an interrupted operation that the next run completes
)


@dataclass(frozen=True)
class Problem:
    kind: str
    subject: str  # a record id, a path relative to the home, or "ledger line N"
    detail: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.subject}: {self.detail}"
