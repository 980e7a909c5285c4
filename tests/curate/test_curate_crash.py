"""Interrupt every step of a move and of a restore, by an injected failure and by a real SIGKILL:
at every point there is either the original or a verified copy with its tombstone, and the next
run finishes or rolls back."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.config import Config
from core.curate import cold, engine
from core.curate.learning import read_restores
from core.paths import HomePaths
from core.vault.crypto import VaultKeys
from core.vault.ledger import Ledger
from tests.helpers.curate import NOW, configure, old_notes, tree, unlocker

ROOT = Path(__file__).resolve().parents[2]
FINISHED_AFTER = {"tombstoned", "ledgered", "unlinked"}  # a move interrupted after these is finished


class Crash(BaseException):
    """Stands for the process dying: nothing in the code under test catches it."""


class CrashAt(list[str]):
    """The step to crash at (append one); :meth:`hook` is the ``on_step`` to hand the operation."""

    def hook(self, step: str) -> None:
        if self and step == self[0]:
            self.clear()
            raise Crash(step)


@pytest.fixture
def crash_at() -> Iterator[CrashAt]:
    yield CrashAt()


@pytest.fixture
def home(paths: HomePaths, keys: VaultKeys, tmp_path: Path) -> tuple[HomePaths, Config, VaultKeys, Path]:
    root = old_notes(tmp_path)
    config = configure(paths, ("notes", "markdown", root), report_only_runs=0, auto_move_cap=1)
    return paths, config, keys, root


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def assert_safe(paths: HomePaths, root: Path, rel: str, original: bytes) -> str:
    """The invariant: the original in place, or a verified copy in cold storage with its tombstone.
    Returns which one holds ("original" or "cold")."""
    target = root / rel
    if target.is_file() and target.read_bytes() == original:
        return "original"
    copies = [p for p in paths.cold.glob("notes/m-*/record/*") if p.read_bytes() == original]
    assert copies, f"{rel}: neither the original nor a verified copy exists"
    folder = copies[0].parent.parent
    assert (folder / "tombstone.json").is_file() or list(target.parent.glob(f"{target.name}*.tombstone"))
    return "cold"


def archive_entries(paths: HomePaths, keys: VaultKeys) -> list[str]:
    return [e.data["move_id"] for e in Ledger(paths, keys).read().entries if e.kind == "archive"]


def assert_settled_move(paths: HomePaths, keys: VaultKeys, root: Path, rel: str, original: bytes,
                        finished: bool) -> None:
    assert cold.pending_operations(paths) == []
    target = root / rel
    stones = list(target.parent.glob(f"{target.name}*.tombstone"))
    reading = Ledger(paths, keys).read()
    assert [p for p in reading.problems if p.kind != "incomplete"] == []
    if finished:
        assert not target.exists() and len(stones) == 1
        copies = list(paths.cold.glob("notes/m-*/record/*"))
        assert len(copies) == 1 and copies[0].read_bytes() == original
        assert len(archive_entries(paths, keys)) == 1
    else:
        assert target.read_bytes() == original and stones == []
        assert list(paths.cold.glob("notes/*")) == []
        kinds = [e.kind for e in reading.entries]
        assert kinds in ([], ["archive", "restore"])  # rolled back after the ledger saw it: both recorded


@pytest.mark.parametrize("step", cold.MOVE_STEPS)
def test_interrupted_move_is_finished_or_rolled_back(home: tuple[HomePaths, Config, VaultKeys, Path],
                                                     crash_at: CrashAt, step: str) -> None:
    paths, config, keys, root = home
    rel = "old/c.md"  # the oldest: the one move this run makes (cap 1)
    original = (root / rel).read_bytes()
    crash_at.append(step)
    with pytest.raises(Crash):
        engine.apply(paths, config, unlock=unlocker(keys), now=NOW, on_step=crash_at.hook)
    state = assert_safe(paths, root, rel, original)
    assert state == ("cold" if step == "unlinked" else "original")
    assert len(cold.pending_operations(paths)) == 1
    results = engine.recover(paths, config, unlock=unlocker(keys), now=NOW)
    assert [r.outcome for r in results] == ["finished" if step in FINISHED_AFTER else "rolled back"]
    assert_settled_move(paths, keys, root, rel, original, finished=step in FINISHED_AFTER)
    assert engine.recover(paths, config, unlock=unlocker(keys), now=NOW) == []  # idempotent
    snapshot = tree(paths.cold)
    engine.apply(paths, config, unlock=unlocker(keys), now=NOW, dry_run=True)
    assert tree(paths.cold) == snapshot


@pytest.mark.parametrize("tampered", [False, True])
def test_a_move_finished_by_recovery_records_the_tombstone_as_written(
        home: tuple[HomePaths, Config, VaultKeys, Path], crash_at: CrashAt, tampered: bool) -> None:
    """Killed between the tombstones and the ledger entry: recovery writes the entry with the SHA-256
    of the tombstone's bytes on disk; a mirror changed in that window is not vouched for, the move is
    rolled back instead (the original is still in place)."""
    from core.workbench.verify import verify_home

    paths, config, keys, root = home
    rel = "old/c.md"
    original = (root / rel).read_bytes()
    crash_at.append("tombstoned")
    with pytest.raises(Crash):
        engine.apply(paths, config, unlock=unlocker(keys), now=NOW, on_step=crash_at.hook)
    mirror = next(paths.cold.glob("notes/m-*/tombstone.json"))
    if tampered:
        mirror.write_bytes(mirror.read_bytes().replace(b'"tier": "high"', b'"tier": "low"'))
    written = mirror.read_bytes()
    results = engine.recover(paths, config, unlock=unlocker(keys), now=NOW)
    assert [r.outcome for r in results] == ["rolled back" if tampered else "finished"]
    assert_settled_move(paths, keys, root, rel, original, finished=not tampered)
    if not tampered:
        entry = next(e for e in Ledger(paths, keys).read().entries if e.kind == "archive")
        assert entry.data["tombstone_sha256"] == sha(written)
        assert (root / f"{rel}.tombstone").read_bytes() == written
    else:
        assert "not as it was written" in results[0].detail
    assert verify_home(paths, keys).problems == []


@pytest.mark.parametrize("step", cold.RESTORE_STEPS)
def test_interrupted_restore_is_finished_or_rolled_back(home: tuple[HomePaths, Config, VaultKeys, Path],
                                                        crash_at: CrashAt, step: str) -> None:
    paths, config, keys, root = home
    rel = "old/c.md"
    original = (root / rel).read_bytes()
    moved = engine.apply(paths, config, unlock=unlocker(keys), now=NOW).moved[0]
    if step == "journal":  # as if killed in the middle of writing the bytes back
        (root / "old/.c.md.k1x2y3z4.tmp").write_bytes(original[:5])
    crash_at.append(step)
    with pytest.raises(Crash):
        engine.restore(paths, config, str(moved.places.tombstone), unlock=unlocker(keys), now=NOW,
                       on_step=crash_at.hook)
    assert_safe(paths, root, rel, original)
    results = engine.recover(paths, config, unlock=unlocker(keys), now=NOW)
    expected = "rolled back" if step == "journal" else "finished"
    assert [r.outcome for r in results] == [expected]
    assert cold.pending_operations(paths) == [] and not (root / "old/.c.md.k1x2y3z4.tmp").exists()
    if expected == "rolled back":
        assert not (root / rel).exists() and moved.places.tombstone.is_file()
        engine.restore(paths, config, str(moved.places.tombstone), unlock=unlocker(keys), now=NOW)
    assert (root / rel).read_bytes() == original
    assert not moved.places.tombstone.exists() and not moved.places.cold.exists()
    assert len(read_restores(paths)) == 1
    assert [e.kind for e in Ledger(paths, keys).read().entries] == ["archive", "restore"]


def test_a_record_edited_after_an_interrupted_move_is_kept_and_so_is_the_copy(
        home: tuple[HomePaths, Config, VaultKeys, Path], crash_at: CrashAt) -> None:
    paths, config, keys, root = home
    original = (root / "old/c.md").read_bytes()
    crash_at.append("ledgered")
    with pytest.raises(Crash):
        engine.apply(paths, config, unlock=unlocker(keys), now=NOW, on_step=crash_at.hook)
    (root / "old/c.md").write_text("edited after the crash")
    [result] = engine.recover(paths, config, unlock=unlocker(keys), now=NOW)
    assert result.outcome == "finished" and "a different file now stands" in result.detail
    assert (root / "old/c.md").read_text() == "edited after the crash"
    assert [p.read_bytes() for p in paths.cold.glob("notes/m-*/record/*")] == [original]


SCRIPT = textwrap.dedent("""
    import os, signal, sys
    from datetime import datetime
    from core.config import load_config
    from core.vault.crypto import unlock
    from core.curate import cold, engine
    from core.paths import HomePaths

    home, op, step, spec, now = sys.argv[1:6]
    paths = HomePaths.at(home)
    config = load_config(paths.config)
    keys = unlock(paths.vault_header, os.environ["TEST_PASSPHRASE"])
    die = lambda name: os.kill(os.getpid(), signal.SIGKILL) if name == step else None  # noqa: E731
    when = datetime.fromisoformat(now)
    if op == "move":
        engine.apply(paths, config, unlock=lambda: keys, now=when, on_step=die)
    else:
        engine.restore(paths, config, spec, unlock=lambda: keys, now=when, on_step=die)
    print("not killed")
