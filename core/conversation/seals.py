"""Day seals: a closed UTC day's log file is recorded in the ledger, so a later change shows.

A day is closed once its end plus ``SEAL_GRACE`` has passed; sealing appends a ``seal_day`` ledger
entry with the file's SHA-256, size and turn count. An ingest that adds turns to a sealed day first
records a signed intent in ``logs/.pending-reseal.json`` (size and SHA-256 before and after the
append, MACed under the vault's signing key); ``reseal_day`` is recorded only when the MAC verifies,
the sealed bytes are still the prefix and what follows is whole turns; anything else is ``modified``
(``reverie seal --accept-unsigned DAY`` lets the person vouch for it). :func:`verify_day_seals`
reports ``removed``, ``modified`` and ``incomplete``. Sealing runs under the ingest lock.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import msgspec

from core import clock
from core.conversation.quarantine import Quarantine
from core.conversation.store import day_record_id, is_whole_turn, list_day_files, read_day, repair_day_tails
from core.conversation.written import (
    AppendPlan,
    Written,
    cut_short,
    load_written,
    read_json_object,
    record_begun,
    roll_back_cut_appends,
    save_written,
    vouches,
    written_signed,
)
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
# Nothing else the signing key signs starts like this; v1 intents (no after-state) verify under no key now.
_INTENT_DOMAIN = b"reverie/v2/reseal-intent\0"
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
    """A closed day's file before the first append its seal does not cover (``size``, ``sha256``), just
    before the latest one (``prior_*``) and as that one leaves it (``after_*``), as kept in the intents
    file (sorted keys, no ``mac`` when the ingest had no keys to sign with; an intent an older version
    wrote has no prior and after states and explains nothing)."""

    size: int
    sha256: str
    prior_size: int | None = None
    prior_sha256: str | None = None
    after_size: int | None = None
    after_sha256: str | None = None
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
    data = read_json_object(_pending_path(paths))
    return {day: intent for day, value in data.items() if (intent := _intent(value)) is not None}


def _intent_message(day: str, intent: Intent) -> bytes:
    return _INTENT_DOMAIN + canonical_json({
        "after_sha256": intent.after_sha256, "after_size": intent.after_size, "day": day,
        "prior_sha256": intent.prior_sha256, "prior_size": intent.prior_size, "sha256": intent.sha256,
        "size": intent.size})


def intent_signed(keys: VaultKeys, day: str, intent: Intent | None) -> bool:
    """Whether ``intent`` carries a MAC this vault's key made for exactly this day and these states."""
    if intent is None or intent.after_size is None or intent.prior_size is None:
        return False
    return keys.signature_ok(_intent_message(day, intent), intent.mac)


def _save_pending(paths: HomePaths, pending: dict[str, Intent]) -> None:
    path = _pending_path(paths)
    if pending:
        atomic_write_text(path, json.dumps(to_builtins(pending), indent=1, sort_keys=True) + "\n")
    else:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def note_appends(paths: HomePaths, plans: dict[str, AppendPlan], keys: VaultKeys | None = None) -> None:
    """Record, durably and before appending, each closed day an ingest is about to grow: its state
    now and the state the append will leave, signed with ``keys`` when the ingest has them (an
    unsigned intent explains nothing to ``verify``). See :func:`_next_intent` for a day already noted."""
    pending = load_pending(paths)
    fresh: dict[str, Intent] = {}
    for day, plan in plans.items():
        intent = _next_intent(day, pending.get(day), plan, keys)
        if intent is not None and intent != pending.get(day):
            fresh[day] = intent
    if fresh:
        _save_pending(paths, {**pending, **fresh})


def _next_intent(day: str, old: Intent | None, plan: AppendPlan, keys: VaultKeys | None) -> Intent | None:
    """The intent for ``plan`` given the one already noted for ``day`` (None: keep ``old``).

    A day noted before keeps its first state (the one its seal can be checked against) when the file
    is now in a state that intent announced (after its append, or before it when a crash cut it short
    and :func:`~core.conversation.written.roll_back_cut_appends` cut it back): the new intent then
    runs from there to the new end, signed only if the old one was. A file in none of those states
    changed some other way: the old intent stays, so the day stays reported."""
    now = (plan.size, plan.sha256)
    if old is None or (old.size, old.sha256) == now:
        size, sha, signable = plan.size, plan.sha256, True
    elif now in ((old.prior_size, old.prior_sha256), (old.after_size, old.after_sha256)):
        size, sha, signable = old.size, old.sha256, keys is not None and intent_signed(keys, day, old)
    else:
        return None
    intent = Intent(size, sha, plan.size, plan.sha256, plan.after_size, plan.after_sha256)
    if keys is not None and signable:
        intent = msgspec.structs.replace(intent, mac=keys.sign(_intent_message(day, intent)))
    return intent


