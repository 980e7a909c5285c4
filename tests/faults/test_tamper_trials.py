"""Tamper evidence, measured: seeded random damage of every class to a realistic home, and ``verify``
must fail and name each damaged record (a rollback: against the checkpoint the person kept).

The table of a run is printed (``pytest -s``); the longer run is ``tests/bench/bench_faults.py``.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from core.workbench.verify import verify_home
from tests.faults.conftest import SEED, TAMPER_TRIALS, seed_note
from tests.faults.homebuild import PASSPHRASE, SECRET_SENTENCES, BuiltHome, copy_home
from tests.faults.tamper import CLASSES, file_targets, run_trials, table

ROOT = Path(__file__).resolve().parents[2]


def test_the_untouched_home_verifies_without_a_single_problem(built: BuiltHome) -> None:
    report = verify_home(built.paths, built.keys, built.checkpoint)
    assert report.problems == []
    assert report.counts == {"memories": 7, "memories_in_cold_storage": 1, "drafts": 8, "sealed_days": 3,
                             "ledger_entries": built.checkpoint.seq, "leftover_temporary_files": 0}


@pytest.mark.parametrize("cls", CLASSES)
def test_every_damage_of_the_class_is_detected_and_named(built: BuiltHome, workdir: Path, cls: str) -> None:
    tallies, failures = run_trials(built, workdir, SEED, TAMPER_TRIALS, (cls,), cleanup=False)
    print(f"\n{table(tallies)}")
    assert not failures, f"{len(failures)} of {TAMPER_TRIALS} trials {seed_note()}:\n" + "\n".join(
        f.explain() for f in failures[:5])
    tally = tallies[cls]
    assert tally.trials == tally.detected == tally.named == TAMPER_TRIALS and tally.lost == tally.crashes == 0
    if TAMPER_TRIALS >= 16:  # the seeded choice really spreads over the kinds of records
        assert len(tally.by_target) >= (2 if cls in ("reorder", "rollback") else 3), tally.by_target


WHITESPACE_SWAPS = {0x20: (0x09, 0x0A), 0x0A: (0x0D, 0x20)}
NEWLINE = b"\n"


@pytest.mark.parametrize("kind", ["draft", "memory", "ledger", "head", "mirror", "tombstone"])
def test_a_change_that_keeps_every_value_still_shows(built: BuiltHome, tmp_path: Path, kind: str) -> None:
    """Whitespace between fields is part of the file: changing it is tampering too (the parsed values,
    and so every signature over them, stay the same)."""
    home = copy_home(built, tmp_path / "home")
    target = file_targets(home)[kind][0]
    original = target.path.read_bytes()
    every = [i for i, byte in enumerate(original) if byte in WHITESPACE_SWAPS]
    positions = sorted(random.Random(f"{SEED}:{kind}").sample(every, min(8, len(every))))
    assert positions, seed_note()
    for position in positions:
        for replacement in WHITESPACE_SWAPS[original[position]]:
            changed = bytearray(original)
            changed[position] = replacement
            target.path.write_bytes(bytes(changed))
            report = verify_home(home.paths, home.keys, built.checkpoint)
            assert not report.ok, f"{target.path.name}: byte {position} -> {replacement:#x} unnoticed {seed_note()}"
            line = f"ledger line {original.count(NEWLINE, 0, position) + 1}"
            assert any(target.names.named_by(p) or (kind == "ledger" and p.subject == line)
                       for p in report.problems), (position, report.problems)
    target.path.write_bytes(original)
    assert verify_home(home.paths, home.keys, built.checkpoint).ok


def test_no_file_of_the_vault_drafts_or_cold_memories_holds_plaintext(built: BuiltHome) -> None:
    words = {w.strip(".,:") for s in SECRET_SENTENCES for w in s.split() if len(w.strip(".,:")) >= 7}
    folders = [built.paths.vault, built.paths.drafts, built.paths.cold / "mine"]
    files = [p for folder in folders for p in folder.rglob("*") if p.is_file()]
    assert len(files) >= 16
    for path in files:
        data = path.read_bytes()
        for sentence in SECRET_SENTENCES:
            assert sentence.encode() not in data, f"{path} holds {sentence!r}"
        for word in words:
            assert word.encode() not in data, f"{path} holds {word!r}"


def _cli_verify(home: BuiltHome, against: str) -> tuple[int, dict[str, object]]:
    env = {**os.environ, "REVERIE_PASSPHRASE": PASSPHRASE, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "tui_app.cli.main", "--home", str(home.paths.root), "verify",
                           "--json", "--against", against], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=60)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, json.loads(done.stdout)


def test_reverie_verify_exits_1_and_names_the_record(built: BuiltHome, tmp_path: Path) -> None:
    home = copy_home(built, tmp_path / "intact")
    code, report = _cli_verify(home, str(built.checkpoint))
    assert code == 0 and report["ok"] is True and report["problems"] == []

    damaged = copy_home(built, tmp_path / "damaged")
    record = damaged.paths.vault / f"{damaged.memory_ids[1]}.json"
    data = bytearray(record.read_bytes())
    data[len(data) // 2] ^= 0x10
    record.write_bytes(bytes(data))
    code, report = _cli_verify(damaged, str(built.checkpoint))
    problems = report["problems"]
    assert code == 1 and report["ok"] is False
    assert isinstance(problems, list) and any(p["subject"] == f"vault/{record.name}" for p in problems)

    rolled = copy_home(built, tmp_path / "rolled")
    assert built.earlier is not None
    shutil.rmtree(rolled.paths.root)
    shutil.copytree(built.earlier, rolled.paths.root)
    code, report = _cli_verify(rolled, str(built.checkpoint))
    problems = report["problems"]
    assert code == 1 and isinstance(problems, list) and [p["kind"] for p in problems] == ["rolled_back"]


def test_a_mirror_whose_tombstone_was_tidied_away_is_still_protected(built: BuiltHome, tmp_path: Path) -> None:
    home = copy_home(built, tmp_path / "home")
    mirror = next(t for t in file_targets(home)["mirror"] if "/notes/" in str(t.path))
    stone = json.loads(mirror.path.read_bytes())
    notes = tmp_path / "notes"
    shutil.copytree(built.notes_root, notes)
    (notes / stone["tombstone"]).unlink()  # a tool tidied the tombstone away: allowed, restorable from the mirror
    config = home.paths.config.read_text().replace(str(built.notes_root), str(notes))
    home.paths.config.write_text(config)
    assert verify_home(home.paths, home.keys, built.checkpoint).problems == []
    stone["mode"] = 0o777  # a restore would now put the record back world-writable
    mirror.path.write_bytes((json.dumps(stone, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode())
    report = verify_home(home.paths, home.keys, built.checkpoint)
    assert not report.ok
    subject = str(mirror.path.relative_to(home.paths.root))
    assert [(p.kind, p.subject) for p in report.problems] == [("modified", subject)], report.problems
    assert "SHA-256" in report.problems[0].detail
