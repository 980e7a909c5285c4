"""Scan and apply: the curation modules put together, the API the workbench calls.

``scan`` judges every record of one or every scope, writes ``curation/candidates.json`` and records the
run (calibrating a scope first, re-measuring when its distribution shifted); ``judge_scopes`` does the
same read only. ``apply`` finishes interrupted operations, scans, then moves what the tiers allow (high
tier, capped per run, none during a scope's report-only runs) plus what the person approved;
``dry_run`` moves nothing and ``should_stop()`` is asked between records, never inside a move.
``decide`` approves or rejects one candidate (bound to its exact content); ``restore`` brings a moved
record back, verified. Those that write hold the curation lock; ``now`` is a parameter.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from core import clock
from core.config import Config
from core.curate import calibration as cal
from core.curate import cold
from core.curate.decisions import consume, decide, load_decisions, valid_decision
from core.curate.errors import CurationError
from core.curate.judge import judge
from core.curate.learning import last_restored, read_restores
from core.curate.model import TIERS, Candidate, Thresholds, candidate_id
from core.curate.results import (
    ApplyForm,
    Calibrated,
    CalibrationPicture,
    Decided,
    PlanForm,
    ScanForm,
    ScopeScanForm,
)
from core.curate.rubric import Rubric, load_rubric
from core.curate.runs import apply_runs, read_runs, record_run
from core.curate.scopes import Scope, get_scope, select_scopes
from core.curate.signals import ScopeContext
from core.errors import NotFound, RecordError, VaultLocked
from core.fsutil import atomic_write_text, file_lock
from core.paths import HomePaths
from core.vault.crypto import VaultKeys
from core.vault.ledger import Ledger

CANDIDATES_FILE = "candidates.json"
Unlock = Callable[[], VaultKeys | None]
Progress = Callable[[int, int], None]  # (records done, records to move)
ShouldStop = Callable[[], bool]  # e.g. ``threading.Event().is_set`` or a worker's ``lambda: worker.is_cancelled``
STOPPED_REASON = "apply was stopped before its turn; the next apply moves it"


def _no_keys() -> VaultKeys | None:
    return None


@contextmanager
def curation_lock(paths: HomePaths) -> Iterator[None]:
    paths.curation.mkdir(parents=True, exist_ok=True, mode=0o700)
    with file_lock(paths.lock("curate")):
        yield


def _now(now: datetime | None) -> datetime:
    return now or clock.utc_now()


# ---------------------------------------------------------------------------------------- scan


@dataclass
class ScopeScan:
    scope: Scope
    candidates: list[Candidate] = field(default_factory=list)
    records: int = 0
    thresholds: Thresholds | None = None
    calibration: str | None = None  # what happened to the scope's calibration during this scan
    problem: str | None = None  # why the scope could not be scanned

    def counts(self) -> dict[str, int]:
        return {tier: sum(1 for c in self.candidates if c.tier == tier) for tier in TIERS}

    def form(self) -> ScopeScanForm:
        """The scope in a scan's published form (its counts, not its candidates: the report lists those)."""
        return ScopeScanForm(self.scope.name, self.scope.kind.name, str(self.scope.root), self.records, self.counts(),
                             self.thresholds.to_dict() if self.thresholds else None, self.calibration, self.problem)


@dataclass
class ScanReport:
    scopes: list[ScopeScan]
    rubric_version: int
    scanned_at: str
    pending_operations: int = 0

    @property
    def candidates(self) -> list[Candidate]:
        order = {tier: i for i, tier in enumerate(TIERS)}
        found = [c for s in self.scopes for c in s.candidates]
        return sorted(found, key=lambda c: (order[c.tier], -c.age_days, c.scope, c.rel))

    def form(self) -> ScanForm:
        """``curate scan --json``: every scope's candidates in one list in tier order, then the scopes."""
        return ScanForm([c.to_dict() for c in self.candidates], self.rubric_version, self.scanned_at,
                        [s.form() for s in self.scopes], self.pending_operations)


def _scope_keys(scope: Scope, unlock: Unlock) -> VaultKeys | None:
    if not scope.kind.needs_keys:
        return None
    keys = unlock()
    if keys is None:
        raise VaultLocked(f"scope {scope.name!r}: reading the vault's memories needs the passphrase")
    return keys


