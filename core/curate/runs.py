"""Runs: ``curation/runs.jsonl`` (one line per scope per scan or apply) and the weekly review.

A scope is overdue when it has never been run, or its last run (a scan, an apply or a dry run) is
older than ``curation.review_interval_days`` (0 turns the reminder off). :func:`overdue_notice` is
what every CLI and TUI start shows: it reads ``runs.jsonl`` only, never a scope, and never moves
anything.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core import clock
from core.config import Config
from core.fsutil import append_line_durably, read_object_lines
from core.paths import HomePaths

RUNS_FILE = "runs.jsonl"
RUN_KINDS = ("scan", "apply", "dry-run")


def runs_path(paths: HomePaths) -> Path:
    return paths.curation / RUNS_FILE


def record_run(paths: HomePaths, run: dict[str, Any]) -> None:
    """Append one run (fsynced); ``run`` holds at least ``ts``, ``scope`` and ``kind``."""
    append_line_durably(runs_path(paths), json.dumps(run, ensure_ascii=False, sort_keys=True))


def read_runs(paths: HomePaths) -> list[dict[str, Any]]:
    """Every well-formed run line, oldest first (a torn last line from a crash is skipped)."""
    return [run for run in read_object_lines(runs_path(paths))
            if isinstance(run.get("scope"), str) and isinstance(run.get("ts"), str)]


def _when(ts: str) -> datetime | None:
    try:
        parsed = datetime.fromisoformat(ts)
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def last_run_by_scope(runs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    latest: dict[str, dict[str, Any]] = {}
    for run in runs:
        latest[run["scope"]] = run
    return latest


def apply_runs(runs: list[dict[str, Any]], scope: str) -> int:
    """How many report-only runs ``scope`` has used: its real (not dry) apply runs, counted once per UTC
    day, so running ``apply`` again the same day (three times in a row, or a timer beside the person)
    does not use up the runs meant to show the rubric's judgement on different days."""
    days = set()
    for run in runs:
        if run["scope"] == scope and run.get("kind") == "apply":
            when = _when(run["ts"])
            days.add(when.astimezone(UTC).date() if when is not None else run["ts"])
    return len(days)


def applied_on_day(runs: list[dict[str, Any]], scope: str, now: datetime) -> bool:
    """Whether ``scope`` had a real apply run on ``now``'s UTC day: today's report-only run is recorded,
    and another one today would not count (:func:`apply_runs`)."""
    day = now.astimezone(UTC).date()
    for run in runs:
        if run["scope"] == scope and run.get("kind") == "apply":
            when = _when(run["ts"])
            if when is not None and when.astimezone(UTC).date() == day:
                return True
    return False


@dataclass(frozen=True)
class Overdue:
    scope: str
    days: float | None  # since the last run; None: never run

    def describe(self) -> str:
        return f"{self.scope} (never run)" if self.days is None else f"{self.scope} ({self.days:.0f} days)"


def overdue_scopes(config: Config, runs: list[dict[str, Any]], now: datetime | None = None) -> list[Overdue]:
    interval = config.curation.review_interval_days
    if interval <= 0:
        return []
    now = now or clock.utc_now()
    latest = last_run_by_scope(runs)
    found = []
    for scope in config.curation.scopes:
        run = latest.get(scope.name)
        when = _when(run["ts"]) if run else None
        if when is None:
            found.append(Overdue(scope.name, None))
            continue
        days = (now - when).total_seconds() / 86400.0
        if days > interval:
            found.append(Overdue(scope.name, days))
    return found


def overdue_notice(paths: HomePaths, config: Config, now: datetime | None = None) -> str | None:
    """One line when any scope's weekly review is overdue, else ``None``. Reads runs.jsonl only."""
    return notice_text(config, overdue_scopes(config, read_runs(paths), now))


def notice_text(config: Config, late: list[Overdue]) -> str | None:
    if not late:
        return None
    listed = ", ".join(item.describe() for item in late)
    return (f"Curation review overdue (every {config.curation.review_interval_days} days): {listed}. "
            "Run `reverie curate scan` to review (this reminder never moves anything).")
