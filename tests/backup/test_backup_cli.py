"""`reverie backup` as a person runs it: a real process, one-line errors, exit codes that mean something
(0 done, 1 damaged, 2 bad input, 3 not there)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.backup.conftest import BACKUP_PASSPHRASE, RichHome
from tests.helpers.cli import reverie
from tests.helpers.vault import PASSPHRASE


@pytest.fixture
def repo(rich_home: RichHome, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository with one snapshot, created with cheap Argon2id parameters (the config keeps them)."""
    dest = tmp_path / "repo"
    rich_home.workbench.backups.backup(dest, BACKUP_PASSPHRASE)
    monkeypatch.setenv("REVERIE_BACKUP_PASSPHRASE", BACKUP_PASSPHRASE)
    return dest


def test_backup_list_check_restore(repo: Path, tmp_path: Path, rich_home: RichHome) -> None:
    taken = reverie("backup", str(repo), "--json", passphrase=PASSPHRASE)  # `backup DEST` is `backup create DEST`
    assert taken.returncode == 0, taken.stderr
    snapshot = json.loads(taken.stdout)
    assert snapshot["new_blobs"] == 0 and snapshot["files"] > 20
    listed = reverie("backup", "list", str(repo))
    assert listed.returncode == 0 and len(listed.stdout.splitlines()) == 2
    assert snapshot["snapshot"] in listed.stdout.splitlines()[1]
    checked = reverie("backup", "check", str(repo), "--read-data")
    assert checked.returncode == 0 and checked.stdout.startswith("ok: 2 snapshots")
    target = tmp_path / "new-home"
    restored = reverie("backup", "restore", str(repo), str(target), "--no-embed", passphrase=PASSPHRASE)
    assert restored.returncode == 0, restored.stderr
    assert f"restored snapshot {snapshot['snapshot']} into {target}" in restored.stdout
    verified = reverie("--home", str(target), "verify", passphrase=PASSPHRASE)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    found = reverie("--home", str(target), "search", "skiing", "--json", passphrase=PASSPHRASE)
    assert found.returncode == 0 and json.loads(found.stdout)["results"], found.stderr


def test_errors_are_one_line_with_their_exit_code(repo: Path, tmp_path: Path, rich_home: RichHome,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "x").write_text("x")
    refused = reverie("backup", "restore", str(repo), str(busy))
    last = refused.stderr.splitlines()[-1]  # (after the overdue-curation reminder every command gives)
    assert refused.returncode == 2 and last.startswith(f"reverie: {busy}: not empty")
    missing = reverie("backup", "check", str(tmp_path / "nowhere"))
    assert missing.returncode == 3 and "no backup repository here" in missing.stderr
    inside = reverie("backup", str(rich_home.paths.root / "backups"))
    assert inside.returncode == 2 and "inside the home" in inside.stderr
    assert not (rich_home.paths.root / "backups").exists()
    monkeypatch.setenv("REVERIE_BACKUP_PASSPHRASE", "wrong")
    wrong = reverie("backup", "list", str(repo))
    assert wrong.returncode == 2 and "wrong passphrase for this backup repository" in wrong.stderr
    monkeypatch.delenv("REVERIE_BACKUP_PASSPHRASE")
    unasked = reverie("backup", "check", str(repo))
    assert unasked.returncode == 2 and "set REVERIE_BACKUP_PASSPHRASE" in unasked.stderr
    blob = next(p for p in (repo / "blobs").rglob("*") if p.is_file())
    blob.unlink()
    monkeypatch.setenv("REVERIE_BACKUP_PASSPHRASE", BACKUP_PASSPHRASE)
    damaged = reverie("backup", "check", str(repo))
    assert damaged.returncode == 1 and f"blob {blob.name}: missing; needed by" in damaged.stdout


def test_no_home_no_repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REVERIE_BACKUP_PASSPHRASE", BACKUP_PASSPHRASE)
    gone = reverie("--home", str(tmp_path / "no-home"), "backup", str(tmp_path / "repo"))
    assert gone.returncode == 3 and "no data home here" in gone.stderr
    assert not (tmp_path / "repo").exists()