""")


def killed(paths: HomePaths, op: str, step: str, spec: str = "-") -> None:
    from tests.conftest import TEST_PASSPHRASE

    env = {**os.environ, "TEST_PASSPHRASE": TEST_PASSPHRASE, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(paths.root), op, step, spec, NOW.isoformat()],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert done.returncode == -signal.SIGKILL, done.stderr[-2000:]


@pytest.mark.parametrize("step", cold.MOVE_STEPS)
def test_a_real_kill_during_a_move(home: tuple[HomePaths, Config, VaultKeys, Path], step: str) -> None:
    paths, config, keys, root = home
    original = (root / "old/c.md").read_bytes()
    killed(paths, "move", step)
    assert_safe(paths, root, "old/c.md", original)
    engine.apply(paths, config, unlock=unlocker(keys), now=NOW)  # the next run recovers first
    assert_safe(paths, root, "old/c.md", original)
    assert cold.pending_operations(paths) == []
    assert [p for p in Ledger(paths, keys).read().problems if p.kind != "incomplete"] == []
    stones = list((root / "old").glob("c.md*.tombstone"))
    assert (root / "old/c.md").exists() != bool(stones)


@pytest.mark.parametrize("step", cold.RESTORE_STEPS)
def test_a_real_kill_during_a_restore(home: tuple[HomePaths, Config, VaultKeys, Path], step: str) -> None:
    paths, config, keys, root = home
    original = (root / "old/c.md").read_bytes()
    moved = engine.apply(paths, config, unlock=unlocker(keys), now=NOW).moved[0]
    killed(paths, "restore", step, str(moved.places.tombstone))
    assert_safe(paths, root, "old/c.md", original)
    done = engine.restore(paths, config, str(root / "old/c.md"), unlock=unlocker(keys), now=NOW)
    assert done.path.read_bytes() == original and sha(original) == done.sha256
    assert cold.pending_operations(paths) == [] and not moved.places.tombstone.exists()
    assert len(read_restores(paths)) == 1