def _after_seal(data: bytes, sealed_sha: str, intent: Intent | None) -> bytes | None:
    """What follows the sealed content in ``data``, when an intent says where the seal ends and the
    sealed bytes are still there; whether it is what the intent announced is :func:`_announced`'s."""
    if intent is None or intent.sha256 != sealed_sha:
        return None
    size = intent.size
    if size > len(data) or hashlib.sha256(data[:size]).hexdigest() != sealed_sha:
        return None
    return data[size:]


def _announced(data: bytes, intent: Intent | None) -> bool:
    """Whether ``data`` is exactly a file the intent announced: after its latest append, or just before."""
    if intent is None:
        return False
    state = (len(data), hashlib.sha256(data).hexdigest())
    return state in ((intent.after_size, intent.after_sha256), (intent.prior_size, intent.prior_sha256))


def _cut_short(data: bytes, intent: Intent | None) -> bool:
    """Whether ``data`` is the intent's latest append cut short by a crash (the next ingest or seal
    cuts it back: :func:`~core.conversation.written.roll_back_cut_appends`)."""
    if intent is None or intent.prior_size is None or intent.after_size is None:
        return False
    return (intent.prior_size < len(data) < intent.after_size
            and hashlib.sha256(data[: intent.prior_size]).hexdigest() == intent.prior_sha256)


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
    not_sealed: list[Problem] = field(default_factory=list)  # closed days Reverie cannot vouch it wrote


def seal_closed_days_locked(paths: HomePaths, keys: VaultKeys, now: datetime | None = None,
                            accept_unsigned: Collection[str] = (),
                            adopt: Mapping[str, str] | None = None) -> SealReport:
    """Seal every closed, unsealed day this vault's ingests wrote (:mod:`core.conversation.written`)
    and reseal days grown by an ingest (its intent signed by this vault, or the day named in
    ``accept_unsigned`` by the person). ``adopt``: day → SHA-256 of a day file the person read and
    adopts although Reverie cannot vouch it wrote it; sealed only while its bytes are those. Hold the
    ingest lock."""
    now = now or clock.utc_now()
    ledger = Ledger(paths, keys)
    sealed = sealed_days(ledger.read(full=False))  # entries only; `reverie verify` reads it in full
    pending = load_pending(paths)
    written = load_written(paths)
    report = SealReport()
    day_files = list_day_files(paths)
    for day_file in day_files:
        day = day_file.day
        if not day_closed(day, now):
            continue
        record_id = day_record_id(day)
        entry = sealed.get(record_id)
        if entry is not None and day not in pending:
            written.pop(day, None)  # the seal vouches for it (a ``found`` entry of a sealed day is not needed)
            continue  # sealed and untouched since: `verify` is what rechecks it
        data = day_file.path.read_bytes()
        sha = hashlib.sha256(data).hexdigest()
        if entry is None:
            if not vouches(keys, day, written.get(day), len(data), sha) and (adopt or {}).get(day) != sha:
                report.not_sealed.append(_not_written(keys, day, data, written.get(day), record_begun(paths)))
                continue
            ledger.append("seal_day", record_id, sha, {"size": len(data), "turns": data.count(b"\n")})
            report.sealed.append(day)
        elif entry.record_sha256 != sha:
            problem = _reseal_problem(keys, day, data, entry.record_sha256, pending.get(day), accept_unsigned)
            if isinstance(problem, str):
                report.refused.append(Problem("modified", record_id, problem))
                continue
            ledger.append("reseal_day", record_id, sha,
                          {"previous_sha256": entry.record_sha256, "added": problem, "size": len(data)})
            report.resealed.append(day)
        pending.pop(day, None)
        written.pop(day, None)
    present = {day_file.day for day_file in day_files}
    remaining = {day: value for day, value in pending.items() if day in present}
    if remaining != load_pending(paths):
        _save_pending(paths, remaining)
    if written != load_written(paths):
        save_written(paths, written)
    return report


