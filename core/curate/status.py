"""Status and log: what curation has done and what waits, read from the files in ``curation/``
and ``cold/`` (no scope is scanned, no key is needed)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from core import clock
from core.config import Config
from core.curate.calibration import load_calibration
from core.curate.cold import list_cold, pending_operations
from core.curate.decisions import is_open, load_decisions
from core.curate.engine import load_candidates_file
from core.curate.learning import read_restores
from core.curate.model import TIERS
from core.curate.results import CurationEvent, CurationStatus, ScopeStatus, StatusCounts, TierCounts
from core.curate.rubric import load_rubric
from core.curate.runs import apply_runs, last_run_by_scope, notice_text, overdue_scopes, read_runs
from core.paths import HomePaths


def status(paths: HomePaths, config: Config, now: datetime | None = None) -> CurationStatus:
    """Last run, overdue or not, rubric version and counts, overall and per scope."""
    now = now or clock.utc_now()
    runs = read_runs(paths)
    latest = last_run_by_scope(runs)
    late_list = overdue_scopes(config, runs, now)
    late = {item.scope: item for item in late_list}
    candidates = load_candidates_file(paths)["scopes"]
    decisions = load_decisions(paths)
    cold_items = list_cold(paths, config)
    calibration = load_calibration(paths)["scopes"]
    cur = config.curation
    scopes = []
    for item in cur.scopes:
        run = latest.get(item.name)
        found = candidates.get(item.name, {}).get("candidates", [])
        done = apply_runs(runs, item.name)
        measured = calibration.get(item.name)
        scopes.append(ScopeStatus(
            name=item.name, kind=item.kind, path=item.path or str(paths.vault),
            last_run=run["ts"] if run else None, last_run_kind=run.get("kind") if run else None,
            overdue=item.name in late,
            days_since_run=None if item.name not in late else late[item.name].days,
            apply_runs=done, report_only_runs_left=max(0, cur.report_only_runs - done),
            counts=TierCounts(**{tier: sum(1 for c in found if c["tier"] == tier) for tier in TIERS}),
            approved=_count(decisions, item.name, "approved"),
            rejected=_count(decisions, item.name, "rejected"),
            cold=sum(1 for c in cold_items if c.stone.scope == item.name),
            calibrated_at=measured.get("measured_at") if measured else None,
            thresholds=measured.get("thresholds") if measured else None,
        ))
    totals = {tier: sum(getattr(s.counts, tier) for s in scopes) for tier in TIERS}
    return CurationStatus(
        rubric_version=load_rubric(paths).version,
        last_run=max((r["ts"] for r in runs), default=None),
        overdue=bool(late_list),
        notice=notice_text(config, late_list),
        review_interval_days=cur.review_interval_days,
        counts=StatusCounts(**totals, approved=sum(s.approved for s in scopes),
                            rejected=sum(s.rejected for s in scopes), cold=len(cold_items),
                            restores=len(read_restores(paths))),
        pending_operations=len(pending_operations(paths)),
        scopes=scopes,
    )


def _count(decisions: dict[str, dict[str, Any]], scope: str, decision: str) -> int:
    return sum(1 for d in decisions.values() if d["scope"] == scope and d["decision"] == decision and is_open(d))


def _run_text(run: dict[str, Any]) -> str:
    counts = run.get("counts") or {}
    judged = ", ".join(f"{counts.get(t, 0)} {t}" for t in TIERS)
    if run.get("kind") == "scan":
        return f"scanned {run.get('records', '?')} records: {judged}"
    moved = len(run.get("moved") or [])
    verb = "dry run" if run.get("kind") == "dry-run" else "applied"
    return f"{verb}: moved {moved}, would move {run.get('would_move', 0)} ({judged})"


def log(paths: HomePaths, limit: int = 50) -> list[CurationEvent]:
    """Curation's history, newest first: runs, moves, restores, decisions and rubric changes."""
    events: list[CurationEvent] = []
    for run in read_runs(paths):
        events.append(CurationEvent(ts=run["ts"], event=run.get("kind", "run"), scope=run["scope"],
                                    text=_run_text(run), rubric_version=run.get("rubric_version")))
        for moved in run.get("moved") or []:
            how = "approved by you" if moved.get("approved") else f"{moved.get('tier')} tier"
            events.append(CurationEvent(ts=run["ts"], event="moved", scope=run["scope"], path=moved.get("rel"),
                                        move_id=moved.get("move_id"), text=f"moved {moved.get('rel')} ({how})"))
    for item in read_restores(paths):
        events.append(CurationEvent(
            ts=item.get("ts", ""), event="restored", scope=item.get("scope"), path=item.get("path"),
            move_id=item.get("move_id"),
            text=f"restored {item.get('path')} (signals: {', '.join(item.get('signals', []))})"))
    for candidate_id, entry in load_decisions(paths).items():
        events.append(CurationEvent(ts=entry.get("at", ""), event=entry["decision"], scope=entry.get("scope"),
                                    path=entry.get("rel"), id=candidate_id,
                                    text=f"{entry['decision']} {entry.get('rel')}"))
    for change in load_rubric(paths).changes:
        text = f"rubric v{change.version}: {change.signal} tightened after {len(change.restores)} restores"
        events.append(CurationEvent(ts=change.at, event="rubric", scope=None, text=text))
    events.sort(key=lambda e: str(e.ts), reverse=True)
    return events[:limit] if limit else events
