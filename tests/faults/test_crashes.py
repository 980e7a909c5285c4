"""Crashes: a real subprocess killed with SIGKILL at a seeded moment during ingest, draft save, finalize,
reindex, curation move and restore (see ``crashes``), and exact regression tests for the crash windows
those trials found.

After each kill nothing acknowledged is lost, no record is half-written, ``verify`` passes or names the
interrupted operation (``incomplete``), and the next run completes it; the index rebuilds to the same
answers. ``REVERIE_CRASH_TRIALS`` raises the count; ``tests/bench/bench_faults.py --crashes`` is the
longer run (``--exhaustive`` kills at every single file-system mutation).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.config import load_config
from core.curate import cold, engine
from core.paths import HomePaths
from core.vault.ledger import Ledger
from core.vault.store import MemoryStore
from core.workbench.verify import verify_home
from tests.faults.conftest import CRASH_TRIALS, SEED, seed_note
from tests.faults.crashes import OPS, CrashTemplate, OpTally, crash_table, prepare, run_crash_trial
from tests.faults.homebuild import BuiltHome, build_home, clone_home
from tests.helpers.vault import finalize_reviewed, make_vault


@pytest.fixture(scope="module")
def templates() -> dict[str, CrashTemplate]:
    """Templates built so far in this module (each op builds its own, once)."""
    return {}


@pytest.mark.parametrize("op", OPS)
def test_a_kill_at_any_moment_loses_nothing_and_the_next_run_completes(
        op: str, templates: dict[str, CrashTemplate], tmp_path_factory: pytest.TempPathFactory) -> None:
    template = templates.get(op) or prepare(op, tmp_path_factory.mktemp(f"crash-{op}"))
    templates[op] = template
    assert template.events > 0 or op == "reindex"
    workdir = tmp_path_factory.mktemp(f"crash-trials-{op}")
    tally = OpTally()
    failures = []
    for trial in range(CRASH_TRIALS):
        result = run_crash_trial(template, workdir, SEED, trial)
        tally.add(result)
        if not result.ok:
            failures.append(result)
    print(f"\n{crash_table({op: tally})}")
    assert not failures, f"{seed_note()}\n" + "\n".join(f.explain() for f in failures)
    assert tally.killed >= (1 if op == "reindex" else CRASH_TRIALS), "no trial was really killed"


# --- the crash windows the trials found, exactly ------------------------------------------------------


class Killed(BaseException):
    """Stands for SIGKILL at that point: nothing in Reverie catches it."""


@pytest.fixture
def vault(paths: HomePaths) -> MemoryStore:
    return make_vault(paths)


def _die_once(monkeypatch: pytest.MonkeyPatch, owner: object, name: str, when: str | None = None) -> None:
    """Make ``owner.name`` die (``Killed``) on its first call (whose first argument is ``when``, if given)."""
    original = getattr(owner, name)
    fired: list[bool] = []

    def dying(*args: object, **kwargs: object) -> object:
        if not fired and (when is None or when in args):
            fired.append(True)
            raise Killed(name)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, dying)


def test_an_append_killed_before_the_head_is_signed_is_incomplete_not_tampering(
        vault: MemoryStore, paths: HomePaths, monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by the finalize trials: the ledger refused every later write ("entries after the signed
    head"), so one kill left a vault that could never finalize again."""
    finalize_reviewed(vault, "The first memory.")
    _die_once(monkeypatch, Ledger, "_sign_head")
    with pytest.raises(Killed):
        finalize_reviewed(vault, "The second memory, killed mid-append.")
    monkeypatch.undo()
    report = verify_home(paths, vault.keys)
    assert report.ok and [(p.kind, p.subject) for p in report.problems] == [
        ("incomplete", "ledger"), ("incomplete", f"drafts/{vault.list_drafts(state='approved')[0].draft_id}.json")]
    finalize_reviewed(vault, "A third memory: the ledger takes writes again.")
    assert vault.complete_interrupted()
    assert verify_home(paths, vault.keys).problems == []


