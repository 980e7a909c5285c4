"""What curation returns, without the engine: the engine's result types (:mod:`core.curate.results`)
and the weekly run's plan. Interfaces name these; the TUI imports this module while the keys are
derived. The service that runs the engine is :class:`core.workbench.curation_service.Curation`.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.curate.results import (
    Calibrated,
    CalibrationPicture,
    CurationEvent,
    CurationStatus,
    Decided,
    HistogramBin,
    ScopeStatus,
    StatusCounts,
    TierCounts,
)

__all__ = ["Calibrated", "CalibrationPicture", "CurationEvent", "CurationStatus", "Decided", "HistogramBin",
           "SchedulePlan", "ScopeStatus", "StatusCounts", "TierCounts"]


@dataclass(frozen=True)
class SchedulePlan:
    """The weekly run, not installed: the systemd units (name → text), the crontab line, the unit folder."""

    method: str
    systemd: dict[str, str]
    cron: str
    unit_dir: str
    unit: str
