"""The import screen's view of the workbench: what there is to import on this machine, an import in
batches that can stop between them, a reindex, and the index's lag and vector coverage.

Everything goes through :class:`~core.workbench.Workbench` (``plan_ingest``, ``ingest``, ``reindex``,
``freshness``), so the TUI imports exactly as ``reverie ingest`` does: the log first, then the exact
index, before the import returns. The import runs in batches of files (about
:data:`BATCH_BYTES` each) so that Esc stops it between two batches: every batch is a whole ingest,
so a stopped import keeps what it imported and adds nothing twice when run again.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from tui_app.widgets.format import plural

if TYPE_CHECKING:
    from core.conversation.quarantine import QuarantineEntry
    from core.workbench import Freshness, Workbench

BATCH_BYTES = 4 * 1024 * 1024
# Where the assistants this machine may have keep their transcripts (relative to the home folder).
KNOWN_SOURCES: tuple[tuple[str, str], ...] = (
    ("Claude Code", ".claude/projects"),
    ("Codex", ".codex/sessions"),
)


@dataclass(frozen=True)
class FoundSource:
    """A folder or file there is to import, with what an import would read."""

    label: str
    path: Path
    files: int
    bytes: int


def find_sources(workbench: Workbench, home: Path, extra: Sequence[Path] = ()) -> list[FoundSource]:
    """The known transcript folders under ``home`` that exist, then ``extra`` paths (a ChatGPT export
    the person pointed at), each with its file count and size. Nothing is read but names and sizes."""
    found: list[FoundSource] = []
    candidates = [(label, home / relative) for label, relative in KNOWN_SOURCES]
    candidates += [(path.name, path) for path in extra]
    for label, path in candidates:
        if not path.exists():
            continue
        plan = workbench.log.plan_ingest([path])
        found.append(FoundSource(label, path, len(plan.sources), plan.total_bytes))
    return found


def check_path(text: str, home: Path) -> Path:
    """A path the person typed (``~`` allowed) that exists; otherwise a one-line error naming it."""
    raw = text.strip()
    if not raw:
        raise ValueError("path: type the path of an export (a file or a folder)")
    path = Path(raw).expanduser() if not raw.startswith("~/") else home / raw[2:]
    if not path.exists():
        raise ValueError(f"{path}: no such file or folder")
    return path


@dataclass
class ImportTotals:
    """What an import did, over all its batches."""

    files: int = 0
    files_total: int = 0
    added: int = 0
    duplicates: int = 0
    quarantined: list[QuarantineEntry] = field(default_factory=list)
    already_quarantined: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    indexed_turns: int = 0
    searchable: bool = True
    index_note: str | None = None
    pending_vectors: int = 0
    stopped: bool = False

    def lines(self) -> list[str]:
        """The report, one line each, as the import screen shows it."""
        done = f"{self.files:,} of {plural(self.files_total, 'file')}" if self.stopped else plural(self.files, "file")
        head = "Stopped after " + done if self.stopped else f"Imported {done}"
        lines = [f"{head}: {plural(self.added, 'turn')} added, {self.duplicates:,} already in the log"]
        if self.quarantined:
            lines.append(f"{plural(len(self.quarantined), 'line')} quarantined (kept aside, the rest imported):")
            lines += [f"  {entry}" for entry in self.quarantined[:8]]
            if len(self.quarantined) > 8:
                lines.append(f"  … and {len(self.quarantined) - 8:,} more (`reverie quarantine` lists them)")
        if self.already_quarantined:
            lines.append(f"{self.already_quarantined:,} lines were already quarantined by an earlier import")
        for reason, count in sorted(self.skipped.items()):
            lines.append(f"skipped {count:,} files: {reason}")
        if self.searchable:
            lines.append(f"Searchable now: {self.indexed_turns:,} turns indexed (exact search)")
        else:
            lines.append(f"Not yet searchable: {self.index_note}")
        if self.pending_vectors:
            lines.append(f"{self.pending_vectors:,} turns and memories wait for vectors (semantic search builds them)")
        if self.stopped:
            lines.append("Run the import again to bring in the rest: nothing is added twice.")
        return lines


def batches(sizes: Sequence[int], limit: int = BATCH_BYTES) -> list[list[int]]:
    """Indexes of consecutive items grouped so that each group holds about ``limit`` bytes (an item
    larger than ``limit`` is a group of its own)."""
    groups: list[list[int]] = []
    current: list[int] = []
    held = 0
    for i, size in enumerate(sizes):
        if current and held + size > limit:
            groups.append(current)
            current, held = [], 0
        current.append(i)
        held += size
    if current:
        groups.append(current)
    return groups


def run_import(
    workbench: Workbench,
    inputs: Sequence[Path],
    *,
    progress: Callable[[int, int], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> ImportTotals:
    """Import ``inputs`` through the workbench in batches; ``progress(bytes_done, bytes_total)``;
    ``should_stop`` is asked between batches (a stopped import says how far it got)."""
    plan = workbench.log.plan_ingest(list(inputs))
    totals = ImportTotals(files_total=len(plan.sources), skipped=dict(plan.skipped))
    total_bytes = plan.total_bytes
    done_bytes = 0
    if progress is not None:
        progress(0, total_bytes)
    for group in batches([source.size for source in plan.sources], BATCH_BYTES):
        if should_stop is not None and should_stop():
            totals.stopped = True
            break
        batch = dataclasses.replace(plan, sources=[plan.sources[i] for i in group], skipped={}, not_read=[])
        base = done_bytes

        def report(read: int, base: int = base) -> None:
            if progress is not None:
                progress(min(base + read, total_bytes), total_bytes)

        outcome = workbench.log.ingest(plan=batch, progress=report)
        result = outcome.report
        totals.files += len(group)
        totals.added += result.added
        totals.duplicates += result.duplicates
        totals.quarantined += result.quarantined
        totals.already_quarantined += len(result.already_quarantined)
        for reason, count in result.skipped.items():
            totals.skipped[reason] = totals.skipped.get(reason, 0) + count
        if outcome.index is not None:
            totals.indexed_turns += outcome.index.turns_added
        else:
            totals.searchable, totals.index_note = False, outcome.index_note
        totals.pending_vectors = outcome.pending_vectors
        done_bytes += sum(plan.sources[i].size for i in group)
        if progress is not None:
            progress(done_bytes, total_bytes)
    return totals


def run_reindex(
    workbench: Workbench,
    *,
    progress: Callable[[int, int], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> str:
    """Bring the exact index up to date with the log and the vault (no model: vectors are built when
    semantic search is first used); one line saying what it did."""

    def files(phase: str, done: int, total: int) -> None:
        if progress is not None and phase == "files":
            progress(done, total)

    report = workbench.log.reindex(embed=False, progress=files, should_stop=should_stop)
    stopped = bool(should_stop and should_stop())
    what = f"{report.turns_added:,} turns added to the index"
    return f"Reindex stopped: {what} so far" if stopped else f"Reindexed: {what}"


def index_status_line(fresh: Freshness) -> str:
    """"262 turns and 8 memories indexed · vectors for 0 of 270 · the log is 2 days ahead"."""
    covered, total = fresh.vector_coverage
    parts = [f"{fresh.turns:,} turns and {fresh.memories:,} memories indexed"]
    parts.append(f"vectors for {covered:,} of {total:,}" if total else "no vectors")
    if fresh.reembedding():
        parts.append(fresh.reembedding())
    lag = fresh.lag
    if lag.behind:
        ahead = f"{lag.days:,} day file{'' if lag.days == 1 else 's'}" if lag.days else "removed day files"
        parts.append(f"the log is {ahead} ahead of the index")
    else:
        parts.append("up to date with the log")
    return " · ".join(parts)
