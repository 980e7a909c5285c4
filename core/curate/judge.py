"""Tiers: what the signals, guards and thresholds add up to for one record.

``high``: score ≥ ``high_min_score``, no guard, nothing uncertain and clearly old: moves automatically
(within the per-run cap, after the report-only runs). ``medium``: score ≥ ``medium_min_score``, no
guard, nothing uncertain, and old or with an explicit signal (superseded, expired, finished project):
waits for a person's approval (a recent note nothing links to is new, not ambiguous). ``low``: any
other record with a signal (guarded, uncertain or too weak): it stays. A record with no signal is not
a candidate.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.curate.model import Candidate, Record, Thresholds, candidate_id
from core.curate.rubric import Rubric
from core.curate.signals import Evaluation, ScopeContext, evaluate

EXPLICIT = frozenset({"superseded", "expired", "finished_project"})


def tier_of(evaluation: Evaluation, rubric: Rubric, thresholds: Thresholds, age_days: float) -> str:
    score = sum(rubric.rule(name).weight for name in evaluation.signals)
    if evaluation.guards or evaluation.uncertain:
        return "low"
    factor = rubric.rule("unused").factor
    if score >= rubric.high_min_score and age_days >= thresholds.clearly_old_days * factor:
        return "high"
    old = age_days >= thresholds.unused_days * factor
    if score >= rubric.medium_min_score and (old or EXPLICIT.intersection(evaluation.signals)):
        return "medium"
    return "low"


def judge(
    record: Record,
    ctx: ScopeContext,
    rubric: Rubric,
    thresholds: Thresholds,
    now: float,
    *,
    kind: str,
    restored_at: float | None = None,
    restored_guard_days: float = 30.0,
    decision: Mapping[str, Any] | None = None,
) -> Candidate | None:
    """The candidate for ``record``, or ``None`` when no signal fires (or it is an index)."""
    if record.is_index:
        return None
    decided = decision if decision and decision.get("sha256") == record.sha256 else None
    rejected = decided if decided and decided.get("decision") == "rejected" else None
    evaluation = evaluate(record, ctx, rubric, thresholds, now, restored_at=restored_at,
                          restored_guard_days=restored_guard_days, rejected=rejected)
    if not evaluation.signals:
        return None
    age = record.age_days(now)
    details = {**evaluation.signals, **evaluation.guards}
    if evaluation.uncertain:
        details["uncertain"] = "; ".join(evaluation.uncertain)
    return Candidate(
        id=candidate_id(record.scope, record.rel),
        scope=record.scope,
        kind=kind,
        rel=record.rel,
        path=record.path,
        tier=tier_of(evaluation, rubric, thresholds, age),
        signals=tuple(evaluation.signals),
        guards=tuple(evaluation.guards),
        details=details,
        rubric_version=rubric.version,
        age_days=age,
        sha256=record.sha256,
        size=record.size,
        title=record.title,
        preview=record.preview(),
        decision=f"{decided['decision']}" if decided else None,
        person_only=evaluation.person_only,
        thresholds=thresholds.to_dict(),
    )
