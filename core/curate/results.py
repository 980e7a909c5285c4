"""What curation's operations answer, as typed results: a decision, a calibration, the status, the
history and the calibration picture, and the published forms of scans, moves, restores and cold
storage. ``msgspec.to_builtins`` (or ``dataclasses.asdict`` for the two dataclasses) gives the JSON form
``reverie curate … --json`` prints, fields in declared order."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec
from msgspec import UNSET, UnsetType

if TYPE_CHECKING:
    from core.curate.cold import Recovery


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


# --- the published forms of scans, moves, restores and cold storage (``curate … --json``) -------------


class ScopeScanForm(msgspec.Struct, frozen=True):
    """One scope of a scan: the scope's configured form, then its counts per tier (the report lists
    the candidates once, across scopes), its thresholds and what happened to its calibration."""

    name: str
    kind: str
    path: str
    records: int
    counts: dict[str, int]
    thresholds: dict[str, Any] | None
    calibration: str | None
    problem: str | None


class ScanForm(msgspec.Struct, frozen=True):
    """``curate scan --json``: every scope's candidates in tier order, each in its stored form (ages
    rounded), then the scopes."""

    candidates: list[dict[str, Any]]
    rubric_version: int
    scanned_at: str
    scopes: list[ScopeScanForm]
    pending_operations: int


class MovedForm(msgspec.Struct, frozen=True):
    """A record moved to cold storage: where it was, its cold copy and tombstone, and why it moved."""

    path: str
    cold_path: str
    tombstone: str
    sha256: str
    scope: str
    rel: str
    move_id: str
    tier: str
    approved: bool
    signals: list[str]


class PlanForm(msgspec.Struct, frozen=True):
    """A record an apply run would move: the candidate's fields a plan shows (age rounded to 0.01 day)
    beside the plan's own."""

    path: str
    scope: str
    id: str
    rel: str
    tier: str
    signals: list[str]
    guards: list[str]
    sha256: str
    rubric_version: int
    age_days: float
    reason: str
    will_move: bool
    approved: bool


class ApplyForm(msgspec.Struct, frozen=True):
    """``curate apply --json``: what moved, what would, what an interrupted run left and was finished,
    the errors and notes, and the scan's rubric version."""

    dry_run: bool
    moved: list[MovedForm]
    would_move: list[PlanForm]
    recovered: list[Recovery]
    errors: list[str]
    notes: list[str]
    rubric_version: int | None
    stopped: bool
    planned: int


class RestoredForm(msgspec.Struct, frozen=True):
    """``curate restore --json``: the path the record is back at, and whether it already was."""

    restored: str
    sha256: str
    scope: str
    rel: str
    move_id: str
    already_restored: bool


class ColdItemForm(msgspec.Struct, frozen=True):
    """One record in cold storage (``curate cold --json``): its tombstone's facts, the places' paths
    when its scope still validates (else the tombstone's own), and whether its copies are intact."""

    move_id: str
    scope: str
    rel: str
    path: str | None
    cold_path: str
    tombstone: str
    sha256: str
    size: int
    moved_at: str
    rubric_version: int
    tier: str
    approved: bool
    signals: list[str]
    details: dict[str, str]
    tombstone_present: bool
    intact: bool | None
