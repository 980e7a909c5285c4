"""Two, and many, crashes in a row (issue 11, F3): a real subprocess running ``reverie draft finalize``
is killed with SIGKILL, the person runs the same command again and it is killed again, and so on; the
run after that must finish everything, and ``verify`` must then find nothing.

Before the fix, an append that found the head one entry behind (a first kill between appending a ledger
line and signing ``ledger.head.json``) appended first and signed afterwards, so a second kill in the same
window left two entries past the head: ``verify`` said "inserted" and every later finalize refused "a
damaged ledger", forever. Leftover temporary files of killed atomic writes were never removed.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from core.vault.store import MemoryStore
from core.workbench.verify import verify_home
from tests.faults.crashes import ChildRun, run_child, trial_paths
from tests.helpers.vault import PASSPHRASE, finalize_reviewed, make_vault


def _template(base: Path, drafts: int) -> dict[str, Any]:
    """A home with one finalized memory and ``drafts`` approved drafts; the spec of the child op."""
    paths = trial_paths(base).ensure()
    vault = make_vault(paths)
    finalize_reviewed(vault, "A memory finalized before the trial.")
    ids = []
    for n in range(drafts):
        draft = vault.create_draft(f"Approved draft {n}: the blue tiles for the bathroom.").approve(reviewer="me")
        vault.save_draft(draft)
        ids.append(draft.draft_id)
    return {"drafts": ids}


def _clone(template: Path, base: Path) -> Path:
    if base.exists():
        shutil.rmtree(base)
    shutil.copytree(template, base, symlinks=True)
    return base


def _age_temporary_files(base: Path) -> list[Path]:
    """Make the temporary files the kills left look as old as they would be by the next command."""
    found = [p for p in base.rglob(".*.tmp") if p.is_file()]
    past = time.time() - 60
    for path in found:
        os.utime(path, (past, past))
    return found


def _check_finished(base: Path, spec: dict[str, Any], runs: list[ChildRun]) -> None:
    paths = trial_paths(base)
    vault = MemoryStore.unlock(paths, PASSPHRASE)
    report = verify_home(paths, vault.keys)
    assert report.problems == [], [str(p) for p in report.problems]
    entries = vault.ledger.read().entries
    for draft_id in spec["drafts"]:
        assert sum(1 for e in entries if e.kind == "finalize" and e.data.get("draft_id") == draft_id) == 1
        assert vault.get_draft(draft_id).state == "finalized"
    acknowledged = [item.split()[1] for run in runs for item in run.done("finalized")]
    present = {m.memory_id for m in vault.list_memories()}
    assert set(acknowledged) <= present
    leftovers = [p for folder in (paths.root, paths.vault, paths.vault / ".pending", paths.drafts)
                 for p in folder.glob(".*.tmp")]
    assert leftovers == [], "the next writer removes a killed write's temporary files"


def _prepare(factory: pytest.TempPathFactory, drafts: int) -> tuple[Path, dict[str, Any], int]:
    base = factory.mktemp("repeated-template")
    spec = _template(base, drafts=drafts)
    reference = _clone(base, factory.mktemp("repeated-reference") / "run")
    run = run_child("finalize_cli", reference, spec)
    assert run.returncode == 0, run.stderr[-2000:]
    _check_finished(reference, spec, [run])
    return base, spec, run.events


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any], int]:
    """One approved draft: one run of the finalize is about fifteen file-system mutations."""
    return _prepare(tmp_path_factory, 1)


@pytest.fixture(scope="module")
def many_drafts(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any], int]:
    """Six approved drafts: each killed run appends at most one entry, so six kills find work each time."""
    return _prepare(tmp_path_factory, 6)


@pytest.mark.parametrize("kills", [2, 5])
def test_kills_between_a_ledger_line_and_its_signed_head_then_the_next_command_completes(
        many_drafts: tuple[Path, dict[str, Any], int], tmp_path: Path, kills: int) -> None:
    """Killed each time right after the ledger line is durable and before the head is signed: the
    window that bricked the ledger on the second kill."""
    source, spec, _ = many_drafts
    base = _clone(source, tmp_path / "home")
    runs = []
    for _ in range(kills):
        run = run_child("finalize_cli", base, {**spec, "after_fsync_of": "ledger.jsonl"})
        assert run.killed, run.stderr[-2000:]
        runs.append(run)
        report = verify_home(trial_paths(base), MemoryStore.unlock(trial_paths(base), PASSPHRASE).keys)
        assert report.ok, [str(p) for p in report.problems]  # only "incomplete", after every kill
    _age_temporary_files(base)
    final = run_child("finalize_cli", base, spec)
    assert final.returncode == 0 and "Traceback" not in final.stderr, final.stderr[-2000:]
    _check_finished(base, spec, [*runs, final])


def test_two_kills_at_every_write_point_then_the_next_command_completes(
        template: tuple[Path, dict[str, Any], int], tmp_path: Path) -> None:
    """Kill the finalize at its k-th file-system mutation, run it again and kill it at its k-th again,
    for every k of a whole run; the third run finishes."""
    source, spec, events = template
    assert events > 10
    failures = []
    for kill_at in range(1, events + 1):
        base = _clone(source, tmp_path / f"k{kill_at}")
        runs = [run_child("finalize_cli", base, spec, kill_at=kill_at, seed=kill_at) for _ in range(2)]
        _age_temporary_files(base)
        runs.append(run_child("finalize_cli", base, spec))
        try:
            assert runs[-1].returncode == 0 and "Traceback" not in runs[-1].stderr, runs[-1].stderr[-1500:]
            _check_finished(base, spec, runs)
        except AssertionError as exc:
            failures.append(f"kill at {kill_at}/{events}: {exc}")
        else:
            shutil.rmtree(base, ignore_errors=True)
    assert not failures, "\n".join(failures)