def _not_written(keys: VaultKeys | None, day: str, data: bytes, entry: Written | None,
                 begun: bool = True) -> Problem:
    """Why a day file that is not sealed is not one Reverie can vouch it wrote: ``incomplete`` for an
    entry an ingest without keys left (unsigned, the file as it announced) and for a day in ``logs/``
    before the record of days written began (``found``, or no record yet: ``begun`` false), else
    ``inserted``. Either way it is sealed only when the person adopts it."""
    record_id = day_record_id(day)
    lines = data.count(b"\n")
    holds = entry is not None and entry.holds(len(data), hashlib.sha256(data).hexdigest())
    if not begun or (holds and entry is not None and entry.found):
        return Problem("incomplete", record_id, f"{lines:,} lines from before Reverie recorded the days it "
                       "writes (an earlier version wrote them, or the record was removed); Reverie cannot vouch "
                       f"for them: `reverie seal --adopt {day}` shows what it holds and seals it if you say so")
    unsigned = holds and (keys is None or not written_signed(keys, day, entry))
    if unsigned:
        return Problem("incomplete", record_id, f"written by an ingest without the passphrase, {lines} lines; "
                       f"Reverie cannot vouch for it: `reverie seal --adopt {day}` shows what it holds and "
                       "seals it if you say so")
    return Problem("inserted", record_id, f"not written by Reverie ({lines:,} lines); never sealed "
                   f"unless you adopt it: `reverie seal --adopt {day}` shows what it holds first")


def _reseal_problem(keys: VaultKeys, day: str, data: bytes, sealed_sha: str, intent: Intent | None,
                    accept_unsigned: Collection[str]) -> int | str:
    """How many turns a reseal of ``day`` adds, or why it may not be resealed. The person's word
    (``accept_unsigned``) stands for a signature and for the announced bytes, never for the seal."""
    appended = _after_seal(data, sealed_sha, intent)
    added = _whole_turns(appended) if appended is not None else None
    if added is None:
        return "changed since its seal, not by an ingest; not resealed"
    if day in accept_unsigned:
        return added
    if not intent_signed(keys, day, intent):
        return _UNSIGNED.format(day=day)
    if not _announced(data, intent):
        return _NOT_ANNOUNCED.format(day=day)
    return added


def repair_appends(paths: HomePaths, quarantine: Quarantine) -> list[str]:
    """Repair unterminated last lines (a whole turn gets its newline back), then cut an append a crash
    still left short of what it announced back to the state before it: what a killed ingest left, made
    a file Reverie wrote again, its bytes in the quarantine. Hold the ingest lock."""
    done = [str(repair) for repair in repair_day_tails(paths, quarantine.keep_tail)]
    return done + roll_back_cut_appends(paths, quarantine.add)


def seal_closed_days(paths: HomePaths, keys: VaultKeys, now: datetime | None = None,
                     accept_unsigned: Collection[str] = (), adopt: Mapping[str, str] | None = None) -> SealReport:
    """``reverie seal``: repair interrupted appends, then seal, all under the ingest lock.
    ``accept_unsigned``: days whose turns appended after the seal the person read and accepts although
    their intent is not signed (an ingest without the passphrase); ``adopt``: see
    :func:`seal_closed_days_locked`."""
    paths.ensure()
    with file_lock(paths.lock("ingest")):
        repair_appends(paths, Quarantine(paths))
        return seal_closed_days_locked(paths, keys, now, accept_unsigned, adopt)


@dataclass(frozen=True)
class DaySummary:
    """What a day file holds, shown to the person before they adopt it (``reverie seal --adopt``)."""

    day: str
    record_id: str
    sha256: str  # the bytes shown: adopting seals these and no others
    size: int
    turns: int
    bad_lines: int
    first: str | None  # earliest and latest ts
    last: str | None
    sessions: dict[str, int]  # session → turns
    sealed: bool


