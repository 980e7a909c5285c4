"""Curation through the workbench: the engine's operations (:mod:`core.curate.engine`) with the home's
paths, its settings and its keys, so an interface never assembles them itself.

Keys are asked for only where the engine needs them (a move or restore writes the ledger); with
``quiet=True`` they are used only when they come without a prompt (the weekly timer, which must never
wait for a person). ``config`` may be passed to read settings fresh from disk (the TUI does, so a
scope added from the CLI shows up without a restart).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from core.config import Config
    from core.curate.cold import Recovery, Restored
    from core.curate.engine import ApplyReport, ScanReport
    from core.vault.crypto import VaultKeys
    from core.workbench.home import Workbench

Progress = Callable[..., None]
ShouldStop = Callable[[], bool]


class Curation:
    def __init__(self, workbench: Workbench) -> None:
        self.workbench = workbench

    def _unlock(self, quiet: bool = False) -> Callable[[], VaultKeys | None]:
        bench = self.workbench

        def unlock() -> VaultKeys | None:
            if quiet and not bench.can_unlock_quietly():
                return None
            return bench.keys if bench.has_vault or bench.unlocked else None

        return unlock

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

    def decide(self, candidate: str, decision: str, *, now: datetime | None = None) -> dict[str, Any]:
        """Approve or reject a medium-tier candidate (by id or path)."""
        from core.curate import engine

        return engine.decide_candidate(self.workbench.paths, candidate, decision, now=now)

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

    def calibrate(self, scope: str, *, config: Config | None = None, now: datetime | None = None) -> dict[str, Any]:
        """Thresholds measured from the scope's own distribution (natural breaks)."""
        from core.curate import engine

        return engine.calibrate_scope(self.workbench.paths, config or self.workbench.config, scope,
                                      unlock=self._unlock(), now=now)

    def picture(self, scope: str, bins: int = 24) -> dict[str, Any]:
        """What the scope's calibration was measured from: a histogram, thresholds, figures, history."""
        from core.curate import engine

        return engine.calibration_picture(self.workbench.paths, scope, bins=bins)
