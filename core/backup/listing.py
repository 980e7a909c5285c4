"""``reverie backup list``: the snapshots of a repository, oldest first."""

from __future__ import annotations

from dataclasses import dataclass

from core.backup.manifest import BackupDamaged
from core.backup.repository import Repository


@dataclass(frozen=True)
class SnapshotInfo:
    name: str
    time: str
    host: str
    home: str
    files: int
    size: int
    damage: str | None = None  # why the manifest could not be read (``reverie backup check`` says more)


def list_snapshots(repo: Repository) -> list[SnapshotInfo]:
    infos: list[SnapshotInfo] = []
    for name in repo.snapshot_names()[0]:
        try:
            manifest = repo.read_snapshot(name)
        except BackupDamaged as exc:
            infos.append(SnapshotInfo(name, "", "", "", 0, 0, str(exc)))
            continue
        infos.append(SnapshotInfo(name, manifest.time, manifest.host, manifest.home, len(manifest.files),
                                  manifest.size))
    return infos
