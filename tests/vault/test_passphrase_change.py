"""Issue 14 item 7: changing the passphrase rewrites one header (O(1) in the vault's size), the old
passphrase stops working, a recovery key can set a new one, version 1 headers are migrated on their
first unlock, and a SIGKILL at any step leaves the old or the new passphrase working, never neither."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.errors import HomeError, WrongPassphrase
from core.paths import HomePaths
from core.vault import crypto
from core.vault.crypto import KdfParams, VaultKeys, change_passphrase, create_header, create_recovery_key, unlock
from core.vault.store import MemoryStore

OLD, NEW, NEWER = "old passphrase 1", "new passphrase 2", "newer passphrase 3"
ROOT = Path(__file__).resolve().parents[2]


def reverie(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    full = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "tui_app.cli.main", *args], capture_output=True, text=True,
                          env=full, timeout=120)


def vault_with_memories(paths: HomePaths, count: int) -> MemoryStore:
    keys = create_header(paths.vault_header, OLD, KdfParams.for_tests())
    vault = MemoryStore(keys, paths)
    for i in range(count):
        vault.add_memory(f"memory number {i}: the lighthouse keeper's log", ["log"])
    return vault


def snapshot(paths: HomePaths) -> dict[str, tuple[bytes, int]]:
    """Every file of the home but the header (and lock files): bytes and modification time."""
    return {str(p.relative_to(paths.root)): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(paths.root.rglob("*"))
            if p.is_file() and p != paths.vault_header and ".locks" not in p.parts}


def opens(path: Path, passphrase: str) -> VaultKeys | None:
    try:
        return unlock(path, passphrase)
    except WrongPassphrase:
        return None


# --- the change itself -----------------------------------------------------------------------------

def test_change_rewrites_only_the_header_and_the_old_passphrase_stops(paths: HomePaths) -> None:
    vault = vault_with_memories(paths, 30)
    before = snapshot(paths)
    keys = change_passphrase(paths.vault_header, NEW, passphrase=OLD)
    assert snapshot(paths) == before  # O(1): no record was read again or rewritten
    assert keys == vault.keys == unlock(paths.vault_header, NEW)
    with pytest.raises(WrongPassphrase, match="wrong passphrase"):
        unlock(paths.vault_header, OLD)
    reopened = MemoryStore.unlock(paths, NEW)
    assert len(reopened.list_memories()) == 30
    header = paths.vault_header.read_text()
    assert OLD not in header and NEW not in header
    assert json.loads(header)["version"] == 2


def test_a_wrong_current_passphrase_changes_nothing(paths: HomePaths) -> None:
    vault_with_memories(paths, 1)
    before = paths.vault_header.read_bytes()
    with pytest.raises(WrongPassphrase) as caught:
        change_passphrase(paths.vault_header, NEW, passphrase="not it")
    assert "not it" not in str(caught.value) and NEW not in str(caught.value)
    assert paths.vault_header.read_bytes() == before
    with pytest.raises(WrongPassphrase, match="must not be empty"):
        change_passphrase(paths.vault_header, "", passphrase=OLD)


def test_the_recovery_key_sets_a_new_passphrase_and_keeps_working(paths: HomePaths) -> None:
    vault = vault_with_memories(paths, 2)
    key = create_recovery_key(paths.vault_header, OLD, now="2026-12-01T00:00:00+00:00")
    assert key.startswith("RVK1-") and len(key.split("-")) == 14
    assert key not in paths.vault_header.read_text()
    assert opens(paths.vault_header, OLD) == vault.keys  # making a key does not change the passphrase
    change_passphrase(paths.vault_header, NEW, recovery_key=key.lower().replace("-", " "))
    assert opens(paths.vault_header, OLD) is None and opens(paths.vault_header, NEW) == vault.keys
    change_passphrase(paths.vault_header, NEWER, recovery_key=key)  # still the same recovery key
    assert opens(paths.vault_header, NEWER) == vault.keys
    wrong = crypto.format_recovery_key(b"\x01" * 32)
    with pytest.raises(WrongPassphrase, match="wrong recovery key") as caught:
        change_passphrase(paths.vault_header, "x", recovery_key=wrong)
    assert wrong not in str(caught.value)
    with pytest.raises(WrongPassphrase, match="not a recovery key"):
        change_passphrase(paths.vault_header, "x", recovery_key="RVK1-1234")
    replaced = create_recovery_key(paths.vault_header, NEWER, now="2026-12-02T00:00:00+00:00")
    with pytest.raises(WrongPassphrase):  # a new recovery key replaces the old one
        change_passphrase(paths.vault_header, "x", recovery_key=key)
    change_passphrase(paths.vault_header, OLD, recovery_key=replaced)
    assert opens(paths.vault_header, OLD) == vault.keys


def test_without_a_recovery_key_none_is_accepted(paths: HomePaths) -> None:
    vault_with_memories(paths, 0)
    with pytest.raises(WrongPassphrase, match="no recovery key"):
        change_passphrase(paths.vault_header, NEW, recovery_key=crypto.format_recovery_key(os.urandom(32)))


# --- migration of version 1 headers ----------------------------------------------------------------

def write_v1_header(path: Path, passphrase: str) -> VaultKeys:
    """A header as version 1 wrote it: the master key is the Argon2id output of the passphrase."""
    params = KdfParams.for_tests()
    salt = os.urandom(16)
    keys, check = crypto._derive(passphrase, salt, params)
    path.write_text(json.dumps({
        "format": crypto.HEADER_FORMAT, "version": 1, "kdf": {**params.to_dict(), "salt": crypto.b64e(salt)},
        "key_derivation": "HKDF-SHA256 (info reverie/v1/encrypt, reverie/v1/sign, reverie/v1/check)",
        "cipher": "AES-256-GCM", "signature": "HMAC-SHA256", "key_check": check,
    }, indent=2) + "\n")
    return keys


def test_a_version_1_header_is_migrated_on_first_unlock(paths: HomePaths) -> None:
    old_keys = write_v1_header(paths.vault_header, OLD)
    MemoryStore(old_keys, paths).add_memory("written under version 1", ["old"])
    old_bytes = paths.vault_header.read_bytes()
    with pytest.raises(WrongPassphrase):
        unlock(paths.vault_header, "not it")
    assert paths.vault_header.read_bytes() == old_bytes  # a wrong passphrase writes nothing
    assert unlock(paths.vault_header, OLD) == old_keys
    assert json.loads(paths.vault_header.read_text())["version"] == 2
    assert not (paths.root / ("vault.json" + crypto.BACKUP_SUFFIX)).exists()  # proven, so removed
    assert [m.content for m in MemoryStore.unlock(paths, OLD).list_memories()] == ["written under version 1"]
    change_passphrase(paths.vault_header, NEW, passphrase=OLD)
    assert opens(paths.vault_header, NEW) == old_keys and opens(paths.vault_header, OLD) is None


def test_an_unreadable_header_beside_its_backup_falls_back_to_the_backup(paths: HomePaths) -> None:
    old_keys = write_v1_header(paths.vault_header, OLD)
    backup = paths.root / ("vault.json" + crypto.BACKUP_SUFFIX)
    backup.write_bytes(paths.vault_header.read_bytes())
    paths.vault_header.write_text("{ torn")
    assert unlock(paths.vault_header, OLD) == old_keys
    assert json.loads(paths.vault_header.read_text())["version"] == 2 and not backup.exists()
    paths.vault_header.write_text("{ torn")  # without a backup, it is a one-line error
    with pytest.raises(HomeError, match="vault header unreadable"):
        unlock(paths.vault_header, OLD)


# --- crashes at every step ------------------------------------------------------------------------

def child(spec: dict[str, object]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tests.vault.passphrase_crashchild", json.dumps(spec)],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)


def events(spec: dict[str, object]) -> int:
    clean = child({**spec, "kill_at": 0})
    assert clean.returncode == 0, clean.stderr
    return int(clean.stdout.split()[-1])


@pytest.mark.parametrize("op", ["change", "recover", "recovery-key"])
def test_a_kill_at_any_step_leaves_the_old_or_the_new_passphrase(tmp_path: Path, op: str) -> None:
    def fresh(where: Path) -> tuple[Path, VaultKeys, str]:
        where.mkdir()
        header = where / "vault.json"
        keys = create_header(header, OLD, KdfParams.for_tests())
        return header, keys, create_recovery_key(header, OLD, now="2026-12-01T00:00:00+00:00")

    header, _, key = fresh(tmp_path / "count")
    spec: dict[str, object] = {"op": op, "old": OLD, "new": NEW, "recovery_key": key, "header": str(header)}
    total = events(spec)
    assert total >= 3  # temporary file written and synced, renamed, folder synced
    for kill_at in range(1, total + 1):
        header, keys, key = fresh(tmp_path / f"kill-{kill_at}")
        killed = child({**spec, "header": str(header), "recovery_key": key, "kill_at": kill_at})
        assert killed.returncode == -9, (kill_at, killed.stderr)
        working = [p for p in (OLD, NEW) if opens(header, p) == keys]
        assert working, f"kill at {kill_at}: neither passphrase opens the vault"
        if op == "recovery-key":
            assert working == [OLD]
        assert opens(header, "neither") is None
        # whatever state the kill left, the next change completes
        change_passphrase(header, NEWER, passphrase=working[0])
        assert opens(header, NEWER) == keys


def test_a_kill_at_any_step_of_a_migration_leaves_a_vault_that_opens(tmp_path: Path) -> None:
    counting = tmp_path / "count"
    counting.mkdir()
    write_v1_header(counting / "vault.json", OLD)
    total = events({"op": "migrate", "old": OLD, "header": str(counting / "vault.json")})
    assert total >= 6  # backup written and synced, new header written and synced, backup removed
    for kill_at in range(1, total + 1):
        where = tmp_path / f"kill-{kill_at}"
        where.mkdir()
        header = where / "vault.json"
        keys = write_v1_header(header, OLD)
        killed = child({"op": "migrate", "old": OLD, "header": str(header), "kill_at": kill_at})
        assert killed.returncode == -9, (kill_at, killed.stderr)
        assert unlock(header, OLD) == keys, f"kill at {kill_at}"
        assert json.loads(header.read_text())["version"] == 2
        assert not (where / ("vault.json" + crypto.BACKUP_SUFFIX)).exists()


# --- the CLI ----------------------------------------------------------------------------------------

def test_cli_change_and_recovery_key_never_show_a_secret(isolated_home: HomePaths) -> None:
    assert reverie("init", env={"REVERIE_PASSPHRASE": OLD}).returncode == 0
    made = reverie("passphrase", "recovery-key", "--json", env={"REVERIE_PASSPHRASE": OLD})
    assert made.returncode == 0, made.stderr
    key = json.loads(made.stdout)["recovery_key"]
    changed = reverie("passphrase", "change", env={"REVERIE_PASSPHRASE": OLD, "REVERIE_NEW_PASSPHRASE": NEW})
    assert changed.returncode == 0, changed.stderr
    assert "old one no longer opens" in changed.stdout
    assert "REVERIE_PASSPHRASE still holds the old one" in changed.stdout
    for secret in (OLD, NEW, key):
        assert secret not in changed.stdout + changed.stderr
    refused = reverie("verify", env={"REVERIE_PASSPHRASE": OLD})
    assert refused.returncode != 0 and "wrong passphrase" in refused.stderr and OLD not in refused.stderr
    assert reverie("verify", env={"REVERIE_PASSPHRASE": NEW}).returncode == 0
    recovered = reverie("passphrase", "change", "--recovery-key",
                        env={"REVERIE_RECOVERY_KEY": key, "REVERIE_NEW_PASSPHRASE": NEWER})
    assert recovered.returncode == 0, recovered.stderr
    assert key not in recovered.stdout + recovered.stderr
    assert reverie("verify", env={"REVERIE_PASSPHRASE": NEWER}).returncode == 0
    no_terminal = reverie("passphrase", "change", env={"REVERIE_PASSPHRASE": NEWER})
    assert no_terminal.returncode != 0 and "REVERIE_NEW_PASSPHRASE" in no_terminal.stderr
    assert "Traceback" not in no_terminal.stderr
