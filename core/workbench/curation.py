"""Curation through the workbench: the engine's operations (:mod:`core.curate.engine`) with the home's
paths, its settings and its keys, so an interface never assembles them itself.

Keys are asked for only where the engine needs them (a move or restore writes the ledger); with
``quiet=True`` they are used only when they come without a prompt (the weekly timer, which must never
wait for a person). ``config`` may be passed to read settings fresh from disk: scopes are added with
``reverie curate scope add`` while the TUI may be open, so its screens pass :meth:`Curation.live_config`.
What those screens show is built in :mod:`core.workbench.curation_views`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

import msgspec
from msgspec import UNSET, UnsetType

from core.workbench.service import Service

if TYPE_CHECKING:
    from pathlib import Path

    from core.config import Config
    from core.curate.cold import ColdItem, Recovery, Restored
    from core.curate.engine import ApplyReport, ScanReport
    from core.curate.schedule import Installed
    from core.curate.scopes import RemovedScope, Scope
    from core.vault.crypto import VaultKeys
    from core.workbench.curation_views import CurationViews

Progress = Callable[..., None]
ShouldStop = Callable[[], bool]


@dataclass(frozen=True)
class Decided:
    """A candidate approved or rejected, bound to the content it had (``changed``: False when it
    already had that decision)."""

    id: str
    scope: str
    path: str
    decision: str
    changed: bool
    tier: str
    signals: list[str]
    guards: list[str]
    at: str


@dataclass(frozen=True)
class Calibrated:
    """A scope measured now: its thresholds at the natural breaks, how they were placed, the figures
    they came from, the thresholds before and why the distribution counts as shifted (None: it did not)."""

    scope: str
    measured: bool
    measured_at: Any
    n: int
    thresholds: dict[str, float]
    how: dict[str, Any]
    figures: dict[str, Any]
    previous: dict[str, float] | None
    shifted: str | None
    source: str


@dataclass(frozen=True)
class SchedulePlan:
    """The weekly run, not installed: the systemd units (name → text), the crontab line, the unit folder."""

    method: str
    systemd: dict[str, str]
    cron: str
    unit_dir: str
    unit: str


Number = int | float  # as stored: a whole number stays whole in the printed JSON


class TierCounts(msgspec.Struct, frozen=True):
    high: int
    medium: int
    low: int


class StatusCounts(msgspec.Struct, frozen=True):
    """Candidates by tier, open decisions, records in cold storage and restores."""

    high: int
    medium: int
    low: int
    approved: int
    rejected: int
    cold: int
    restores: int


class ScopeStatus(msgspec.Struct, frozen=True):
    """One scope in ``curate status``: its last run, whether it is overdue, its counts and calibration."""

    name: str
    kind: str
    path: str
    last_run: str | None
    last_run_kind: str | None
    overdue: bool
    days_since_run: float | None  # None: not overdue
    apply_runs: int
    report_only_runs_left: int
    counts: TierCounts
    approved: int
    rejected: int
    cold: int
    calibrated_at: Number | str | None
    thresholds: dict[str, Any] | None  # as calibrated: the thresholds, whether measured


class CurationStatus(msgspec.Struct, frozen=True):
    """What ``curate status`` reports; ``msgspec.to_builtins`` gives its JSON form, fields in this order."""

    rubric_version: int
    last_run: str | None
    overdue: bool
    notice: str | None
    review_interval_days: int
    counts: StatusCounts
    pending_operations: int
    scopes: list[ScopeStatus]


class CurationEvent(msgspec.Struct, frozen=True, kw_only=True):
    """One line of ``curate log``. Which fields an event has depends on its kind (a run has
    ``rubric_version``, a move or restore ``path`` and ``move_id``, a decision ``path`` and ``id``): an
    absent one stays UNSET and is left out of the JSON form, as the log has always printed it."""

    ts: str
    event: str
    scope: str | None
    path: str | UnsetType | None = UNSET
    move_id: str | UnsetType | None = UNSET
    id: str | UnsetType = UNSET
    text: str
    rubric_version: int | UnsetType | None = UNSET


class HistogramBin(msgspec.Struct, frozen=True):
    lo: float
    hi: float
    count: int


class CalibrationPicture(msgspec.Struct, frozen=True, kw_only=True):
    """What a scope's calibration was measured from: age histogram (log scale), thresholds, the figures
    and how they were placed, and the calibration's history. ``measured`` False: nothing recorded yet."""

    scope: str
    measured: bool
    measured_at: Number | str | None = None
    n: int = 0
    bins: list[HistogramBin]
    thresholds: dict[str, Any]  # the day thresholds, and whether they were measured
    figures: dict[str, Any]
    how: dict[str, Any] = msgspec.field(default_factory=dict)
    history: list[Any] = msgspec.field(default_factory=list)


