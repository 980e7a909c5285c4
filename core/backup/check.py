"""``reverie backup check``: verify a repository without restoring it.

Always: the config opens (a wrong passphrase is refused before this, as its own error), every
manifest decrypts, authenticates and parses, every path in it stays inside the home, every blob a
manifest names exists and has the size its chunk implies. With ``read_data`` every blob is also read,
decrypted, authenticated and hashed to its id. Each problem names the blob or manifest and the files
(and snapshots) that need it. Blobs no snapshot names and temporary files (what an interrupted
backup leaves) are notes, not damage.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from core.backup.manifest import BackupDamaged, FileEntry, safe_relpath
from core.backup.repository import CHUNK_SIZE, OVERHEAD, Repository, leftover_temporaries

MAX_NAMED = 5  # files named per damaged blob; the rest are counted


@dataclass
class CheckReport:
    snapshots: int = 0
    blobs: int = 0
    blobs_read: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def _expected_sizes(entry: FileEntry) -> list[int]:
    """The plaintext size of each of the file's blobs (every chunk full but the last)."""
    sizes = [CHUNK_SIZE] * len(entry.blobs)
    if entry.blobs:
        sizes[-1] = entry.size - CHUNK_SIZE * (len(entry.blobs) - 1)
    return sizes


def _users(refs: list[tuple[str, str]]) -> str:
    named = ", ".join(f"{path} (snapshot {snap})" for snap, path in refs[:MAX_NAMED])
    more = f" and {len(refs) - MAX_NAMED} more" if len(refs) > MAX_NAMED else ""
    return f"needed by {named}{more}"


def check_repository(repo: Repository, *, read_data: bool = False) -> CheckReport:
    report = CheckReport()
    users: dict[str, list[tuple[str, str]]] = defaultdict(list)
    sizes: dict[str, int] = {}
    names, stray = repo.snapshot_names()
    for name in names:
        try:
            manifest = repo.read_snapshot(name)
        except BackupDamaged as exc:
            report.problems.append(str(exc))
            continue
        report.snapshots += 1
        for entry in manifest.files:
            try:
                safe_relpath(entry.path, f"snapshot {name}")
            except BackupDamaged as exc:
                report.problems.append(str(exc))
            if len(entry.blobs) != -(-entry.size // CHUNK_SIZE):
                report.problems.append(f"snapshot {name}: {entry.path}: {len(entry.blobs)} blobs "
                                       f"for {entry.size} bytes")
                continue
            for blob_id, size in zip(entry.blobs, _expected_sizes(entry), strict=True):
                users[blob_id].append((name, entry.path))
                sizes[blob_id] = size
    on_disk, other = repo.blob_sizes()
    report.blobs = len(users)
    for blob_id in sorted(users):
        refs = users[blob_id]
        if blob_id not in on_disk:
            report.problems.append(f"blob {blob_id}: missing; {_users(refs)}")
        elif on_disk[blob_id] != sizes[blob_id] + OVERHEAD:
            report.problems.append(f"blob {blob_id}: {on_disk[blob_id]} bytes, not {sizes[blob_id] + OVERHEAD} "
                                   f"(truncated or replaced); {_users(refs)}")
        elif read_data:
            try:
                repo.get_blob(blob_id)
                report.blobs_read += 1
            except BackupDamaged as exc:
                report.problems.append(f"{exc}; {_users(refs)}")
    _notes(report, on_disk, users, other + stray)
    return report


def _notes(report: CheckReport, on_disk: dict[str, int], users: dict[str, list[tuple[str, str]]],
           other: list[Path]) -> None:
    unreferenced = len(set(on_disk) - set(users))
    if unreferenced:
        report.notes.append(f"{unreferenced} blob(s) no snapshot names (an interrupted backup's; harmless, "
                            "the next backup reuses those it needs)")
    temps = leftover_temporaries(other)
    if temps:
        report.notes.append(f"{len(temps)} temporary file(s) an interrupted write left (harmless)")
    strays = [p for p in other if p not in temps]
    if strays:
        report.notes.append(f"{len(strays)} file(s) the repository format does not have, e.g. {strays[0]} (ignored)")
