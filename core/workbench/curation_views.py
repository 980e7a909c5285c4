"""What the TUI's curation, cold-storage and calibration screens show, built from the curation
service (:class:`core.workbench.curation.Curation`) with the ``[curation]`` settings as
``config.toml`` holds them now. Plain values a worker thread returns and a message carries back.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.curate.calibration import load_calibration
from core.curate.cold import ColdItem, sha256_of
from core.curate.decisions import DECISIONS_FILE, load_decisions, valid_decision
from core.curate.engine import ApplyReport, PlannedMove, ScanReport
from core.curate.kinds import read_file
from core.curate.learning import RESTORES_FILE, last_restored, read_restores
from core.curate.model import Candidate, candidate_id
from core.curate.runs import RUNS_FILE, applied_on_day, apply_runs, read_runs

if TYPE_CHECKING:
    from core.paths import HomePaths
    from core.workbench.curation import CalibrationPicture
    from core.workbench.curation_service import Curation

# --- change detection ---------------------------------------------------------------------------------


def _mtime(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except FileNotFoundError:
        return 0


@dataclass(frozen=True)
class Stamp:
    """When the files a scan depends on last changed: a change elsewhere (the CLI, the cold-storage
    screen, a timer) means the candidates shown are out of date."""

    decisions: int
    others: tuple[int, ...]

    @classmethod
    def read(cls, paths: HomePaths) -> Stamp:
        curation = paths.curation
        others = (_mtime(curation / RUNS_FILE), _mtime(curation / RESTORES_FILE), _mtime(paths.config))
        return cls(_mtime(curation / DECISIONS_FILE), others)


@dataclass(frozen=True)
class CandidateList:
    """The last scan, as the curation screen shows it, with the rules the high tier moves under."""

    report: ScanReport
    stamp: Stamp
    auto_move_cap: int
    report_only_left: dict[str, int]  # scope → apply runs that will only report, before high moves
    recorded: bool = True  # False: judged ahead, read only (no run recorded); the screen scans when opened
    counted_today: frozenset[str] = frozenset()  # scopes whose report-only run of today is recorded

    @property
    def candidates(self) -> list[Candidate]:
        return self.report.candidates


@dataclass(frozen=True)
class RecordText:
    text: str
    note: str  # "" when the text is the record exactly as judged; else why it may differ


@dataclass(frozen=True)
class RestoreCheck:
    """What the restore confirmation shows: the cold copy's checksum now, and what stands at the path."""

    item: ColdItem
    cold_sha256: str | None  # None: the copy is missing
    occupied_by: str | None  # sha256 of a file standing at the record's path ("" for a non-file), else None

    @property
    def copy_ok(self) -> bool:
        return self.cold_sha256 == self.item.stone.sha256


@dataclass(frozen=True)
class RestoreOutcome:
    path: Path
    sha256: str
    verified: bool  # the file now at the path hashes to the recorded SHA-256 (checked again here)
    already: bool


@dataclass(frozen=True)
class DataRow:
    """One record the distribution was measured from."""

    path: str
    age_days: float
    size: int
    references: int
    last_used: float


@dataclass(frozen=True)
class CalibrationView:
    scopes: tuple[str, ...]  # every configured scope, to step through
    scope: str
    picture: CalibrationPicture
    rows: tuple[DataRow, ...]
    reason: str  # why it was (re-)measured
    note: str = ""  # what just happened (a measurement on request)


def confirmed_by_scope(plan: Iterable[PlannedMove]) -> dict[str, set[str]]:
    """The ids a dry run said would move, by scope, in the order the plan lists them."""
    found: dict[str, set[str]] = {}
    for item in plan:
        if item.will_move:
            found.setdefault(item.candidate.scope, set()).add(item.candidate.id)
    return found


def check_restore(item: ColdItem) -> RestoreCheck:
    if item.places is None:
        return RestoreCheck(item, None, None)
    target = item.places.target
    occupied = (sha256_of(target) or "") if os.path.lexists(target) else None
    return RestoreCheck(item, sha256_of(item.places.cold), occupied)


