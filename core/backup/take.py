"""Taking a snapshot of a home while Reverie may be running.

Every writer of the home holds one of the home's locks while it writes (the ingest lock for the day
logs and the quarantine, the drafts lock for drafts and finalizations, the curation lock for moves,
the ledger lock inside each of those, the topics and config locks, the vault header's lock). A backup
takes all of them, in one fixed order that nests the way the writers nest them, and reads the home
while it holds them: the snapshot is one moment the home was in (the vault with the ledger that
vouches for it, each day log with its seal). Writers wait meanwhile and go on after; nothing of
theirs is lost. Only new content is encrypted and written (:class:`~core.backup.repository.Repository`
skips a blob it already holds); once the locks are released the blobs are made durable (one
``sync(2)``, the slow part on a disk with slow fsyncs), then the manifest is written last.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import socket
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from core import clock
from core.backup.entries import HOME_ENTRIES, is_backed_up, is_temporary
from core.backup.manifest import DirEntry, FileEntry, Manifest
from core.backup.repository import CHUNK_SIZE, Repository
from core.errors import HomeError, NotFound
from core.fsutil import file_lock
from core.paths import HomePaths

# Outer to inner, as writers nest them: the proposals lock is held around drafts writes, and the
# ledger lock inside the curation, ingest and drafts locks; the vault header's lock is a leaf.
LOCK_ORDER = ("config", "proposals", "topics", "curate", "ingest", "drafts", "ledger", "vault-header")


@dataclass
class BackupResult:
    snapshot: str
    files: int = 0
    size: int = 0
    new_blobs: int = 0
    new_bytes: int = 0
    reused_blobs: int = 0
    unclassified: list[str] = field(default_factory=list)  # top-level entries the table does not know
    skipped: list[str] = field(default_factory=list)  # links and special files, which no writer of ours makes


@contextlib.contextmanager
def quiet_home(paths: HomePaths) -> Iterator[None]:
    """Hold every writer's lock of the home (see the module notes)."""
    with contextlib.ExitStack() as stack:
        for name in LOCK_ORDER:
            stack.enter_context(file_lock(paths.lock(name)))
        yield


def check_destination(paths: HomePaths, dest: Path) -> None:
    """Refuse a missing home, and a repository inside the home (each backup would hold the ones before
    it), before a repository is created."""
    if not paths.root.is_dir():
        raise NotFound(f"{paths.root}: no data home here to back up")
    if dest.absolute().resolve().is_relative_to(paths.root.absolute().resolve()):
        raise HomeError(f"{dest}: inside the home it would back up; choose a folder outside {paths.root}")


def take_backup(paths: HomePaths, repo: Repository) -> BackupResult:
    """A new snapshot of ``paths`` in ``repo``; returns what it held and what it had to write."""
    check_destination(paths, repo.root)
    moment = clock.utc_now()
    manifest = Manifest(name=f"{moment:%Y%m%dT%H%M%S.%fZ}-{secrets.token_hex(4)}",
                        time=moment.isoformat(timespec="seconds"), host=socket.gethostname(), home=str(paths.root))
    result = BackupResult(manifest.name)
    with repo.writing():
        with quiet_home(paths):
            _copy_home(paths.root, repo, manifest, result)
        repo.sync()  # every blob durable before the manifest that names them (the home's writers go on)
        repo.write_snapshot(manifest)
    result.files, result.size, result.unclassified = len(manifest.files), manifest.size, manifest.unclassified
    return result


def _copy_home(root: Path, repo: Repository, manifest: Manifest, result: BackupResult) -> None:
    with os.scandir(root) as listing:
        top = sorted(listing, key=lambda e: e.name)
    for entry in top:
        if not is_backed_up(entry.name) or is_temporary(entry.name):
            continue
        if entry.name not in HOME_ENTRIES:
            manifest.unclassified.append(entry.name)
        _copy_entry(entry, entry.name, repo, manifest, result)


def _copy_entry(entry: os.DirEntry[str], rel: str, repo: Repository, manifest: Manifest,
                result: BackupResult) -> None:
    if entry.is_dir(follow_symlinks=False):
        manifest.dirs.append(DirEntry(rel, entry.stat(follow_symlinks=False).st_mode & 0o777))
        with os.scandir(entry.path) as listing:
            children = sorted(listing, key=lambda e: e.name)
        for child in children:
            if not is_temporary(child.name):
                _copy_entry(child, f"{rel}/{child.name}", repo, manifest, result)
    elif entry.is_file(follow_symlinks=False):
        stored = _store_file(Path(entry.path), rel, repo, result)
        if stored is None:
            result.skipped.append(rel)
        else:
            manifest.files.append(stored)
    else:
        result.skipped.append(rel)


def _store_file(path: Path, rel: str, repo: Repository, result: BackupResult) -> FileEntry | None:
    """Cut the file into chunks, store the chunks the repository lacks; None if it vanished or is not
    a regular file any more."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except (FileNotFoundError, OSError):
        return None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            return None
        digest = hashlib.sha256()
        blobs: list[str] = []
        size = 0
        while chunk := handle.read(CHUNK_SIZE):
            digest.update(chunk)
            size += len(chunk)
            blob_id = repo.keys.blob_id(chunk)
            blobs.append(blob_id)
            if repo.has_blob(blob_id, len(chunk)):
                result.reused_blobs += 1
            else:
                repo.put_blob(blob_id, chunk)
                result.new_blobs += 1
                result.new_bytes += len(chunk)
    return FileEntry(rel, info.st_mode & 0o777, size, digest.hexdigest(), info.st_mtime_ns, tuple(blobs))
