"""Which day files Reverie wrote: ``logs/.written-days.json``, a signed record of each day's last append.

Before a day is sealed (:mod:`core.conversation.seals`) only this record vouches for its bytes. Before
an ingest appends to a day it records, durably, the file's state before and after the append, MACed
under the vault's signing key; a file in either state is one Reverie wrote. Only a new or vouched-for
file is signed, so a planted or hand-changed day file is never sealed unless the person adopts it
(``reverie seal --adopt DAY``). :func:`roll_back_cut_appends` quarantines and cuts what a crash
mid-append left; a seal drops its day's entry.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from core.conversation.items import Rejected
from core.conversation.store import list_day_files
from core.fsutil import atomic_write_text
from core.paths import HomePaths
from core.turns import day_file
from core.typed import to_builtins
from core.vault.canonical import canonical_json
from core.vault.crypto import VaultKeys

WRITTEN_NAME = ".written-days.json"
_DOMAIN = b"reverie/v1/day-written\0"  # nothing else the signing key signs starts like this


@dataclass(frozen=True)
class AppendPlan:
    """A day's file now and as an append about to be written will leave it."""

    size: int
    sha256: str
    after_size: int
    after_sha256: str


class Written(msgspec.Struct, frozen=True, omit_defaults=True):
    """A day file before and after the latest append an ingest announced (no ``mac`` without keys)."""

    before_size: int
    before_sha256: str
    size: int
    sha256: str
    mac: str | None = None
    found: bool = False  # in logs/ when the record began: written before it (or planted), never signed

    def holds(self, size: int, sha256: str) -> bool:
        """Whether a file of ``size`` bytes and ``sha256`` is in one of the two announced states."""
        return (size, sha256) in ((self.before_size, self.before_sha256), (self.size, self.sha256))


def _path(paths: HomePaths) -> Path:
    return paths.logs / WRITTEN_NAME


def read_json_object(path: Path) -> dict[str, Any]:
    """The JSON object in ``path``; empty when the file is missing, unreadable as JSON or not an object
    (a record that is not one vouches for nothing)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError, UnicodeDecodeError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def load_written(paths: HomePaths) -> dict[str, Written]:
    """Day → :class:`Written`; an entry that is not one is left out (it vouches for nothing)."""
    data = read_json_object(_path(paths))
    found: dict[str, Written] = {}
    for day, value in data.items():
        if isinstance(value, dict) and "mac" in value and not isinstance(value["mac"], str):
            value = {key: item for key, item in value.items() if key != "mac"}
        with contextlib.suppress(msgspec.ValidationError):
            found[day] = msgspec.convert(value, Written)
    return found


def save_written(paths: HomePaths, entries: dict[str, Written]) -> None:
    """Write the record; an empty one stays as a file (its presence says the record has begun)."""
    atomic_write_text(_path(paths), json.dumps(to_builtins(entries), indent=1, sort_keys=True) + "\n")


def _message(day: str, entry: Written) -> bytes:
    return _DOMAIN + canonical_json({"before_sha256": entry.before_sha256, "before_size": entry.before_size,
                                     "day": day, "sha256": entry.sha256, "size": entry.size})


def written_signed(keys: VaultKeys, day: str, entry: Written | None) -> bool:
    """Whether ``entry`` carries a MAC this vault's key made for exactly this day and these states."""
    return entry is not None and keys.signature_ok(_message(day, entry), entry.mac)


def vouches(keys: VaultKeys, day: str, entry: Written | None, size: int, sha256: str) -> bool:
    """Whether the record says this vault's ingest left ``day``'s file in this state."""
    return entry is not None and entry.holds(size, sha256) and written_signed(keys, day, entry)


def note_writes(paths: HomePaths, plans: dict[str, AppendPlan], keys: VaultKeys | None) -> None:
    """Record, durably and before appending, each day an ingest is about to write; signed when the
    ingest has keys and the file is new or in a state the record vouched for."""
    if not plans:
        return
    entries = load_written(paths) if _path(paths).exists() else _found_days(paths)
    for day, plan in plans.items():
        prior = entries.get(day)
        found = prior is not None and prior.found and prior.holds(plan.size, plan.sha256)  # still holds those lines
        entry = Written(plan.size, plan.sha256, plan.after_size, plan.after_sha256, found=found)
        trusted = keys is not None and (plan.size == 0 or vouches(keys, day, entries.get(day), plan.size, plan.sha256))
        if trusted and keys is not None:
            entry = msgspec.structs.replace(entry, mac=keys.sign(_message(day, entry)))
        entries[day] = entry
    save_written(paths, entries)


def _found_days(paths: HomePaths) -> dict[str, Written]:
    """Every day file already in ``logs/``, as ``found`` entries of its state now (the record begins)."""
    entries = {}
    for found in list_day_files(paths):
        data = found.path.read_bytes()
        sha = hashlib.sha256(data).hexdigest()
        entries[found.day] = Written(len(data), sha, len(data), sha, found=True)
    return entries


def begin_record(paths: HomePaths) -> None:
    """Start an empty record for a new home (``reverie init``): every day file from then on is either
    one this home's ingests wrote or named by ``verify``; no day is ever taken in as ``found``."""
    if not _path(paths).exists():
        save_written(paths, {})


def record_begun(paths: HomePaths) -> bool:
    """Whether this home keeps a record of the days written (every ingest since this version's first)."""
    return _path(paths).exists()


def cut_short(entry: Written | None, data: bytes) -> bool:
    """Whether ``data`` is an append cut short: the state before, then fewer bytes than announced."""
    return (entry is not None and entry.before_size < len(data) < entry.size
            and hashlib.sha256(data[: entry.before_size]).hexdigest() == entry.before_sha256)


def roll_back_cut_appends(paths: HomePaths, keep: Callable[[Path, Rejected], Any]) -> list[str]:
    """Cut every append a crash cut short back to the state before it, its bytes handed to ``keep``
    (the quarantine, durable first) so nothing is lost. Hold the ingest lock. Returns what was done."""
    done = []
    for day, entry in load_written(paths).items():
        path = day_file(paths.logs, day)
        try:
            if not entry.before_size < path.stat().st_size < entry.size:
                continue
            data = path.read_bytes()
        except FileNotFoundError:
            continue
        if not cut_short(entry, data):
            continue
        line = data.count(b"\n", 0, entry.before_size) + 1
        keep(path, Rejected(line, "an append cut short by a crash; cut off (its turns are imported again from "
                                  "their source)", raw=data[entry.before_size:]))
        fd = os.open(path, os.O_WRONLY)
        try:
            os.ftruncate(fd, entry.before_size)
            os.fsync(fd)
        finally:
            os.close(fd)
        done.append(f"{path}:{line}: an append cut short by a crash, quarantined and cut off")
    return done
