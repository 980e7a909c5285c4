"""``reverie verify``: recompute everything and name each damaged record.

Checks, in order: the ledger chain and its signed head; every memory record (signature, ciphertext,
content hash, name) against the ledger's latest entry for it; memories the ledger places in cold
storage; drafts; sealed day logs; and, when the person gives one, a checkpoint they kept elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.canonical import sha256_hex
from core.crypto import VaultKeys
from core.integrity import Problem
from core.ledger import Checkpoint, LedgerEntry, LedgerReading
from core.paths import HomePaths
from core.vault import MEMORY_KINDS, MemoryVault

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


def _check_memories(vault: MemoryVault, reading: LedgerReading) -> tuple[list[Problem], dict[str, int]]:
    problems: list[Problem] = []
    scan = vault.scan_memories()
    problems.extend(scan.problems)
    damaged = {p.subject for p in scan.problems}
    latest = {e.record_id: e for e in reading.entries if e.record_id.startswith("mem_")}
    on_disk = {path.stem for path in vault.paths.vault.glob("mem_*.json")}
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
                problems.append(Problem("inserted", subject, f"the ledger moved it to cold storage at seq {entry.seq}"))
            cold = _inside(vault.paths.root, str(entry.data.get("cold_path", "")))
            if cold is None or not cold.is_file():
                problems.append(Problem("removed", subject, "its cold-storage copy is missing"))
            elif sha256_hex(cold.read_bytes()) != entry.record_sha256:
                problems.append(Problem("modified", subject, "its cold-storage copy does not match the ledger"))
    for memory_id in sorted(on_disk - set(latest)):
        subject = f"vault/{memory_id}.json"
        if subject not in damaged:
            problems.append(Problem("inserted", subject, "not recorded in the ledger"))
        else:  # damaged and unknown: say both, the insertion is the headline
            problems.append(Problem("inserted", subject, "not recorded in the ledger (and does not verify)"))
    counts = {"memories": len(scan.memories), "memories_in_cold_storage": archived}
    return problems, counts


def verify_home(
    paths: HomePaths,
    keys: VaultKeys,
    checkpoint: Checkpoint | None = None,
    extra_checks: list[ExtraCheck] | None = None,
) -> VerifyReport:
    vault = MemoryVault.open(paths, keys)
    reading = vault.ledger.read()
    report = VerifyReport(head=reading.head())
    report.problems.extend(reading.problems)
    memory_problems, counts = _check_memories(vault, reading)
    report.problems.extend(memory_problems)
    drafts = vault.scan_drafts()
    report.problems.extend(drafts.problems)
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


def check_cold_copies(paths: HomePaths, keys: VaultKeys, reading: LedgerReading) -> list[Problem]:
    """Every file the ledger says sits in cold storage (curated away from a scope) is there, unchanged.
    Vault memories are checked with the other memory records."""
    problems: list[Problem] = []
    latest: dict[str, LedgerEntry] = {}
    for entry in reading.entries:
        if entry.kind in ("archive", "restore") and not entry.record_id.startswith("mem_"):
            latest[entry.record_id] = entry
    for record_id, entry in sorted(latest.items()):
        if entry.kind != "archive":
            continue
        cold_rel = str(entry.data.get("cold_path", ""))
        cold = _inside(paths.root, cold_rel)
        if cold is None or not cold.is_file():
            problems.append(Problem("removed", cold_rel or record_id, f"cold-storage copy of {record_id} is missing"))
        elif sha256_hex(cold.read_bytes()) != entry.record_sha256:
            problems.append(Problem("modified", cold_rel, f"cold copy of {record_id} does not match the ledger"))
    return problems


def default_extra_checks() -> list[ExtraCheck]:
    """The checks of the other stores in the home, each in its own module."""
    from core.conversation.seals import check_day_seals

    return [check_day_seals, check_cold_copies]
