"""What the curation screens load and do, through ``core.curate``: plain functions that run inside
worker threads and return values a message carries back to the app's thread. The curation
settings come from :func:`live_config` (``config.toml`` as it is now).
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.curate import engine
from core.curate.calibration import load_calibration
from core.curate.cold import ColdItem, list_cold, sha256_of
from core.curate.decisions import DECISIONS_FILE, load_decisions, valid_decision
from core.curate.kinds import read_file
from core.curate.learning import RESTORES_FILE, last_restored, read_restores
from core.curate.model import Candidate, candidate_id
from core.curate.runs import RUNS_FILE, applied_on_day, apply_runs, read_runs
from core.paths import HomePaths
from tui_app.screens.curation_notice import live_config
from tui_app.screens.session import Session

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


# --- candidates ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CandidateList:
    """The last scan, as the curation screen shows it, with the rules the high tier moves under."""

    report: engine.ScanReport
    stamp: Stamp
    auto_move_cap: int
    report_only_left: dict[str, int]  # scope → apply runs that will only report, before high moves
    recorded: bool = True  # False: judged ahead, read only (no run recorded); the screen scans when opened
    counted_today: frozenset[str] = frozenset()  # scopes whose report-only run of today is recorded

    @property
    def candidates(self) -> list[Candidate]:
        return self.report.candidates


def candidate_list(session: Session, report: engine.ScanReport, recorded: bool = True) -> CandidateList:
    cur = live_config(session).curation
    runs = read_runs(session.paths)
    left = {s.name: max(0, cur.report_only_runs - apply_runs(runs, s.name)) for s in cur.scopes}
    today = frozenset(s.name for s in cur.scopes if applied_on_day(runs, s.name, session.now()))
    return CandidateList(report, Stamp.read(session.paths), cur.auto_move_cap, left, recorded, today)


def scan(session: Session) -> CandidateList:
    """Judge every scope now (records a scan run; moves nothing)."""
    report = session.workbench.curation.scan(config=live_config(session), now=session.now())
    return candidate_list(session, report)


def judge_ahead(session: Session) -> CandidateList | None:
    """What a scan would show now, read only (writes nothing, records no run), for a screen made
    ready before the person opens it; None when only a real scan can say (a scope to calibrate)."""
    report = session.workbench.curation.judge(config=live_config(session), now=session.now())
    return candidate_list(session, report, recorded=False) if report is not None else None


def with_current_decisions(session: Session, shown: CandidateList) -> CandidateList:
    """``shown`` with each candidate's decision as ``decisions.json`` holds it now (no scan)."""
    paths = session.paths
    decisions = load_decisions(paths)
    restored = last_restored(read_restores(paths))
    scopes = [
        dataclasses.replace(
            item,
            candidates=[
                dataclasses.replace(c, decision=_decision(decisions.get(c.id), c, restored)) for c in item.candidates
            ],
        )
        for item in shown.report.scopes
    ]
    return candidate_list(session, dataclasses.replace(shown.report, scopes=scopes))


def _decision(entry: dict[str, Any] | None, c: Candidate, restored: dict[tuple[str, str], float]) -> str | None:
    valid = valid_decision(entry, c.sha256, restored.get((c.scope, c.rel)))
    return str(valid["decision"]) if valid else None


def decide(session: Session, candidate: Candidate, decision: str) -> dict[str, Any]:
    """Approve or reject one candidate, bound to its exact content (``decision``: approved / rejected)."""
    return session.workbench.curation.decide(candidate.id, decision, now=session.now())


@dataclass(frozen=True)
class RecordText:
    text: str
    note: str  # "" when the text is the record exactly as judged; else why it may differ


def record_text(session: Session, candidate: Candidate) -> RecordText:
    """The whole record: a file's text as stored (never through a symlink), or a vault memory's
    decrypted content."""
    if candidate.kind == "vault":
        memory = session.vault.get_memory(candidate.rel.removesuffix(".json"))
        return RecordText(memory.content, "")
    try:
        raw, _ = read_file(candidate.path)
    except OSError:
        return RecordText("", f"{candidate.path} is no longer there (moved or removed since the scan).")
    changed = hashlib.sha256(raw).hexdigest() != candidate.sha256
    note = "Changed since the scan: scan again before deciding." if changed else ""
    return RecordText(raw.decode("utf-8", errors="replace"), note)


# --- moving ------------------------------------------------------------------------------------------------


