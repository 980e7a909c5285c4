"""The ledger: an append-only, hash-chained, signed log of everything that must not change silently.

Each line of ``ledger.jsonl`` is one entry (``seq``, ``ts``, ``kind``, ``record_id``, ``record_sha256``,
``data``, ``prev``: the previous entry's hash, ``hash``, ``sig``). ``hash`` covers every other field;
``sig`` is HMAC-SHA256 of ``hash`` under the vault's signing key, so an entry cannot be forged or edited
without the passphrase. ``ledger.head.json`` holds the signed last (seq, hash): cutting entries off the
end shows; a whole-home rollback shows only against a checkpoint kept elsewhere (``reverie verify
--checkpoint`` / ``--against``). Kinds: ``finalize``, ``add``, ``import`` (memories), ``archive`` and
``restore`` (curation), ``seal_day`` and ``reseal_day`` (day logs).

A full read that finds the chain clean writes a signed note of the bytes it checked
(``core.vault.ledger_prefix``), so an append and ``read(full=False)`` only hash those bytes and check what
follows; ``reverie verify`` always checks everything.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from core import clock
from core.errors import RecordError
from core.fsutil import append_line_durably, atomic_write_bytes, atomic_write_text, file_lock, remove_stale_temps
from core.integrity import Problem
from core.paths import HomePaths
from core.vault import ledger_prefix
from core.vault.canonical import canonical_json, canonical_json_decoded, is_plain_json, no_floats, sha256_hex
from core.vault.crypto import VaultKeys
from core.vault.ledger_prefix import VerifiedPrefix

GENESIS = "0" * 64
_HEX64 = re.compile(r"^[0-9a-f]{64}\Z")
# An append that finds this many entries past the verified-prefix note writes a new one: checking a few
# dozen entries costs about as much as the note's durable write (fsync of file and folder).
NOTE_EVERY = 32


@dataclass(frozen=True)
class LedgerEntry:
    seq: int
    ts: str
    kind: str
    record_id: str
    record_sha256: str
    data: dict[str, Any]
    prev: str
    hash: str
    sig: str

    def body(self) -> dict[str, Any]:
        """What the entry's hash covers (every field but ``hash`` and ``sig``), the signed bytes' fixed
        layout. Written out for speed: every read of the ledger builds it for each entry, and msgspec's
        ``to_builtins`` (``omit=``) costs about ten times more here."""
        return {
            "seq": self.seq,
            "ts": self.ts,
            "kind": self.kind,
            "record_id": self.record_id,
            "record_sha256": self.record_sha256,
            "data": self.data,
            "prev": self.prev,
        }

    def to_dict(self) -> dict[str, Any]:
        """The ledger line's fields (:meth:`body` with ``hash`` and ``sig``), a fixed layout it is signed in."""
        return {**self.body(), "hash": self.hash, "sig": self.sig}


@dataclass(frozen=True)
class Checkpoint:
    seq: int
    hash: str

    def __str__(self) -> str:
        return f"{self.seq}:{self.hash}"

    @classmethod
    def parse(cls, text: str) -> Checkpoint:
        seq, _, digest = text.strip().partition(":")
        if not seq.isdigit() or len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
            raise RecordError(f"checkpoint {text!r}: expected SEQ:SHA256 as printed by `reverie verify --checkpoint`")
        return cls(int(seq), digest)


@dataclass
class LedgerReading:
    """The ledger as read from disk: the entries that parse, and every problem found on the way."""

    entries: list[LedgerEntry] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def latest_by_record(self) -> dict[str, LedgerEntry]:
        latest: dict[str, LedgerEntry] = {}
        for entry in self.entries:
            latest[entry.record_id] = entry
        return latest

    def head(self) -> Checkpoint:
        if not self.entries:
            return Checkpoint(0, GENESIS)
        last = self.entries[-1]
        return Checkpoint(last.seq, last.hash)


def _entry_from_json(obj: Any) -> LedgerEntry:
    if not isinstance(obj, dict):
        raise ValueError("not an object")
    data = obj.get("data", {})
    if not isinstance(data, dict):
        raise ValueError("field 'data' is not an object")
    fields = {}
    for name, kind in (
        ("seq", int),
        ("ts", str),
        ("kind", str),
        ("record_id", str),
        ("record_sha256", str),
        ("prev", str),
        ("hash", str),
        ("sig", str),
    ):
        value = obj.get(name)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise ValueError(f"field {name!r} missing or of the wrong type")
        fields[name] = value
    for name in ("record_sha256", "prev", "hash", "sig"):
        if not _HEX64.match(fields[name]):
            raise ValueError(f"field {name!r} is not 64 hex digits")
    return LedgerEntry(data=data, **fields)


