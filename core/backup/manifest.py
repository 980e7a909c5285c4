"""A snapshot's manifest: every directory and file of the home it holds, each file with its mode, size,
plaintext SHA-256 and the ids of the blobs its bytes were cut into. Stored encrypted
(:mod:`core.backup.repository`); parsed strictly, every malformed field a :class:`BackupDamaged`
naming the snapshot and the field."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from core.errors import ReverieError
from core.typed import to_builtins

MANIFEST_FORMAT = "reverie.backup-snapshot"
MANIFEST_VERSION = 1
SNAPSHOT_NAME = re.compile(r"^\d{8}T\d{6}\.\d{6}Z-[0-9a-f]{8}$")  # UTC time to the microsecond: sorts by time
BLOB_ID = re.compile(r"^[0-9a-f]{64}$")
_SHA256 = BLOB_ID


class BackupDamaged(ReverieError):
    """The backup repository is damaged: a blob, a manifest or its config does not authenticate, is
    missing or is malformed. Verification failed, hence exit code 1."""

    exit_code = 1


def safe_relpath(text: object, where: str) -> PurePosixPath:
    """``text`` as a path inside a home: relative, '/'-separated, no '.', '..' or empty part, no NUL or
    backslash. Anything else raises :class:`BackupDamaged` naming ``where``: a manifest can never
    place a file outside the folder it is restored into."""
    if not isinstance(text, str) or not text:
        raise BackupDamaged(f"{where}: path missing")
    if text.startswith("/") or "\\" in text or "\x00" in text:
        raise BackupDamaged(f"{where}: path {text!r} is not relative to the home")
    parts = text.split("/")
    if any(part in ("", ".", "..") for part in parts):
        raise BackupDamaged(f"{where}: path {text!r} leaves the home or is not normalised")
    return PurePosixPath(*parts)


@dataclass(frozen=True)
class FileEntry:
    path: str
    mode: int  # permission bits only
    size: int
    sha256: str
    mtime_ns: int
    blobs: tuple[str, ...]


@dataclass(frozen=True)
class DirEntry:
    path: str
    mode: int


@dataclass
class Manifest:
    """What one snapshot holds. ``home`` is where it was taken from (shown, never used to restore)."""

    name: str
    time: str
    host: str
    home: str
    files: list[FileEntry] = field(default_factory=list)
    dirs: list[DirEntry] = field(default_factory=list)
    unclassified: list[str] = field(default_factory=list)

    @property
    def size(self) -> int:
        return sum(f.size for f in self.files)

    def to_bytes(self) -> bytes:
        body = {
            "format": MANIFEST_FORMAT, "version": MANIFEST_VERSION, "name": self.name, "time": self.time,
            "host": self.host, "home": self.home,
            "dirs": to_builtins(self.dirs), "files": to_builtins(self.files),
            "unclassified": self.unclassified,
        }
        return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

    @classmethod
    def from_bytes(cls, data: bytes, name: str) -> Manifest:
        where = f"snapshot {name}"
        try:
            body = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            raise BackupDamaged(f"{where}: manifest is not JSON ({exc})") from None
        if not isinstance(body, dict) or body.get("format") != MANIFEST_FORMAT:
            raise BackupDamaged(f"{where}: not a snapshot manifest (field 'format')")
        if body.get("version") != MANIFEST_VERSION:
            raise BackupDamaged(f"{where}: unsupported manifest version {body.get('version')!r}")
        if body.get("name") != name:
            raise BackupDamaged(f"{where}: manifest names another snapshot ({body.get('name')!r})")
        strings = {key: body.get(key) for key in ("time", "host", "home")}
        for key, value in strings.items():
            if not isinstance(value, str):
                raise BackupDamaged(f"{where}: field '{key}' missing or not text")
        dirs = [_dir(item, f"{where}: dirs[{i}]") for i, item in enumerate(_list(body, "dirs", where))]
        files = [_file(item, f"{where}: files[{i}]") for i, item in enumerate(_list(body, "files", where))]
        unclassified = [str(item) for item in _list(body, "unclassified", where)]
        return cls(name, str(strings["time"]), str(strings["host"]), str(strings["home"]), files, dirs, unclassified)


def _list(body: dict[str, Any], key: str, where: str) -> list[Any]:
    value = body.get(key)
    if not isinstance(value, list):
        raise BackupDamaged(f"{where}: field '{key}' missing or not a list")
    return value


def _int(item: dict[str, Any], key: str, where: str) -> int:
    value = item.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise BackupDamaged(f"{where}: field '{key}' missing or not a count")
    return value


def _dir(item: object, where: str) -> DirEntry:
    if not isinstance(item, dict):
        raise BackupDamaged(f"{where}: not an object")
    return DirEntry(str(item.get("path")), _int(item, "mode", where) & 0o777)


def _file(item: object, where: str) -> FileEntry:
    if not isinstance(item, dict):
        raise BackupDamaged(f"{where}: not an object")
    blobs = item.get("blobs")
    if not isinstance(blobs, list) or not all(isinstance(b, str) and BLOB_ID.match(b) for b in blobs):
        raise BackupDamaged(f"{where}: field 'blobs' missing or not a list of blob ids")
    digest = item.get("sha256")
    if not isinstance(digest, str) or not _SHA256.match(digest):
        raise BackupDamaged(f"{where}: field 'sha256' missing or not a SHA-256")
    return FileEntry(str(item.get("path")), _int(item, "mode", where) & 0o777, _int(item, "size", where), digest,
                     _int(item, "mtime_ns", where), tuple(blobs))