def dry_run(session: Session) -> tuple[engine.ApplyReport, CandidateList | None]:
    """What a move would do now (records a dry run; moves nothing), and the scan it made."""
    config = live_config(session)
    report = session.workbench.curation.apply(dry_run=True, config=config, now=session.now())
    return report, candidate_list(session, report.scan) if report.scan is not None else None


def confirmed_by_scope(plan: Iterable[engine.PlannedMove]) -> dict[str, set[str]]:
    """The ids a dry run said would move, by scope, in the order the plan lists them."""
    found: dict[str, set[str]] = {}
    for item in plan:
        if item.will_move:
            found.setdefault(item.candidate.scope, set()).add(item.candidate.id)
    return found


def move_scope(session: Session, scope: str, ids: set[str], *, progress: Callable[[int, int], None] | None = None,
               should_stop: Callable[[], bool] | None = None) -> engine.ApplyReport:
    """One apply run for ``scope`` that moves exactly ``ids`` (those the person confirmed), each with
    a verified copy and a tombstone. One run per scope keeps the report-only count right. ``progress``
    and ``should_stop`` are the engine's: called between records, never in the middle of a move."""
    config = live_config(session)
    return session.workbench.curation.apply(scope, config=config, now=session.now(), only=ids, progress=progress,
                                            should_stop=should_stop)


def after_moves(session: Session, shown: CandidateList, reports: list[engine.ApplyReport]) -> CandidateList:
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
    return candidate_list(session, dataclasses.replace(shown.report, scopes=scopes))


# --- cold storage ------------------------------------------------------------------------------------------


def cold_items(session: Session, verify: bool = False) -> list[ColdItem]:
    return list_cold(session.paths, live_config(session), verify=verify)


@dataclass(frozen=True)
class RestoreCheck:
    """What the restore confirmation shows: the cold copy's checksum now, and what stands at the path."""

    item: ColdItem
    cold_sha256: str | None  # None: the copy is missing
    occupied_by: str | None  # sha256 of a file standing at the record's path ("" for a non-file), else None

    @property
    def copy_ok(self) -> bool:
        return self.cold_sha256 == self.item.stone.sha256


def check_restore(item: ColdItem) -> RestoreCheck:
    if item.places is None:
        return RestoreCheck(item, None, None)
    target = item.places.target
    occupied = (sha256_of(target) or "") if os.path.lexists(target) else None
    return RestoreCheck(item, sha256_of(item.places.cold), occupied)


@dataclass(frozen=True)
class RestoreOutcome:
    path: Path
    sha256: str
    verified: bool  # the file now at the path hashes to the recorded SHA-256 (checked again here)
    already: bool


def restore(session: Session, items: list[ColdItem]) -> tuple[list[RestoreOutcome], list[str]]:
    """Restore each item by its move id (verified by the core before and after), then hash each file
    at its path once more; (outcomes, one-line errors such as a refusal to overwrite)."""
    config = live_config(session)
    done, errors = session.workbench.curation.restore_many([i.stone.move_id for i in items], config=config,
                                                           now=session.now())
    outcomes = [RestoreOutcome(r.path, r.sha256, sha256_of(r.path) == r.sha256, r.already) for r in done]
    return outcomes, errors


# --- calibration ---------------------------------------------------------------------------------------------


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
    picture: dict[str, Any]  # engine.calibration_picture: bins, thresholds, figures, how, history
    rows: tuple[DataRow, ...]
    reason: str  # why it was (re-)measured
    note: str = ""  # what just happened (a measurement on request)


def calibration_view(session: Session, scope: str | None, bins: int, measure: bool = False) -> CalibrationView:
    """The recorded distribution of ``scope`` (the first scope when None); ``measure`` measures it now."""
    config = live_config(session)
    names = tuple(s.name for s in config.curation.scopes)
    name = scope if scope in names else (names[0] if names else "")
    note = ""
    if measure and name:
        result = session.workbench.curation.calibrate(name, config=config, now=session.now())
        note = f"shifted since the last measurement: {result['shifted']}" if result["shifted"] else "no shift"
    picture = session.workbench.curation.picture(name, bins=bins) if name else {"measured": False, "bins": []}
    entry = load_calibration(session.paths)["scopes"].get(name) or {}
    data = entry.get("data", {})
    columns = [data.get(key, []) for key in ("path", "age_days", "size_bytes", "references", "last_used")]
    rows = tuple(DataRow(str(p), float(a), int(s), int(r), float(u)) for p, a, s, r, u in zip(*columns, strict=False))
    return CalibrationView(names, name, picture, rows, str(entry.get("reason", "")), note)