def describe_day(paths: HomePaths, day: str, reading: LedgerReading) -> DaySummary | None:
    """The summary of ``day``'s file (None when there is none). ``ValueError`` for a name that is
    not a day (``YYYY-MM-DD`` of the calendar)."""
    try:
        datetime.strptime(day, "%Y-%m-%d")
    except ValueError:
        raise ValueError(f"{day!r} is not a day (YYYY-MM-DD)") from None
    record_id = day_record_id(day)
    path = paths.root / record_id
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    reading_day = read_day(path)
    stamps = sorted(turn.ts for turn in reading_day.turns)
    sessions: dict[str, int] = {}
    for turn in reading_day.turns:
        sessions[turn.session] = sessions.get(turn.session, 0) + 1
    return DaySummary(day, record_id, hashlib.sha256(data).hexdigest(), len(data), len(reading_day.turns),
                      len(reading_day.bad_lines), stamps[0] if stamps else None, stamps[-1] if stamps else None,
                      dict(sorted(sessions.items(), key=lambda item: -item[1])), record_id in sealed_days(reading))


# --- verification ---------------------------------------------------------------------------------

_CUT_SHORT = ("fewer bytes after the seal than the last ingest announced: its append cut short by a crash (or an "
              "edit); the next ingest or `reverie seal` moves them to the quarantine, never seals them")
_CUT_SHORT_UNSEALED = ("fewer bytes than the last ingest announced: its append cut short by a crash (or an edit); "
                       "the next ingest or `reverie seal` moves them to the quarantine, never seals them")
_NOT_ANNOUNCED = ("turns appended after the seal are not the ones the ingest announced in its intent: read them, "
                  "then `reverie seal --accept-unsigned {day}` to reseal what you accept")
_UNSIGNED = ("turns appended after the seal, and the intent that would explain them is not signed by this "
             "vault (planted, or an ingest without the passphrase): read them, then "
             "`reverie seal --accept-unsigned {day}` to reseal")


def verify_day_seals(paths: HomePaths, reading: LedgerReading, keys: VaultKeys | None = None) -> list[Problem]:
    """One problem per sealed day log that is gone, changed, or grew without being resealed (growth
    with an intent is ``incomplete`` only if ``keys`` verify the intent's MAC; else ``modified``), and
    with ``keys`` one per day log not sealed yet that this vault's ingests did not write
    (:func:`_unsealed_problems`)."""
    problems: list[Problem] = []
    pending = load_pending(paths)
    seals = sealed_days(reading)
    if keys is not None:
        problems += _unsealed_problems(paths, keys, set(seals))
    for record_id, entry in sorted(seals.items()):
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
        if _after_seal(data, entry.record_sha256, intent) is None:
            problems.append(Problem("modified", record_id, f"bytes differ from the seal (ledger seq {entry.seq})"))
        elif keys is None or not intent_signed(keys, day, intent):
            problems.append(Problem("modified", record_id, _UNSIGNED.format(day=day)))
        elif _cut_short(data, intent):
            problems.append(Problem("incomplete", record_id, _CUT_SHORT))
        elif not _announced(data, intent):
            problems.append(Problem("modified", record_id, _NOT_ANNOUNCED.format(day=day)))
        else:
            problems.append(Problem("incomplete", record_id,
                                    "turns appended by an ingest after the seal; `reverie seal` reseals them"))
    return problems


def _unsealed_problems(paths: HomePaths, keys: VaultKeys, sealed: set[str]) -> list[Problem]:
    """Day files without a seal that the written-days record does not vouch for: ``inserted`` (not
    written by Reverie, open or closed), or ``incomplete`` for a closed day an ingest without the
    passphrase wrote (it waits for the person's ``seal --adopt``) or whose last append a crash cut
    short (the next ingest or seal cuts it back)."""
    written = load_written(paths)
    begun = record_begun(paths)
    now = clock.utc_now()
    problems = []
    for day_file in list_day_files(paths):
        day = day_file.day
        if day_record_id(day) in sealed:
            continue
        data = day_file.path.read_bytes()
        entry = written.get(day)
        if vouches(keys, day, entry, len(data), hashlib.sha256(data).hexdigest()):
            continue
        if cut_short(entry, data) and written_signed(keys, day, entry):
            problems.append(Problem("incomplete", day_record_id(day), _CUT_SHORT_UNSEALED))
            continue
        problem = _not_written(keys, day, data, entry, begun)
        if problem.kind == "inserted" or day_closed(day, now):
            problems.append(problem)
    return problems


def check_day_seals(paths: HomePaths, keys: VaultKeys, reading: LedgerReading) -> list[Problem]:
    """:func:`verify_day_seals` with the signature of ``core.workbench.verify.ExtraCheck``."""
    return verify_day_seals(paths, reading, keys)
