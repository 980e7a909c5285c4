"""Day seals: a closed UTC day's log file is recorded in the ledger, so a later change shows.

- A day is *closed* once its end plus ``SEAL_GRACE`` has passed. Sealing a closed day appends a
  ledger entry ``seal_day`` with ``record_id`` = ``logs/YYYY/MM/YYYY-MM-DD.jsonl``,
  ``record_sha256`` = SHA-256 of the file's bytes and ``data`` = ``{"size", "turns"}``.
- An ingest may legitimately add turns to a sealed day (a transcript imported late). Before it
  appends to a closed day it records an *intent* in ``logs/.pending-reseal.json`` (the day, and
  the file's size and SHA-256 before the append), with a MAC under the vault's signing key
  (``mac``: HMAC of ``reverie/v1/reseal-intent`` + the canonical JSON of day, size and SHA-256).
  Sealing then records ``reseal_day`` with ``{"previous_sha256", "added", "size"}``, but only if
  the intent's MAC verifies, the sealed bytes are still the file's prefix and what follows is
  whole turns. The intent survives a crash between the append and the reseal, so that case is
  resealed by the next ingest or ``reverie seal`` rather than looking like tampering.
- The intents file is plaintext in the home, so anyone who can write there can write one: an
  intent without a valid MAC (planted, or written by an ingest that ran without the passphrase and
  so could not sign it) explains nothing. ``verify`` reports such a day as ``modified`` and
  ``seal`` refuses to reseal it, unless the person, having read the appended turns, names the day
  (``reverie seal --accept-unsigned DAY``).
- :func:`verify_day_seals` reports a sealed day whose file is gone (``removed``), whose bytes differ
  from its seal (``modified``), or that grew by an ingest not yet resealed, with a signed intent
  (``incomplete``).

Sealing runs under the ingest lock, so no append can fall between hashing a file and sealing it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import msgspec

from core.clock import utc_now
from core.conversation.quarantine import Quarantine
from core.conversation.store import day_record_id, is_whole_turn, list_day_files, repair_day_tails
from core.fsutil import atomic_write_text, file_lock
from core.integrity import Problem
from core.paths import HomePaths
from core.typed import to_builtins
from core.vault.canonical import canonical_json
from core.vault.crypto import VaultKeys
from core.vault.ledger import Ledger, LedgerEntry, LedgerReading

SEAL_KINDS = ("seal_day", "reseal_day")
SEAL_GRACE = timedelta(hours=1)
PENDING_NAME = ".pending-reseal.json"
_INTENT_DOMAIN = b"reverie/v1/reseal-intent\0"  # nothing else the signing key signs starts like this
_RECORD_ID = re.compile(r"^logs/(\d{4})/(\d{2})/\1-\2-\d{2}\.jsonl\Z")


def day_closed(day: str, now: datetime) -> bool:
    """Whether UTC day ``YYYY-MM-DD`` ended at least ``SEAL_GRACE`` before ``now``.

    Computed backwards from ``now`` so that no day up to 9999-12-31 overflows the calendar; a name
    that is not a real date (``2026-02-30``) is never closed."""
    try:
        start = datetime.fromisoformat(day).replace(tzinfo=UTC)
    except ValueError:
        return False
    return start <= now - timedelta(days=1) - SEAL_GRACE


def sealed_days(reading: LedgerReading) -> dict[str, LedgerEntry]:
    """Record id → the latest seal of each day log (any record whose latest entry is a day seal)."""
    return {
        record_id: entry for record_id, entry in reading.latest_by_record().items() if entry.kind in SEAL_KINDS
    }


# --- intents --------------------------------------------------------------------------------------

def _pending_path(paths: HomePaths) -> Path:
    return paths.logs / PENDING_NAME


class Intent(msgspec.Struct, frozen=True, omit_defaults=True):
    """A closed day's file before an ingest appended to it, as kept in the intents file (sorted keys,
    no ``mac`` when the ingest had no keys to sign with)."""

    size: int
    sha256: str
    mac: str | None = None


def _intent(value: Any) -> Intent | None:
    """The intent in ``value``, or None when it is not one (it then explains nothing). A ``mac`` that
    is no string can match no signature: the intent reads as unsigned."""
    if isinstance(value, dict) and "mac" in value and not isinstance(value["mac"], str):
        value = {key: item for key, item in value.items() if key != "mac"}
    try:
        return msgspec.convert(value, Intent)
    except msgspec.ValidationError:
        return None


def load_pending(paths: HomePaths) -> dict[str, Intent]:
    """Day → :class:`Intent` of the file before an ingest appended to it (closed days only); an entry
    that is not an intent is left out. Whether an intent is this vault's own is :func:`intent_signed`'s
    question."""
    try:
        data = json.loads(_pending_path(paths).read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError, UnicodeDecodeError, RecursionError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {day: intent for day, value in data.items() if (intent := _intent(value)) is not None}


def _intent_message(day: str, size: int, sha256: str) -> bytes:
    return _INTENT_DOMAIN + canonical_json({"day": day, "sha256": sha256, "size": size})


def intent_signed(keys: VaultKeys, day: str, intent: Intent | None) -> bool:
    """Whether ``intent`` carries a MAC this vault's key made for exactly this day, size and SHA-256."""
    return intent is not None and keys.signature_ok(_intent_message(day, intent.size, intent.sha256), intent.mac)


