"""Cold storage as ``reverie verify`` sees it: every move the ledger records is in cold storage with
the checksum the ledger signed, and everything in cold storage was recorded.

:func:`check_cold_storage` has the shape of ``core.verify.ExtraCheck``. Vault memories in cold
storage are checked by ``core.verify`` itself; this covers every other scope, plus what only
curation knows: unrecorded cold items, tombstone mirrors that disagree with the ledger, and moves
or restores interrupted mid-way ("incomplete": the next ``reverie curate apply`` finishes them).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from core.crypto import VaultKeys
from core.curate.tombstone import MIRROR_NAME, MOVE_ID
from core.integrity import Problem
from core.ledger import LedgerEntry, LedgerReading
from core.paths import HomePaths


def _latest_by_move(reading: LedgerReading) -> dict[str, LedgerEntry]:
    latest: dict[str, LedgerEntry] = {}
    for entry in reading.entries:
        move_id = entry.data.get("move_id") if isinstance(entry.data, dict) else None
        if entry.kind in ("archive", "restore") and isinstance(move_id, str):
            latest[move_id] = entry
    return latest


def _inside(root: Path, relative: str) -> Path | None:
    candidate = (root / relative).resolve()
    return candidate if candidate.is_relative_to(root.resolve()) else None


def check_cold_storage(paths: HomePaths, keys: VaultKeys, reading: LedgerReading) -> list[Problem]:
    """Problems with cold storage, named by path relative to the home."""
    problems: list[Problem] = []
    latest = _latest_by_move(reading)
    for move_id, entry in sorted(latest.items()):
        if entry.kind != "archive" or not entry.record_id.startswith("curate:"):
            continue  # restored, or a vault memory (core.verify checks those)
        cold_rel = str(entry.data.get("cold_path", ""))
        cold = _inside(paths.root, cold_rel)
        subject = cold_rel or f"move {move_id}"
        if cold is None or not cold.is_file():
            problems.append(Problem("removed", subject, f"the ledger moved it to cold storage at seq {entry.seq}"))
        elif hashlib.sha256(cold.read_bytes()).hexdigest() != entry.record_sha256:
            problems.append(Problem("modified", subject, "differs from the checksum the ledger recorded"))
    for mirror in sorted(paths.cold.glob(f"*/m-*/{MIRROR_NAME}")) if paths.cold.is_dir() else []:
        move_id = mirror.parent.name
        subject = str(mirror.relative_to(paths.root))
        if not MOVE_ID.match(move_id):
            continue
        entry = latest.get(move_id)
        if entry is None:
            problems.append(Problem("inserted", subject, "in cold storage but never recorded in the ledger"))
            continue
        try:
            stone = json.loads(mirror.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            problems.append(Problem("unreadable", subject, f"tombstone copy unreadable: {exc}"))
            continue
        if stone.get("sha256") != entry.record_sha256 or stone.get("cold_path") != entry.data.get("cold_path"):
            problems.append(Problem("modified", subject, "tombstone copy disagrees with the ledger"))
    pending = paths.curation / "pending"
    for journal in sorted(pending.glob("m-*.json")) if pending.is_dir() else []:
        problems.append(Problem("incomplete", str(journal.relative_to(paths.root)),
                                "an interrupted move or restore; `reverie curate recover` finishes it"))
    return problems