class Curation(Service):
    """Scan, apply, approve/reject, restore, recover, calibrate, scopes, status and schedule: every
    scope, never deleting."""

    def _unlock(self, quiet: bool = False) -> Callable[[], VaultKeys | None]:
        bench = self.workbench

        def unlock() -> VaultKeys | None:
            if quiet and not bench.can_unlock_quietly():
                return None
            return bench.keys if bench.has_vault or bench.unlocked else None

        return unlock

    @property
    def views(self) -> CurationViews:
        """What the TUI's curation, cold-storage and calibration screens show."""
        from core.workbench.curation_views import CurationViews

        return CurationViews(self)

    def live_config(self) -> Config:
        """The workbench's settings with the ``[curation]`` table as ``config.toml`` holds it now."""
        from core.config import load_config

        config, path = self.workbench.config, self.workbench.paths.config
        if not path.exists():
            return config
        return dataclasses.replace(config, curation=load_config(path).curation)

    def overdue(self, now: datetime | None = None, *, config: Config | None = None) -> str | None:
        """One line when a scope's weekly review is overdue, else None (reads ``runs.jsonl`` only)."""
        from core.curate.runs import overdue_notice

        return overdue_notice(self.workbench.paths, config or self.workbench.config, now)

    # --- scopes ------------------------------------------------------------------------------------

    def scopes(self) -> list[Scope]:
        from core.curate.scopes import all_scopes

        return all_scopes(self.workbench.config, self.workbench.paths)

    def add_scope(self, name: str, kind: str, path: str | None) -> tuple[Scope, bool]:
        """Add a scope to ``config.toml`` (idempotent); (the scope, whether anything changed)."""
        from core.curate.scopes import add_scope

        return add_scope(self.workbench.paths, name, kind, path)

    def remove_scope(self, name: str) -> RemovedScope:
        """Stop curating ``name``; its records in cold storage stay restorable."""
        from core.curate.scopes import remove_scope

        return remove_scope(self.workbench.paths, name)

    # --- scan, apply, decide -------------------------------------------------------------------------

    def scan(self, scope: str | None = None, *, config: Config | None = None, now: datetime | None = None,
             quiet: bool = False) -> ScanReport:
        from core.curate import engine

        return engine.scan(self.workbench.paths, config or self.workbench.config, scope, unlock=self._unlock(quiet),
                           now=now)

    def judge(self, scope: str | None = None, *, config: Config | None = None,
              now: datetime | None = None) -> ScanReport | None:
        """What :meth:`scan` would find now, read only (no run recorded); None when a scope must be
        calibrated first, which only a scan does."""
        from core.curate import engine

        return engine.judge_scopes(self.workbench.paths, config or self.workbench.config, scope,
                                   unlock=self._unlock(), now=now)

    def apply(self, scope: str | None = None, *, dry_run: bool = False, config: Config | None = None,
              now: datetime | None = None, quiet: bool = False, only: set[str] | None = None,
              progress: Progress | None = None, should_stop: ShouldStop | None = None) -> ApplyReport:
        """Move what the rubric says moves (``only``: just these candidate ids); ``quiet`` is the
        scheduled run: without keys at hand it reports instead of asking."""
        from core.curate import engine

        return engine.apply(self.workbench.paths, config or self.workbench.config, scope, dry_run=dry_run,
                            unlock=self._unlock(quiet), now=now, locked_ok=quiet, only=only, progress=progress,
                            should_stop=should_stop)

    def decide(self, candidate: str, decision: str, *, now: datetime | None = None) -> Decided:
        """Approve or reject a medium-tier candidate (by id or path)."""
        from core.curate import engine

        return Decided(**engine.decide_candidate(self.workbench.paths, candidate, decision, now=now))

    # --- cold storage ------------------------------------------------------------------------------

    def cold(self, scope: str | None = None, *, verify: bool = False, config: Config | None = None) -> list[ColdItem]:
        """Everything in cold storage, newest first; ``verify`` hashes every copy again."""
        from core.curate.cold import list_cold

        return list_cold(self.workbench.paths, config or self.workbench.config, scope, verify=verify)

    def restore(self, target: str, *, config: Config | None = None, now: datetime | None = None) -> Restored:
        from core.curate import engine

        return engine.restore(self.workbench.paths, config or self.workbench.config, target, unlock=self._unlock(),
                              now=now)

    def restore_many(self, targets: list[str], *, config: Config | None = None,
                     now: datetime | None = None) -> tuple[list[Restored], list[str]]:
        from core.curate import engine

        return engine.restore_many(self.workbench.paths, config or self.workbench.config, targets,
                                   unlock=self._unlock(), now=now)

    def recover(self) -> list[Recovery]:
        """Finish or roll back moves and restores a crash interrupted."""
        from core.curate import engine

        return engine.recover(self.workbench.paths, self.workbench.config, unlock=self._unlock())

    # --- calibration, status, schedule ---------------------------------------------------------------

    def calibrate(self, scope: str, *, config: Config | None = None, now: datetime | None = None) -> Calibrated:
        """Thresholds measured from the scope's own distribution (natural breaks)."""
        from core.curate import engine

        return Calibrated(**engine.calibrate_scope(self.workbench.paths, config or self.workbench.config, scope,
                                                   unlock=self._unlock(), now=now))

    def picture(self, scope: str, bins: int = 24) -> CalibrationPicture:
        """What the scope's calibration was measured from: a histogram, thresholds, figures, history."""
        from core.curate import engine

        return msgspec.convert(engine.calibration_picture(self.workbench.paths, scope, bins=bins),
                               CalibrationPicture)

    def status(self, now: datetime | None = None) -> CurationStatus:
        """Last run, overdue or not, rubric version and counts, overall and per scope (``curate status``)."""
        from core.curate.status import status

        return msgspec.convert(status(self.workbench.paths, self.workbench.config, now), CurationStatus)

    def history(self, limit: int = 50) -> list[CurationEvent]:
        """Runs, moves, restores, decisions and rubric changes, newest first (``curate log``)."""
        from core.curate.status import log

        return msgspec.convert(log(self.workbench.paths, limit), list[CurationEvent])

    def schedule_plan(self, method: str | None = None) -> SchedulePlan:
        """The weekly run for ``method`` (systemd when it runs here, else cron), to print."""
        from core.curate import schedule

        paths = self.workbench.paths
        return SchedulePlan(method or schedule.default_method(), schedule.systemd_units(paths),
                            schedule.cron_line(paths), str(schedule.systemd_user_dir()), schedule.UNIT)

    def install_schedule(self, method: str | None = None) -> Installed:
        from core.curate import schedule

        return schedule.install(self.workbench.paths, method or schedule.default_method())

    def unit_path(self, name: str) -> Path:
        from core.curate.schedule import systemd_user_dir

        return systemd_user_dir() / name