def test_the_first_append_killed_before_the_head_exists(vault: MemoryStore, paths: HomePaths,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    _die_once(monkeypatch, Ledger, "_sign_head")
    with pytest.raises(Killed):
        vault.add_memory("The very first memory of this vault.")
    monkeypatch.undo()
    report = verify_home(paths, vault.keys)
    assert report.ok and ("incomplete", "ledger.head.json") in [(p.kind, p.subject) for p in report.problems]
    assert vault.complete_interrupted() == ["signed the ledger head after an interrupted append"]
    assert verify_home(paths, vault.keys).problems == []


def test_a_head_that_lags_signed_entries_is_incomplete_and_the_next_write_signs_it(
        vault: MemoryStore, paths: HomePaths) -> None:
    """Entries past the head that this vault signed and that chain are what interrupted appends leave
    (issue 11, F3: two kills in a row left two); the next write signs the head for them first."""
    vault.add_memory("one")
    head = paths.ledger_head.read_bytes()
    vault.add_memory("two")
    vault.add_memory("three")
    paths.ledger_head.write_bytes(head)
    report = verify_home(paths, vault.keys)
    assert report.ok and [(p.kind, p.subject) for p in report.problems] == [("incomplete", "ledger")]
    vault.add_memory("four")
    assert verify_home(paths, vault.keys).problems == []


def test_a_missing_head_with_more_than_the_first_entry_is_still_tampering(
        vault: MemoryStore, paths: HomePaths) -> None:
    """Only the very first append runs without a head: a deleted head would hide a truncation."""
    vault.add_memory("one")
    vault.add_memory("two")
    paths.ledger_head.unlink()
    assert ("removed", "ledger.head.json") in [(p.kind, p.subject) for p in verify_home(paths, vault.keys).problems]


def test_an_add_killed_before_its_ledger_entry_is_finished_by_the_next_write(
        vault: MemoryStore, paths: HomePaths, monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by the finalize trials: an add killed between its record and its ledger entry was reported
    as a planted record, forever."""
    _die_once(monkeypatch, Ledger, "append", "add")
    with pytest.raises(Killed):
        vault.add_memory("Killed between the record and the ledger.")
    monkeypatch.undo()
    orphan = next(paths.vault.glob("mem_*.json")).stem
    report = verify_home(paths, vault.keys)
    assert report.ok and [(p.kind, p.subject) for p in report.problems] == [("incomplete", f"vault/{orphan}.json")]
    vault.add_memory("The next write records the interrupted one first.")
    assert orphan in {e.record_id for e in vault.ledger.read().entries}
    assert verify_home(paths, vault.keys).problems == []
    assert not list((paths.vault / ".pending").glob("*"))


def test_an_add_killed_before_its_record_leaves_nothing_behind(
        vault: MemoryStore, paths: HomePaths, monkeypatch: pytest.MonkeyPatch) -> None:
    from core.vault import store as vault_module

    _die_once(monkeypatch, vault_module, "atomic_write_bytes")
    with pytest.raises(Killed):
        vault.add_memory("Never written.")
    monkeypatch.undo()
    assert verify_home(paths, vault.keys).problems == []
    assert vault.complete_interrupted() == []
    assert not list((paths.vault / ".pending").glob("*"))


def test_a_finalize_killed_before_its_ledger_entry_is_finished_by_finalizing_again(
        vault: MemoryStore, paths: HomePaths, monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by the finalize trials: verify called the interrupted finalization's record planted; and
    running the same `reverie draft finalize` again now finishes it and answers with the memory."""
    draft = vault.create_draft("Killed while finalizing.").approve(reviewer="me")
    vault.save_draft(draft)
    _die_once(monkeypatch, Ledger, "append", "finalize")
    with pytest.raises(Killed):
        vault.finalize_draft(draft)
    monkeypatch.undo()
    report = verify_home(paths, vault.keys)
    assert report.ok and [p.kind for p in report.problems] == ["incomplete"]
    memory = vault.finalize_draft(vault.get_draft(draft.draft_id))
    assert memory.memory_id == vault.memory_id_for_draft(draft.draft_id)
    assert vault.get_draft(draft.draft_id).state == "finalized"
    assert verify_home(paths, vault.keys).problems == []


@pytest.fixture(scope="module")
def cold_template(tmp_path_factory: pytest.TempPathFactory) -> BuiltHome:
    return build_home(tmp_path_factory.mktemp("cold-template"), apply_curation=False)


class CrashAt(list[str]):
    """The step to die at (append one); :meth:`hook` is the ``on_step`` to hand the operation."""

    def hook(self, step: str) -> None:
        if self and step == self[0]:
            self.clear()
            raise Killed(step)


@pytest.fixture
def crash_at() -> Iterator[CrashAt]:
    yield CrashAt()


@pytest.mark.parametrize("step", cold.MOVE_STEPS)
def test_a_vault_memory_move_killed_at_each_step_is_incomplete_then_recovered(
        cold_template: BuiltHome, tmp_path: Path, crash_at: CrashAt, step: str) -> None:
    """Found by the move trials: killed after its ledger entry and before the unlink, a move of a vault
    memory was reported as a planted record ("inserted"); and verify did not look at cold storage's
    tombstones, mirrors or journals at all."""
    home = clone_home(cold_template, tmp_path / "home")
    config = load_config(home.paths.config)
    crash_at.append(step)
    with pytest.raises(Killed):
        engine.apply(home.paths, config, unlock=lambda: home.keys, now=home.later, on_step=crash_at.hook)
    report = verify_home(home.paths, home.keys)
    assert report.ok, report.problems
    assert any(p.kind == "incomplete" and "pending" in p.subject for p in report.problems)
    engine.recover(home.paths, config, unlock=lambda: home.keys, now=home.later)
    assert verify_home(home.paths, home.keys).problems == []
    engine.apply(home.paths, config, unlock=lambda: home.keys, now=home.later)
    final = verify_home(home.paths, home.keys)
    assert final.problems == [] and final.counts["memories_in_cold_storage"] == 2


@pytest.mark.parametrize("step", cold.RESTORE_STEPS)
def test_a_vault_memory_restore_killed_at_each_step_is_incomplete_then_recovered(
        built: BuiltHome, tmp_path: Path, crash_at: CrashAt, step: str) -> None:
    home = clone_home(built, tmp_path / "home")
    config = load_config(home.paths.config)
    move_id = next(home.paths.cold.glob("mine/m-*")).name
    crash_at.append(step)
    with pytest.raises(Killed):
        engine.restore(home.paths, config, move_id, unlock=lambda: home.keys, now=home.later, on_step=crash_at.hook)
    report = verify_home(home.paths, home.keys)
    assert report.ok, report.problems
    engine.recover(home.paths, config, unlock=lambda: home.keys, now=home.later)
    assert verify_home(home.paths, home.keys).problems == []
    engine.restore(home.paths, config, move_id, unlock=lambda: home.keys, now=home.later)
    final = verify_home(home.paths, home.keys)
    assert final.problems == [] and final.counts["memories_in_cold_storage"] == 0
    assert built.archived_ids[0] in {m.memory_id for m in MemoryStore.open(home.paths, home.keys).list_memories()}


def test_an_append_after_a_torn_line_starts_a_line_of_its_own(paths: HomePaths) -> None:
    """Found by the restore trials (seed 7, trial 4): a kill in the middle of appending to
    curation/restores.jsonl left a torn line, recovery appended the restore again right after it, the
    two glued into one unreadable line, and the restore was lost from the log the rubric learns from
    (and restoring that move again answered "no move" instead of "already restored")."""
    from core.curate.learning import read_restores, record_restore, restores_path
    from core.fsutil import append_line_durably

    entry = {"move_id": "m-20260101T000000-0123456789ab", "scope": "notes", "path": "old/a.md", "sha256": "0" * 64,
             "signals": ["unused"], "ts": "2026-01-01T00:00:00+00:00"}
    path = restores_path(paths)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b'{"approved": false, "move_id": "m-20260101T000000-0123456789ab", "path": "old/a.md", "ts"')
    assert record_restore(paths, entry)
    assert [item["move_id"] for item in read_restores(paths)] == [entry["move_id"]]
    append_line_durably(path, '{"n": 2}')
    assert path.read_bytes().endswith(b'\n{"n": 2}\n')
