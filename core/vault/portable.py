"""Portable ``.dvmem`` records: one memory, sealed under the passphrase with its own salt, so it
can be imported into another vault (another salt, maybe another home) by whoever knows the passphrase.

::

    {"format": "reverie.dvmem", "format_version": 1,
     "kdf": {"algorithm": "argon2id", "iterations", "lanes", "memory_cost_kib", "salt"},
     "record": <sealed envelope of the memory under keys derived from the passphrase and that salt>,
     "passphrase_check": <HMAC of a fixed text under the same keys: wrong passphrase or modified file>,
     "verification": {"exported_at", "ledger_entry": <the source vault's latest ledger entry for it>}}

Import verifies before it accepts: the envelope's signature and ciphertext, the content hash, and the
review provenance's invariants. The source ledger entry is provenance: it can be checked only by the
vault that signed it, and is kept in the importing ledger's entry.
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any

import msgspec

from core import clock
from core.errors import HomeError, NotFound, RecordError, ReviewError, WrongPassphrase
from core.frozen import thaw
from core.vault.canonical import sha256_hex
from core.vault.crypto import (
    MAX_SALT_BYTES,
    MIN_SALT_BYTES,
    KdfParams,
    VaultKeys,
    b64d,
    b64e,
    derive_keys,
    read_header,
)
from core.vault.records import MemoryRecord, memory_from_payload
from core.vault.review import ReviewRecord
from core.vault.sealed import one_line, seal, unseal
from core.vault.store import MemoryStore

DVMEM_FORMAT = "reverie.dvmem"
DVMEM_RECORD = "reverie.dvmem.memory"
# A .dvmem holds one memory: its content twice (the memory and its review provenance) in base64, about
# 2.7 bytes of file for each byte of content. 8 MiB takes a memory of about 3 MiB, far more than the CLI
# (one argument: 128 KiB on Linux) or MCP and REST (20,000 characters) capture. A file over it is refused
# before it is read whole, and export refuses to write one.
MAX_DVMEM_BYTES = 8 * 1024 * 1024
_SHA256_HEX = re.compile(r"[0-9a-f]{64}")
# The passphrase check: an HMAC of this text under the file's signing key, kept beside the record. It
# tells a wrong passphrase (the check does not match) from a modified file (it does, the record does
# not verify), and reveals nothing the record's own signature does not: both test a guess equally.
PASSPHRASE_CHECK = b"reverie.dvmem passphrase check"


class ExportPassphraseWrong(WrongPassphrase, RecordError):
    """The passphrase given is not the one the ``.dvmem`` was exported with; nothing was written."""


def export_dvmem(vault: MemoryStore, memory_id: str, passphrase: str) -> bytes:
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
        "passphrase_check": file_keys.sign(PASSPHRASE_CHECK),
        "verification": {
            "exported_at": clock.utc_now_iso(),
            "verified_in_source": memory_id in vault.verified_ids(),
            "ledger_entry": entry.to_dict() if entry else None,
        },
    }
    data = (json.dumps(document, indent=1, sort_keys=True) + "\n").encode("utf-8")
    if len(data) > MAX_DVMEM_BYTES:  # no one should be handed a file no vault will import
        raise RecordError(f"{memory_id}: its .dvmem would be {len(data):,} bytes, over the "
                          f"{MAX_DVMEM_BYTES:,}-byte limit of a .dvmem")
    return data


def read_dvmem_file(path: Path) -> bytes:
    """The bytes of the ``.dvmem`` at ``path``, reading at most one byte over :data:`MAX_DVMEM_BYTES`.
    Only a regular file is read: a FIFO, device or socket is refused before a byte is read (opening is
    non-blocking, so a FIFO with no writer cannot hang the import)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise NotFound(f"{path}: cannot be read: {exc.strerror or exc}") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise RecordError(f"{path}: not a regular file (a .dvmem is a file; pipes and devices are refused)")
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(MAX_DVMEM_BYTES + 1)
        size = info.st_size
    except OSError as exc:
        raise NotFound(f"{path}: cannot be read: {exc.strerror or exc}") from exc
    finally:
        os.close(fd)
    if len(data) > MAX_DVMEM_BYTES:
        raise RecordError(_too_big(str(path), size))
    return data


