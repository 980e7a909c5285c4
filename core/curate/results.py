"""What curation's operations answer, as typed results: a decision, a calibration, the status, the
history and the calibration picture. ``msgspec.to_builtins`` (or ``dataclasses.asdict`` for the two
dataclasses) gives the JSON form ``reverie curate … --json`` prints, fields in declared order."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec
from msgspec import UNSET, UnsetType


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
