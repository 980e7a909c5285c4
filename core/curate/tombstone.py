"""Tombstones: the note left where a record was, saying where it went and how to bring it back.

A tombstone is a JSON file named ``<record name>.tombstone`` beside where the record was (the
``.tombstone`` suffix means no kind's reader, and no agent reading ``*.md`` or ``*.json``, takes it
for a record). A copy (the mirror) is kept in cold storage beside the record's bytes, so a record
stays restorable even if a tool tidies the tombstone away::

    cold/<scope>/<move_id>/record/<name>     the record's bytes, exactly
    cold/<scope>/<move_id>/tombstone.json    the mirror

Every path in a tombstone is relative (``path`` and ``tombstone`` to the scope root, ``cold_path``
to the data home) and is validated before anything is restored: see :func:`validate`.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from core.curate.errors import PathEscape
from core.curate.relpath import contained, safe_rel
from core.errors import RecordError
from core.paths import HomePaths
from core.typed import convert, to_builtins

if TYPE_CHECKING:
    from core.curate.scopes import Scope

TOMBSTONE_SUFFIX = ".tombstone"  # no kind's reader takes a file of this name for a record

FORMAT = "reverie.tombstone"
FORMAT_VERSION = 1
MIRROR_NAME = "tombstone.json"
MOVE_ID = re.compile(r"^m-\d{8}T\d{6}-[0-9a-f]{12}\Z")
SHA256 = re.compile(r"^[0-9a-f]{64}\Z")
NOTE = ("Moved to cold storage by Reverie (nothing was deleted). "
        "Bring it back with: reverie curate restore <this file>")


def new_move_id(now: datetime) -> str:
    return f"m-{now.strftime('%Y%m%dT%H%M%S')}-{secrets.token_hex(6)}"


@dataclass(frozen=True)
class Tombstone:
    move_id: str
    scope: str
    kind: str
    path: str  # the record, relative to the scope root
    tombstone: str  # this tombstone, relative to the scope root
    cold_path: str  # the record's bytes, relative to the data home
    sha256: str
    size: int
    mode: int
    mtime_ns: int
    moved_at: str
    rubric_version: int
    tier: str
    approved: bool
    signals: tuple[str, ...] = ()
    details: Mapping[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The stored form: the fields (by msgspec, in declared order) between the format and the note.
        Kept written out for a fixed byte layout: :meth:`to_bytes` sorts these keys, and the SHA-256 of
        those bytes is recorded in the signed ledger entry of the move."""
        return {"format": FORMAT, "format_version": FORMAT_VERSION, **to_builtins(self), "note": NOTE}

    def to_bytes(self) -> bytes:
        return (json.dumps(self.to_dict(), ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode("utf-8")

    @classmethod
    def from_bytes(cls, data: bytes, where: str) -> Tombstone:
        """Each field's JSON type is checked by msgspec (``bool`` is no ``int``); a wrong one is named."""
        try:
            obj = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise RecordError(f"{where}: not a tombstone: {exc}") from exc
        if not isinstance(obj, dict) or obj.get("format") != FORMAT:
            raise RecordError(f"{where}: not a tombstone (field 'format')")
        if obj.get("format_version") != FORMAT_VERSION:
            raise RecordError(f"{where}: unsupported tombstone version {obj.get('format_version')!r}")
        stone = convert(obj, cls, where, RecordError)
        if not MOVE_ID.match(stone.move_id):
            raise RecordError(f"{where}: field 'move_id' malformed: {stone.move_id!r}")
        if not SHA256.match(stone.sha256):
            raise RecordError(f"{where}: field 'sha256' is not a SHA-256")
        return stone


def cold_rel(scope: str, move_id: str, rel: str) -> str:
    return f"cold/{scope}/{move_id}/record/{PurePosixPath(rel).name}"


def mirror_path(paths: HomePaths, scope: str, move_id: str) -> Path:
    return paths.cold / scope / move_id / MIRROR_NAME


@dataclass(frozen=True)
class Places:
    """Where a validated tombstone's record goes back to, and where its bytes and notes are."""

    target: Path  # where the record was (and goes back to)
    tombstone: Path  # the tombstone beside it
    cold: Path  # the record's bytes in cold storage
    mirror: Path  # the tombstone's copy in cold storage


def validate(stone: Tombstone, scope: Scope, paths: HomePaths) -> Places:
    """Check every path in ``stone`` and return where things are; ``PathEscape`` names the field.

    Rules: ``path`` and ``tombstone`` are relative, without ``..``, ``.`` or empty segments, and land
    (symlinks resolved) inside the scope root; the tombstone sits in the record's own folder;
    ``cold_path`` is exactly ``cold/<scope>/<move_id>/record/<name>`` and resolves inside ``cold/``.
    """
    where = f"tombstone {stone.move_id}"
    if stone.scope != scope.name:
        raise PathEscape(f"{where}: field 'scope' is {stone.scope!r}, not {scope.name!r}")
    rel = safe_rel(stone.path, f"{where}: field 'path'")
    stone_rel = safe_rel(stone.tombstone, f"{where}: field 'tombstone'")
    if stone_rel.parent != rel.parent or not stone_rel.name.endswith(TOMBSTONE_SUFFIX):
        raise PathEscape(f"{where}: field 'tombstone' ({stone_rel}) is not beside {rel}")
    target = contained(scope.root, rel, f"{where}: field 'path'")
    tomb = contained(scope.root, stone_rel, f"{where}: field 'tombstone'")
    expected = cold_rel(scope.name, stone.move_id, stone.path)
    if stone.cold_path != expected:
        raise PathEscape(f"{where}: field 'cold_path' is {stone.cold_path!r}, expected {expected!r}")
    inner = safe_rel(stone.cold_path, f"{where}: field 'cold_path'").relative_to("cold")
    cold = contained(paths.cold, inner, f"{where}: field 'cold_path'")
    return Places(target=target, tombstone=tomb, cold=cold, mirror=mirror_path(paths, scope.name, stone.move_id))
