"""Portable ``.dvmem`` records: one memory, sealed under the passphrase with its own salt, so it
can be imported into another vault (another salt, maybe another home) by whoever knows the passphrase.

::

    {"format": "reverie.dvmem", "format_version": 1,
     "kdf": {"algorithm": "argon2id", "iterations", "lanes", "memory_cost_kib", "salt"},
     "record": <sealed envelope of the memory under keys derived from the passphrase and that salt>,
     "verification": {"exported_at", "ledger_entry": <the source vault's latest ledger entry for it>}}

Import verifies before it accepts: the envelope's signature and ciphertext, the content hash, and the
review provenance's invariants. The source ledger entry is provenance: it can be checked only by the
vault that signed it, and is kept in the importing ledger's entry.
"""

from __future__ import annotations

import json
import os
from typing import Any

from core.canonical import sha256_hex
from core.clock import utc_now_iso
from core.crypto import KdfParams, b64d, b64e, derive_keys, read_header
from core.errors import RecordError, ReviewError
from core.records import Memory, memory_from_payload
from core.review import ReviewDraft
from core.sealed import seal, unseal
from core.vault import MemoryVault

DVMEM_FORMAT = "reverie.dvmem"
DVMEM_RECORD = "reverie.dvmem.memory"


def export_dvmem(vault: MemoryVault, memory_id: str, passphrase: str) -> bytes:
    memory = vault.get_memory(memory_id)
    params, _, _ = read_header(vault.paths.vault_header)
    salt = os.urandom(16)
    file_keys = derive_keys(passphrase, salt, params)
    entry = vault.ledger_placement().get(memory_id)
    document = {
        "format": DVMEM_FORMAT,
        "format_version": 1,
        "kdf": {**params.to_dict(), "salt": b64e(salt)},
        "record": json.loads(seal(DVMEM_RECORD, memory.memory_id, memory.record_version, memory.payload(), file_keys)),
        "verification": {
            "exported_at": utc_now_iso(),
            "verified_in_source": memory_id in vault.verified_ids(),
            "ledger_entry": entry.to_dict() if entry else None,
        },
    }
    return (json.dumps(document, indent=1, sort_keys=True) + "\n").encode("utf-8")


def read_dvmem(data: bytes, passphrase: str, where: str) -> tuple[Memory, dict[str, Any]]:
    """Verify and open a ``.dvmem``; returns the memory and its verification block."""
    try:
        document = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise RecordError(f"{where}: not a .dvmem file: {exc}") from exc
    if not isinstance(document, dict) or document.get("format") != DVMEM_FORMAT:
        raise RecordError(f"{where}: not a .dvmem file (field 'format')")
    if document.get("format_version") != 1:
        raise RecordError(f"{where}: unsupported format_version {document.get('format_version')!r}")
    kdf, record = document.get("kdf"), document.get("record")
    if not isinstance(kdf, dict) or not isinstance(record, dict):
        raise RecordError(f"{where}: fields 'kdf' and 'record' must be objects")
    try:
        params = KdfParams(int(kdf["iterations"]), int(kdf["lanes"]), int(kdf["memory_cost_kib"]))
        salt = b64d(str(kdf["salt"]), f"{where}: kdf.salt")
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"{where}: field kdf.{exc} missing or malformed") from exc
    if not (1 <= params.iterations <= 64 and 1 <= params.lanes <= 64 and 8 * params.lanes <= params.memory_cost_kib
            <= 4 * 1024 * 1024):
        raise RecordError(f"{where}: kdf parameters out of range")
    file_keys = derive_keys(passphrase, salt, params)
    raw_record = json.dumps(record).encode("utf-8")
    try:
        envelope = unseal(raw_record, DVMEM_RECORD, file_keys, where)
    except RecordError as exc:
        raise RecordError(f"{where}: does not verify with this passphrase (wrong passphrase or modified file)") from exc
    memory = memory_from_payload(envelope.payload, where, envelope.record_id, envelope.record_version)
    review = memory.review
    if review is not None:
        _check_review(review, where)
    verification = document.get("verification")
    return memory, verification if isinstance(verification, dict) else {}


def _check_review(review: Any, where: str) -> None:
    """Re-validate the review provenance with the review workflow's own invariants."""
    from core.frozen import thaw

    record = thaw(review)
    try:
        ReviewDraft.from_dict(
            {
                "draft_id": record["draft_id"],
                "content": record["original_content"],
                "tags": [],
                "created_at": record["created_at"],
                "created_by": record.get("created_by", "me"),
                "suggestions": record["suggestions"],
                "decisions": record["decisions"],
                "state": "approved",
                "approval": {"reviewer": record["approved_by"], "approved_at": record["approved_at"]},
                "finalized_memory_id": None,
                "finalized_at": None,
            }
        )
    except (KeyError, TypeError, ReviewError) as exc:
        raise RecordError(f"{where}: review provenance does not hold: {exc}") from exc


def import_dvmem(vault: MemoryVault, data: bytes, passphrase: str, where: str) -> tuple[Memory, bool]:
    """Import after verification. Returns (memory, added); importing the same memory twice adds nothing,
    and a different memory under an existing id is refused."""
    memory, verification = read_dvmem(data, passphrase, where)
    path = vault.memory_path(memory.memory_id)
    if path.exists():
        existing = vault.get_memory(memory.memory_id)
        if existing.content_sha256 == memory.content_sha256 and existing.payload() == memory.payload():
            return existing, False
        raise RecordError(f"{where}: a different memory with id {memory.memory_id} already exists in this vault")
    source_entry = verification.get("ledger_entry") or {}
    vault.store_memory(
        memory,
        "import",
        {"file_sha256": sha256_hex(data), "source_ledger_hash": source_entry.get("hash") if source_entry else None},
    )
    return memory, True
