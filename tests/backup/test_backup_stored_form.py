"""A snapshot's manifest as the earlier, hand-written code wrote it: read back, and written again byte
for byte (the manifest is encrypted as these bytes)."""

from __future__ import annotations

import pytest

from core.backup.manifest import BackupDamaged, DirEntry, FileEntry, Manifest

NAME = "20261103T100000.000000Z-0a1b2c3d"
A, B, C, E = "a" * 64, "b" * 64, "c" * 64, "e" * 64
# Written by the previous code (json.dumps of hand-written dicts, compact), kept literally.
OLD_BYTES = (
    '{"format":"reverie.backup-snapshot","version":1,"name":"20261103T100000.000000Z-0a1b2c3d",'
    '"time":"2026-11-03T10:00:00Z","host":"desk","home":"/home/me/.reverie ✓",'
    '"dirs":[{"path":"vault","mode":448}],'
    f'"files":[{{"path":"vault/a.json","mode":384,"size":12,"sha256":"{A}","mtime_ns":1700000000123456789,'
    f'"blobs":["{B}","{C}"]}},{{"path":"config.toml","mode":384,"size":0,"sha256":"{E}","mtime_ns":5,"blobs":[]}}],'
    '"unclassified":["stray/x ✓"]}'
).encode()
MANIFEST = Manifest(NAME, "2026-11-03T10:00:00Z", "desk", "/home/me/.reverie ✓",
                    [FileEntry("vault/a.json", 0o600, 12, A, 1700000000123456789, (B, C)),
                     FileEntry("config.toml", 0o600, 0, E, 5, ())],
                    [DirEntry("vault", 0o700)], ["stray/x ✓"])


def test_the_manifest_reads_and_writes_the_old_bytes() -> None:
    assert Manifest.from_bytes(OLD_BYTES, NAME) == MANIFEST
    assert MANIFEST.to_bytes() == OLD_BYTES


def test_a_path_that_is_not_text_cannot_be_written() -> None:
    bad = Manifest(NAME, "t", "h", "/h", [FileEntry("x\udcff", 0o600, 0, E, 0, ())])
    with pytest.raises(UnicodeEncodeError):
        bad.to_bytes()
    with pytest.raises(BackupDamaged, match="files\\[0\\]: field 'sha256'"):
        Manifest.from_bytes(OLD_BYTES.replace(A.encode(), b"nope"), NAME)
