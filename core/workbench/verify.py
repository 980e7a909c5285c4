"""``reverie verify``: recompute everything and name each damaged record.

Checks the ledger chain and its signed head, every memory record against the ledger's latest entry
for it, memories in cold storage, drafts (and the finalized ones the ledger vouches for), sealed day
logs, cold storage, files nothing wrote, and a checkpoint the person kept elsewhere when given.

Interrupted operations are not damage: a state only a crash can leave, which the next run completes
(a finalize or an add whose ledger entry is missing, a finalized draft still "approved", one entry
after the signed head, a cold-storage move with its journal in ``curation/pending/``), is reported
as ``incomplete`` and ``VerifyReport.ok`` stays true, but only when the record's bytes are exactly
what the ledger or this vault's key signed.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from core.conversation.seals import check_day_seals
from core.curate.integrity import PendingMove, check_cold_storage, inside, pending_moves
from core.curate.tombstone import TOMBSTONE_SUFFIX
from core.fsutil import file_lock
from core.integrity import Problem
from core.paths import HomePaths
from core.vault.canonical import sha256_hex
from core.vault.crypto import VaultKeys
from core.vault.ledger import Checkpoint, LedgerReading
from core.vault.scan import DraftFacts, record_names
from core.vault.store import MEMORY_KINDS, PENDING_DIR, MemoryStore, RecordCheck

_MEMORY_FILE = re.compile(r"^mem_[A-Za-z0-9_-]+\.json\Z")
# Checks other parts of the home add (day-log seals, cold storage): (paths, keys, ledger reading) → problems.
ExtraCheck = Callable[[HomePaths, VaultKeys, LedgerReading], list[Problem]]


@dataclass
class VerifyReport:
    problems: list[Problem] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    head: Checkpoint | None = None

    @property
    def ok(self) -> bool:
        return not [p for p in self.problems if p.kind != "incomplete"]

    def form(self) -> VerifyForm:
        """The published form (``reverie verify --json``): ``ok`` (a property) and the checkpoint as its
        one-line text beside the counts and problems."""
        return VerifyForm(self.ok, str(self.head) if self.head else None, self.counts, self.problems)


class VerifyForm(msgspec.Struct, frozen=True):
    """A verification as ``reverie verify --json`` prints it. Printed through ``msgspec.to_builtins``,
    which keeps a path's lone surrogate as it is (``json.dumps`` escapes it), never msgspec's JSON
    encoder, which refuses one."""

    ok: bool
    head: str | None
    counts: dict[str, int]
    problems: list[Problem]


# --- memories -----------------------------------------------------------------------------------------


def _interrupted_finalize(vault: MemoryStore, memories: RecordCheck, memory_id: str,
                          drafts: dict[str, DraftFacts]) -> str | None:
    """The draft whose interrupted finalization wrote ``memory_id``, if that is what it is."""
    memory = memories.facts.get(memory_id)
    if memory is None:
        return None
    draft = drafts.get(memory.draft_id) if memory.draft_id is not None else None
    if draft is None or draft.state != "approved" or vault.memory_id_for_draft(draft.draft_id) != memory_id:
        return None
    return draft.draft_id


def _check_memories(vault: MemoryStore, reading: LedgerReading, drafts: dict[str, DraftFacts],
                    pending: dict[str, PendingMove]) -> tuple[list[Problem], dict[str, int]]:
    problems: list[Problem] = []
    scan = vault.check_memories()
    problems.extend(scan.problems)
    damaged = {p.subject for p in scan.problems}
    latest = {e.record_id: e for e in reading.entries if e.record_id.startswith("mem_")}
    on_disk = {name.removesuffix(".json") for name in record_names(vault.paths.vault, "mem_")}
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
            cold = inside(vault.paths.root, str(entry.data.get("cold_path", "")))
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
    counts = {"memories": len(scan.facts), "memories_in_cold_storage": archived}
    return problems, counts


def _check_finalized_drafts(reading: LedgerReading, drafts: dict[str, DraftFacts],
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


# --- files nothing wrote --------------------------------------------------------------------------------


def _quarantine_references(folder: Path) -> set[str]:
    """The ``raw_file`` names the quarantine's entry files refer to."""
    named: set[str] = set()
    for entries in folder.glob("*.jsonl"):
        try:
            lines = entries.read_bytes().splitlines()
        except OSError:
            continue
        for line in lines:
            try:
                entry = json.loads(line)
            except (ValueError, RecursionError):
                continue
            if isinstance(entry, dict) and isinstance(entry.get("raw_file"), str):
                named.add(entry["raw_file"])
    return named