def _save_pending(paths: HomePaths, pending: dict[str, Intent]) -> None:
    path = _pending_path(paths)
    if pending:
        atomic_write_text(path, json.dumps(to_builtins(pending), indent=1, sort_keys=True) + "\n")
    else:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def note_appends(paths: HomePaths, before: dict[str, tuple[int, str]], keys: VaultKeys | None = None) -> None:
    """Record, durably and before appending, the state of closed days an ingest is about to grow,
    signed with ``keys`` when the ingest has them (an unsigned intent explains nothing to ``verify``).
    A day already noted keeps its first state (the one its seal, if any, can be checked against)."""
    pending = load_pending(paths)
    fresh: dict[str, Intent] = {}
    for day, (size, sha) in before.items():
        if day in pending:
            continue
        fresh[day] = Intent(size, sha, keys.sign(_intent_message(day, size, sha)) if keys is not None else None)
    if fresh:
        _save_pending(paths, {**pending, **fresh})


def _grown_from(data: bytes, sealed_sha: str, intent: Intent | None) -> bytes | None:
    """The bytes appended after the sealed content, if an ingest intent explains the change."""
    if intent is None or intent.sha256 != sealed_sha:
        return None
    size = intent.size
    if size > len(data) or hashlib.sha256(data[:size]).hexdigest() != sealed_sha:
        return None
    return data[size:]


def _whole_turns(appended: bytes) -> int | None:
    """How many turn lines ``appended`` holds, or ``None`` unless it is only whole, valid turn lines."""
    if appended and not appended.endswith(b"\n"):
        return None
    lines = appended.split(b"\n")[:-1] if appended else []
    return len(lines) if all(is_whole_turn(line) for line in lines) else None


# --- sealing --------------------------------------------------------------------------------------

@dataclass
class SealReport:
    sealed: list[str] = field(default_factory=list)  # days sealed for the first time
    resealed: list[str] = field(default_factory=list)  # sealed days that grew by an ingest
    refused: list[Problem] = field(default_factory=list)  # sealed days that changed otherwise

    def to_dict(self) -> dict[str, Any]:
        return to_builtins(self)


