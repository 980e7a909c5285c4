"""What the curation screens load and do: thin calls into the workbench's curation service
(:class:`core.workbench.curation_views.CurationViews`), run inside worker threads; the values they
return are carried back to the app's thread by a message. The session's clock is the time of each call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from core.workbench.curation import Decided
from core.workbench.curation_views import (
    CalibrationView,
    CandidateList,
    DataRow,
    RecordText,
    RestoreCheck,
    RestoreOutcome,
    Stamp,
    check_restore,
    confirmed_by_scope,
)

if TYPE_CHECKING:
    from core.curate.cold import ColdItem
    from core.curate.engine import ApplyReport, ScanReport
    from core.workbench.curation_views import CurationViews
    from core.workbench.types import Candidate
    from tui_app.screens.session import Session

__all__ = ["CalibrationView", "CandidateList", "DataRow", "RecordText", "RestoreCheck", "RestoreOutcome", "Stamp",
           "check_restore", "confirmed_by_scope"]


def _views(session: Session) -> CurationViews:
    return session.workbench.curation.views


def candidate_list(session: Session, report: ScanReport, recorded: bool = True) -> CandidateList:
    return _views(session).listing(report, session.now(), recorded)


def scan(session: Session) -> CandidateList:
    """Judge every scope now (records a scan run; moves nothing)."""
    return _views(session).scan(session.now())


def judge_ahead(session: Session) -> CandidateList | None:
    """What a scan would show now, read only; None when only a real scan can say."""
    return _views(session).judge_ahead(session.now())


def with_current_decisions(session: Session, shown: CandidateList) -> CandidateList:
    """``shown`` with each candidate's decision as ``decisions.json`` holds it now (no scan)."""
    return _views(session).with_current_decisions(shown, session.now())


def decide(session: Session, candidate: Candidate, decision: str) -> Decided:
    """Approve or reject one candidate, bound to its exact content (``decision``: approved / rejected)."""
    return session.workbench.curation.decide(candidate.id, decision, now=session.now())


def record_text(session: Session, candidate: Candidate) -> RecordText:
    return _views(session).record_text(candidate)


def dry_run(session: Session) -> tuple[ApplyReport, CandidateList | None]:
    """What a move would do now (records a dry run; moves nothing), and the scan it made."""
    return _views(session).dry_run(session.now())


def move_scope(session: Session, scope: str, ids: set[str], *, progress: Callable[[int, int], None] | None = None,
               should_stop: Callable[[], bool] | None = None) -> ApplyReport:
    """One apply run for ``scope`` that moves exactly ``ids``, checked between records."""
    return _views(session).move_scope(scope, ids, session.now(), progress=progress, should_stop=should_stop)


def after_moves(session: Session, shown: CandidateList, reports: list[ApplyReport]) -> CandidateList:
    return _views(session).after_moves(shown, reports, session.now())


def cold_items(session: Session, verify: bool = False) -> list[ColdItem]:
    return _views(session).cold_items(verify)


def restore(session: Session, items: list[ColdItem]) -> tuple[list[RestoreOutcome], list[str]]:
    """Restore each item by its move id, then hash each file at its path once more."""
    return _views(session).restore(items, session.now())


def calibration_view(session: Session, scope: str | None, bins: int, measure: bool = False) -> CalibrationView:
    """The recorded distribution of ``scope`` (the first scope when None); ``measure`` measures it now."""
    return _views(session).calibration(scope, bins, session.now(), measure)