class _EntryShape(msgspec.Struct, kw_only=True):
    """A ledger line's fields with their JSON types, as :func:`_entry_from_json` checks them (an int that is
    not a boolean, strings, ``data`` an object or absent; other keys ignored)."""

    seq: int
    ts: str
    kind: str
    record_id: str
    record_sha256: str
    data: dict[str, Any] = {}
    prev: str
    hash: str
    sig: str


_ENTRY = msgspec.json.Decoder(_EntryShape)


def _entry_from_line(line: bytes) -> LedgerEntry:
    """``_entry_from_json(_decode_line(line))``, decoded and type-checked in one msgspec call when the line
    is well formed; any line msgspec refuses goes the long way, so the error is the one it always was."""
    try:
        shape = _ENTRY.decode(line)
    except (msgspec.DecodeError, RecursionError):
        return _entry_from_json(_decode_line(line))
    for name, value in (("record_sha256", shape.record_sha256), ("prev", shape.prev), ("hash", shape.hash),
                        ("sig", shape.sig)):
        if not _HEX64.match(value):
            raise ValueError(f"field {name!r} is not 64 hex digits")
    return LedgerEntry(shape.seq, shape.ts, shape.kind, shape.record_id, shape.record_sha256, shape.data,
                       shape.prev, shape.hash, shape.sig)


def entry_line(entry: LedgerEntry) -> str:
    """The one byte form of an entry's line in ``ledger.jsonl`` (without its newline)."""
    return json.dumps(entry.to_dict(), ensure_ascii=False, sort_keys=True)


def _line_bytes(entry: LedgerEntry, plain: bool) -> bytes:
    """``entry_line(entry)`` as bytes, for an entry decoded from a line for which ``is_plain_json`` gave
    ``plain``: msgspec writes the same bytes for such an entry without floats (keys sorted, ``", "`` and
    ``": "`` between items); anything else is written by ``entry_line``."""
    if plain and no_floats(entry.data):
        return msgspec.json.format(msgspec.json.encode(entry.to_dict(), order="sorted"), indent=0)
    return entry_line(entry).encode("utf-8")


def _decode_line(line: bytes) -> Any:
    """One ledger line's JSON: msgspec (C) first; whatever it refuses is read by ``json.loads``, which gives
    the value (NaN, a UTF-16 line) or the error a ledger line always got."""
    try:
        return msgspec.json.decode(line)
    except (msgspec.DecodeError, RecursionError):
        return json.loads(line)


def head_text(seq: int, digest: str, keys: VaultKeys) -> str:
    """The one byte form of ``ledger.head.json``."""
    head: dict[str, Any] = {"seq": seq, "hash": digest}
    head["sig"] = keys.sign(canonical_json(head))
    return json.dumps(head) + "\n"


@dataclass
class _Tail:
    """What an append needs, read without re-checking the verified prefix (:meth:`Ledger._read_tail`).

    ``reading`` holds the prefix's last two entries (the head check looks at the last two), then every
    entry after it, each checked as :meth:`Ledger.read` checks it; its problems are ``incomplete`` ones
    only (anything else sends the append to a full read). ``hasher`` has taken the first ``length`` bytes
    of the ledger: all of them checked, whole lines. ``noted``: the entry count the note on disk covers."""

    reading: LedgerReading
    hasher: Any
    length: int
    noted: int


Stamp = tuple[int, int, int, int]


