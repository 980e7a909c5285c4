"""The read-only judgement (``engine.judge_scopes``): the candidates a scan would find, with nothing
written (no run, no candidates file, no calibration), so a screen can be made ready ahead of the
person opening it without ending the weekly review's reminder."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from core.curate import engine, overdue_notice
from core.curate.runs import read_runs
from core.paths import HomePaths
from tests.helpers.curate import NOW, configure, loose_notes, put, tree


def curation_files(paths: HomePaths) -> dict[str, bytes]:
    return tree(paths.curation) if paths.curation.is_dir() else {}


def test_judging_writes_nothing_and_finds_what_a_scan_finds(paths: HomePaths, tmp_path: Path) -> None:
    notes = loose_notes(tmp_path)
    config = configure(paths, ("notes", "markdown", notes))
    engine.scan(paths, config, now=NOW)  # calibrated by a first scan
    later = NOW + timedelta(days=8)
    assert overdue_notice(paths, config, later) is not None
    before, scopes_before = curation_files(paths), tree(notes)

    judged = engine.judge_scopes(paths, config, now=later)

    assert judged is not None
    assert curation_files(paths) == before and tree(notes) == scopes_before  # not a byte written
    assert overdue_notice(paths, config, later) is not None  # the review is still due
    scanned = engine.scan(paths, config, now=later)
    assert [c.to_dict() for c in judged.candidates] == [c.to_dict() for c in scanned.candidates]
    assert judged.candidates and judged.scanned_at == scanned.scanned_at
    assert [r["kind"] for r in read_runs(paths)] == ["scan", "scan"]  # the judgement is not a run


def test_a_scope_to_calibrate_is_left_to_a_scan(paths: HomePaths, tmp_path: Path) -> None:
    notes = loose_notes(tmp_path)
    config = configure(paths, ("notes", "markdown", notes))
    assert engine.judge_scopes(paths, config, now=NOW) is None  # first scan: thresholds to measure
    assert not (paths.curation / "calibration.json").exists() and read_runs(paths) == []
    engine.scan(paths, config, now=NOW)
    for n in range(40):  # the record count shifts: a scan re-measures, a judgement cannot
        put(notes, f"new/n{n}.md", f"note {n}\n", age_days=1)
    before = curation_files(paths)
    assert engine.judge_scopes(paths, config, now=NOW) is None
    assert curation_files(paths) == before
    assert engine.scan(paths, config, now=NOW).scopes[0].calibration.startswith("re-measured")


def test_a_missing_scope_folder_is_a_problem_not_an_error(paths: HomePaths, tmp_path: Path) -> None:
    notes = loose_notes(tmp_path)
    config = configure(paths, ("notes", "markdown", notes))
    engine.scan(paths, config, now=NOW)
    for path in sorted(notes.rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    notes.rmdir()
    judged = engine.judge_scopes(paths, config, now=NOW)
    assert judged is not None and "is not a folder" in str(judged.scopes[0].problem)
