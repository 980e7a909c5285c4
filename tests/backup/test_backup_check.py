"""`reverie backup check` names what is damaged (a flipped byte, a missing blob, a truncated manifest)
with the files and snapshots that need it; a wrong passphrase is its own error; a restore never leaves
a half-written home and never writes outside it, even from a manifest built with the right key."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.backup.manifest import BackupDamaged, FileEntry, Manifest
from core.backup.repository import Repository
from core.errors import WrongPassphrase
from tests.backup.conftest import BACKUP_PASSPHRASE, RichHome
from tests.helpers.cli import in_process
from tui_app.cli import backup_cmds


@pytest.fixture
def repo(rich_home: RichHome, tmp_path: Path) -> Path:
    dest = tmp_path / "repo"
    rich_home.workbench.backups.backup(dest, BACKUP_PASSPHRASE)
    return dest


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, rich_home: RichHome):
    monkeypatch.setenv("REVERIE_BACKUP_PASSPHRASE", BACKUP_PASSPHRASE)
    run = in_process(backup_cmds)
    return lambda *args: run("backup", *args)


def _blob_of(dest: Path, rel: str) -> tuple[str, Path]:
    """The first blob of the home file ``rel`` in the latest snapshot, and its path."""
    repository = Repository.open(dest, BACKUP_PASSPHRASE)
    manifest = repository.read_snapshot(repository.snapshot_names()[0][-1])
    entry = next(f for f in manifest.files if f.path == rel)
    return entry.blobs[0], repository.blob_path(entry.blobs[0])


def test_a_clean_repository_checks_ok(repo: Path, cli) -> None:
    code, out, err = cli("check", str(repo), "--read-data")
    assert code == 0 and out.startswith("ok: 1 snapshot,") and "read and authenticated" in out, err


def test_a_flipped_byte_is_named_with_its_file(repo: Path, cli) -> None:
    blob_id, path = _blob_of(repo, "logs/2026/05/2026-05-30.jsonl")
    data = bytearray(path.read_bytes())
    data[40] ^= 0x01
    path.write_bytes(bytes(data))
    code, out, _ = cli("check", str(repo))  # the size is right: only reading the data finds it
    assert code == 0
    code, out, _ = cli("check", str(repo), "--read-data")
    assert code == 1 and out.startswith("DAMAGED")
    problem = next(line for line in out.splitlines() if line.startswith("problem:"))
    assert blob_id in problem and "does not authenticate" in problem
    assert "logs/2026/05/2026-05-30.jsonl (snapshot " in problem


def test_a_missing_blob_and_a_truncated_one_are_found_without_reading_data(repo: Path, cli) -> None:
    gone, gone_path = _blob_of(repo, "ledger.jsonl")
    gone_path.unlink()
    short, short_path = _blob_of(repo, "topics.jsonl")
    short_path.write_bytes(short_path.read_bytes()[:-3])
    code, out, _ = cli("check", str(repo))
    assert code == 1
    assert f"problem: blob {gone}: missing; needed by ledger.jsonl (snapshot " in out
    assert f"problem: blob {short}: " in out and "(truncated or replaced); needed by topics.jsonl" in out


def test_a_truncated_manifest_is_named(repo: Path, cli) -> None:
    snapshot = next((repo / "snapshots").iterdir())
    snapshot.write_bytes(snapshot.read_bytes()[:-10])
    code, out, _ = cli("check", str(repo))
    assert code == 1 and f"problem: snapshot {snapshot.name}: manifest: does not authenticate" in out
    code, out, _ = cli("list", str(repo))
    assert code == 0 and f"{snapshot.name}  damaged:" in out


def test_wrong_passphrase_is_not_damage(repo: Path, cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REVERIE_BACKUP_PASSPHRASE", "not the passphrase")
    with pytest.raises(WrongPassphrase, match="wrong passphrase for this backup repository") as caught:
        cli("check", str(repo))
    assert caught.value.exit_code == 2  # bad input; damage is 1
    config = repo / "config.json"
    config.write_text(config.read_text().replace('"iterations": 1', '"iterations": 2'))
    monkeypatch.setenv("REVERIE_BACKUP_PASSPHRASE", BACKUP_PASSPHRASE)
    with pytest.raises(BackupDamaged, match="checksum does not match") as damaged:
        cli("check", str(repo))
    assert damaged.value.exit_code == 1


def test_restore_from_a_damaged_blob_leaves_nothing(rich_home: RichHome, repo: Path, tmp_path: Path) -> None:
    _, path = _blob_of(repo, "vault.json")
    path.write_bytes(path.read_bytes()[:-1] + bytes([path.read_bytes()[-1] ^ 0xFF]))
    target = tmp_path / "new-home"
    with pytest.raises(BackupDamaged, match=r"vault\.json: blob .* does not authenticate"):
        rich_home.workbench.backups.restore(repo, BACKUP_PASSPHRASE, target)
    assert not target.exists() and not [p for p in tmp_path.iterdir() if "restoring" in p.name]


@pytest.mark.parametrize("evil", ["../escaped.txt", "/tmp/absolute-escape.txt", "vault/../../escaped.txt",
                                  "logs/./x", "a\\..\\b"])
def test_a_manifest_path_cannot_leave_the_home(rich_home: RichHome, repo: Path, tmp_path: Path, evil: str,
                                               cli) -> None:
    repository = Repository.open(repo, BACKUP_PASSPHRASE)
    data = b"written by an attacker\n"
    blob_id = repository.keys.blob_id(data)
    repository.put_blob(blob_id, data)
    import hashlib

    entry = FileEntry(evil, 0o600, len(data), hashlib.sha256(data).hexdigest(), 0, (blob_id,))
    manifest = Manifest("20990101T000000.000000Z-0badc0de", "2099-01-01T00:00:00+00:00", "h", "/h", files=[entry])
    repository.write_snapshot(manifest)  # authenticated: sealed with the repository's own key
    target = tmp_path / "t" / "home"
    with pytest.raises(BackupDamaged, match=r"path .* (leaves the home|not relative)"):
        rich_home.workbench.backups.restore(repo, BACKUP_PASSPHRASE, target)
    assert not target.exists() and not (tmp_path / "t" / "escaped.txt").exists()
    assert not (tmp_path / "escaped.txt").exists() and not Path("/tmp/absolute-escape.txt").exists()
    code, out, _ = cli("check", str(repo))
    assert code == 1 and "snapshot 20990101T000000.000000Z-0badc0de: path" in out


def test_names_with_terminal_controls_are_shown_escaped(rich_home: RichHome, tmp_path: Path, cli) -> None:
    exports = rich_home.paths.root / "exports"
    exports.mkdir(mode=0o700, exist_ok=True)
    (exports / "evil\x1b[2Jname.txt").write_text("x" * 100)
    dest = tmp_path / "repo2"
    rich_home.workbench.backups.backup(dest, BACKUP_PASSPHRASE)
    _blob_of(dest, "exports/evil\x1b[2Jname.txt")[1].unlink()
    code, out, _ = cli("check", str(dest))
    assert code == 1 and "exports/evil\\x1b[2Jname.txt (snapshot" in out and "\x1b" not in out


def test_a_config_asking_for_absurd_key_derivation_is_refused(repo: Path) -> None:
    import json

    from core.backup import repository as format_

    config = repo / "config.json"
    body = json.loads(config.read_text())
    body["kdf"]["memory_cost_kib"] = 64 * 1024 * 1024  # 64 GiB: would exhaust the machine before failing
    body["checksum"] = format_._checksum(body)  # an attacker can recompute an unkeyed checksum
    config.write_text(json.dumps(body))
    with pytest.raises(BackupDamaged, match="Argon2id parameters out of range"):
        Repository.open(repo, BACKUP_PASSPHRASE)