def check_stray_files(paths: HomePaths) -> tuple[list[Problem], int]:
    """Files in ``vault/``, ``vault/.pending/`` and ``quarantine/`` that Reverie does not write there (a copied
    record named ``forged-<id>.json``, a folder, a link), as ``inserted``; and how many temporary files of
    atomic writes are there (killed writers leave them; the next write removes those). Returns (problems,
    temporary files)."""
    problems: list[Problem] = []
    temps = 0
    quarantine_raw = _quarantine_references(paths.quarantine) if paths.quarantine.is_dir() else set()
    memory_file = _MEMORY_FILE.match
    folders: tuple[tuple[Path, Callable[[os.DirEntry[str]], bool]], ...] = (
        (paths.vault, lambda e: (e.name == PENDING_DIR and e.is_dir(follow_symlinks=False))
         or (e.is_file(follow_symlinks=False) and (memory_file(e.name) is not None
                                                   or e.name.endswith(TOMBSTONE_SUFFIX)))),
        (paths.vault / PENDING_DIR, lambda e: e.is_file(follow_symlinks=False) and memory_file(e.name) is not None),
        (paths.quarantine, lambda e: e.is_file(follow_symlinks=False)
         and ((e.name.endswith(".jsonl") and len(e.name) > 6) or e.name in quarantine_raw)),
    )
    for folder, expected in folders:
        try:
            with os.scandir(folder) as listing:
                children = sorted(listing, key=lambda e: e.name)
        except OSError:
            continue
        where = folder.relative_to(paths.root).as_posix()
        for child in children:
            if child.name.startswith(".") and child.name.endswith(".tmp") and child.is_file(follow_symlinks=False):
                temps += 1  # counted, not a problem: a write in progress has one too
            elif not expected(child):
                what = "folder" if child.is_dir(follow_symlinks=False) else "file"
                problems.append(Problem("inserted", f"{where}/{child.name}", f"a {what} Reverie does not write here"))
    return problems, temps


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
    *,
    incremental: bool = False,
    vault: MemoryStore | None = None,
) -> VerifyReport:
    """``incremental`` (the app's Home, never ``reverie verify``): the ledger's entries that the signed
    verified-prefix note vouches for are not checked again while the ledger still starts with exactly
    the bytes it hashes (``Ledger.read(full=False)``: the report is the one a full read gives; a
    note not signed by this vault, or for other bytes, means a full read). Everything else is checked.
    ``vault``: the open vault of ``keys`` (the app's), whose records already opened from the same bytes
    are not decrypted again (``MemoryStore.known``); by default a vault opened for this check alone."""
    with quiet_home(paths):
        return _verify(paths, keys, checkpoint, extra_checks, incremental, vault)


def _verify(paths: HomePaths, keys: VaultKeys, checkpoint: Checkpoint | None,
            extra_checks: list[ExtraCheck] | None, incremental: bool = False,
            vault: MemoryStore | None = None) -> VerifyReport:
    if vault is None or vault.keys is not keys:
        vault = MemoryStore.open(paths, keys)
    reading = vault.ledger.read(full=not incremental)
    report = VerifyReport(head=reading.head())
    report.problems.extend(reading.problems)
    drafts = vault.check_drafts()
    by_id: dict[str, DraftFacts] = drafts.facts
    memory_problems, counts = _check_memories(vault, reading, by_id, pending_moves(paths))
    report.problems.extend(memory_problems)
    report.problems.extend(drafts.problems)
    report.problems.extend(_check_finalized_drafts(reading, by_id, {p.subject for p in drafts.problems}))
    for check in extra_checks if extra_checks is not None else default_extra_checks():
        report.problems.extend(check(paths, keys, reading))
    strays, temps = check_stray_files(paths)
    report.problems.extend(strays)
    if checkpoint is not None:
        report.problems.extend(vault.ledger.check_against(checkpoint, reading))
    sealed_days = {e.record_id for e in reading.entries if e.kind in ("seal_day", "reseal_day")}
    report.counts = {
        **counts,
        "drafts": len(drafts.facts),
        "sealed_days": len(sealed_days),
        "ledger_entries": len(reading.entries),
        "leftover_temporary_files": temps,
    }
    return report


def default_extra_checks() -> list[ExtraCheck]:
    """The checks of the other stores in the home, each in its own module: day-log seals
    (``core.conversation.seals``) and cold storage (``core.curate.integrity``)."""
    return [check_day_seals, check_cold_storage]