def _context(scope: Scope, unlock: Unlock) -> ScopeContext:
    if not scope.root.is_dir():
        raise NotFound(f"scope {scope.name!r}: {scope.root} is not a folder")
    records = list(scope.kind.records(scope.name, scope.root, _scope_keys(scope, unlock)))
    return ScopeContext.build(scope.root, scope.kind.supports_orphan, records)


def _measurement(ctx: ScopeContext, now: float) -> cal.Measurement:
    refs = {rel: len(ctx.inbound.get(rel, ())) + len(ctx.indexed_by.get(rel, ())) for rel in ctx.records}
    return cal.measure(list(ctx.records.values()), refs, now)


class NeedsCalibration(Exception):
    """A read-only judgement met a scope whose thresholds must be measured first (a write)."""


def _scan_scope(paths: HomePaths, config: Config, scope: Scope, rubric: Rubric, unlock: Unlock, now: datetime,
                restored: dict[tuple[str, str], float], decisions: dict[str, dict[str, Any]],
                write: bool = True) -> ScopeScan:
    result = ScopeScan(scope)
    try:
        ctx = _context(scope, unlock)
    except NotFound as exc:
        result.problem = str(exc)
        return result
    ts = now.timestamp()
    measurement = _measurement(ctx, ts)
    entry = cal.load_calibration(paths)["scopes"].get(scope.name)
    reason = "first scan" if entry is None else cal.shift_reason(entry, measurement)
    if reason and not write:
        raise NeedsCalibration(scope.name)
    if entry is None:
        entry = cal.calibrate(paths, scope.name, measurement, ts, "first scan")
        result.calibration = "measured for the first time"
    elif reason:
        entry = cal.calibrate(paths, scope.name, measurement, ts, reason)
        result.calibration = f"re-measured: {reason}"
    thresholds = cal.thresholds_of(entry)
    result.thresholds = thresholds
    result.records = sum(1 for r in ctx.records.values() if not r.is_index)
    for record in ctx.records.values():
        restored_at = restored.get((scope.name, record.rel))
        cid = candidate_id(scope.name, record.rel)
        decision = valid_decision(decisions.get(cid), record.sha256, restored_at)
        candidate = judge(record, ctx, rubric, thresholds, ts, kind=scope.kind.name, restored_at=restored_at,
                          restored_guard_days=config.curation.restored_guard_days, decision=decision)
        if candidate is not None:
            result.candidates.append(candidate)
    return result


def _scan(paths: HomePaths, config: Config, scope_name: str | None, unlock: Unlock, now: datetime,
          write: bool = True) -> ScanReport:
    rubric = load_rubric(paths)
    restored = last_restored(read_restores(paths))
    decisions = load_decisions(paths)
    scans = [_scan_scope(paths, config, scope, rubric, unlock, now, restored, decisions, write)
             for scope in select_scopes(config, paths, scope_name)]
    report = ScanReport(scans, rubric.version, now.isoformat(timespec="seconds"),
                        len(cold.pending_operations(paths)))
    if write:
        _save_candidates(paths, report)
    return report


def judge_scopes(paths: HomePaths, config: Config, scope: str | None = None, *, unlock: Unlock = _no_keys,
                 now: datetime | None = None) -> ScanReport | None:
    """What :func:`scan` would judge now, read only: no file is written and no run recorded, so the
    weekly review stays due. ``None`` when a scope's thresholds must be measured first (its first
    scan, or its distribution shifted): only a real scan does that. Takes no lock; a scan made after
    it (the one the person sees recorded) is the one that counts."""
    try:
        return _scan(paths, config, scope, unlock, _now(now), write=False)
    except NeedsCalibration:
        return None


def scan(paths: HomePaths, config: Config, scope: str | None = None, *, unlock: Unlock = _no_keys,
         now: datetime | None = None) -> ScanReport:
    """Judge every record of ``scope`` (or of every scope) and record the run. Moves nothing."""
    now = _now(now)
    with curation_lock(paths):
        report = _scan(paths, config, scope, unlock, now)
        for item in report.scopes:
            if item.problem is None:
                record_run(paths, {"ts": report.scanned_at, "scope": item.scope.name, "kind": "scan",
                                   "rubric_version": report.rubric_version, "counts": item.counts(),
                                   "records": item.records, "calibration": item.calibration})
    return report


