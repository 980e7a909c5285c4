"""Backup, restore into an empty home, and the restored home is the same home: every kept file with its
bytes and mode, `verify` passes, search answers the same; a second backup stores only what changed."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from core.errors import HomeError
from core.paths import HomePaths
from tests.backup.conftest import BACKUP_PASSPHRASE, SECRET_SENTENCE, RichHome, home_files, open_workbench
from tests.helpers.vault import PASSPHRASE

QUERIES = ["skiing", "tomatoes on the balcony", "deadline", "snow last week", "grandpa story"]
NOW = datetime(2026, 6, 2, 12, 0, tzinfo=UTC)


def _answers(workbench, queries=QUERIES) -> dict[str, list[tuple[str, str]]]:
    return {q: [(item.kind, item.id) for item in workbench.search(q, now=NOW, zone=UTC).result.results]
            for q in queries}


def _blob_files(repo: Path) -> set[Path]:
    return {p for p in (repo / "blobs").rglob("*") if p.is_file()}


def test_round_trip_verifies_and_answers_the_same(rich_home: RichHome, tmp_path: Path) -> None:
    before = _answers(rich_home.workbench)
    assert all(before.values()) and any(kind == "memory" for hits in before.values() for kind, _ in hits)
    backups = rich_home.workbench.backups
    taken = backups.backup(tmp_path / "repo", BACKUP_PASSPHRASE)
    target = tmp_path / "elsewhere" / "home"
    done = backups.restore(tmp_path / "repo", BACKUP_PASSPHRASE, target, snapshot=taken.snapshot[:10],
                           vault_passphrase=PASSPHRASE)
    assert done.result.snapshot == taken.snapshot and done.note is None
    assert done.reindex is not None and done.reindex.turns_added == 5 and done.reindex.memories is not None
    assert home_files(target) == home_files(rich_home.paths.root)  # bytes and modes (0600 as in the home)
    assert {mode for _, mode in home_files(target).values()} == {0o600}
    assert target.stat().st_mode & 0o777 == 0o700 and (target / "vault").stat().st_mode & 0o777 == 0o700
    restored = open_workbench(HomePaths.at(target))
    restored.unlock(PASSPHRASE)
    report = restored.verify()
    assert report.ok, [str(p) for p in report.problems]
    assert report.counts["sealed_days"] == 3 and report.counts["drafts"] == 4
    assert _answers(restored) == before
    restored.close()


def test_second_backup_stores_only_new_content(rich_home: RichHome, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    backups = rich_home.workbench.backups
    big = rich_home.paths.root / "exports" / "notes.bin"
    big.parent.mkdir(mode=0o700, exist_ok=True)
    big.write_bytes(os.urandom(2 * 1024 * 1024 + 5000))  # three chunks
    first = backups.backup(repo, BACKUP_PASSPHRASE)
    assert first.new_blobs == len(_blob_files(repo)) and first.reused_blobs == 0
    again = backups.backup(repo, BACKUP_PASSPHRASE)
    assert (again.new_blobs, again.new_bytes) == (0, 0) and again.reused_blobs == first.new_blobs
    with big.open("ab") as handle:
        handle.write(b"appended")  # only the last chunk changes
    rich_home.workbench.mark("a new marker after the backup")
    third = backups.backup(repo, BACKUP_PASSPHRASE)
    assert third.new_blobs == 2  # the big file's last chunk, topics.jsonl
    assert len(_blob_files(repo)) == first.new_blobs + 2
    assert [s.name for s in backups.snapshots(repo, BACKUP_PASSPHRASE)] == [first.snapshot, again.snapshot,
                                                                            third.snapshot]


def test_nothing_plaintext_reaches_the_repository(rich_home: RichHome, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    rich_home.workbench.backups.backup(repo, BACKUP_PASSPHRASE)
    stored = b"".join(p.read_bytes() + p.name.encode() for p in repo.rglob("*") if p.is_file())
    home = rich_home.paths.root
    secrets = [SECRET_SENTENCE, "violet submarine", "planning the ski trip", str(rich_home.scope_root),
               str(home), "north slope", "an open draft"]
    for text in secrets:
        assert text.encode("utf-8") not in stored, text
    import hashlib

    for rel, (data, _) in home_files(home).items():  # ids are keyed: no plaintext hash is revealed
        assert hashlib.sha256(data).hexdigest().encode() not in stored, rel
    assert SECRET_SENTENCE.encode() in (home / "logs/2026/05/2026-05-30.jsonl").read_bytes()


def test_restore_refuses_a_non_empty_home(rich_home: RichHome, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    backups = rich_home.workbench.backups
    backups.backup(repo, BACKUP_PASSPHRASE)
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "keep.txt").write_text("mine\n", encoding="utf-8")
    with pytest.raises(HomeError, match="not empty"):
        backups.restore(repo, BACKUP_PASSPHRASE, busy)
    with pytest.raises(HomeError, match="not empty"):
        backups.restore(repo, BACKUP_PASSPHRASE, rich_home.paths.root)
    assert [p.name for p in busy.iterdir()] == ["keep.txt"]
    assert sorted(p.name for p in tmp_path.iterdir() if "restoring" in p.name) == []
    empty = tmp_path / "empty"
    empty.mkdir()
    assert backups.restore(repo, BACKUP_PASSPHRASE, empty, reindex=False).result.files > 20
    os.chmod(tmp_path, 0o755)
    backups.restore(repo, BACKUP_PASSPHRASE, tmp_path / "fresh", reindex=False)
    assert tmp_path.stat().st_mode & 0o777 == 0o755  # a parent that existed keeps its mode
    assert (tmp_path / "fresh").stat().st_mode & 0o777 == 0o700


def test_a_blob_cut_short_is_written_again(rich_home: RichHome, tmp_path: Path) -> None:
    """A blob renamed into place but cut short (a crash before the sync) is not taken as stored."""
    repo = tmp_path / "repo"
    backups = rich_home.workbench.backups
    backups.backup(repo, BACKUP_PASSPHRASE)
    blob = max(_blob_files(repo), key=lambda p: p.stat().st_size)
    blob.write_bytes(b"")
    assert not backups.check(repo, BACKUP_PASSPHRASE).ok
    again = backups.backup(repo, BACKUP_PASSPHRASE)
    assert again.new_blobs == 1 and blob.stat().st_size > 0
    assert backups.check(repo, BACKUP_PASSPHRASE, read_data=True).ok
