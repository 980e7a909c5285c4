"""Backups of a home that is in use: a backup killed (SIGKILL) in the middle, twice in a row, leaves
the previous snapshot restorable and the repository checking clean; snapshots taken while another
process ingests and finalizes memories (appending turns, sealing days, writing records, extending
the ledger) each restore to a home that verifies."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from core.paths import HomePaths
from tests.backup.conftest import BACKUP_PASSPHRASE, RichHome, open_workbench
from tests.helpers.vault import PASSPHRASE

REPO_ROOT = Path(__file__).resolve().parents[2]


def _env(**extra: str) -> dict[str, str]:
    return {**os.environ, "REVERIE_BACKUP_PASSPHRASE": BACKUP_PASSPHRASE, "PYTHONPATH": str(REPO_ROOT), **extra}


def _blob_count(repo: Path) -> int:
    return sum(1 for p in (repo / "blobs").rglob("*") if p.is_file() and not p.name.endswith(".tmp"))


def _kill_once_writing(home: Path, repo: Path) -> int:
    """Start `reverie backup`, SIGKILL it as soon as it has written a new blob; its exit status."""
    before = _blob_count(repo)
    proc = subprocess.Popen([sys.executable, "-m", "tui_app.cli.main", "--home", str(home), "backup", str(repo)],
                            env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while proc.poll() is None and time.monotonic() < deadline and _blob_count(repo) <= before:
        time.sleep(0.002)
    proc.send_signal(signal.SIGKILL)
    return proc.wait(timeout=30)


def _verified(target: Path) -> None:
    restored = open_workbench(HomePaths.at(target))
    restored.unlock(PASSPHRASE)
    report = restored.verify()
    restored.close()
    assert report.ok, [str(p) for p in report.problems]


def test_a_killed_backup_leaves_the_previous_snapshot_whole(rich_home: RichHome, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    backups = rich_home.workbench.backups
    first = backups.backup(repo, BACKUP_PASSPHRASE)
    big = rich_home.paths.root / "exports" / "big.bin"
    big.parent.mkdir(mode=0o700, exist_ok=True)
    big.write_bytes(os.urandom(48 * 1024 * 1024))  # 48 chunks: time to be killed in the middle
    for _ in range(2):
        assert _kill_once_writing(rich_home.paths.root, repo) == -signal.SIGKILL
    assert [s.name for s in backups.snapshots(repo, BACKUP_PASSPHRASE)] == [first.snapshot]
    report = backups.check(repo, BACKUP_PASSPHRASE, read_data=True)
    assert report.ok, report.problems
    assert any("no snapshot names" in note for note in report.notes)  # the killed runs' blobs: a note
    restored = backups.restore(repo, BACKUP_PASSPHRASE, tmp_path / "restored", vault_passphrase=PASSPHRASE)
    assert restored.result.snapshot == first.snapshot and not (restored.result.target / "exports").exists()
    _verified(restored.result.target)
    last = backups.backup(repo, BACKUP_PASSPHRASE)  # the next backup reuses what the killed ones wrote
    assert last.reused_blobs >= 2 and backups.check(repo, BACKUP_PASSPHRASE).ok


APPENDER = """
import json, sys
from pathlib import Path
from core.workbench import Workbench
home, folder, rounds = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
workbench = Workbench.open(home)
for i in range(rounds):
    day = 1 + i % 20
    rows = [{"ts": f"2026-04-{day:02d}T10:{i % 60:02d}:{s:02d}Z", "role": "user", "session": f"s{i}",
             "text": f"round {i} line {s} about the garden"} for s in range(5)]
    source = folder / f"round-{i}.jsonl"
    source.write_text("".join(json.dumps(r) + "\\n" for r in rows), encoding="utf-8")
    outcome = workbench.log.ingest([source])
    assert outcome.report.sealed or outcome.report.resealed, outcome.report
    vault = workbench.vault
    draft = vault.create_draft(f"memory of round {i}", ["rounds"]).approve(reviewer="me")
    vault.save_draft(draft)
    vault.finalize_draft(draft)
    (folder / "done").write_text(str(i + 1))
"""


def test_snapshots_taken_while_another_process_ingests_restore_to_verified_homes(rich_home: RichHome,
                                                                                 tmp_path: Path) -> None:
    repo, folder = tmp_path / "repo", tmp_path / "appender"
    folder.mkdir()
    backups = rich_home.workbench.backups
    backups.backup(repo, BACKUP_PASSPHRASE)  # creates the repository (cheap KDF parameters)
    rounds = 24
    proc = subprocess.Popen([sys.executable, "-c", APPENDER, str(rich_home.paths.root), str(folder), str(rounds)],
                            env=_env(REVERIE_PASSPHRASE=PASSPHRASE), stderr=subprocess.PIPE, text=True)
    while proc.poll() is None and not (folder / "done").exists():
        time.sleep(0.01)
    taken = []
    while proc.poll() is None:
        taken.append(backups.backup(repo, BACKUP_PASSPHRASE).snapshot)
        time.sleep(0.05)  # the appender's turn
    assert proc.wait(timeout=120) == 0, proc.stderr.read() if proc.stderr else ""
    assert (folder / "done").read_text() == str(rounds)
    sizes = set()
    chosen = taken if len(taken) <= 6 else [*taken[:: len(taken) // 5], taken[-1]]
    for number, name in enumerate(chosen):
        target = tmp_path / f"restored-{number}"
        backups.restore(repo, BACKUP_PASSPHRASE, target, snapshot=name, reindex=False)
        _verified(target)
        logs = sorted((target / "logs").rglob("*.jsonl"))
        sizes.add(sum(len(p.read_bytes().splitlines()) for p in logs))
    assert len(taken) >= 2 and len(sizes) >= 2, "the backups ran while the log grew"


def test_a_killed_restore_leaves_no_home_behind(rich_home: RichHome, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    big = rich_home.paths.root / "exports" / "big.bin"
    big.parent.mkdir(mode=0o700, exist_ok=True)
    big.write_bytes(os.urandom(48 * 1024 * 1024))
    rich_home.workbench.backups.backup(repo, BACKUP_PASSPHRASE)
    target = tmp_path / "restored"
    proc = subprocess.Popen([sys.executable, "-m", "tui_app.cli.main", "backup", "restore", str(repo), str(target),
                             "--no-embed"], env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    staging = []
    deadline = time.monotonic() + 60
    while proc.poll() is None and time.monotonic() < deadline and not staging:
        staging = [p for p in tmp_path.iterdir() if p.name.startswith(".restored.restoring-")
                   and (p / "exports").exists()]
        time.sleep(0.002)
    proc.send_signal(signal.SIGKILL)
    assert proc.wait(timeout=30) == -signal.SIGKILL and staging
    assert not target.exists()  # only the staging folder beside it, which names itself
    done = rich_home.workbench.backups.restore(repo, BACKUP_PASSPHRASE, target, reindex=False)
    assert (done.result.target / "exports" / "big.bin").read_bytes() == big.read_bytes()
