"""Cold storage as ``reverie verify`` sees it: every move the ledger records is in cold storage with
the checksum the ledger signed, its tombstone and the tombstone's copy (the mirror) unchanged, and
everything in cold storage was recorded.

:func:`check_cold_storage` is one of ``core.workbench.verify.default_extra_checks`` (vault memories'
cold copies are checked there with the other records, through :func:`pending_moves`). It names copies,
mirrors and tombstones that changed or went missing, a mirror that disagrees with the ledger, anything
planted in ``cold/``, a restore that did not put back what its move took (:func:`check_restores`), and
reports a move or restore interrupted mid-way as ``incomplete`` (its journal is in
``curation/pending/``; ``reverie curate recover`` finishes or rolls it back).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from core.config import load_config
from core.curate.tombstone import FORMAT as TOMBSTONE_FORMAT
from core.curate.tombstone import MIRROR_NAME
from core.errors import ReverieError
from core.integrity import Problem
from core.paths import HomePaths
from core.vault.crypto import VaultKeys
from core.vault.ledger import LedgerEntry, LedgerReading

# Fields of a tombstone that its ledger entry's ``data`` also records.
LEDGER_BOUND = ("scope", "path", "cold_path", "tombstone", "move_id", "signals", "tier", "rubric_version", "approved")


def inside(root: Path, relative: str) -> Path | None:
    """``root / relative`` if it resolves inside ``root``, else None."""
    candidate = (root / relative).resolve()
    return candidate if candidate.is_relative_to(root.resolve()) else None


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# --- interrupted moves and restores -------------------------------------------------------------------


@dataclass(frozen=True)
class PendingMove:
    """A journal in ``curation/pending/``: a move or restore that has not finished."""

    move_id: str
    op: str
    journal: Path
    stone: dict[str, Any]


def pending_moves(paths: HomePaths) -> dict[str, PendingMove]:
    folder = paths.curation / "pending"
    found: dict[str, PendingMove] = {}
    for journal in sorted(folder.glob("m-*.json")) if folder.is_dir() else []:
        move_id, _, op = journal.name[: -len(".json")].partition(".")
        try:
            stone = json.loads(journal.read_bytes()).get("tombstone")
        except (OSError, ValueError, AttributeError, RecursionError):
            stone = None
        found[move_id] = PendingMove(move_id, op, journal, stone if isinstance(stone, dict) else {})
    return found


# --- the ledger's view ----------------------------------------------------------------------------------


def latest_by_move(reading: LedgerReading) -> dict[str, LedgerEntry]:
    """Move id → the latest ``archive`` or ``restore`` entry about it."""
    latest: dict[str, LedgerEntry] = {}
    for entry in reading.entries:
        move_id = entry.data.get("move_id") if isinstance(entry.data, dict) else None
        if entry.kind in ("archive", "restore") and isinstance(move_id, str):
            latest[move_id] = entry
    return latest


def _scope_roots(paths: HomePaths) -> dict[str, Path]:
    """Scope name → folder, for the scopes outside the home (their tombstones sit there). Best effort:
    a config that does not load means those tombstones are not compared, never that verify fails."""
    try:
        config = load_config(paths.config)
    except (ReverieError, OSError, ValueError):
        return {}
    return {s.name: Path(s.path).expanduser().absolute() for s in config.curation.scopes
            if s.kind != "vault" and s.path}


# --- one recorded move ----------------------------------------------------------------------------------


def _check_mirror(mirror: Path, entry: LedgerEntry, subject: str) -> tuple[list[Problem], bytes | None]:
    """The tombstone's copy in cold storage: exactly the form curation writes, every field the ledger
    also records equal to what it recorded, and (when the entry has it) the SHA-256 it recorded."""
    try:
        data = mirror.read_bytes()
        stone = json.loads(data.decode("utf-8"))
    except FileNotFoundError:
        return [Problem("removed", subject, f"the tombstone's copy is missing (moved at seq {entry.seq})")], None
    except (OSError, ValueError, RecursionError) as exc:
        return [Problem("modified", subject, f"the tombstone's copy is unreadable: {type(exc).__name__}")], None
    if not isinstance(stone, dict) or stone.get("format") != TOMBSTONE_FORMAT:
        return [Problem("modified", subject, "not a tombstone (field 'format')")], data
    try:
        written = (json.dumps(stone, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode("utf-8")
    except UnicodeEncodeError:
        written = b""
    if data != written:
        return [Problem("modified", subject, "the file's bytes differ from the tombstone it holds")], data
    differs = [key for key in LEDGER_BOUND if stone.get(key) != entry.data.get(key)]
    if stone.get("sha256") != entry.record_sha256:
        differs.append("sha256")
    recorded = entry.data.get("tombstone_sha256")
    if isinstance(recorded, str) and _sha256(data) != recorded:
        differs.append("its SHA-256")
    if differs:
        why = f"disagrees with the ledger (seq {entry.seq}) on {', '.join(differs)}"
        return [Problem("modified", subject, why)], data
    return [], data


def _disagree(stone: str, mirror: str) -> list[Problem]:
    """A tombstone and its copy in cold storage differ: one of them was changed, and which one the
    fields the ledger does not record cannot tell, so both are named."""
    return [Problem("modified", stone, f"differs from its copy in cold storage ({mirror})"),
            Problem("modified", mirror, f"differs from the tombstone beside the record ({stone})")]


def _check_archived(paths: HomePaths, entry: LedgerEntry, move_id: str, pending: PendingMove | None,
                    roots: dict[str, Path]) -> list[Problem]:
    problems: list[Problem] = []
    data = entry.data
    cold_rel = str(data.get("cold_path", ""))
    cold = inside(paths.root, cold_rel)
    if not entry.record_id.startswith("mem_"):  # vault memories' copies are checked with the memories
        if cold is None or not cold.is_file():
            problems.append(Problem("removed", cold_rel or entry.record_id,
                                    f"cold-storage copy of {entry.record_id} is missing"))
        elif _sha256(cold.read_bytes()) != entry.record_sha256:
            problems.append(Problem("modified", cold_rel, f"cold copy of {entry.record_id} does not match the ledger"))
    scope = str(data.get("scope", ""))
    mirror_rel = f"cold/{scope}/{move_id}/{MIRROR_NAME}"
    mirror = inside(paths.root, mirror_rel)
    if mirror is None:
        return [*problems, Problem("modified", entry.record_id, f"ledger seq {entry.seq} names a scope outside cold/")]
    found, mirror_bytes = _check_mirror(mirror, entry, mirror_rel)
    if found and pending is not None and pending.op == "move" and mirror_bytes is None:
        found = [Problem("incomplete", mirror_rel, f"an interrupted move (journal {pending.journal.name})")]
    problems.extend(found)
    if (not found and mirror_bytes is not None and cold is not None and cold.is_file()
            and json.loads(mirror_bytes).get("size") != cold.stat().st_size):
        problems.append(Problem("modified", mirror_rel, "its size disagrees with the cold copy"))
    stone_rel = str(data.get("tombstone", ""))
    if entry.record_id.startswith("mem_"):
        stone = inside(paths.vault, stone_rel)
        subject = f"vault/{stone_rel}"
        if stone is None or not stone.is_file():
            if pending is None:
                problems.append(Problem("removed", subject, f"the tombstone of {entry.record_id} is missing"))
        elif mirror_bytes is not None and stone.read_bytes() != mirror_bytes:
            problems.extend(_disagree(subject, mirror_rel))
    elif scope in roots and mirror_bytes is not None and stone_rel:
        outside = roots[scope].joinpath(*PurePosixPath(stone_rel).parts)
        # A tombstone outside the home may be tidied away by a tool (the mirror keeps the record
        # restorable, and the ledger's tombstone_sha256 keeps the mirror honest); one that is there
        # must still be the one curation wrote.
        if outside.is_file() and outside.read_bytes() != mirror_bytes:
            problems.extend(_disagree(str(outside), mirror_rel))
    return problems


# Fields of a move every ``restore`` entry repeats from its ``archive`` entry.
RESTORE_BOUND = ("scope", "path", "cold_path", "tombstone")


def check_restores(reading: LedgerReading) -> list[Problem]:
    """Each ``restore`` entry against the ``archive`` entry of its move before it: the same record (id and
    SHA-256) put back at the same place. A restore that trusted an edited tombstone (signed before restore
    checked tombstones against the ledger) names other bytes or another path, and shows here."""
    problems: list[Problem] = []
    archived: dict[str, LedgerEntry] = {}
    for entry in reading.entries:
        move_id = entry.data.get("move_id")
        if not isinstance(move_id, str):
            continue
        if entry.kind == "archive":
            archived[move_id] = entry
        elif entry.kind == "restore":
            subject = f"ledger seq {entry.seq}"
            archive = archived.pop(move_id, None)
            if archive is None:
                why = f"restore of move {move_id} with no archive entry before it"
                problems.append(Problem("modified", subject, why))
                continue
            differs = [name for name in RESTORE_BOUND if entry.data.get(name) != archive.data.get(name)]
            if entry.record_id != archive.record_id:
                differs.append("record id")
            if entry.record_sha256 != archive.record_sha256:
                differs.append("sha256")
            if differs:
                why = (f"restore of move {move_id} disagrees with its archive entry (seq {archive.seq}) on "
                       f"{', '.join(differs)}: it put back something other than what was moved")
                problems.append(Problem("modified", subject, why))
    return problems


# --- the check ------------------------------------------------------------------------------------------


def check_cold_storage(paths: HomePaths, keys: VaultKeys, reading: LedgerReading) -> list[Problem]:
    """Cold storage against the ledger, named by path relative to the home (see the module docstring).
    An unrecorded move folder is ``incomplete`` only while its journal exists."""
    problems: list[Problem] = check_restores(reading)
    latest = latest_by_move(reading)
    pending = pending_moves(paths)
    roots = _scope_roots(paths) if latest else {}
    archived_stones: set[str] = set()
    for entry in reading.entries:  # entries written before moves carried a move id
        if entry.kind == "archive" and not isinstance(entry.data.get("move_id"), str):
            cold_rel = str(entry.data.get("cold_path", ""))
            cold = inside(paths.root, cold_rel)
            if cold is None or not cold.is_file():
                problems.append(Problem("removed", cold_rel or entry.record_id, "cold-storage copy is missing"))
    for move_id, entry in sorted(latest.items()):
        if entry.kind == "archive":
            problems.extend(_check_archived(paths, entry, move_id, pending.get(move_id), roots))
            if entry.record_id.startswith("mem_"):
                archived_stones.add(str(entry.data.get("tombstone", "")))
    folders = sorted(p for p in paths.cold.glob("*/*")) if paths.cold.is_dir() else []
    for folder in folders:
        subject = str(folder.relative_to(paths.root))
        if folder.name.startswith(".") and folder.name.endswith(".tmp"):
            continue  # a temporary file an interrupted write left; never read
        entry = latest.get(folder.name)
        move = pending.get(folder.name)
        if entry is not None and entry.kind == "archive" and folder.parent.name == entry.data.get("scope"):
            continue
        if move is not None:
            problems.append(Problem("incomplete", subject, f"an interrupted {move.op} (journal {move.journal.name}); "
                                                           "`reverie curate recover` finishes it"))
        elif entry is not None and entry.kind == "restore":
            problems.append(Problem("inserted", subject, f"still in cold storage, restored at seq {entry.seq}"))
        else:
            problems.append(Problem("inserted", subject, "in cold storage but never recorded in the ledger"))
    for stray in sorted(p for p in paths.cold.iterdir() if p.is_file()) if paths.cold.is_dir() else []:
        problems.append(Problem("inserted", str(stray.relative_to(paths.root)), "not part of any move"))
    pending_stones = {str(m.stone.get("tombstone", "")) for m in pending.values()}
    for stone in sorted(paths.vault.glob("*.tombstone")):
        if stone.name not in archived_stones and stone.name not in pending_stones:
            problems.append(Problem("inserted", f"vault/{stone.name}", "a tombstone no recorded move wrote"))
    for move in pending.values():
        what = move.stone.get("path", move.move_id)
        problems.append(Problem("incomplete", str(move.journal.relative_to(paths.root)),
                                f"an interrupted {move.op} of {what}; `reverie curate recover` finishes it"))
    return problems