class Ledger:
    def __init__(self, paths: HomePaths, keys: VaultKeys) -> None:
        self.paths = paths
        self.keys = keys
        # (stamp, reading, checked in full): a reading is reused while the files' size and mtime stay
        self._cache: tuple[Stamp | None, LedgerReading, bool] | None = None
        self._tail: tuple[Stamp | None, _Tail] | None = None  # after an append that read only the tail
        self._swept = False  # killed writers' temporary files removed (once per object: a scan of vault/)

    def _stamp(self) -> Stamp | None:
        """Size and mtime of the ledger and its head: a reading is reused while neither changed."""
        try:
            ledger, head = self.paths.ledger.stat(), self.paths.ledger_head.stat()
        except FileNotFoundError:
            return None
        return (ledger.st_size, ledger.st_mtime_ns, head.st_size, head.st_mtime_ns)

    def _sweep(self) -> None:
        """Remove the temporary files killed writers left in the home (the head), the vault and its intents
        and the drafts (:func:`core.fsutil.remove_stale_temps`), on this object's first append or
        completion: once per process in practice, as a scan of a large ``vault/`` costs milliseconds."""
        if not self._swept:
            remove_stale_temps((self.paths.root, self.paths.vault, self.paths.vault / ".pending", self.paths.drafts))
            self._swept = True

    def _sign_head(self, checkpoint: Checkpoint) -> None:
        atomic_write_text(self.paths.ledger_head, head_text(checkpoint.seq, checkpoint.hash, self.keys))

    def append(self, kind: str, record_id: str, record_sha256: str, data: dict[str, Any] | None = None) -> LedgerEntry:
        """Append one signed entry after the current last one; serialised across processes.

        The chain is checked first, as :meth:`read` checks it, but entries covered by the signed
        verified-prefix note (``core.vault.ledger_prefix``) are not checked again when the file still starts
        with exactly the bytes the note hashes: only what came after. Whenever that shortcut finds
        anything but a clean or interrupted ledger, the whole chain is read, so the refusal (and its
        message) is exactly that of a full read."""
        with file_lock(self.paths.lock("ledger")):
            stamp = self._stamp()
            tail: _Tail | None = None
            full = True
            if stamp is not None and self._cache is not None and self._cache[0] == stamp:
                reading, full = self._cache[1], self._cache[2]
            else:
                if stamp is not None and self._tail is not None and self._tail[0] == stamp:
                    tail = self._tail[1]
                else:
                    tail = self._read_tail()
                reading = tail.reading if tail is not None else self.read()
            broken = [p for p in reading.problems if p.kind != "incomplete"]
            if broken:
                raise RecordError(f"{self.paths.ledger}: refusing to append to a damaged ledger ({broken[0]})")
            if reading.problems:
                self._set_aside_partial_line()
                if any(p.subject in ("ledger", "ledger.head.json") for p in reading.problems):
                    # An interrupted append left entries past the head: sign it for them first, so a
                    # crash in this append leaves the same state again, never a second entry beyond it.
                    self._sign_head(reading.head())
            self._sweep()
            last = reading.entries[-1] if reading.entries else None
            body = {
                "seq": (last.seq + 1) if last else 1,
                "ts": clock.utc_now_iso(),
                "kind": kind,
                "record_id": record_id,
                "record_sha256": record_sha256,
                "data": data or {},
                "prev": last.hash if last else GENESIS,
            }
            digest = sha256_hex(canonical_json(body))
            entry = LedgerEntry(hash=digest, sig=self.keys.sign(digest.encode("ascii")), **body)
            line = entry_line(entry)
            append_line_durably(self.paths.ledger, line)
            self._sign_head(Checkpoint(entry.seq, entry.hash))
            self._cache = self._tail = None
            if tail is None:
                self._cache = (self._stamp(), LedgerReading(entries=[*reading.entries, entry]), full)
            else:  # a partial reading is never cached as the whole ledger
                self._advance_tail(tail, (line + "\n").encode("utf-8"))
            return entry

    def _noted_prefix(self) -> tuple[VerifiedPrefix, bytes, Any] | None:
        """The signed verified-prefix note, the ledger's bytes, and the SHA-256 state of the noted
        prefix, when the ledger still starts with exactly the bytes the note hashes; otherwise None."""
        note = ledger_prefix.load(self.paths.ledger_prefix, self.keys)
        if note is None:
            return None
        try:
            raw = self.paths.ledger.read_bytes()
        except OSError:
            return None
        if len(raw) < note.length or raw[note.length - 1 : note.length] != b"\n":
            return None
        hasher = hashlib.sha256(memoryview(raw)[: note.length])
        if hasher.hexdigest() != note.sha256:
            return None
        return note, raw, hasher

    def _read_tail(self) -> _Tail | None:
        """The ledger's end, checked after the signed verified prefix, if the ledger still starts with
        that prefix's exact bytes and the end is clean or interrupted; otherwise None (read it all).

        Sound because the note is signed by this vault and only ever written for bytes that passed
        :meth:`_check_lines` with no problem: the same bytes give the same result, so a full read
        would find nothing in the prefix, and the checks after it start from the same last entry."""
        found = self._noted_prefix()
        if found is None:
            return None
        note, raw, hasher = found
        view = memoryview(raw)
        start = raw.rfind(b"\n", 0, note.length - 1) + 1
        if note.count > 1:
            start = raw.rfind(b"\n", 0, start - 1) + 1
        try:
            entries = [_entry_from_json(json.loads(line)) for line in raw[start : note.length - 1].split(b"\n")]
        except (ValueError, RecursionError):
            return None
        if len(entries) != min(note.count, 2):
            return None
        checked = self._check_after_prefix(note, raw, entries)
        if checked is None:
            return None
        reading, whole = checked
        hasher.update(view[note.length : whole])
        return _Tail(reading, hasher, whole, note.count)

    def _check_after_prefix(self, note: VerifiedPrefix, raw: bytes,
                            entries: list[LedgerEntry]) -> tuple[LedgerReading, int] | None:
        """A reading of ``entries`` (the noted prefix's last ones, or all of them) and the lines after the
        prefix, checked as a full read checks them, and the length of the complete lines; None unless
        ``entries`` ends at the noted entry and the ledger is clean or interrupted."""
        last = entries[-1]
        if (last.seq, last.hash) != (note.last_seq, note.last_hash):
            return None
        reading = LedgerReading(entries=entries)
        whole = note.length + self._check_lines(raw[note.length :], reading, note.count, last.hash, last.seq)
        reading.problems.extend(self._check_head(reading))
        if [p for p in reading.problems if p.kind != "incomplete"]:
            return None
        return reading, whole

    def _advance_tail(self, tail: _Tail, written: bytes) -> None:
        """After an append on a tail reading: take in the line written (checked as a read would check
        it), note the verified prefix again every NOTE_EVERY entries, and keep the tail for the next
        append of this object."""
        last = tail.reading.entries[-1]
        check = LedgerReading()
        self._check_lines(written, check, last.seq, last.hash, last.seq)
        try:
            size = self.paths.ledger.stat().st_size
        except OSError:
            return
        if check.problems or len(check.entries) != 1 or size != tail.length + len(written):
            return  # not the bytes this append meant to leave: the next append reads again
        entry = check.entries[0]
        tail.hasher.update(written)
        tail.length += len(written)
        tail.reading = LedgerReading(entries=[last, entry])
        if entry.seq - tail.noted >= NOTE_EVERY:
            note = VerifiedPrefix(tail.length, entry.seq, tail.hasher.copy().hexdigest(), entry.seq, entry.hash)
            ledger_prefix.save(self.paths.ledger_prefix, note, self.keys)
            tail.noted = entry.seq
        self._tail = (self._stamp(), tail)

    def complete_interrupted(self) -> bool:
        """Sign the head again after crashes left signed entries beyond it; True if it did. Also removes
        the temporary files killed writers left (:func:`core.fsutil.remove_stale_temps`), as an append does."""
        with file_lock(self.paths.lock("ledger")):
            self._sweep()
            reading = self.read(full=False)  # what a full read gives for a clean or interrupted ledger
            if not reading.entries or [p for p in reading.problems if p.kind != "incomplete"]:
                return False
            if not any(p.subject in ("ledger", "ledger.head.json") for p in reading.problems):
                return False
            self._sign_head(reading.head())
            self._cache = self._tail = None
            return True

    def _set_aside_partial_line(self) -> None:
        """A crash mid-append left an unterminated last line: keep its bytes beside the ledger
        (``ledger.jsonl.partial-<time>``) and cut the ledger back to its last complete entry."""
        raw = self.paths.ledger.read_bytes()
        cut = raw.rfind(b"\n") + 1
        if cut == len(raw):
            return
        aside = self.paths.ledger.with_name(f"{self.paths.ledger.name}.partial-{clock.utc_now_iso().replace(':', '')}")
        atomic_write_bytes(aside, raw[cut:])
        with open(self.paths.ledger, "r+b") as handle:
            handle.truncate(cut)
            handle.flush()
            os.fsync(handle.fileno())

    def read(self, *, full: bool = True) -> LedgerReading:
        """Parse and check the whole chain; never raises for damage, reports it as problems.

        ``full=False``, for callers that need the entries (never ``reverie verify``): the entries the
        signed verified-prefix note covers, if the ledger still starts with exactly the bytes it hashes,
        are parsed without being checked again; only the entries after them and the head are checked.
        The reading is the one a full read gives (a full read found those same bytes clean); anything
        but a clean or interrupted ledger is read in full, so every problem is reported as before.

        The result is cached while the files' size and mtime stay the same; callers must not mutate it."""
        stamp = self._stamp()
        cached = self._cache
        if stamp is not None and cached is not None and cached[0] == stamp and (cached[2] or not full):
            return cached[1]
        noted = None if full else self._read_noted()
        reading = noted or self._read_uncached()
        self._cache = (stamp, reading, noted is None) if stamp is not None else None
        return reading

    def _read_noted(self) -> LedgerReading | None:
        """:meth:`read` with ``full=False``; None when the note cannot be used (read it all)."""
        found = self._noted_prefix()
        if found is None:
            return None
        note, raw, _ = found
        try:  # bytes a full read found clean: each line is exactly an entry's nine fields
            entries = [LedgerEntry(**json.loads(line)) for line in raw[: note.length - 1].split(b"\n")]
        except (ValueError, TypeError, RecursionError):
            return None
        if len(entries) != note.count:
            return None
        checked = self._check_after_prefix(note, raw, entries)
        if checked is None:
            return None
        reading, whole = checked
        if len(reading.entries) - note.count >= NOTE_EVERY:
            self._note_prefix(raw, whole, reading.entries[-1])
        return reading

    def _read_uncached(self) -> LedgerReading:
        reading = LedgerReading()
        try:
            raw = self.paths.ledger.read_bytes()
        except FileNotFoundError:
            raw = b""
        whole = self._check_lines(raw, reading, 0, GENESIS, 0)
        clean = not [p for p in reading.problems if p.kind != "incomplete"]
        reading.problems.extend(self._check_head(reading))
        if clean and reading.entries:
            self._note_prefix(raw, whole, reading.entries[-1])
        return reading

    def _note_prefix(self, raw: bytes, whole: int, last: LedgerEntry) -> None:
        """Write the signed verified-prefix note for ``raw[:whole]``, just checked and clean, unless the
        note on disk already says so. (Every full read does: ``reverie verify`` too, which reads it all
        whatever the note says.)"""
        note = VerifiedPrefix(whole, last.seq, sha256_hex(memoryview(raw)[:whole]), last.seq, last.hash)
        if ledger_prefix.load(self.paths.ledger_prefix, self.keys) != note:
            ledger_prefix.save(self.paths.ledger_prefix, note, self.keys)

    def _check_lines(self, raw: bytes, reading: LedgerReading, before: int, prev_hash: str, prev_seq: int) -> int:
        """Check the lines of ``raw``, which follows ``before`` lines ending at entry ``prev_seq`` /
        ``prev_hash`` (0 and GENESIS from the start): add their entries and problems to ``reading``.
        Returns the byte length of ``raw``'s whole lines."""
        lines = raw.split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        elif lines:
            # A last line without its newline: a crash mid-append. It is not trusted; the entry before
            # it is checked against the signed head like any other end of the ledger.
            subject = f"ledger line {before + len(lines)}"
            reading.problems.append(Problem("incomplete", subject, "unterminated last line"))
            lines.pop()
        for number, line in enumerate(lines, start=before + 1):
            subject = f"ledger line {number}"
            try:
                entry = _entry_from_line(line)
            except RecursionError:
                reading.problems.append(Problem("unreadable", subject, "not a ledger entry: nested too deeply"))
                continue
            except (ValueError, UnicodeDecodeError) as exc:
                reading.problems.append(Problem("unreadable", subject, f"not a ledger entry: {exc}"))
                continue
            try:
                plain = is_plain_json(line)
                body, written = canonical_json_decoded(entry.body(), plain), _line_bytes(entry, plain)
            except (UnicodeEncodeError, ValueError):
                why = "holds a value no entry can (an unpaired surrogate, NaN or infinity)"
                reading.problems.append(Problem("unreadable", subject, why))
                continue
            if sha256_hex(body) != entry.hash:
                reading.problems.append(
                    Problem("modified", subject, f"entry for {entry.record_id} does not match its hash")
                )
            elif not self.keys.signature_ok(entry.hash.encode("ascii"), entry.sig):
                reading.problems.append(
                    Problem("forged", subject, f"entry for {entry.record_id} is not signed by this vault")
                )
            elif line != written:
                why = f"entry for {entry.record_id}: the line's bytes differ from the entry it holds"
                reading.problems.append(Problem("modified", subject, why))
            if entry.prev != prev_hash or entry.seq != prev_seq + 1:
                if entry.seq <= prev_seq:
                    kind, why = "reordered", f"seq {entry.seq} follows seq {prev_seq}"
                elif entry.seq > prev_seq + 1:
                    kind, why = "removed", f"seq {prev_seq + 1}..{entry.seq - 1} missing before this entry"
                else:
                    kind, why = "inserted", f"entry seq {entry.seq} does not link to the entry before it"
                reading.problems.append(Problem(kind, subject, why))
            reading.entries.append(entry)
            prev_hash, prev_seq = entry.hash, entry.seq
        return raw.rfind(b"\n") + 1

    def _signed_tail(self, reading: LedgerReading, seq: int, digest: str) -> list[LedgerEntry]:
        """The entries after the head (seq, digest), if there are any and each of them hashes, is signed by
        this vault and links to the one before it (the first to the head's entry): what crashes between
        appending entries and signing the head leave. Only this vault's key makes such entries, so the head
        lagging behind them hides nothing; otherwise (an unsigned or unlinked entry) the list is empty."""
        if seq == 0 and digest == GENESIS:
            start = 0
        else:
            start = next((i + 1 for i, e in enumerate(reading.entries) if (e.seq, e.hash) == (seq, digest)), -1)
            if start < 0:
                return []
        tail = reading.entries[start:]
        prev_seq, prev_hash = seq, digest
        for entry in tail:
            if (entry.seq != prev_seq + 1 or entry.prev != prev_hash
                    or sha256_hex(canonical_json(entry.body())) != entry.hash
                    or not self.keys.signature_ok(entry.hash.encode("ascii"), entry.sig)):
                return []
            prev_seq, prev_hash = entry.seq, entry.hash
        return tail

    def _check_head(self, reading: LedgerReading) -> Iterable[Problem]:
        path = self.paths.ledger_head
        if not path.exists():
            # Only the very first append runs without a head: more entries and no head is a head deleted
            # (which would hide a truncation), not a crash.
            if len(self._signed_tail(reading, 0, GENESIS)) == 1:
                yield Problem("incomplete", "ledger.head.json",
                              "the first entry was appended but the head not yet signed; the next write signs it")
            elif reading.entries:
                yield Problem("removed", "ledger.head.json", "the signed head is missing")
            return
        try:
            text = path.read_bytes().decode("utf-8")
            head = json.loads(text)
            seq, digest, sig = int(head["seq"]), str(head["hash"]), head["sig"]
            if not _HEX64.match(digest):
                raise ValueError("field 'hash' is not 64 hex digits")
        except (OSError, ValueError, KeyError, TypeError, RecursionError) as exc:  # UnicodeDecodeError: a ValueError
            yield Problem("unreadable", "ledger.head.json", f"signed head unreadable: {exc}")
            return
        if not self.keys.signature_ok(canonical_json({"seq": seq, "hash": digest}), sig):
            yield Problem("forged", "ledger.head.json", "the head is not signed by this vault")
            return
        if text != head_text(seq, digest, self.keys):
            yield Problem("modified", "ledger.head.json", "the file's bytes differ from the head it holds")
        actual = reading.head()
        if (seq, digest) == (actual.seq, actual.hash):
            return
        if seq > actual.seq:
            yield Problem("removed", "ledger", f"the signed head is seq {seq} but the ledger ends at seq {actual.seq}")
        elif tail := self._signed_tail(reading, seq, digest):
            which = f"entry seq {tail[0].seq}" if len(tail) == 1 else f"entries seq {tail[0].seq}..{tail[-1].seq}"
            yield Problem("incomplete", "ledger", f"{which} appended but the signed head not updated "
                                                  "(an interrupted write); the next write signs it")
        elif any(e.seq == seq and e.hash == digest for e in reading.entries):
            # Entries after the signed head that this vault did not sign, or that do not link.
            yield Problem("inserted", "ledger", f"entries after the signed head (seq {seq})")
        else:
            yield Problem("modified", "ledger", f"the signed head (seq {seq}) does not match the ledger")

    def check_against(self, checkpoint: Checkpoint, reading: LedgerReading | None = None) -> list[Problem]:
        """Problems if the ledger is older than, or diverged from, a checkpoint kept elsewhere."""
        reading = reading or self.read()
        for entry in reading.entries:
            if entry.seq == checkpoint.seq:
                if entry.hash == checkpoint.hash:
                    return []
                return [Problem("rolled_back", "ledger", f"entry seq {checkpoint.seq} differs from the checkpoint")]
        if checkpoint.seq == 0 and checkpoint.hash == GENESIS:
            return []
        return [
            Problem(
                "rolled_back",
                "ledger",
                f"the ledger ends at seq {reading.head().seq}, older than the checkpoint seq {checkpoint.seq}",
            )
        ]
