"""``ingest``: read transcripts and exports into the day logs, all under the home's ingest lock.

Order of work, so that a crash at any point loses nothing and repeats nothing:

1. cut back an append a crash cut short and repair any unterminated last line a crashed ingest left
   in a day file (what is cut off goes to the quarantine first);
2. per source file, read its items: turns are grouped by UTC day, rejected lines go to the
   quarantine (durable before the ingest goes on), skipped records are counted;
3. per day, drop turns whose id the day already holds, note an intent for closed days about to
   grow (see :mod:`core.conversation.seals`) and every day's states before and after in the record of
   days Reverie wrote (:mod:`core.conversation.written`), then append the rest with one write and an fsync;
4. with keys, seal closed days and reseal the ones that grew; without, say they wait.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from core import clock
from core.conversation import chatgpt, claude_code, codex, generic
from core.conversation.detect import Source, SourcePlan, collect_sources
from core.conversation.items import ImportItem, Progress, Rejected, Skipped, latest_ts
from core.conversation.quarantine import Quarantine, QuarantineEntry
from core.conversation.seals import day_closed, note_appends, repair_appends, seal_closed_days_locked
from core.conversation.store import DayLogWriter
from core.conversation.written import AppendPlan, note_writes
from core.errors import ReverieError
from core.fsutil import file_lock
from core.paths import HomePaths
from core.turns import Turn
from core.typed import to_builtins
from core.vault.crypto import VaultKeys

# Each reader: ``read(path, progress, *, latest)``; ``latest`` is the last ``ts`` it may accept.
READERS: dict[str, Callable[..., Iterator[ImportItem]]] = {
    claude_code.NAME: claude_code.read,
    codex.NAME: codex.read,
    chatgpt.NAME: chatgpt.read,
    generic.NAME: generic.read,
}
FLUSH_TURNS = 10_000  # turns held in memory before they are written
CONFLICT = "id already stored with other content (the stored turn is kept)"


@dataclass
class IngestReport:
    files: int = 0
    added: int = 0
    duplicates: int = 0
    quarantined: list[QuarantineEntry] = field(default_factory=list)  # newly quarantined by this ingest
    already_quarantined: list[QuarantineEntry] = field(default_factory=list)  # by an earlier one: no news
    skipped: dict[str, int] = field(default_factory=dict)
    sealed: list[str] = field(default_factory=list)
    resealed: list[str] = field(default_factory=list)
    days: set[str] = field(default_factory=set)  # days that received turns
    unsealed: list[str] = field(default_factory=list)  # closed days that received turns and wait for a seal
    unsealed_reason: str | None = None
    repaired: list[str] = field(default_factory=list)  # interrupted appends found and repaired
    not_read: list[str] = field(default_factory=list)  # "PATH: reason" of FIFOs and other special files
    seal_problems: list[str] = field(default_factory=list)
    not_sealed: list[str] = field(default_factory=list)  # closed days Reverie cannot vouch it wrote

    def skip(self, reason: str, count: int = 1) -> None:
        self.skipped[reason] = self.skipped.get(reason, 0) + count

    @property
    def exit_code(self) -> int:
        """0 when the input was imported: a line quarantined beside good ones is a warning (each is named
        on stderr and kept in the quarantine), not a failed import, so a hook's ``&&`` or ``set -e`` goes
        on; 2 (bad input) when this ingest quarantined lines and no line of the input was a turn, new or
        already stored."""
        return 2 if self.quarantined and not (self.added or self.duplicates) else 0

    @property
    def quarantine_note(self) -> str | None:
        """"6 lines already quarantined", when an earlier ingest quarantined lines met again."""
        count = len(self.already_quarantined)
        if not count:
            return None
        return f"{count} line{'' if count == 1 else 's'} already quarantined"

    def to_dict(self) -> dict[str, Any]:
        """The fields in declared order (by msgspec); the quarantine entries in their own form, the
        reasons skipped and the days sorted, so ``ingest --json`` prints the same bytes for the same
        ingest whatever order the files were read in (pinned in test_conversation_stored_form)."""
        return {**to_builtins(self), "quarantined": [entry.to_dict() for entry in self.quarantined],
                "already_quarantined": [entry.to_dict() for entry in self.already_quarantined],
                "skipped": dict(sorted(self.skipped.items())), "days": sorted(self.days)}


class _Ingest:
    def __init__(self, paths: HomePaths, report: IngestReport, now: datetime, keys: VaultKeys | None = None) -> None:
        self.paths = paths
        self.keys = keys  # signs the reseal intents of closed days (core.conversation.seals)
        self.report = report
        self.now = now
        self.latest = latest_ts(now)
        self.writer = DayLogWriter(paths)
        self.quarantine = Quarantine(paths)
        self.pending: dict[str, list[Turn]] = {}
        self.held = 0

    def read(self, source: Source, progress: Progress | None) -> None:
        self.take(source.path, self._items(source, progress))

    def take(self, origin: Path, items: Iterable[ImportItem]) -> None:
        """Store ``items`` read from ``origin`` (rejected ones quarantined under its name)."""
        for item in items:
            if isinstance(item, Turn):
                self.pending.setdefault(item.day, []).append(item)
                self.held += 1
                if self.held >= FLUSH_TURNS:
                    self.flush()
            elif isinstance(item, Rejected):
                entry = self.quarantine.add(origin, item)
                (self.report.already_quarantined if entry.already else self.report.quarantined).append(entry)
            elif isinstance(item, Skipped):
                self.report.skip(item.reason)
        self.flush()

    def _items(self, source: Source, progress: Progress | None) -> Iterator[ImportItem]:
        items = READERS[source.format](source.path, progress, latest=self.latest)
        while True:
            try:
                yield next(items)
            except StopIteration:
                return
            except OSError as exc:
                raise ReverieError(
                    f"{source.path}: cannot be read: {exc.strerror or exc}; what was imported before is "
                    "kept, run the ingest again"
                ) from exc

    def flush(self) -> None:
        fresh_by_day: dict[str, tuple[list[Turn], bytes]] = {}
        intents: dict[str, AppendPlan] = {}  # closed days that grow: their seal must be renewed
        writes: dict[str, AppendPlan] = {}  # every day written: the record of days Reverie wrote
        for day, turns in self.pending.items():
            fresh, result = self.writer.plan(day, turns)
            self.report.added += result.added
            self.report.duplicates += result.duplicates
            if result.conflicts:
                self.report.skip(CONFLICT, result.conflicts)
            if fresh:
                payload = self.writer.payload(fresh)
                fresh_by_day[day] = (fresh, payload)
                plan = AppendPlan(*self.writer.state(day).after(payload))
                writes[day] = plan
                if plan.size and day_closed(day, self.now):
                    intents[day] = plan
        note_appends(self.paths, intents, self.keys)
        note_writes(self.paths, writes, self.keys)
        for day, (fresh, payload) in fresh_by_day.items():
            self.writer.write(day, fresh, payload)
            self.report.days.add(day)
        self.pending = {}
        self.held = 0


def ingest(
    paths: HomePaths,
    inputs: Sequence[Path] = (),
    fmt: str = "auto",
    *,
    plan: SourcePlan | None = None,
    keys: VaultKeys | None = None,
    unsealed_reason: str = "no passphrase available",
    progress: Progress | None = None,
    now: datetime | None = None,
) -> IngestReport:
    """Import ``inputs`` (files or folders; or a ``plan`` from ``collect_sources``) into the home.

    Raises only before anything is written (unknown format, missing file). Bad lines are
    quarantined and reported; ``progress`` is called with the number of input bytes read.
    """
    plan = plan if plan is not None else collect_sources(list(inputs), fmt)
    report = IngestReport(files=len(plan.sources))
    for reason, count in plan.skipped.items():
        report.skip(reason, count)
    report.not_read = list(plan.not_read)

    def read_all(work: _Ingest) -> None:
        for source in plan.sources:
            work.read(source, progress)

    return _run(paths, report, read_all, keys=keys, unsealed_reason=unsealed_reason, now=now)


def ingest_items(
    paths: HomePaths,
    groups: Sequence[tuple[Path, Sequence[ImportItem]]],
    *,
    keys: VaultKeys | None = None,
    unsealed_reason: str = "no passphrase available",
    now: datetime | None = None,
) -> IngestReport:
    """Store items an importer already read elsewhere (a batch shipped from another machine,
    :mod:`core.remote`), each group under the name of the file it came from, exactly as :func:`ingest`
    stores what it reads: the same dedup by id, quarantine and seals (the caller checks each turn as
    an importer does, :func:`~core.conversation.items.make_turn`)."""
    report = IngestReport(files=len(groups))

    def take_all(work: _Ingest) -> None:
        for origin, items in groups:
            work.take(origin, items)

    return _run(paths, report, take_all, keys=keys, unsealed_reason=unsealed_reason, now=now)


def _run(paths: HomePaths, report: IngestReport, fill: Callable[[_Ingest], None], *, keys: VaultKeys | None,
         unsealed_reason: str, now: datetime | None) -> IngestReport:
    """Under the ingest lock: repair interrupted appends, ``fill`` the log, then seal what closed."""
    now = now or clock.utc_now()
    paths.ensure()
    with file_lock(paths.lock("ingest")):
        work = _Ingest(paths, report, now, keys)
        report.repaired = repair_appends(paths, work.quarantine)
        fill(work)
        closed = sorted(day for day in report.days if day_closed(day, now))
        if keys is None:
            report.unsealed, report.unsealed_reason = closed, unsealed_reason
        else:
            try:
                sealing = seal_closed_days_locked(paths, keys, now)
            except ReverieError as exc:
                report.unsealed, report.unsealed_reason = closed, str(exc)
            else:
                report.sealed, report.resealed = sealing.sealed, sealing.resealed
                report.seal_problems = [str(problem) for problem in sealing.refused]
                report.not_sealed = [str(problem) for problem in sealing.not_sealed]
    return report
