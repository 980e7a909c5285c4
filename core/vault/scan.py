"""Reading every record of a folder (``vault/``, ``drafts/``), in a pool of processes when it pays.

Each record costs a read, a JSON decode, an HMAC, an exact-bytes check, an AES-GCM decryption and
building checked objects; records are independent, so a scan of thousands can split them over the
cores. Workers read the files themselves and send back, per file, its name, its SHA-256 and what the
opener returned (the object, or for ``verify`` only its facts: :class:`MemoryFacts`, :class:`DraftFacts`)
or the one-line error, in the files' name order whatever the split.

A pool pays only when cores are idle (``tests/bench/bench_vault.py`` measures both ways), so by default
it is used when the load average leaves at least one core free. Forking is used only when the calling
process runs a single thread (forking beside other threads can copy a held lock); otherwise workers are
spawned and get the keys through their initializer. Small scans, one core, or a pool that cannot start
run in this process.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from core.errors import RecordError, ReviewError
from core.vault.canonical import sha256_hex
from core.vault.crypto import VaultKeys
from core.vault.records import MemoryRecord, open_draft, open_memory
from core.vault.review import StoredDraft

MIN_PARALLEL = 400  # fewer records than this: a pool's start-up costs more than it saves
CHUNK = 250  # records per task: large enough to amortize the pickling, small enough to balance

# A record opener: (keys, folder, file name, file bytes) -> the built object; RecordError / ReviewError
# when it fails.
Opener = Callable[[VaultKeys, Path, str, bytes], Any]


@dataclass(frozen=True)
class Opened:
    """One record file: its name, the SHA-256 of its bytes, and the object or the error."""

    name: str
    sha256: str
    value: Any = None
    error: str | None = None


def open_memory_file(keys: VaultKeys, folder: Path, name: str, data: bytes) -> MemoryRecord:
    return open_memory(data, keys, f"vault/{name}", name.removesuffix(".json"))


def open_draft_file(keys: VaultKeys, folder: Path, name: str, data: bytes) -> StoredDraft:
    return open_draft(data, keys, f"{folder}{os.sep}{name}", name.removesuffix(".json"))


class MemoryFacts(NamedTuple):
    """What ``reverie verify`` needs of a memory record that opened (so every check of it ran): a few
    strings, where the whole memory would cost a pool's workers more to send back than to build."""

    memory_id: str
    draft_id: str | None  # the draft its review provenance names, if any


class DraftFacts(NamedTuple):
    """What ``reverie verify`` needs of a draft record that opened (every invariant checked)."""

    draft_id: str
    state: str
    finalized_memory_id: str | None


def memory_facts(memory: MemoryRecord) -> MemoryFacts:
    draft_id = (memory.review or {}).get("draft_id")
    return MemoryFacts(memory.memory_id, draft_id if isinstance(draft_id, str) else None)


def draft_facts(draft: StoredDraft) -> DraftFacts:
    return DraftFacts(draft.draft_id, draft.state, draft.finalized_memory_id)


def memory_facts_file(keys: VaultKeys, folder: Path, name: str, data: bytes) -> MemoryFacts:
    """:func:`open_memory_file`, every check included, returning only the memory's facts."""
    return memory_facts(open_memory_file(keys, folder, name, data))


def draft_facts_file(keys: VaultKeys, folder: Path, name: str, data: bytes) -> DraftFacts:
    """:func:`open_draft_file`, every check included, returning only the draft's facts."""
    return draft_facts(open_draft_file(keys, folder, name, data))


# A facts opener: the opener of the whole record it runs, and how it takes the facts from that record
# (so that a record opened whole once, kept in ``Known``, gives its facts without being opened again).
WHOLE: dict[Opener, tuple[Opener, Callable[[Any], Any]]] = {
    memory_facts_file: (open_memory_file, memory_facts),
    draft_facts_file: (open_draft_file, draft_facts),
}

# Records of one folder already opened whole with the caller's keys, by file name: the SHA-256 of the
# bytes they were opened from, and the record (immutable). See :func:`open_records`.
Known = dict[str, tuple[str, Any]]


def record_names(folder: Path, prefix: str = "", suffix: str = ".json") -> list[str]:
    """The names of the record files of ``folder``, in name order (``os.scandir``: no ``Path`` objects,
    which cost more to build and compare than the names)."""
    try:
        with os.scandir(folder) as entries:
            return sorted(e.name for e in entries
                          if e.name.startswith(prefix) and e.name.endswith(suffix) and not e.name.startswith("."))
    except FileNotFoundError:
        return []