def seal_closed_days_locked(paths: HomePaths, keys: VaultKeys, now: datetime | None = None,
                            accept_unsigned: Collection[str] = ()) -> SealReport:
    """Seal every closed, unsealed day and reseal days grown by an ingest (its intent signed by this
    vault, or the day named in ``accept_unsigned`` by the person). Hold the ingest lock."""
    now = now or utc_now()
    ledger = Ledger(paths, keys)
    sealed = sealed_days(ledger.read(full=False))  # entries only; `reverie verify` reads it in full
    pending = load_pending(paths)
    report = SealReport()
    day_files = list_day_files(paths)
    for day_file in day_files:
        day = day_file.day
        if not day_closed(day, now):
            continue
        record_id = day_record_id(day)
        entry = sealed.get(record_id)
        if entry is not None and day not in pending:
            continue  # sealed and untouched since: `verify` is what rechecks it
        data = day_file.path.read_bytes()
        sha = hashlib.sha256(data).hexdigest()
        if entry is None:
            ledger.append("seal_day", record_id, sha, {"size": len(data), "turns": data.count(b"\n")})
            report.sealed.append(day)
        elif entry.record_sha256 != sha:
            intent = pending.get(day)
            appended = _grown_from(data, entry.record_sha256, intent)
            added = _whole_turns(appended) if appended is not None else None
            if added is None:
                why = "changed since its seal, not by an ingest; not resealed"
                report.refused.append(Problem("modified", record_id, why))
                continue
            if not intent_signed(keys, day, intent) and day not in accept_unsigned:
                report.refused.append(Problem("modified", record_id, _UNSIGNED.format(day=day)))
                continue
            ledger.append("reseal_day", record_id, sha,
                          {"previous_sha256": entry.record_sha256, "added": added, "size": len(data)})
            report.resealed.append(day)
        pending.pop(day, None)
    present = {day_file.day for day_file in day_files}
    remaining = {day: value for day, value in pending.items() if day in present}
    if remaining != load_pending(paths):
        _save_pending(paths, remaining)
    return report


def seal_closed_days(paths: HomePaths, keys: VaultKeys, now: datetime | None = None,
                     accept_unsigned: Collection[str] = ()) -> SealReport:
    """``reverie seal``: repair interrupted appends, then seal, all under the ingest lock.
    ``accept_unsigned``: days whose turns appended after the seal the person read and accepts although
    their intent is not signed (an ingest without the passphrase)."""
    paths.ensure()
    with file_lock(paths.lock("ingest")):
        repair_day_tails(paths, Quarantine(paths).keep_tail)
        return seal_closed_days_locked(paths, keys, now, accept_unsigned)


# --- verification ---------------------------------------------------------------------------------

_UNSIGNED = ("turns appended after the seal, and the intent that would explain them is not signed by this "
             "vault (planted, or an ingest without the passphrase): read them, then "
             "`reverie seal --accept-unsigned {day}` to reseal")


def verify_day_seals(paths: HomePaths, reading: LedgerReading, keys: VaultKeys | None = None) -> list[Problem]:
    """One problem per sealed day log that is gone, changed, or grew without being resealed. Growth
    with an intent is ``incomplete`` only if ``keys`` verify the intent's MAC; else ``modified``."""
    problems: list[Problem] = []
    pending = load_pending(paths)
    for record_id, entry in sorted(sealed_days(reading).items()):
        if not _RECORD_ID.match(record_id):
            why = f"a day seal (ledger seq {entry.seq}) names something that is not a day log"
            problems.append(Problem("unreadable", record_id, why))
            continue
        path = paths.root / record_id
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            problems.append(Problem("removed", record_id, f"sealed day log is missing (ledger seq {entry.seq})"))
            continue
        if hashlib.sha256(data).hexdigest() == entry.record_sha256:
            continue
        day = Path(record_id).stem
        intent = pending.get(day)
        if _grown_from(data, entry.record_sha256, intent) is None:
            problems.append(Problem("modified", record_id, f"bytes differ from the seal (ledger seq {entry.seq})"))
        elif keys is not None and intent_signed(keys, day, intent):
            problems.append(Problem("incomplete", record_id,
                                    "turns appended by an ingest after the seal; `reverie seal` reseals them"))
        else:
            problems.append(Problem("modified", record_id, _UNSIGNED.format(day=day)))
    return problems


def check_day_seals(paths: HomePaths, keys: VaultKeys, reading: LedgerReading) -> list[Problem]:
    """:func:`verify_day_seals` with the signature of ``core.workbench.verify.ExtraCheck``."""
    return verify_day_seals(paths, reading, keys)
