"""``.dvmem`` files through the SDK: Reverie's sealed form out, three forms in.

Out: ``export_memory`` writes Reverie's portable record (``core.vault.portable``): the stored memory
sealed under the passphrase with the file's own salt. In, each verified before anything is stored:

* Reverie's sealed ``.dvmem`` (same passphrase; the memory keeps its id; twice adds nothing);
* a DiaryVault v1.x ``.dvmem`` or a memory file of a DiaryVault storage folder: its hash must match its
  content and its HMAC must check with the same key (upstream's derivation, ``MemoryCrypto``); it is
  sealed as ``mem_<its id>`` with ``custom["imported_from"]``;
* ``Memory.to_dvmem()`` of one of this vault's own views: its ciphertext, nonce and signature rebuild
  the sealed envelope, which must verify under this vault's keys.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from core.errors import NotFound, ReverieError
from core.frozen import freeze
from core.fsutil import atomic_write_bytes
from core.sdk.common import RESERVED_CUSTOM, moment, reverie_error
from core.sdk.crypto import MemoryCrypto
from core.sdk.models import Memory
from core.vault.canonical import sha256_hex
from core.vault.portable import export_dvmem, import_dvmem, read_dvmem_file
from core.vault.records import MEMORY_FORMAT, MemoryRecord, RecordMetadata, new_record, open_memory
from core.vault.review import check_field_value
from core.vault.sealed import envelope_bytes
from core.vault.store import MemoryStore


def export_file(store: MemoryStore, memory_id: str, passphrase: str, path: str | os.PathLike[str]) -> str:
    """Write the stored memory as a sealed ``.dvmem`` (``.dvmem`` appended when missing)."""
    target = os.fspath(path)
    if not target.endswith(".dvmem"):
        target += ".dvmem"
    try:
        data = export_dvmem(store, memory_id, passphrase)
    except ReverieError as exc:
        raise reverie_error(exc) from exc
    atomic_write_bytes(Path(target), data)
    return target


def import_file(store: MemoryStore, crypto: MemoryCrypto, passphrase: str,
                path: str | os.PathLike[str]) -> tuple[str, bool]:
    """Verify and store the memory in ``path``; returns (memory id, newly added)."""
    source = Path(os.fspath(path))
    try:
        data = read_dvmem_file(source)
    except ReverieError as exc:
        raise reverie_error(exc) from exc
    try:
        document: Any = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise ValueError(f"{source}: not a .dvmem file: {exc}") from exc
    if isinstance(document, dict) and "dvmem_version" in document:
        return _import_upstream(store, crypto, Memory.from_dvmem(data.decode("utf-8")), source, data)
    if isinstance(document, dict) and "format" not in document and {"id", "content", "hash"} <= set(document):
        # a memory file of a DiaryVault storage folder (``Memory.to_dict`` form)
        return _import_upstream(store, crypto, Memory.from_dict(document), source, data)
    try:
        imported, added = import_dvmem(store, data, passphrase, str(source))
    except ReverieError as exc:
        raise reverie_error(exc) from exc
    return imported.memory_id, added


def _own_view_record(store: MemoryStore, memory: Memory, source: Path) -> MemoryRecord | None:
    """The record a ``Memory.to_dvmem()`` of one of this vault's views carries, or None."""
    if not (memory.id.startswith("mem_") and memory.encrypted_content and memory.nonce and memory.signature):
        return None
    data = envelope_bytes(MEMORY_FORMAT, memory.id, 1, memory.nonce, memory.encrypted_content, memory.signature)
    try:
        stored = open_memory(data, store.keys, str(source), memory.id)
    except ReverieError:
        return None
    if stored.content != memory.content:
        raise ValueError(f"{source}: payload.content is not the content its sealed record holds (modified)")
    return stored


def _store(store: MemoryStore, memory: MemoryRecord, data: bytes) -> None:
    try:
        store.store_memory(memory, "import", {"file_sha256": sha256_hex(data)})
    except ReverieError as exc:
        raise reverie_error(exc) from exc


def _import_upstream(store: MemoryStore, crypto: MemoryCrypto, memory: Memory, source: Path,
                     data: bytes) -> tuple[str, bool]:
    if not isinstance(memory.content, str) or not memory.content.strip():
        raise ValueError(f"{source}: payload.content must be a non-empty string")
    own = _own_view_record(store, memory, source)
    if own is not None:
        if store.memory_path(own.memory_id).exists():
            return own.memory_id, False
        _store(store, own, data)
        return own.memory_id, True
    if not memory.hash or not MemoryCrypto.verify_hash(memory.content, memory.hash):
        raise ValueError(f"{source}: payload.content does not match payload.hash (modified)")
    if not memory.signature or not crypto.verify_signature(memory.hash, memory.signature):
        raise ValueError(f"{source}: payload.signature does not verify with this key")
    memory_id = f"mem_{memory.id}"
    try:
        existing: MemoryRecord | None = store.get_memory(memory_id)
    except NotFound:
        existing = None
    except ReverieError as exc:
        raise reverie_error(exc) from exc
    if existing is not None:
        if existing.content_sha256 != memory.hash:
            raise ValueError(f"{source}: a different memory with id {memory_id} already exists")
        return memory_id, False
    moment(memory.created_at, f"{source}: payload.created_at")
    custom = {k: v for k, v in dict(memory.metadata.custom).items() if k not in RESERVED_CUSTOM}
    custom["imported_from"] = {"format": "diaryvault.dvmem", "id": memory.id,
                               "hash": memory.hash, "signature": memory.signature}
    try:
        tags = check_field_value("tags", list(memory.metadata.tags), f"{source}: tags")
        metadata = RecordMetadata(tags=tags, location=memory.metadata.location,
                                  custom=freeze(custom, f"{source}: metadata.custom"))
        record = new_record(memory_id, memory.content, metadata, memory.created_at, str(source))
    except ReverieError as exc:
        raise reverie_error(exc) from exc
    _store(store, record, data)
    return memory_id, True
