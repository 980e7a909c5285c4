"""Capture on a laptop: read and check transcripts with the importers a local ingest uses, then put
the turns in the spool (in batches) instead of a local log. Nothing else is written on the laptop:
a malformed line is reported (``FILE:LINE: reason``) and travels in the batch, to be quarantined on
the home."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from core import clock
from core.conversation.follow import Follower
from core.conversation.items import Rejected, Skipped, latest_ts
from core.conversation.pipeline import READERS, IngestReport
from core.conversation.quarantine import QuarantineEntry
from core.errors import ReverieError
from core.remote.batch import Group, encode, rejected_entry, turn_fields
from core.remote.spool import Spool
from core.turns import Turn

if TYPE_CHECKING:
    from core.conversation.detect import Source, SourcePlan

BATCH_TURNS = 2000  # turns per batch (a batch is acknowledged, and resent, whole)
RAW_SHIP_MAX = 1024 * 1024  # a malformed line longer than this travels without its bytes


@dataclass
class CaptureReport:
    """What a capture read and spooled (``ingest`` on a laptop)."""

    files: int = 0
    spooled: int = 0  # turns put in the spool
    batches: list[int] = field(default_factory=list)
    rejected: list[QuarantineEntry] = field(default_factory=list)  # sent on, to be quarantined on the home
    skipped: dict[str, int] = field(default_factory=dict)
    not_read: list[str] = field(default_factory=list)

    def as_ingest_report(self) -> IngestReport:
        report = IngestReport(files=self.files, added=self.spooled, quarantined=list(self.rejected))
        report.skipped = dict(self.skipped)
        report.not_read = list(self.not_read)
        return report

    def form(self) -> CaptureForm:
        """The published form (``ingest --json`` on a laptop): the reasons skipped sorted, each rejected
        line in the quarantine's own form."""
        return CaptureForm(self.files, self.spooled, list(self.batches), [entry.to_dict() for entry in self.rejected],
                           dict(sorted(self.skipped.items())), list(self.not_read))


class CaptureForm(msgspec.Struct, frozen=True):
    """A capture as ``ingest --json`` prints it on a laptop."""

    files: int
    spooled: int
    batches: list[int]
    rejected: list[dict[str, object]]
    skipped: dict[str, int]
    not_read: list[str]


def capture(spool: Spool, plan: SourcePlan, *, now: datetime | None = None) -> CaptureReport:
    """Read every source of ``plan`` and spool what it holds; raises only before anything is spooled
    for a file that cannot be read or a spool that is full (what earlier batches hold stays)."""
    latest = latest_ts(now or clock.utc_now())
    report = CaptureReport(files=len(plan.sources), not_read=list(plan.not_read))
    for reason, count in plan.skipped.items():
        report.skipped[reason] = report.skipped.get(reason, 0) + count
    pending: list[Group] = []
    held = 0
    for source in plan.sources:
        for group in _read(source, latest, report):
            pending.append(group)
            held += len(group.turns)
            if held >= BATCH_TURNS:
                _spool(spool, pending, report)
                pending, held = [], 0
    if pending and any(group.turns or group.rejected or group.skipped for group in pending):
        _spool(spool, pending, report)
    return report


def _read(source: Source, latest: str, report: CaptureReport) -> Iterator[Group]:
    """Groups of at most ``BATCH_TURNS`` turns read from ``source``."""
    group = Group(origin=str(source.path))
    items = READERS[source.format](source.path, None, latest=latest)
    while True:
        try:
            item = next(items)
        except StopIteration:
            break
        except OSError as exc:
            raise ReverieError(f"{source.path}: cannot be read: {exc.strerror or exc}; nothing of it was spooled, "
                               "run the capture again") from exc
        if isinstance(item, Turn):
            group.turns.append(turn_fields(item))
            if len(group.turns) >= BATCH_TURNS:
                yield group
                group = Group(origin=str(source.path))
        elif isinstance(item, Rejected):
            raw = item.raw if item.raw is not None else _span(source.path, item.span)
            group.rejected.append(rejected_entry(item.line, item.reason, raw))
            report.rejected.append(QuarantineEntry(str(source.path), item.line, item.reason))
        elif isinstance(item, Skipped):
            group.skipped[item.reason] = group.skipped.get(item.reason, 0) + 1
            report.skipped[item.reason] = report.skipped.get(item.reason, 0) + 1
    yield group


def _span(path: Path, span: tuple[int, int] | None) -> bytes | None:
    if span is None or span[1] - span[0] > RAW_SHIP_MAX:
        return None
    with path.open("rb") as handle:
        handle.seek(span[0])
        return handle.read(span[1] - span[0])


def _spool(spool: Spool, groups: Sequence[Group], report: CaptureReport) -> None:
    stamps = [turn["ts"] for group in groups for turn in group.turns]
    turns = len(stamps)
    batch = spool.append(encode(groups), turns=turns, oldest=min(stamps) if stamps else None)
    report.batches.append(batch)
    report.spooled += turns


class SpoolingFollower(Follower):
    """``watch --follow`` on a laptop: each pass spools what is new in the followed folders (instead of
    ingesting it into a local log) and then calls ``after_pass`` (which ships the spool)."""

    def __init__(self, paths: Any, roots: Sequence[Path | str], spool: Spool,
                 after_pass: Callable[[], None] | None = None) -> None:
        super().__init__(paths, roots)
        self.spool = spool
        self.after_pass = after_pass

    def _ingest_plan(self, plan: SourcePlan) -> IngestReport:
        return capture(self.spool, plan).as_ingest_report()

    def run_once(self) -> Any:
        report = super().run_once()
        if self.after_pass is not None:
            self.after_pass()
        return report