def _too_big(where: str, size: int) -> str:
    shown = f"{size:,} bytes" if size > MAX_DVMEM_BYTES else "larger"  # a pipe has no size
    return f"{where}: {shown}, over the {MAX_DVMEM_BYTES:,}-byte limit of a .dvmem (one memory)"


def read_dvmem(data: bytes, passphrase: str, where: str) -> tuple[MemoryRecord, dict[str, Any]]:
    """Verify and open a ``.dvmem``; returns the memory and its verification block."""
    if len(data) > MAX_DVMEM_BYTES:
        raise RecordError(_too_big(where, len(data)))
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
    except KeyError as exc:
        raise RecordError(f"{where}: field kdf.{exc.args[0]} missing") from exc
    except (TypeError, ValueError, OverflowError) as exc:  # OverflowError: Infinity is JSON to Python
        raise RecordError(f"{where}: kdf parameters malformed: {exc}") from exc
    if not MIN_SALT_BYTES <= len(salt) <= MAX_SALT_BYTES:
        raise RecordError(f"{where}: kdf.salt is {len(salt)} bytes, not {MIN_SALT_BYTES} to {MAX_SALT_BYTES}")
    try:
        params.check(f"{where}: kdf")  # the vault header's bounds: a shared file must not cost hours or GiB
    except HomeError as exc:
        raise RecordError(str(exc)) from exc
    file_keys = derive_keys(passphrase, salt, params)
    raw_record = json.dumps(record).encode("utf-8")
    try:
        envelope = unseal(raw_record, DVMEM_RECORD, file_keys, where)
    except RecordError as exc:
        raise _why_not(document.get("passphrase_check"), file_keys, where) from exc
    memory = memory_from_payload(envelope.payload, where, envelope.record_id, envelope.record_version)
    review = memory.review
    if review is not None:
        _check_review(review, where)
    verification = document.get("verification")
    return memory, verification if isinstance(verification, dict) else {}


def _why_not(check: Any, file_keys: VaultKeys, where: str) -> RecordError:
    """Why the record did not verify, told by the file's passphrase check where it has one."""
    if not isinstance(check, str):  # a file written before the check existed
        return RecordError(f"{where}: does not verify with this passphrase (wrong passphrase or modified file)")
    if file_keys.signature_ok(PASSPHRASE_CHECK, check):
        return RecordError(f"{where}: does not verify: the passphrase is right, but the file was modified "
                           "after it was exported")
    return ExportPassphraseWrong(f"{where}: does not verify with this passphrase: it is not the passphrase it was "
                                 "exported with (nothing was written)")


def _check_review(review: Any, where: str) -> None:
    """Re-validate the review provenance: its stored shape (msgspec) and the review workflow's own
    invariants over the approved draft it records."""
    try:
        msgspec.convert(thaw(review), ReviewRecord).as_draft()
    except (msgspec.ValidationError, ReviewError) as exc:
        raise RecordError(f"{where}: review provenance does not hold: {one_line(str(exc))}") from exc


def import_dvmem(vault: MemoryStore, data: bytes, passphrase: str, where: str) -> tuple[MemoryRecord, bool]:
    """Import after verification. Returns (memory, added); importing the same memory twice adds nothing,
    and a different memory under an existing id is refused."""
    memory, verification = read_dvmem(data, passphrase, where)
    path = vault.memory_path(memory.memory_id)
    if path.exists():
        existing = vault.get_memory(memory.memory_id)
        if existing.content_sha256 == memory.content_sha256 and existing.payload() == memory.payload():
            return existing, False
        raise RecordError(f"{where}: a different memory with id {memory.memory_id} already exists in this vault")
    details = {"file_sha256": sha256_hex(data), "source_ledger_hash": _source_hash(verification)}
    vault.store_memory(memory, "import", details)
    return memory, True


def _source_hash(verification: dict[str, Any]) -> str | None:
    """The source ledger entry's hash, when it looks like one: the block is outside the signature, and
    whatever it holds goes into this vault's ledger."""
    entry = verification.get("ledger_entry")
    digest = entry.get("hash") if isinstance(entry, dict) else None
    return digest if isinstance(digest, str) and _SHA256_HEX.fullmatch(digest) else None
