"""Report-only runs count once per day: `apply` three times in a row uses one, and the long
explanation is said once per run, not on every record."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from core.curate import engine
from core.curate.status import status
from core.paths import HomePaths
from core.vault.crypto import VaultKeys
from tests.helpers.curate import NOW, configure, loose_notes, tree, unlocker


def test_applying_again_the_same_day_does_not_use_up_the_report_only_runs(paths: HomePaths, keys: VaultKeys,
                                                                          tmp_path: Path) -> None:
    notes = loose_notes(tmp_path)
    config = configure(paths, ("notes", "markdown", notes), report_only_runs=2, auto_move_cap=10)
    before = tree(notes)
    for minutes in (0, 1, 2):  # three applies in a row
        report = engine.apply(paths, config, unlock=unlocker(keys), now=NOW + timedelta(minutes=minutes))
        assert report.moved == [] and len(report.would_move) == 5
    assert tree(notes) == before
    assert status(paths, config, now=NOW).scopes[0].report_only_runs_left == 1
    report = engine.apply(paths, config, unlock=unlocker(keys), now=NOW + timedelta(days=1))
    assert report.moved == []  # the second day is the second report-only run
    assert len(engine.apply(paths, config, unlock=unlocker(keys), now=NOW + timedelta(days=2)).moved) == 5


def test_the_report_only_explanation_is_said_once_per_run(paths: HomePaths, keys: VaultKeys,
                                                          tmp_path: Path) -> None:
    notes = loose_notes(tmp_path)
    config = configure(paths, ("notes", "markdown", notes), report_only_runs=3, auto_move_cap=10)
    report = engine.apply(paths, config, unlock=unlocker(keys), now=NOW)
    assert len(report.notes) == 1
    assert "report-only run 1 of 3 for scope notes" in report.notes[0]
    assert "curation.report_only_runs" in report.notes[0]
    reasons = {p.reason for p in report.would_move}
    assert reasons == {"report-only run 1 of 3: reported, not moved"}
    assert report.form().notes == report.notes
