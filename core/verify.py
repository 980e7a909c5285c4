"""``reverie verify``: recompute everything and name each damaged record.

Checks, in order: the ledger chain and its signed head; every memory record (signature, ciphertext,
content hash, exact bytes, name) against the ledger's latest entry for it; memories the ledger places
in cold storage; drafts, and the finalized ones the ledger vouches for; sealed day logs; cold storage
(copies, tombstone mirrors, tombstones, anything planted there); and, when the person gives one, a
checkpoint they kept elsewhere.

Interrupted operations are not damage. A state that only a crash can leave, and that the next run
completes, is reported as ``incomplete`` (``VerifyReport.ok`` stays true), and only when the record's
bytes are exactly what the ledger signed or what this vault's key signed:

- a memory written by a finalize whose ledger entry is missing (the next finalize, or the app's
  start, records it: :meth:`MemoryVault.complete_interrupted`);
- a memory written by ``add`` / ``import`` with its intent still on disk (same);
- a draft the ledger finalized that still says "approved";
- one ledger entry after the signed head (the next append signs the head again);
- a move or restore of cold storage with its journal in ``curation/pending/`` (``reverie curate
  recover`` finishes or rolls it back).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from core.canonical import sha256_hex
from core.crypto import VaultKeys
from core.fsutil import file_lock
from core.integrity import Problem
from core.ledger import Checkpoint, LedgerEntry, LedgerReading
from core.paths import HomePaths
from core.review import ReviewDraft
from core.vault import MEMORY_KINDS, MemoryScan, MemoryVault

# Checks other parts of the home add (day-log seals, cold storage): (paths, keys, ledger reading) → problems.
ExtraCheck = Callable[[HomePaths, VaultKeys, LedgerReading], list[Problem]]

TOMBSTONE_FORMAT = "reverie.tombstone"
MIRROR_NAME = "tombstone.json"
# Fields of a tombstone that its ledger entry's ``data`` also records.
_LEDGER_BOUND = ("scope", "path", "cold_path", "tombstone", "move_id", "signals", "tier", "rubric_version", "approved")


@dataclass
class VerifyReport:
    problems: list[Problem] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    head: Checkpoint | None = None

    @property
    def ok(self) -> bool:
        return not [p for p in self.problems if p.kind != "incomplete"]

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "head": str(self.head) if self.head else None,
            "counts": self.counts,
            "problems": [p.to_dict() for p in self.problems],
        }


def _inside(root: Path, relative: str) -> Path | None:
    candidate = (root / relative).resolve()
    return candidate if candidate.is_relative_to(root.resolve()) else None


# --- interrupted cold-storage operations ------------------------------------------------------------


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


# --- memories -----------------------------------------------------------------------------------------


def _interrupted_finalize(vault: MemoryVault, scan: MemoryScan, memory_id: str,
                          drafts: dict[str, ReviewDraft]) -> str | None:
    """The draft whose interrupted finalization wrote ``memory_id``, if that is what it is."""
    memory = next((m for m in scan.memories if m.memory_id == memory_id), None)
    if memory is None:
        return None
    draft_id = (memory.review or {}).get("draft_id")
    draft = drafts.get(draft_id) if isinstance(draft_id, str) else None
    if draft is None or draft.state != "approved" or vault.memory_id_for_draft(draft.draft_id) != memory_id:
        return None
    return draft.draft_id


def _check_memories(vault: MemoryVault, reading: LedgerReading, drafts: dict[str, ReviewDraft],
                    pending: dict[str, PendingMove]) -> tuple[list[Problem], dict[str, int]]:
    problems: list[Problem] = []
    scan = vault.scan_memories()
    problems.extend(scan.problems)
    damaged = {p.subject for p in scan.problems}
    latest = {e.record_id: e for e in reading.entries if e.record_id.startswith("mem_")}
    on_disk = {path.stem for path in vault.paths.vault.glob("mem_*.json")}
    intents = vault.pending_adds()
    archived = 0
    for memory_id, entry in latest.items():
        subject = f"vault/{memory_id}.json"
        if entry.kind in MEMORY_KINDS:
            if memory_id not in on_disk:
                problems.append(Problem("removed", subject, f"the ledger records it ({entry.kind}, seq {entry.seq})"))
            elif memory_id in scan.file_sha256 and scan.file_sha256[memory_id] != entry.record_sha256:
                problems.append(
                    Problem("modified", subject, f"verifies but differs from the version sealed at seq {entry.seq}")
                )
        elif entry.kind == "archive":
            archived += 1
            if memory_id in on_disk and subject not in damaged:
                move = pending.get(str(entry.data.get("move_id", "")))
                if move is not None and scan.file_sha256.get(memory_id) == entry.record_sha256:
                    why = f"an interrupted {move.op} of this memory (journal {move.journal.name}); " \
                          "`reverie curate recover` finishes it"
                    problems.append(Problem("incomplete", subject, why))
                else:
                    problems.append(
                        Problem("inserted", subject, f"the ledger moved it to cold storage at seq {entry.seq}")
                    )
            cold = _inside(vault.paths.root, str(entry.data.get("cold_path", "")))
            if cold is None or not cold.is_file():
                problems.append(Problem("removed", subject, "its cold-storage copy is missing"))
            elif sha256_hex(cold.read_bytes()) != entry.record_sha256:
                problems.append(Problem("modified", subject, "its cold-storage copy does not match the ledger"))
    for memory_id in sorted(on_disk - set(latest)):
        subject = f"vault/{memory_id}.json"
        if subject in damaged:  # damaged and unknown: say both, the insertion is the headline
            problems.append(Problem("inserted", subject, "not recorded in the ledger (and does not verify)"))
            continue
        draft_id = _interrupted_finalize(vault, scan, memory_id, drafts)
        if draft_id is not None:
            problems.append(Problem("incomplete", subject, f"an interrupted finalization of draft {draft_id}; "
                                                           "finalizing it again (or opening the app) records it"))
        elif memory_id in intents and scan.file_sha256.get(memory_id) == intents[memory_id]:
            problems.append(Problem("incomplete", subject, "an interrupted add or import; the next write to the "
                                                           "vault (or opening the app) records it"))
        else:
            problems.append(Problem("inserted", subject, "not recorded in the ledger"))
    counts = {"memories": len(scan.memories), "memories_in_cold_storage": archived}
    return problems, counts


def _check_finalized_drafts(reading: LedgerReading, drafts: dict[str, ReviewDraft],
                            damaged: set[str]) -> list[Problem]:
    """A draft the ledger finalized is provenance: it stays, and says it was finalized as that memory."""
    problems: list[Problem] = []
    for entry in reading.entries:
        draft_id = entry.data.get("draft_id")
        if entry.kind != "finalize" or not isinstance(draft_id, str):
            continue
        subject = f"drafts/{draft_id}.json"
        if subject in damaged:
            continue
        draft = drafts.get(draft_id)
        if draft is None:
            problems.append(Problem("removed", subject, f"the ledger finalized it at seq {entry.seq} as "
                                                        f"{entry.record_id}; a finalized draft stays as provenance"))
        elif draft.state == "approved":
            problems.append(Problem("incomplete", subject, f"finalized at seq {entry.seq} but not yet marked so; "
                                                           "finalizing it again (or opening the app) marks it"))
        elif draft.state != "finalized" or draft.finalized_memory_id != entry.record_id:
            problems.append(Problem("modified", subject, f"the ledger finalized it at seq {entry.seq} as "
                                                         f"{entry.record_id}, the draft says otherwise"))
    return problems


# --- verify -------------------------------------------------------------------------------------------


WRITER_LOCKS = ("curate", "ingest", "drafts")  # every writer of records and the ledger holds one of these


@contextlib.contextmanager
def quiet_home(paths: HomePaths) -> Iterator[None]:
    """Hold the writers' locks (in one fixed order) so verify reads one moment of the home: a seal, a
    finalize or a move in another process cannot fall between reading the ledger and reading the
    records it vouches for. Writers wait a moment; a home that cannot be locked (a read-only copy) is
    read without them."""
    with contextlib.ExitStack() as stack:
        try:
            for name in WRITER_LOCKS:
                stack.enter_context(file_lock(paths.lock(name)))
        except OSError:
            stack.close()
        yield


def verify_home(
    paths: HomePaths,
    keys: VaultKeys,
    checkpoint: Checkpoint | None = None,
    extra_checks: list[ExtraCheck] | None = None,
) -> VerifyReport:
    with quiet_home(paths):
        return _verify(paths, keys, checkpoint, extra_checks)


def _verify(paths: HomePaths, keys: VaultKeys, checkpoint: Checkpoint | None,
            extra_checks: list[ExtraCheck] | None) -> VerifyReport:
    vault = MemoryVault.open(paths, keys)
    reading = vault.ledger.read()
    report = VerifyReport(head=reading.head())
    report.problems.extend(reading.problems)
    drafts = vault.scan_drafts()
    by_id = {d.draft_id: d for d in drafts.drafts}
    memory_problems, counts = _check_memories(vault, reading, by_id, pending_moves(paths))
    report.problems.extend(memory_problems)
    report.problems.extend(drafts.problems)
    report.problems.extend(_check_finalized_drafts(reading, by_id, {p.subject for p in drafts.problems}))
    for check in extra_checks if extra_checks is not None else default_extra_checks():
        report.problems.extend(check(paths, keys, reading))
    if checkpoint is not None:
        report.problems.extend(vault.ledger.check_against(checkpoint, reading))
    sealed_days = {e.record_id for e in reading.entries if e.kind in ("seal_day", "reseal_day")}
    report.counts = {
        **counts,
        "drafts": len(drafts.drafts),
        "sealed_days": len(sealed_days),
        "ledger_entries": len(reading.entries),
    }
    return report


# --- cold storage -------------------------------------------------------------------------------------


def _latest_by_move(reading: LedgerReading) -> dict[str, LedgerEntry]:
    latest: dict[str, LedgerEntry] = {}
    for entry in reading.entries:
        move_id = entry.data.get("move_id")
        if entry.kind in ("archive", "restore") and isinstance(move_id, str):
            latest[move_id] = entry
    return latest


def _scope_roots(paths: HomePaths) -> dict[str, Path]:
    """Scope name → folder, for the scopes outside the home (their tombstones sit there). Best effort:
    a config that does not load means those tombstones are not compared, never that verify fails."""
    from core.config import load_config
    from core.errors import ReverieError

    try:
        config = load_config(paths.config)
    except (ReverieError, OSError, ValueError):
        return {}
    return {s.name: Path(s.path).expanduser().absolute() for s in config.curation.scopes
            if s.kind != "vault" and s.path}


def _check_mirror(mirror: Path, entry: LedgerEntry, subject: str) -> tuple[list[Problem], bytes | None]:
    """The tombstone's copy in cold storage: exactly the form curation writes, and every field the
    ledger also records equal to what it recorded."""
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
    differs = [key for key in _LEDGER_BOUND if stone.get(key) != entry.data.get(key)]
    if stone.get("sha256") != entry.record_sha256:
        differs.append("sha256")
    recorded = entry.data.get("tombstone_sha256")
    if isinstance(recorded, str) and hashlib.sha256(data).hexdigest() != recorded:
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
    cold = _inside(paths.root, cold_rel)
    if not entry.record_id.startswith("mem_"):  # vault memories' copies are checked with the memories
        if cold is None or not cold.is_file():
            problems.append(Problem("removed", cold_rel or entry.record_id,
                                    f"cold-storage copy of {entry.record_id} is missing"))
        elif sha256_hex(cold.read_bytes()) != entry.record_sha256:
            problems.append(Problem("modified", cold_rel, f"cold copy of {entry.record_id} does not match the ledger"))
    scope = str(data.get("scope", ""))
    mirror_rel = f"cold/{scope}/{move_id}/{MIRROR_NAME}"
    mirror = _inside(paths.root, mirror_rel)
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
        stone = _inside(paths.vault, stone_rel)
        subject = f"vault/{stone_rel}"
        if stone is None or not stone.is_file():
            if pending is None:
                problems.append(Problem("removed", subject, f"the tombstone of {entry.record_id} is missing"))
        elif mirror_bytes is not None and stone.read_bytes() != mirror_bytes:
            problems.extend(_disagree(subject, mirror_rel))
    elif scope in roots and mirror_bytes is not None and stone_rel:
        outside = roots[scope].joinpath(*PurePosixPath(stone_rel).parts)
        # A tombstone outside the home may be tidied away by a tool (the mirror keeps the record
        # restorable); one that is there must still be the one curation wrote.
        if outside.is_file() and outside.read_bytes() != mirror_bytes:
            problems.extend(_disagree(str(outside), mirror_rel))
    return problems


def check_cold_copies(paths: HomePaths, keys: VaultKeys, reading: LedgerReading) -> list[Problem]:
    """Cold storage against the ledger: every recorded move's copy, tombstone copy and (for the vault)
    tombstone are there and unchanged; restored moves left nothing behind; nothing else was planted;
    interrupted moves and restores are ``incomplete`` (and only they: an unrecorded move folder is
    ``incomplete`` only while its journal exists). Vault memories' copies are checked with the other
    memory records."""
    problems: list[Problem] = []
    latest = _latest_by_move(reading)
    pending = pending_moves(paths)
    roots = _scope_roots(paths) if latest else {}
    archived_stones: set[str] = set()
    for entry in reading.entries:  # entries written before moves carried a move id
        if entry.kind == "archive" and not isinstance(entry.data.get("move_id"), str):
            cold_rel = str(entry.data.get("cold_path", ""))
            cold = _inside(paths.root, cold_rel)
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


def default_extra_checks() -> list[ExtraCheck]:
    """The checks of the other stores in the home, each in its own module.

    Cold storage is checked by :func:`check_cold_copies` (here), not by
    ``core.curate.integrity.check_cold_storage``: that one reports a move killed after its tombstones
    and before its ledger entry as a planted record ("inserted"), and does not compare tombstones
    with their mirrors (tests/faults/test_crashes.py and test_tamper_trials.py show both)."""
    from core.conversation.seals import check_day_seals

    return [check_day_seals, check_cold_copies]
