"""The freshness policy: what is brought into the index before a read, and what an answer says when
the index cannot be brought up to date.

The conversation log is the truth and the index is derived from it. Before a search, a context block
or a duplicate check, the workbench compares the day files with what the index last read of each
(stat calls only), catches the exact index up when the lag is small (at most :data:`CATCH_UP_BYTES`
in at most :data:`CATCH_UP_DAYS` grown day files), and syncs the vault's memories when the vault is
open and changed (:func:`vault_fingerprint`). Otherwise the answer comes from what the index holds and
says how far behind it is, and how much of it has vectors (:class:`Freshness`). The thresholds are
measured by ``tests/bench/bench_freshness.py`` (figures in ``tests/bench/README.md``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict

import msgspec

if TYPE_CHECKING:
    from core.index import IndexStatus, SearchIndex
    from core.paths import HomePaths

CATCH_UP_BYTES = 2 * 1024 * 1024  # ~6,000 turns: well under a second
CATCH_UP_DAYS = 14
VAULT_SEEN_KEY = "vault_fingerprint"


@dataclass(frozen=True)
class LogLag:
    """How far the index is behind the day files: bytes not yet read, and days new, grown or gone."""

    bytes: int = 0
    days: int = 0  # day files new to the index or grown since it read them
    removed_days: int = 0
    grown_days: int = 0  # of ``days``, those the index had read before (their read prefix is re-hashed)

    @property
    def behind(self) -> bool:
        return bool(self.bytes or self.days or self.removed_days)


def log_lag(paths: HomePaths, index: SearchIndex) -> LogLag:
    """Compare the day files on disk with the index's record of them (stat calls only)."""
    from core.index import HomeDayLogs  # lazy: core.index and apsw, ~45 ms; off the TUI's start

    marks = index.file_marks()
    behind = days = grown = 0
    on_disk = HomeDayLogs(paths).stamps()  # day → (size, mtime_ns): one stat a file, no Path objects
    for day, (disk_size, disk_mtime_ns) in on_disk.items():
        mark = marks.get(day)
        if mark is None:
            behind, days = behind + disk_size, days + 1
            continue
        size, mtime_ns, offset = mark
        if (disk_size, disk_mtime_ns) != (size, mtime_ns):
            behind += disk_size - offset if disk_size >= offset else disk_size
            days, grown = days + 1, grown + 1
    return LogLag(bytes=behind, days=days, removed_days=len(marks.keys() - on_disk.keys()), grown_days=grown)


def small_enough(lag: LogLag, max_bytes: int) -> bool:
    """Whether a read catches this lag up by itself: at most ``max_bytes`` to read, and at most
    :data:`CATCH_UP_DAYS` grown or removed day files (a grown file is re-hashed up to its read offset;
    a new one costs only its bytes, so a fresh index of a small log is built on the first read)."""
    return lag.behind and lag.bytes <= max_bytes and lag.grown_days + lag.removed_days <= CATCH_UP_DAYS


def vault_fingerprint(paths: HomePaths) -> str:
    """Names, sizes and times of the vault's record files and the ledger, hashed: it changes whenever a
    memory is finalized, added, replaced or moved, and costs only stat calls."""
    files = [*paths.vault.glob("mem_*.json"), paths.ledger]
    parts = sorted(f"{f.name}:{f.stat().st_size}:{f.stat().st_mtime_ns}" for f in files if f.exists())
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


class ShadowFields(TypedDict):
    shadow_model: str | None
    shadow_vectors: int
    shadow_pending: int


def shadow_of(status: IndexStatus) -> ShadowFields:
    """The shadow set's fields of an index status, as :class:`Freshness` takes them (keyword arguments)."""
    return {"shadow_model": status.shadow_model, "shadow_vectors": status.shadow_vectors,
            "shadow_pending": status.shadow_pending}


class IndexForm(msgspec.Struct, frozen=True):
    """What the index held for an answer, as ``reverie search --json`` prints it under ``index``."""

    turns: int
    memories: int
    vectors: int  # the coverage: at most the documents
    documents: int
    pending_vectors: int
    embeddable: int
    caught_up_turns: int
    behind_bytes: int
    behind_days: int
    removed_days: int
    memories_synced: bool | None
    busy: bool
    shadow_model: str | None
    shadow_vectors: int
    shadow_pending: int


