"""What the signed ledger records about a move, and the check that it vouches for a restore.

Each move writes an ``archive`` entry and each restore (or rollback of an archived move) a
``restore`` entry, keyed by record id and carrying the move's places and reasons. The tombstone is
plaintext and unsigned, so a restore goes ahead only when the move's latest entry agrees with it
(:func:`check_against_ledger`).
"""

from __future__ import annotations

import hashlib
from typing import Any

from core.curate.errors import ChecksumMismatch
from core.curate.scopes import Scope
from core.curate.tombstone import Tombstone
from core.vault.ledger import Ledger, LedgerEntry


def record_id(scope: Scope, rel: str) -> str:
    """The ledger's record id: a vault memory's own id, else ``curate:<scope>:<path>``."""
    return ledger_id(scope.kind.name, scope.name, rel)


def ledger_id(kind: str, scope: str, rel: str) -> str:
    """:func:`record_id` from the scope's kind and name as a tombstone records them."""
    if kind == "vault" and rel.endswith(".json"):
        return rel[: -len(".json")]
    return f"curate:{scope}:{rel}"


def ledger_data(stone: Tombstone) -> dict[str, Any]:
    """What every ledger entry about a move records besides the record's SHA-256: signed bytes (the
    entry's canonical JSON is hashed into the chain), so its keys are fixed here, not by a type."""
    return {"scope": stone.scope, "path": stone.path, "cold_path": stone.cold_path, "tombstone": stone.tombstone,
            "move_id": stone.move_id, "signals": list(stone.signals), "tier": stone.tier,
            "rubric_version": stone.rubric_version, "approved": stone.approved}


def tombstone_sha256(stone: Tombstone) -> str:
    """The SHA-256 of the tombstone's exact bytes, as written beside the record and as its mirror."""
    return hashlib.sha256(stone.to_bytes()).hexdigest()


def archive_data(stone: Tombstone) -> dict[str, Any]:
    """An ``archive`` entry also records ``tombstone_sha256``, so the mirror's fields the entry does not
    repeat (mode, mtime, when and why it moved) are protected too, also once the tombstone beside the
    record has been tidied away. It is written only after both tombstones read back with that SHA-256.
    Entries written before it was recorded lack it; ``reverie verify`` then compares field by field."""
    return {**ledger_data(stone), "tombstone_sha256": tombstone_sha256(stone)}


def append_archive(ledger: Ledger, scope: Scope, stone: Tombstone) -> None:
    """Record the move of ``stone``'s record to cold storage."""
    ledger.append("archive", record_id(scope, stone.path), stone.sha256, archive_data(stone))


def ledger_state(ledger: Ledger) -> dict[str, str]:
    """move id → the kind of the latest ledger entry about it ("archive" or "restore")."""
    state: dict[str, str] = {}
    for entry in ledger.read(full=False).entries:
        move_id = entry.data.get("move_id") if isinstance(entry.data, dict) else None
        if isinstance(move_id, str) and entry.kind in ("archive", "restore"):
            state[move_id] = entry.kind
    return state


def _move_entries(ledger: Ledger, move_id: str) -> list[LedgerEntry]:
    """The ``archive`` and ``restore`` ledger entries about ``move_id``, oldest first."""
    return [entry for entry in ledger.read(full=False).entries
            if entry.kind in ("archive", "restore") and entry.data.get("move_id") == move_id]


def check_against_ledger(stone: Tombstone, scope: Scope, ledger: Ledger, *, resumed: bool = False) -> bool:
    """Refuse a restore the signed ledger does not vouch for: the move's latest entry must be an ``archive``
    of the same record (id, SHA-256) to the same places (scope, path, tombstone, cold path), and, when the
    entry recorded it, of a tombstone with the same SHA-256 (which covers its mode and mtime). The tombstone
    is plaintext and unsigned: without this, consistent edits of the cold copy and both tombstones would
    restore an attacker's bytes, to another path, with another mode. ``ChecksumMismatch`` names the field.
    ``resumed``: finishing this restore after a crash, so its own ``restore`` entry may follow the archive.
    Returns whether the tombstone's own fields (mode, mtime) are vouched for by ``tombstone_sha256``."""
    where = f"tombstone {stone.move_id}"
    entries = _move_entries(ledger, stone.move_id)
    archives = [entry for entry in entries if entry.kind == "archive"]
    if not archives:
        raise ChecksumMismatch(f"{where}: field 'move_id': the ledger records no move {stone.move_id}; "
                               "nothing was restored")
    entry, latest = archives[-1], entries[-1]
    if latest is not entry and not (resumed and latest.record_sha256 == stone.sha256
                                    and "rolled_back" not in latest.data):
        raise ChecksumMismatch(f"{where}: field 'move_id': the ledger's latest entry for this move is a "
                               f"{latest.kind} (seq {latest.seq}), not an archive; nothing was restored")
    recorded = entry.data
    for name in ("scope", "path", "tombstone", "cold_path"):
        if recorded.get(name) != getattr(stone, name):
            raise ChecksumMismatch(f"{where}: field {name!r} is {getattr(stone, name)!r}, the ledger's archive "
                                   f"entry (seq {entry.seq}) says {recorded.get(name)!r}; nothing was restored")
    if entry.record_id != record_id(scope, stone.path):
        raise ChecksumMismatch(f"{where}: field 'path': the ledger archived {entry.record_id} (seq {entry.seq}); "
                               "nothing was restored")
    if entry.record_sha256 != stone.sha256:
        raise ChecksumMismatch(f"{where}: field 'sha256' differs from the ledger's archive entry (seq {entry.seq}); "
                               "nothing was restored")
    signed_stone = recorded.get("tombstone_sha256")
    if isinstance(signed_stone, str) and signed_stone != tombstone_sha256(stone):
        raise ChecksumMismatch(f"{where}: field 'tombstone_sha256': the tombstone (its mode, size, mtime or "
                               f"reasons) differs from the one the ledger recorded (seq {entry.seq}); "
                               "nothing was restored")
    return isinstance(signed_stone, str)