def record_files(folder: Path, prefix: str = "", suffix: str = ".json") -> list[Path]:
    """:func:`record_names` as paths."""
    return [folder / name for name in record_names(folder, prefix, suffix)]


def read_file(path: str) -> bytes:
    """The bytes of the file at ``path``: one ``open``, reads until the end, no buffered reader (about
    half the cost of ``Path.read_bytes`` for the small files of a vault)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
    try:
        chunks = []
        while chunk := os.read(fd, 1 << 16):
            chunks.append(chunk)
    finally:
        os.close(fd)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def _open_all(keys: VaultKeys, opener: Opener, folder: Path, names: list[str],
              known: Known | None = None) -> list[Opened]:
    """Every file ``names`` opened in this process; with ``known``, see :func:`open_records`."""
    whole, facts = WHOLE.get(opener, (opener, None)) if known is not None else (opener, None)
    opened: list[Opened] = []
    where = os.fspath(folder) + os.sep
    for name in names:
        try:
            data = read_file(where + name)
        except FileNotFoundError:
            continue  # removed while scanning: not a record this time
        digest = sha256_hex(data)
        seen = known.get(name) if known is not None else None
        if seen is not None and seen[0] == digest:  # these very bytes were opened, every check passed
            record = seen[1]
        else:
            try:
                record = whole(keys, folder, name, data)
            except (RecordError, ReviewError) as exc:
                opened.append(Opened(name, digest, error=str(exc)))
                if known is not None:
                    known.pop(name, None)
                continue
            if known is not None:
                known[name] = (digest, record)
        opened.append(Opened(name, digest, record if facts is None else facts(record)))
    if known is not None:
        for gone in set(known).difference(names):  # no longer in the folder: not kept
            known.pop(gone, None)
    return opened


_WORKER_KEYS: VaultKeys | None = None


def _init_worker(keys: VaultKeys) -> None:
    global _WORKER_KEYS
    _WORKER_KEYS = keys


def _work(opener: Opener, folder: Path, names: list[str]) -> list[tuple[str, str, Any, str | None]]:
    """One task of a worker: the files ``names``, sent back as plain tuples (the cheapest to pickle)."""
    assert _WORKER_KEYS is not None, "the pool's initializer sets the keys"
    return [(o.name, o.sha256, o.value, o.error) for o in _open_all(_WORKER_KEYS, opener, folder, names)]


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


def default_workers() -> int:
    """The usable cores when the machine has at least one idle, else 1 (see the module's docstring)."""
    return usable_cores() if idle_cores() > 1 else 1


def idle_cores() -> int:
    """The usable cores the load average leaves free (at least 1: this process's own)."""
    cores = usable_cores()
    try:
        load = os.getloadavg()[0]
    except OSError:
        return 1
    return max(1, min(cores, int(cores - load + 0.5)))


def open_records(folder: Path, names: list[str], keys: VaultKeys, opener: Opener, *, workers: int | None = None,
                 chunk: int = CHUNK, min_parallel: int = MIN_PARALLEL, known: Known | None = None) -> list[Opened]:
    """Open every file ``names`` of ``folder`` with ``opener`` (a module-level function, so a worker can
    run it), in ``workers`` processes (default: :func:`default_workers`; 1: in this process), ``chunk``
    files per task, and in this process whenever there are fewer than ``min_parallel`` files.

    ``known`` (in this process only): the records of ``folder`` already opened whole with ``keys``. A
    file whose bytes have the SHA-256 a record was opened from is not decrypted and checked again: the
    same bytes under the same keys and name open to the same record, so a changed byte is a new digest
    and a full check. It is updated with every record opened whole (a facts opener opens the whole
    record, :data:`WHOLE`), and forgets the names no longer there."""
    count = default_workers() if workers is None else workers
    count = min(count, max(1, len(names) // chunk))
    if count <= 1 or len(names) < min_parallel:
        return _open_all(keys, opener, folder, names, known)
    method = "fork" if threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods() \
        else "spawn"
    chunks = [names[i:i + chunk] for i in range(0, len(names), chunk)]
    try:
        pool = ProcessPoolExecutor(max_workers=count, mp_context=multiprocessing.get_context(method),
                                   initializer=_init_worker, initargs=(keys,))
    except (OSError, NotImplementedError, ValueError):  # no semaphores, no processes: do it here
        return _open_all(keys, opener, folder, names)
    opened: list[Opened] = []
    try:
        with pool:
            for part in pool.map(_work, [opener] * len(chunks), [folder] * len(chunks), chunks):
                opened.extend([Opened(*fields) for fields in part])
    except BrokenProcessPool:  # a worker could not start or was killed: read them here instead
        return _open_all(keys, opener, folder, names)
    return opened
