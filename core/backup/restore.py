"""Restoring a snapshot into an empty (or new) home.

Everything is written into a staging folder beside the target (``.<name>.restoring-<random>``),
each file checked against its size and SHA-256, with the modes the snapshot recorded; only then (after
one ``sync(2)``) is the staging folder renamed to the target. A damaged blob, a manifest path that would leave the home,
or a kill leaves the target as it was (a kill leaves the staging folder, which can be deleted).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import shutil
from dataclasses import dataclass
from pathlib import Path

from core.backup.manifest import BackupDamaged, FileEntry, Manifest, safe_relpath
from core.backup.repository import Repository
from core.errors import HomeError, NotFound
from core.fsutil import PRIVATE_DIR_MODE, ensure_private_dir, fsync_dir


@dataclass(frozen=True)
class RestoreResult:
    snapshot: str
    target: Path
    files: int
    size: int


def pick_snapshot(repo: Repository, wanted: str | None) -> Manifest:
    """The snapshot named ``wanted`` (a whole name or a prefix naming one), else the latest."""
    names, _ = repo.snapshot_names()
    if not names:
        raise NotFound(f"{repo.root}: the repository holds no snapshot yet")
    if wanted is None or wanted == "latest":
        return repo.read_snapshot(names[-1])
    matches = [name for name in names if name.startswith(wanted)]
    if len(matches) != 1:
        what = "no snapshot" if not matches else f"{len(matches)} snapshots"
        raise NotFound(f"{repo.root}: {what} named {wanted!r} (`reverie backup list` shows them)")
    return repo.read_snapshot(matches[0])


def check_empty_target(target: Path) -> None:
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        raise HomeError(f"{target}: not a folder; restore goes into an empty or new folder only")
    if target.is_dir() and any(target.iterdir()):
        raise HomeError(f"{target}: not empty; restore goes into an empty or new folder only, nothing was written")


def restore_snapshot(repo: Repository, manifest: Manifest, target: Path) -> RestoreResult:
    """Write ``manifest``'s files into ``target`` (see the module notes)."""
    target = target.absolute()
    check_empty_target(target)
    where = f"snapshot {manifest.name}"
    dirs = [(safe_relpath(d.path, where), d.mode) for d in manifest.dirs]
    files = [(safe_relpath(f.path, where), f) for f in manifest.files]  # every path checked before any write
    if not target.parent.exists():
        ensure_private_dir(target.parent)  # only what is missing: an existing parent keeps its mode
    staging = target.parent / f".{target.name}.restoring-{secrets.token_hex(4)}"
    staging.mkdir(mode=PRIVATE_DIR_MODE)
    try:
        for rel, _ in dirs:
            (staging / rel).mkdir(mode=PRIVATE_DIR_MODE, parents=True, exist_ok=True)
        for rel, entry in files:
            _restore_file(repo, staging, rel.as_posix(), entry, where)
        for rel, mode in sorted(dirs, key=lambda d: len(d[0].parts), reverse=True):
            os.chmod(staging / rel, mode | 0o700)  # the owner keeps access, as the home's writers assume
        os.sync()  # every file and folder durable before the rename makes them the home
        if target.is_dir():
            target.rmdir()  # empty, checked above
        os.rename(staging, target)
        fsync_dir(target.parent)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return RestoreResult(manifest.name, target, len(files), manifest.size)


def _restore_file(repo: Repository, staging: Path, rel: str, entry: FileEntry, where: str) -> None:
    path = staging / rel
    if not path.parent.resolve().is_relative_to(staging.resolve()):
        raise BackupDamaged(f"{where}: path {rel!r} leaves the home")
    path.parent.mkdir(mode=PRIVATE_DIR_MODE, parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except FileExistsError:
        raise BackupDamaged(f"{where}: {rel} is listed twice") from None
    digest = hashlib.sha256()
    size = 0
    with os.fdopen(fd, "wb") as handle:
        for blob_id in entry.blobs:
            try:
                chunk = repo.get_blob(blob_id)
            except BackupDamaged as exc:
                raise BackupDamaged(f"{where}: {rel}: {exc}; nothing was restored") from None
            digest.update(chunk)
            size += len(chunk)
            handle.write(chunk)
        os.fchmod(handle.fileno(), entry.mode)
    if size != entry.size or digest.hexdigest() != entry.sha256:
        raise BackupDamaged(f"{where}: {rel}: restored bytes do not match the recorded SHA-256; nothing was restored")
    with contextlib.suppress(OSError):
        os.utime(path, ns=(entry.mtime_ns, entry.mtime_ns))
