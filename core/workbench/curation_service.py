"""Curation through the workbench: the engine's operations (:mod:`core.curate.engine`) with the home's
paths, its settings and its keys, so an interface never assembles them itself.

Keys are asked for only where the engine needs them (a move or restore writes the ledger); with
``quiet=True`` they are used only when they come without a prompt (the weekly timer, which must never
wait for a person). ``config`` may be passed to read settings fresh from disk: scopes are added with
``reverie curate scope add`` while the TUI may be open, so its screens pass :meth:`Curation.live_config`.
What those screens show is built in :mod:`core.workbench.curation_views`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from core.curate import engine, schedule
from core.curate.cold import list_cold
from core.curate.results import Calibrated, CalibrationPicture, CurationEvent, CurationStatus, Decided
from core.curate.runs import overdue_notice
from core.curate.scopes import add_scope, all_scopes, remove_scope
from core.curate.status import log as curation_log
from core.curate.status import status as curation_status
from core.workbench.curation import SchedulePlan
from core.workbench.curation_views import CurationViews
from core.workbench.service import Service

if TYPE_CHECKING:
    from pathlib import Path

    from core.config import Config
    from core.curate.cold import ColdItem, Recovery, Restored
    from core.curate.engine import ApplyReport, ScanReport
    from core.curate.schedule import Installed
    from core.curate.scopes import RemovedScope, Scope
    from core.vault.crypto import VaultKeys

Progress = Callable[..., None]
ShouldStop = Callable[[], bool]


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
        return CurationViews(self)

    def live_config(self) -> Config:
        """The workbench's settings with the ``[curation]`` table as ``config.toml`` holds it now."""
        return self.workbench.live_config()

    def overdue(self, now: datetime | None = None, *, config: Config | None = None) -> str | None:
        """One line when a scope's weekly review is overdue, else None (reads ``runs.jsonl`` only)."""
        return overdue_notice(self.workbench.paths, config or self.workbench.config, now)

    # --- scopes ------------------------------------------------------------------------------------

    def scopes(self) -> list[Scope]:
        return all_scopes(self.workbench.config, self.workbench.paths)

    def add_scope(self, name: str, kind: str, path: str | None) -> tuple[Scope, bool]:
        """Add a scope to ``config.toml`` (idempotent); (the scope, whether anything changed)."""
        return add_scope(self.workbench.paths, name, kind, path)

    def remove_scope(self, name: str) -> RemovedScope:
        """Stop curating ``name``; its records in cold storage stay restorable."""
        return remove_scope(self.workbench.paths, name)

    # --- scan, apply, decide -------------------------------------------------------------------------

    def scan(self, scope: str | None = None, *, config: Config | None = None, now: datetime | None = None,
             quiet: bool = False) -> ScanReport:
        return engine.scan(self.workbench.paths, config or self.workbench.config, scope, unlock=self._unlock(quiet),
                           now=now)

    def judge(self, scope: str | None = None, *, config: Config | None = None,
              now: datetime | None = None) -> ScanReport | None:
        """What :meth:`scan` would find now, read only (no run recorded); None when a scope must be
        calibrated first, which only a scan does."""
        return engine.judge_scopes(self.workbench.paths, config or self.workbench.config, scope,
                                   unlock=self._unlock(), now=now)

    def apply(self, scope: str | None = None, *, dry_run: bool = False, config: Config | None = None,
              now: datetime | None = None, quiet: bool = False, only: set[str] | None = None,
              progress: Progress | None = None, should_stop: ShouldStop | None = None) -> ApplyReport:
        """Move what the rubric says moves (``only``: just these candidate ids); ``quiet`` is the
        scheduled run: without keys at hand it reports instead of asking."""
        return engine.apply(self.workbench.paths, config or self.workbench.config, scope, dry_run=dry_run,
                            unlock=self._unlock(quiet), now=now, locked_ok=quiet, only=only, progress=progress,
                            should_stop=should_stop)

    def decide(self, candidate: str, decision: str, *, now: datetime | None = None) -> Decided:
        """Approve or reject a medium-tier candidate (by id or path)."""
        return engine.decide_candidate(self.workbench.paths, candidate, decision, now=now)

    # --- cold storage ------------------------------------------------------------------------------

    def cold(self, scope: str | None = None, *, verify: bool = False, config: Config | None = None) -> list[ColdItem]:
        """Everything in cold storage, newest first; ``verify`` hashes every copy again."""
        return list_cold(self.workbench.paths, config or self.workbench.config, scope, verify=verify)

    def restore(self, target: str, *, config: Config | None = None, now: datetime | None = None) -> Restored:
        return engine.restore(self.workbench.paths, config or self.workbench.config, target, unlock=self._unlock(),
                              now=now)

    def restore_many(self, targets: list[str], *, config: Config | None = None,
                     now: datetime | None = None) -> tuple[list[Restored], list[str]]:
        return engine.restore_many(self.workbench.paths, config or self.workbench.config, targets,
                                   unlock=self._unlock(), now=now)

    def recover(self) -> list[Recovery]:
        """Finish or roll back moves and restores a crash interrupted."""
        return engine.recover(self.workbench.paths, self.workbench.config, unlock=self._unlock())

    # --- calibration, status, schedule ---------------------------------------------------------------

    def calibrate(self, scope: str, *, config: Config | None = None, now: datetime | None = None) -> Calibrated:
        """Thresholds measured from the scope's own distribution (natural breaks)."""
        return engine.calibrate_scope(self.workbench.paths, config or self.workbench.config, scope,
                                      unlock=self._unlock(), now=now)

    def picture(self, scope: str, bins: int = 24) -> CalibrationPicture:
        """What the scope's calibration was measured from: a histogram, thresholds, figures, history."""
        return engine.calibration_picture(self.workbench.paths, scope, bins=bins)

    def status(self, now: datetime | None = None) -> CurationStatus:
        """Last run, overdue or not, rubric version and counts, overall and per scope (``curate status``)."""
        return curation_status(self.workbench.paths, self.workbench.config, now)

    def history(self, limit: int = 50) -> list[CurationEvent]:
        """Runs, moves, restores, decisions and rubric changes, newest first (``curate log``)."""
        return curation_log(self.workbench.paths, limit)

    def schedule_plan(self, method: str | None = None) -> SchedulePlan:
        """The weekly run for ``method`` (systemd when it runs here, else cron), to print."""
        paths = self.workbench.paths
        return SchedulePlan(method or schedule.default_method(), schedule.systemd_units(paths),
                            schedule.cron_line(paths), str(schedule.systemd_user_dir()), schedule.UNIT)

    def install_schedule(self, method: str | None = None) -> Installed:
        return schedule.install(self.workbench.paths, method or schedule.default_method())

    def unit_path(self, name: str) -> Path:
        return schedule.systemd_user_dir() / name