def _candidates_path(paths: HomePaths) -> Path:
    return paths.curation / CANDIDATES_FILE


def stored_form(candidate: Candidate) -> dict[str, Any]:
    """A candidate as written to disk (:meth:`Candidate.to_dict`, the bytes pinned in
    test_curate_stored_form). A vault memory's content and metadata are secret outside its ciphertext:
    its title, preview and the reasons quoting its text or tags are left out."""
    data = candidate.to_dict()
    if candidate.kind == "vault":
        data.update(title="", preview="", details={key: "(vault memory: see the scan)" for key in data["details"]})
    return data


def _save_candidates(paths: HomePaths, report: ScanReport) -> None:
    data = load_candidates_file(paths)
    for item in report.scopes:
        if item.problem is None:
            data["scopes"][item.scope.name] = {
                "scanned_at": report.scanned_at, "rubric_version": report.rubric_version,
                "thresholds": item.thresholds.to_dict() if item.thresholds else None,
                "candidates": [stored_form(c) for c in item.candidates],
            }
    atomic_write_text(_candidates_path(paths), json.dumps(data, ensure_ascii=False, indent=1) + "\n")


def _forget_moved(paths: HomePaths, ids: set[str]) -> None:
    """Drop moved records from the last scan's candidates (they are in cold storage now)."""
    data = load_candidates_file(paths)
    for item in data["scopes"].values():
        item["candidates"] = [c for c in item.get("candidates", []) if c.get("id") not in ids]
    atomic_write_text(_candidates_path(paths), json.dumps(data, ensure_ascii=False, indent=1) + "\n")