@dataclass
class Freshness:
    """What the index holds: after a catch-up, a vector build, or when an answer was made (the one
    index-state type; the TUI's search screen shows it too). :class:`core.index.IndexStatus` is the
    index's own report of its files and schema, which :meth:`of` reads the counts from."""

    turns: int = 0
    memories: int = 0
    vectors: int = 0
    pending_vectors: int = 0
    caught_up_turns: int = 0  # turns brought in just now, before answering
    lag: LogLag = field(default_factory=LogLag)  # what is still behind after the catch-up
    memories_synced: bool | None = None  # None: the vault was not open, memories are as last synced
    memory_note: str | None = None  # why memories were not refreshed, when they could not be
    busy: bool = False  # another process was writing the index: answered from what it holds
    # another model re-embedding beside the searched vectors (core.index.vectors: the shadow set)
    shadow_model: str | None = None
    shadow_vectors: int = 0
    shadow_pending: int = 0
    model: str | None = None  # the model of the searched vectors
    changed: bool = False  # turns or memories came, went or changed just now: a search may answer differently
    stopped: bool = False  # a vector build was cancelled (it resumes where it stopped)

    @classmethod
    def of(cls, status: IndexStatus, **more: Any) -> Freshness:
        """The counts, the vectors' model and the shadow set of ``status``; ``more`` sets the rest."""
        return cls(turns=status.turns, memories=status.memories, vectors=status.vectors,
                   pending_vectors=status.pending_vectors, model=status.model, **shadow_of(status), **more)

    @property
    def vector_coverage(self) -> tuple[int, int]:
        """(documents with a vector, documents) over turns and memories."""
        total = self.turns + self.memories
        return min(self.vectors, total), total

    @property
    def embeddable(self) -> int:
        """Documents that get a vector: text turns and memories, embedded or waiting. Tool output, meta
        turns and empty text never do (``core.index.vectors.EMBED_TYPES``); words find them."""
        covered, total = self.vector_coverage
        return min(covered + self.pending_vectors, total)

    def coverage_note(self) -> str | None:
        """"semantic results cover 632 of 700 text turns and memories (`reverie reindex` embeds the other
        68; 2,328 tool outputs and other non-text turns are found by words only)"; None when every
        document that gets a vector has one (reindex would add nothing)."""
        covered, total = self.vector_coverage
        if not self.pending_vectors or not total:
            return None
        pending = min(self.pending_vectors, total - covered)
        note = (f"semantic results cover {covered:,} of {self.embeddable:,} text turns and memories "
                f"(`reverie reindex` embeds the other {pending:,}")
        others = total - self.embeddable
        if others:
            note += f"; {others:,} tool outputs and other non-text turns are found by words only"
        return note + ")"

    def reembedding(self) -> str | None:
        """"re-embedding with multilingual-e5-small: 1,234 of 5,678"; None when no model re-embeds."""
        if not self.shadow_model:
            return None
        total = self.shadow_vectors + self.shadow_pending
        return f"re-embedding with {self.shadow_model}: {self.shadow_vectors:,} of {total:,}"

    def notes(self, *, semantic: bool) -> list[str]:
        """One line each for what the person should know about this answer's completeness.
        ``semantic``: the answer used (or wanted) vectors."""
        lines: list[str] = []
        if self.caught_up_turns:
            lines.append(f"indexed {self.caught_up_turns:,} new turns first")
        if self.lag.behind:
            what = f"{self.lag.bytes / 1_048_576:,.1f} MiB of {self.lag.days:,} day files" if self.lag.days else ""
            gone = f"{self.lag.removed_days:,} removed day files" if self.lag.removed_days else ""
            lines.append(f"the index is behind the log ({', '.join(p for p in (what, gone) if p)}): "
                         "`reverie reindex` brings it up to date")
        if self.busy:
            lines.append("another process is writing the index: answered from what it holds")
        if self.memory_note:
            lines.append(self.memory_note)
        coverage = self.coverage_note() if semantic else None
        if coverage:
            lines.append(coverage)
        return lines

    def form(self) -> IndexForm:
        """The published form: vectors as the coverage (at most the documents) with the document count,
        the log's lag flattened (``behind_bytes``…), the memory note left to ``notes``."""
        covered, total = self.vector_coverage
        return IndexForm(self.turns, self.memories, covered, total, self.pending_vectors, self.embeddable,
                         self.caught_up_turns, self.lag.bytes, self.lag.days, self.lag.removed_days,
                         self.memories_synced, self.busy, self.shadow_model, self.shadow_vectors, self.shadow_pending)