class CurationViews:
    """The screens' reads and actions, each with the settings as ``config.toml`` holds them now."""

    def __init__(self, curation: Curation) -> None:
        self.curation = curation
        self.paths = curation.workbench.paths

    def listing(self, report: ScanReport, now: datetime, recorded: bool = True) -> CandidateList:
        cur = self.curation.live_config().curation
        runs = read_runs(self.paths)
        left = {s.name: max(0, cur.report_only_runs - apply_runs(runs, s.name)) for s in cur.scopes}
        today = frozenset(s.name for s in cur.scopes if applied_on_day(runs, s.name, now))
        return CandidateList(report, Stamp.read(self.paths), cur.auto_move_cap, left, recorded, today)

    def scan(self, now: datetime) -> CandidateList:
        """Judge every scope now (records a scan run; moves nothing)."""
        return self.listing(self.curation.scan(config=self.curation.live_config(), now=now), now)

    def judge_ahead(self, now: datetime) -> CandidateList | None:
        """What a scan would show now, read only (writes nothing, records no run), for a screen made
        ready before the person opens it; None when only a real scan can say (a scope to calibrate)."""
        report = self.curation.judge(config=self.curation.live_config(), now=now)
        return self.listing(report, now, recorded=False) if report is not None else None

    def with_current_decisions(self, shown: CandidateList, now: datetime) -> CandidateList:
        """``shown`` with each candidate's decision as ``decisions.json`` holds it now (no scan)."""
        decisions = load_decisions(self.paths)
        restored = last_restored(read_restores(self.paths))

        def decision(entry: dict[str, Any] | None, c: Candidate) -> str | None:
            valid = valid_decision(entry, c.sha256, restored.get((c.scope, c.rel)))
            return str(valid["decision"]) if valid else None

        scopes = [
            dataclasses.replace(
                item, candidates=[dataclasses.replace(c, decision=decision(decisions.get(c.id), c))
                                  for c in item.candidates],
            )
            for item in shown.report.scopes
        ]
        return self.listing(dataclasses.replace(shown.report, scopes=scopes), now)

    def record_text(self, candidate: Candidate) -> RecordText:
        """The whole record: a file's text as stored (never through a symlink), or a vault memory's
        decrypted content."""
        if candidate.kind == "vault":
            memory = self.curation.workbench.vault.get_memory(candidate.rel.removesuffix(".json"))
            return RecordText(memory.content, "")
        try:
            raw, _ = read_file(candidate.path)
        except OSError:
            return RecordText("", f"{candidate.path} is no longer there (moved or removed since the scan).")
        changed = hashlib.sha256(raw).hexdigest() != candidate.sha256
        note = "Changed since the scan: scan again before deciding." if changed else ""
        return RecordText(raw.decode("utf-8", errors="replace"), note)

    def dry_run(self, now: datetime) -> tuple[ApplyReport, CandidateList | None]:
        """What a move would do now (records a dry run; moves nothing), and the scan it made."""
        report = self.curation.apply(dry_run=True, config=self.curation.live_config(), now=now)
        return report, self.listing(report.scan, now) if report.scan is not None else None

    def move_scope(self, scope: str, ids: set[str], now: datetime, *,
                   progress: Callable[[int, int], None] | None = None,
                   should_stop: Callable[[], bool] | None = None) -> ApplyReport:
        """One apply run for ``scope`` that moves exactly ``ids`` (those the person confirmed), each with
        a verified copy and a tombstone. One run per scope keeps the report-only count right. ``progress``
        and ``should_stop`` are the engine's: called between records, never in the middle of a move."""
        return self.curation.apply(scope, config=self.curation.live_config(), now=now, only=ids, progress=progress,
                                   should_stop=should_stop)

    def after_moves(self, shown: CandidateList, reports: list[ApplyReport], now: datetime) -> CandidateList:
        """``shown`` with each moved scope as its apply run judged it, less the records that moved."""
        gone = {candidate_id(m.stone.scope, m.stone.path) for r in reports for m in r.moved}
        fresh = {item.scope.name: item for r in reports if r.scan for item in r.scan.scopes}
        scopes = [
            dataclasses.replace(
                fresh.get(item.scope.name, item),
                candidates=[c for c in fresh.get(item.scope.name, item).candidates if c.id not in gone],
            )
            for item in shown.report.scopes
        ]
        return self.listing(dataclasses.replace(shown.report, scopes=scopes), now)

    def cold_items(self, verify: bool = False) -> list[ColdItem]:
        return self.curation.cold(verify=verify, config=self.curation.live_config())

    def restore(self, items: list[ColdItem], now: datetime) -> tuple[list[RestoreOutcome], list[str]]:
        """Restore each item by its move id (verified by the core before and after), then hash each file
        at its path once more; (outcomes, one-line errors such as a refusal to overwrite)."""
        done, errors = self.curation.restore_many([i.stone.move_id for i in items],
                                                  config=self.curation.live_config(), now=now)
        outcomes = [RestoreOutcome(r.path, r.sha256, sha256_of(r.path) == r.sha256, r.already) for r in done]
        return outcomes, errors

    def calibration(self, scope: str | None, bins: int, now: datetime, measure: bool = False) -> CalibrationView:
        """The recorded distribution of ``scope`` (the first scope when None); ``measure`` measures it now."""
        config = self.curation.live_config()
        names = tuple(s.name for s in config.curation.scopes)
        name = scope if scope in names else (names[0] if names else "")
        note = ""
        if measure and name:
            result = self.curation.calibrate(name, config=config, now=now)
            note = f"shifted since the last measurement: {result.shifted}" if result.shifted else "no shift"
        picture = self.curation.picture(name, bins=bins)  # no scope: nothing measured, default thresholds
        entry = load_calibration(self.paths)["scopes"].get(name) or {}
        data = entry.get("data", {})
        columns = [data.get(key, []) for key in ("path", "age_days", "size_bytes", "references", "last_used")]
        rows = tuple(DataRow(str(p), float(a), int(s), int(r), float(u))
                     for p, a, s, r, u in zip(*columns, strict=False))
        return CalibrationView(names, name, picture, rows, str(entry.get("reason", "")), note)