def load_candidates_file(paths: HomePaths) -> dict[str, Any]:
    """``candidates.json`` as a JSON document: read, changed in place (a scope's entry replaced, moved
    records dropped) and written back whole, so a scope this run did not scan keeps its bytes; its
    candidates become :class:`Candidate` through :meth:`Candidate.from_dict` where they are used."""
    path = _candidates_path(paths)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {"format": "reverie.curation.candidates", "scopes": {}}
    except (OSError, ValueError) as exc:
        raise RecordError(f"{path}: unreadable: {exc}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("scopes"), dict):
        raise RecordError(f"{path}: field 'scopes' missing or not an object")
    return data


def last_candidates(paths: HomePaths, scope: str | None = None) -> list[Candidate]:
    """The candidates of the last scan (cheap: no scope is read)."""
    data = load_candidates_file(paths)
    return [Candidate.from_dict(c) for name, item in data["scopes"].items() if scope in (None, name)
            for c in item.get("candidates", [])]


# --------------------------------------------------------------------------------------- apply


@dataclass(frozen=True)
class PlannedMove:
    candidate: Candidate
    reason: str
    will_move: bool  # a real apply run now would move it
    approved: bool

    def form(self) -> PlanForm:
        """The plan as ``curate apply --json`` prints it (the candidate's age rounded to 0.01 day)."""
        c = self.candidate
        return PlanForm(str(c.path), c.scope, c.id, c.rel, c.tier, list(c.signals), list(c.guards), c.sha256,
                        c.rubric_version, round(c.age_days, 2), self.reason, self.will_move, self.approved)


@dataclass
class ApplyReport:
    dry_run: bool
    moved: list[cold.Moved] = field(default_factory=list)
    would_move: list[PlannedMove] = field(default_factory=list)
    recovered: list[cold.Recovery] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    scan: ScanReport | None = None
    stopped: bool = False  # ``should_stop`` said so between two records; the rest are in ``would_move``
    planned: int = 0  # how many records this run set out to move
    notes: list[str] = field(default_factory=list)  # said once for the run (the report-only explanation)

    def form(self) -> ApplyForm:
        """``curate apply --json``: each move, plan and recovery, the scan only as its rubric version."""
        return ApplyForm(self.dry_run, [m.form() for m in self.moved], [p.form() for p in self.would_move],
                         list(self.recovered), self.errors, self.notes,
                         self.scan.rubric_version if self.scan else None, self.stopped, self.planned)


def report_only_reason(scope: str, done: int, runs: int) -> str:
    """Why high-tier records of ``scope`` did not move, said once per run (:attr:`ApplyReport.notes`): the
    scope's first ``runs`` days of apply runs only report, so the person sees what the rubric would move
    before anything moves; how many remain and how to change it. Each record says only
    :func:`report_only_short`."""
    left = runs - done - 1
    after = f"{left} more report-only run{'' if left == 1 else 's'}, then" if left else "from the next run"
    return (f"report-only run {done + 1} of {runs} for scope {scope}: high-tier records are reported, not moved "
            f"(a scope's first {runs} apply runs only report, counted once per day; {after} high-tier records "
            "move; set curation.report_only_runs in config.toml to change it)")


def report_only_short(done: int, runs: int) -> str:
    """What each held-back record says; the run's note (:func:`report_only_reason`) explains it."""
    return f"report-only run {done + 1} of {runs}: reported, not moved"


def plan(report: ScanReport, config: Config, runs: list[dict[str, Any]]) -> list[PlannedMove]:
    """What the tier rules allow now: every approval, then high-tier records oldest first, at most
    ``auto_move_cap`` in all, none in a scope's first ``report_only_runs`` apply runs."""
    cur = config.curation
    planned: list[PlannedMove] = []
    for c in report.candidates:
        if c.decision == "approved":
            planned.append(PlannedMove(c, "approved by you", True, True))
    cap_left = cur.auto_move_cap
    high = sorted((c for c in report.candidates if c.tier == "high" and c.decision != "approved"),
                  key=lambda c: -c.age_days)
    for c in high:
        done = apply_runs(runs, c.scope)
        if done < cur.report_only_runs:
            planned.append(PlannedMove(c, report_only_short(done, cur.report_only_runs), False, False))
        elif cap_left <= 0:
            planned.append(PlannedMove(c, f"over the cap of {cur.auto_move_cap} automatic moves per run", False, False))
        else:
            cap_left -= 1
            planned.append(PlannedMove(c, "high tier: moves automatically", True, False))
    return planned


def report_only_notes(planned: list[PlannedMove], config: Config, runs: list[dict[str, Any]]) -> list[str]:
    """The report-only explanation, once for each scope whose high-tier records it held back."""
    held = dict.fromkeys(p.candidate.scope for p in planned if p.reason.startswith("report-only run "))
    return [report_only_reason(scope, apply_runs(runs, scope), config.curation.report_only_runs) for scope in held]


def apply(paths: HomePaths, config: Config, scope: str | None = None, *, dry_run: bool = False,
          unlock: Unlock = _no_keys, now: datetime | None = None, locked_ok: bool = False,
          only: set[str] | None = None, progress: Progress | None = None,
          should_stop: ShouldStop | None = None, on_step: cold.StepHook = cold.no_steps) -> ApplyReport:
    """Move what the tiers allow plus what the person approved (nothing with ``dry_run``).

    Keys are asked for only when something must be written to the ledger. With ``locked_ok`` (the
    weekly timer), no keys means: report what would move, move nothing. ``only`` (candidate ids,
    e.g. those a dry run showed and the person confirmed) limits the moves to exactly those.

    ``progress(done, total)`` is called with ``(0, total)`` before the first move and after each
    record (moved or not). ``should_stop()`` is asked before each record, never during one: once it
    says so, the record in hand has finished, nothing more moves, ``stopped`` is set, the records not
    reached are listed in ``would_move`` (the next apply moves them) and the run is recorded as usual.
    Both are called in the caller's thread, with the curation lock held.
    """
    now = _now(now)
    result = ApplyReport(dry_run=dry_run)
    with curation_lock(paths):
        keys: VaultKeys | None = None
        if cold.pending_operations(paths) and not dry_run:
            keys = unlock()
            if keys is not None:
                result.recovered = cold.recover(paths, config, Ledger(paths, keys), now, on_step)
        report = _scan(paths, config, scope, lambda: keys or unlock(), now)
        result.scan = report
        runs = read_runs(paths)
        planned = plan(report, config, runs)
        result.notes = report_only_notes(planned, config, runs)
        if only is not None:
            planned = [p if p.candidate.id in only or not p.will_move
                       else PlannedMove(p.candidate, "not in the confirmed list: not moved", False, p.approved)
                       for p in planned]
        to_move = [p for p in planned if p.will_move]
        result.would_move = [p for p in planned if not p.will_move]
        if to_move and not dry_run:
            keys = keys or unlock()
            if keys is None:
                if not locked_ok:
                    raise VaultLocked("moving records needs the passphrase (it signs the ledger entry of each move)")
                result.would_move += [PlannedMove(p.candidate, "no passphrase available: not moved", False, p.approved)
                                      for p in to_move]
                to_move = []
        if dry_run:
            result.would_move = to_move + result.would_move
            to_move = []
        if to_move and keys is not None:
            _move_all(paths, config, to_move, Ledger(paths, keys), now, result, progress, should_stop, on_step)
            _forget_moved(paths, {candidate_id(m.stone.scope, m.stone.path) for m in result.moved})
        _record_apply_runs(paths, report, result, dry_run, now)
    return result


def _move_all(paths: HomePaths, config: Config, to_move: list[PlannedMove], ledger: Ledger, now: datetime,
              result: ApplyReport, progress: Progress | None, should_stop: ShouldStop | None,
              on_step: cold.StepHook = cold.no_steps) -> None:
    total = result.planned = len(to_move)
    if progress is not None:
        progress(0, total)
    for done, item in enumerate(to_move):
        if should_stop is not None and should_stop():
            result.stopped = True
            result.would_move = [PlannedMove(p.candidate, STOPPED_REASON, True, p.approved)
                                 for p in to_move[done:]] + result.would_move
            return
        _move_one(paths, config, item, ledger, now, result, on_step)
        if progress is not None:
            progress(done + 1, total)


def _move_one(paths: HomePaths, config: Config, item: PlannedMove, ledger: Ledger, now: datetime,
              result: ApplyReport, on_step: cold.StepHook = cold.no_steps) -> None:
    c = item.candidate
    try:
        moved = cold.move_record(paths, get_scope(config, paths, c.scope), c, ledger, approved=item.approved, now=now,
                                 on_step=on_step)
    except (CurationError, NotFound, RecordError, OSError) as exc:
        result.errors.append(str(exc))
        return
    result.moved.append(moved)
    if item.approved:
        consume(paths, c.id, moved.stone.move_id)


def _record_apply_runs(paths: HomePaths, report: ScanReport, result: ApplyReport, dry_run: bool,
                       now: datetime) -> None:
    for item in report.scopes:
        if item.problem is not None:
            continue
        name = item.scope.name
        record_run(paths, {
            "ts": now.isoformat(timespec="seconds"), "scope": name, "kind": "dry-run" if dry_run else "apply",
            "rubric_version": report.rubric_version, "counts": item.counts(), "records": item.records,
            "moved": [{"rel": m.stone.path, "move_id": m.stone.move_id, "tier": m.stone.tier,
                       "approved": m.stone.approved} for m in result.moved if m.stone.scope == name],
            "would_move": sum(1 for p in result.would_move if p.candidate.scope == name),
            "calibration": item.calibration,
            **({"stopped": True} if result.stopped else {}),
        })


# ------------------------------------------------------------------------------------ decisions


def find_candidate(paths: HomePaths, spec: str) -> Candidate:
    """A candidate of the last scan by id (``c-…``), ``scope:path`` or the record's path."""
    candidates = last_candidates(paths)
    given = Path(spec).expanduser().absolute() if not spec.startswith("c-") else None
    for c in candidates:
        if spec in (c.id, f"{c.scope}:{c.rel}") or (given is not None and c.path == given):
            return c
    raise NotFound(f"no candidate {spec!r} in the last scan (run `reverie curate scan` to list them)")


def decide_candidate(paths: HomePaths, spec: str, decision: str, now: datetime | None = None) -> Decided:
    """Approve or reject one candidate, bound to its current content. Idempotent."""
    now = _now(now)
    with curation_lock(paths):
        c = find_candidate(paths, spec)
        current = cold.sha256_of(c.path)
        if current is None:
            raise NotFound(f"{c.path}: no longer there (moved or removed since the last scan)")
        if current != c.sha256:
            raise CurationError(f"{c.path}: changed since the last scan; scan again before deciding")
        entry, changed = decide(paths, c.to_dict(), decision, now.isoformat(timespec="seconds"))
    return Decided(id=c.id, scope=c.scope, path=str(c.path), decision=decision, changed=changed, tier=c.tier,
                   signals=list(c.signals), guards=list(c.guards), at=entry["at"])


# ------------------------------------------------------------------------------------- restore


def restore(paths: HomePaths, config: Config, spec: str, *, unlock: Unlock, now: datetime | None = None,
            on_step: cold.StepHook = cold.no_steps) -> cold.Restored:
    """Bring back the record ``spec`` names (tombstone, original path, cold path or move id)."""
    now = _now(now)
    with curation_lock(paths):
        keys = unlock()
        if keys is None:
            raise VaultLocked("restoring needs the passphrase (it signs the ledger entry of the restore)")
        ledger = Ledger(paths, keys)
        cold.recover(paths, config, ledger, now, on_step)
        return cold.restore_record(paths, config, spec, ledger, now, on_step)


def restore_many(paths: HomePaths, config: Config, specs: list[str], *, unlock: Unlock,
                 now: datetime | None = None) -> tuple[list[cold.Restored], list[str]]:
    """Restore several records under one lock and one ledger reading (the TUI's "restore selected");
    (restored, one-line errors). Each restore is still verified before and after, one by one."""
    now = _now(now)
    done: list[cold.Restored] = []
    errors: list[str] = []
    with curation_lock(paths):
        keys = unlock()
        if keys is None:
            raise VaultLocked("restoring needs the passphrase (it signs the ledger entry of the restore)")
        ledger = Ledger(paths, keys)
        cold.recover(paths, config, ledger, now)
        for spec in specs:
            try:
                done.append(cold.restore_record(paths, config, spec, ledger, now))
            except (CurationError, NotFound, RecordError, OSError) as exc:
                errors.append(str(exc))
    return done, errors


def recover(paths: HomePaths, config: Config, *, unlock: Unlock, now: datetime | None = None,
            on_step: cold.StepHook = cold.no_steps) -> list[cold.Recovery]:
    with curation_lock(paths):
        keys = unlock()
        if keys is None:
            raise VaultLocked("finishing interrupted moves needs the passphrase")
        return cold.recover(paths, config, Ledger(paths, keys), _now(now), on_step)


# --------------------------------------------------------------------------------- calibration


def calibrate_scope(paths: HomePaths, config: Config, scope_name: str, *, unlock: Unlock = _no_keys,
                    now: datetime | None = None) -> Calibrated:
    """Measure ``scope_name`` now and record it; says whether the distribution had shifted since the
    last measurement and what the thresholds were before."""
    now = _now(now)
    scope = get_scope(config, paths, scope_name)
    with curation_lock(paths):
        ctx = _context(scope, unlock)
        measurement = _measurement(ctx, now.timestamp())
        previous = cal.load_calibration(paths)["scopes"].get(scope.name)
        shifted = cal.shift_reason(previous, measurement) if previous else None
        entry = cal.calibrate(paths, scope.name, measurement, now.timestamp(),
                              f"requested; shifted: {shifted}" if shifted else "requested")
    return Calibrated(scope=scope.name, measured=entry["measured"], measured_at=entry["measured_at"], n=entry["n"],
                      thresholds=entry["thresholds"], how=entry["how"], figures=entry["figures"],
                      previous=previous["thresholds"] if previous else None, shifted=shifted,
                      source=entry["source"])


def calibration_picture(paths: HomePaths, scope_name: str, bins: int = 24) -> CalibrationPicture:
    """The recorded distribution of ``scope_name`` as histogram bins (log scale) with its thresholds."""
    return cal.picture(scope_name, cal.load_calibration(paths)["scopes"].get(scope_name), bins)
