"""MemoryStore: drafts under review, finalized memories, and the ledger that seals them.

The review workflow's operations (``create_draft``, ``save_draft``, ``get_draft``, ``list_drafts``,
``delete_draft``, ``finalize_draft`` or ``finalize`` by id, ``finalized_memory_id``) and the memories'
(``add_memory``, ``store_memory``, ``get_memory``, listings). Drafts are encrypted at rest like memories.
A draft is finalized at most once, also across restarts (the ledger is the authority), and a finalized
draft can be neither replaced nor deleted. Finalization, and what a crash at each step leaves:
1. memory file written (exclusive create): a sealed memory the ledger does not know; its id derives
   from the draft id, so the next finalize finds it, checks it and records it (:meth:`complete_interrupted`);
2. ledger entry appended: the draft still says "approved"; the next run marks it finalized;
3. draft rewritten as finalized.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from core import clock
from core.errors import DraftChanged, HomeError, NotFound, RecordError, ReviewError, VaultLocked
from core.frozen import freeze
from core.fsutil import atomic_write_bytes, atomic_write_text, file_lock
from core.integrity import Problem
from core.paths import HomePaths
from core.turns import parse_ts
from core.typed import to_builtins
from core.vault.canonical import sha256_hex
from core.vault.crypto import KdfParams, VaultKeys, create_header, unlock
from core.vault.ledger import Ledger, LedgerEntry
from core.vault.records import MemoryRecord, RecordMetadata, is_memory_id, open_memory, seal_memory
from core.vault.review import (
    StoredDraft,
    check_field_value,
    draft_from_capture,
    is_draft_id,
    lost_update,
    new_id,
    review_record,
)
from core.vault.scan import (
    Known,
    Opened,
    Opener,
    draft_facts_file,
    memory_facts_file,
    open_draft_file,
    open_memory_file,
    open_records,
    record_names,
)
from core.vault.sealed import Envelope, seal, unseal

DRAFT_FORMAT = "reverie.draft"
MEMORY_KINDS = ("finalize", "add", "import", "restore")  # ledger kinds that place a memory in vault/
PENDING_DIR = ".pending"  # intents of adds and imports, inside vault/


@dataclass
class DraftScan:
    drafts: list[StoredDraft] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


@dataclass
class MemoryScan:
    memories: list[MemoryRecord] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    file_sha256: dict[str, str] = field(default_factory=dict)  # memory id → sha256 of its record file


@dataclass
class RecordCheck:
    """A folder of records checked for ``verify``: the facts of each record that opened, by id; the SHA-256
    of each of those files, by id; a problem for each file that did not open."""

    facts: dict[str, Any] = field(default_factory=dict)
    file_sha256: dict[str, str] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)


@dataclass(frozen=True)
class ListedMemory:
    """One entry of the memory list: a memory whose record opened (``memory``; ``verified`` when its file
    also matches the ledger's latest checksum for it), or a damaged record (``memory`` None, ``damage``
    the reason) that is named and flagged, never shown as content."""

    memory_id: str
    memory: MemoryRecord | None
    verified: bool
    damage: str | None = None

    @property
    def damaged(self) -> bool:
        return self.memory is None


class ForgottenKeys:
    """What a locked vault holds instead of its keys."""

    def __getattr__(self, name: str) -> NoReturn:
        raise VaultLocked("the vault was locked and its keys forgotten; unlock it again")


class MemoryStore:
    """The drafts, memories and ledger of one home, with keys already unlocked. Open it with
    :meth:`open` (keys), :meth:`unlock` (a passphrase; refused when the home has no vault) or
    :meth:`create` (a new vault; refused when one exists). Nothing is ever created implicitly."""

    def __init__(self, keys: VaultKeys, paths: HomePaths) -> None:
        if not isinstance(keys, VaultKeys):
            raise TypeError("MemoryStore takes unlocked VaultKeys; use MemoryStore.unlock(paths, passphrase)")
        self.paths = paths.ensure()
        self.keys = keys
        self.ledger = Ledger(self.paths, keys)
        # Records opened with these keys, by folder (``scan.open_records``): the counts, the verification
        # and finishing interrupted work each read every record, and decrypt each file's bytes once.
        self.known: dict[tuple[Path, str], Known] = {}

    @classmethod
    def open(cls, paths: HomePaths, keys: VaultKeys) -> MemoryStore:
        return cls(keys, paths)

    @classmethod
    def unlock(cls, home: str | os.PathLike[str] | HomePaths, passphrase: str) -> MemoryStore:
        """The vault of ``home`` opened with ``passphrase`` (a wrong one raises before anything is written)."""
        paths = home if isinstance(home, HomePaths) else HomePaths.at(home)
        if not paths.vault_header.exists():
            raise HomeError(f"{paths.root}: no vault here yet (`reverie init` creates one)")
        return cls(unlock(paths.vault_header, passphrase), paths)

    @classmethod
    def create(cls, home: str | os.PathLike[str] | HomePaths, passphrase: str,
               kdf: KdfParams | None = None) -> MemoryStore:
        """A new vault in ``home`` (``kdf``: Argon2id parameters, the defaults unless a test passes cheap ones)."""
        paths = home if isinstance(home, HomePaths) else HomePaths.at(home)
        if paths.vault_header.exists():
            raise HomeError(f"{paths.vault_header}: a vault already exists here")
        paths.ensure()
        return cls(create_header(paths.vault_header, passphrase, kdf), paths)

    def forget_keys(self) -> None:
        """Take the keys out of this vault (the app locks): anything still holding it gets a clear
        error instead of decrypting. The vault and its ledger are the only holders of the keys."""
        self.keys = self.ledger.keys = ForgottenKeys()  # type: ignore[assignment]
        self.known = {}  # the decrypted records go with the keys

    # --- drafts ----------------------------------------------------------------------------------

    def _draft_path(self, draft_id: str) -> Path:
        if not is_draft_id(draft_id):  # the review workflow's id grammar: no separator, dot first, control, NUL
            raise NotFound(f"no draft {str(draft_id)[:40]!r}")
        return self.paths.drafts / f"{draft_id}.json"

    def _stored_draft(self, draft_id: str) -> Envelope | None:
        """The draft's verified envelope on disk; None when there is none."""
        path = self._draft_path(draft_id)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        return unseal(data, DRAFT_FORMAT, self.keys, str(path), draft_id, exact_bytes=True)

    def _write_draft(self, draft: StoredDraft) -> None:
        self._write_draft_after(draft, self._stored_draft(draft.draft_id))

    def _write_draft_after(self, draft: StoredDraft, stored: Envelope | None) -> None:
        """Seal ``draft`` as the version after ``stored`` (what :meth:`_stored_draft` read; None: new)."""
        version = stored.record_version + 1 if stored is not None else 1
        data = seal(DRAFT_FORMAT, draft.draft_id, version, {"draft": draft.to_dict()}, self.keys)
        atomic_write_bytes(self._draft_path(draft.draft_id), data)

    def create_draft(
        self,
        content: str,
        tags: Iterable[str] = (),
        *,
        created_by: str = "me",
        save: bool = True,
        supersedes: Iterable[str] = (),
    ) -> StoredDraft:
        """A new open draft. ``supersedes``: memories the person chose to replace with this one after a
        duplicate check; the finalized memory says so, and curation then offers the old one for cold
        storage (superseded) — nothing is deleted."""
        draft = draft_from_capture(content, tags, created_by=created_by, supersedes=supersedes)
        if save:
            self.save_draft(draft)
        return draft

    def save_draft(self, draft: StoredDraft) -> None:
        """Store a draft; a finalized draft (on disk or in the ledger) is never replaced."""
        with file_lock(self.paths.lock("drafts")):
            already = self.finalized_memory_id(draft.draft_id)
            if already:
                raise ReviewError(f"draft {draft.draft_id!r} was finalized as {already}; it cannot be replaced")
            if draft.state == "finalized":
                raise ReviewError(f"draft {draft.draft_id!r}: only the vault marks a draft finalized")
            stored = self._stored_draft(draft.draft_id)
            if stored is not None:
                _refuse_lost_update(StoredDraft.from_dict(stored.payload.get("draft")), draft)
            self._write_draft_after(draft, stored)

    def get_draft(self, draft_id: str) -> StoredDraft:
        envelope = self._stored_draft(draft_id)
        if envelope is None:
            raise NotFound(f"no draft {draft_id!r} in {self.paths.drafts}")
        return StoredDraft.from_dict(envelope.payload.get("draft"))

    def _open_folder(self, folder: Path, prefix: str, opener: Opener) -> tuple[list[Opened], list[Problem]]:
        """Every record file of ``folder`` named ``prefix``…``.json``, opened by ``opener`` (a function of
        ``core.vault.scan``): those that opened, and a problem for each that did not."""
        label = folder.name
        opened_ok: list[Opened] = []
        problems: list[Problem] = []
        known = self.known.setdefault((folder, prefix), {})
        for opened in open_records(folder, record_names(folder, prefix), self.keys, opener, known=known):
            if opened.error is None:
                opened_ok.append(opened)
            else:
                kind = "swapped" if "swapped" in opened.error else "modified"
                problems.append(Problem(kind, f"{label}/{opened.name}", _without_where(opened.error, opened.name)))
        return opened_ok, problems

    def scan_drafts(self) -> DraftScan:
        opened, problems = self._open_folder(self.paths.drafts, "", open_draft_file)
        scan = DraftScan(drafts=[o.value for o in opened], problems=problems)
        scan.drafts.sort(key=lambda d: d.created_at)
        return scan

    def check_drafts(self) -> RecordCheck:
        """Every draft record checked as :meth:`scan_drafts` checks it, keeping only what ``verify`` needs
        (:class:`core.vault.scan.DraftFacts`, by draft id)."""
        opened, problems = self._open_folder(self.paths.drafts, "", draft_facts_file)
        return RecordCheck({o.value.draft_id: o.value for o in opened},
                           {o.value.draft_id: o.sha256 for o in opened}, problems)

    def list_drafts(self, state: str | None = None) -> list[StoredDraft]:
        """Drafts in creation order, optionally only those in ``state`` (open, approved, finalized).
        Drafts that fail verification are left out here and reported by :func:`core.workbench.verify.verify_home`."""
        if state is not None and state not in ("open", "approved", "finalized"):
            raise ReviewError(f"state must be open, approved or finalized, got {state!r}")
        drafts = self.scan_drafts().drafts
        return [d for d in drafts if state is None or d.state == state]

    def delete_draft(self, draft_id: str) -> None:
        with file_lock(self.paths.lock("drafts")):
            already = self.finalized_memory_id(draft_id)
            draft = self.get_draft(draft_id)
            if already or draft.state == "finalized":
                raise ReviewError(f"draft {draft_id!r} was finalized; it is provenance now and cannot be deleted")
            self._draft_path(draft_id).unlink()

    # --- finalization -----------------------------------------------------------------------------

    def memory_id_for_draft(self, draft_id: str) -> str:
        """Derived from the draft id under the signing key: stable across crashes, unguessable."""
        return "mem_" + self.keys.sign(f"memory-id:{draft_id}".encode())[:24]

    def finalized_memory_id(self, draft_id: str) -> str | None:
        for entry in reversed(self.ledger.read(full=False).entries):
            if entry.kind == "finalize" and entry.data.get("draft_id") == draft_id:
                return entry.record_id
        return None

    def memory_path(self, memory_id: str) -> Path:
        if not is_memory_id(memory_id):  # whatever an id from outside holds, it never names another file
            raise NotFound(f"no memory {str(memory_id)[:40]!r}")
        return self.paths.vault / f"{memory_id}.json"

    def _memory_from_draft(self, draft: StoredDraft, memory_id: str) -> MemoryRecord:
        resolved = draft.resolved_fields()
        tags = list(dict.fromkeys([*draft.tags, *resolved.get("tags", ())]))
        metadata = RecordMetadata(
            tags=tuple(tags),
            occurred_at=resolved.get("occurred_at"),
            location=resolved.get("location"),
            title=resolved.get("title"),
            people=tuple(resolved.get("people", ())),
            confirmed_fields=resolved,
            custom=freeze(
                {"review": to_builtins(review_record(draft)),
                 **({"supersedes": list(draft.supersedes)} if draft.supersedes else {})}
            ),
        )
        content = resolved.get("content", draft.content)
        return MemoryRecord(memory_id=memory_id, content=content, metadata=metadata, created_at=clock.utc_now_iso())

    def finalize_draft(self, draft: StoredDraft) -> MemoryRecord:
        """Seal an approved draft as a memory, once. Returns the memory (also when this call only
        finished the same finalization, interrupted by a crash). ``draft`` is the caller's copy (it
        may be approved in memory only); :meth:`finalize` finalizes the stored draft by id."""
        with file_lock(self.paths.lock("drafts")):
            return self._finalize(draft, self._stored_draft(draft.draft_id))

    def finalize(self, draft_id: str) -> MemoryRecord:
        """Finalize the stored draft ``draft_id``: it is unsealed once, under the drafts lock, and its
        state is checked there (not on a copy an interface read earlier)."""
        with file_lock(self.paths.lock("drafts")):
            stored = self._stored_draft(draft_id)
            if stored is None:
                raise NotFound(f"no draft {draft_id!r} in {self.paths.drafts}")
            return self._finalize(None, stored)

    def _finalize(self, given: StoredDraft | None, stored: Envelope | None) -> MemoryRecord:
        """The finalization itself, of ``given`` (the caller's copy) or else of the stored draft; the
        caller holds the drafts lock and read ``stored`` under it (each draft is unsealed once)."""
        on_disk = StoredDraft.from_dict(stored.payload.get("draft")) if stored is not None else None
        draft = given if given is not None else on_disk
        assert draft is not None
        draft_id = draft.draft_id
        self.ledger.complete_interrupted()  # a head an interrupted append left behind is signed first
        already = self.finalized_memory_id(draft_id)
        if already and on_disk is not None and on_disk.state == "approved":  # interrupted: finish it
            memory = self.get_memory(already)
            self._write_draft_after(on_disk.finalized(already, memory.created_at), stored)
            return memory
        if already:
            raise ReviewError(f"draft {draft_id!r} was already finalized as {already}")
        if draft.state != "approved":
            raise ReviewError(f"draft {draft_id!r} is {draft.state}: approve it before finalizing")
        memory_id = self.memory_id_for_draft(draft_id)
        path = self.memory_path(memory_id)
        if path.exists():  # written by an interrupted finalize: adopt it if it is this draft's
            adopted = self._adopt_interrupted(draft, stored, memory_id, path)
            if adopted is not None:
                return adopted
            raise RecordError(f"{path}: a record already stands where this draft's memory belongs")
        memory = self._memory_from_draft(draft, memory_id)
        data = seal_memory(memory, self.keys)
        atomic_write_bytes(path, data, exclusive=True)
        self.ledger.append("finalize", memory_id, sha256_hex(data), {"draft_id": draft_id})
        self._write_draft_after(draft.finalized(memory_id, memory.created_at), stored)
        return memory

    def _adopt_interrupted(self, draft: StoredDraft, stored: Envelope | None, memory_id: str,
                           path: Path) -> MemoryRecord | None:
        """The memory an interrupted finalize of ``draft`` wrote before its ledger entry, recorded now;
        None when the record there is not this draft's."""
        data = path.read_bytes()
        memory = open_memory(data, self.keys, str(path), memory_id)
        if (memory.review or {}).get("draft_id") != draft.draft_id:
            return None
        self.ledger.append("finalize", memory_id, sha256_hex(data), {"draft_id": draft.draft_id})
        self._write_draft_after(draft.finalized(memory_id, memory.created_at), stored)
        return memory

    def complete_interrupted(self, draft_ids: Iterable[str] | None = None) -> list[str]:
        """Finish finalizations a crash interrupted (of ``draft_ids``, or of every draft, and then every
        interrupted add or import); returns what was completed, one human line each.

        With ``draft_ids`` the caller holds the drafts lock (``finalize_draft``); without, it is taken
        here, so a finalization running in another process cannot be recorded twice."""
        if draft_ids is not None:
            return self._complete_finalizations(draft_ids)
        done: list[str] = []
        if self.ledger.complete_interrupted():
            done.append("signed the ledger head after an interrupted append")
        with file_lock(self.paths.lock("drafts")):
            done.extend(self._complete_adds())
            done.extend(self._complete_finalizations(None))
        return done

    def _complete_finalizations(self, draft_ids: Iterable[str] | None) -> list[str]:
        done: list[str] = []
        reading = self.ledger.read(full=False)
        recorded = {e.record_id for e in reading.entries}
        finalized = {e.data.get("draft_id"): e for e in reading.entries if e.kind == "finalize"}
        if draft_ids is None:
            drafts = self.scan_drafts().drafts
        else:
            drafts = [self.get_draft(i) for i in draft_ids if self._draft_path(i).exists()]
        for draft in drafts:
            entry = finalized.get(draft.draft_id)
            if entry is not None and draft.state == "approved":
                memory = self.get_memory(entry.record_id)
                self._write_draft(draft.finalized(entry.record_id, memory.created_at))
                done.append(f"marked draft {draft.draft_id} finalized as {entry.record_id}")
            elif entry is None and draft.state == "approved":
                memory_id = self.memory_id_for_draft(draft.draft_id)
                path = self.memory_path(memory_id)
                if memory_id in recorded or not path.exists():
                    continue
                data = path.read_bytes()
                memory = open_memory(data, self.keys, str(path), memory_id)
                if (memory.review or {}).get("draft_id") != draft.draft_id:
                    continue
                self.ledger.append("finalize", memory_id, sha256_hex(data), {"draft_id": draft.draft_id})
                self._write_draft(draft.finalized(memory_id, memory.created_at))
                done.append(f"recorded interrupted finalization of draft {draft.draft_id} as {memory_id}")
        return done

    # --- memories ---------------------------------------------------------------------------------

    def add_memory(
        self,
        content: str,
        tags: Sequence[str] = (),
        *,
        occurred_at: str | None = None,
        location: str | None = None,
        title: str | None = None,
    ) -> MemoryRecord:
        """A memory stored without review (marked ``reviewed: False`` everywhere it goes)."""
        fields: dict[str, Any] = {"tags": list(tags)}
        for name, value in (("occurred_at", occurred_at), ("location", location), ("title", title)):
            if value is not None:
                fields[name] = check_field_value(name, value, name)
        if not content.strip():
            raise ReviewError("content: must be a non-empty string")
        tags_value = check_field_value("tags", list(tags), "tags")
        metadata = RecordMetadata(tags=tags_value, occurred_at=occurred_at, location=location, title=title)
        memory = MemoryRecord(memory_id=new_id("mem"), content=content, metadata=metadata,
                              created_at=clock.utc_now_iso())
        return self.store_memory(memory, "add")

    def store_memory(self, memory: MemoryRecord, kind: str, data: dict[str, Any] | None = None) -> MemoryRecord:
        """Seal and record a memory built elsewhere (an import). Refuses to overwrite any record.

        An intent (``vault/.pending/<id>.json``: kind, data and the SHA-256 of the record file) is
        durable before the record is written and removed once the ledger holds it, so a crash in
        between leaves a record the next write (or :meth:`complete_interrupted`) records, and that
        ``verify`` reports as ``incomplete`` rather than as planted."""
        path = self.memory_path(memory.memory_id)
        sealed = seal_memory(memory, self.keys)
        with file_lock(self.paths.lock("drafts")):
            self._complete_adds()
            if path.exists():
                raise RecordError(f"{path}: a memory with this id already exists")
            intent = self._intent_path(memory.memory_id)
            digest = sha256_hex(sealed)
            atomic_write_text(intent, json.dumps({"kind": kind, "data": data or {}, "sha256": digest}) + "\n")
            try:
                atomic_write_bytes(path, sealed, exclusive=True)
            except FileExistsError as exc:
                intent.unlink()
                raise RecordError(f"{path}: a memory with this id already exists") from exc
            self.ledger.append(kind, memory.memory_id, digest, data or {})
            intent.unlink()
        return memory

    def _intent_path(self, memory_id: str) -> Path:
        return self.paths.vault / PENDING_DIR / f"{memory_id}.json"

    def _intents(self) -> dict[str, dict[str, Any]]:
        found: dict[str, dict[str, Any]] = {}
        for path in sorted((self.paths.vault / PENDING_DIR).glob("mem_*.json")):
            try:
                intent = json.loads(path.read_bytes())
            except (OSError, ValueError, RecursionError):
                continue
            if isinstance(intent, dict) and isinstance(intent.get("sha256"), str):
                found[path.stem] = intent
        return found

    def pending_adds(self) -> dict[str, str]:
        """Memory id → SHA-256 of the record file, for adds and imports a crash may have interrupted."""
        return {memory_id: intent["sha256"] for memory_id, intent in self._intents().items()}

    def _complete_adds(self) -> list[str]:
        """Record the memories interrupted adds wrote; forget intents whose record was never written."""
        done: list[str] = []
        recorded = {e.record_id for e in self.ledger.read(full=False).entries}
        for memory_id, intent in self._intents().items():
            path = self.memory_path(memory_id)
            if memory_id not in recorded and path.exists():
                data = path.read_bytes()
                if sha256_hex(data) != intent["sha256"]:
                    continue  # not what this vault wrote: `verify` names it, nothing is recorded
                open_memory(data, self.keys, str(path), memory_id)
                extra = intent.get("data") if isinstance(intent.get("data"), dict) else {}
                self.ledger.append(str(intent.get("kind") or "add"), memory_id, intent["sha256"], extra)
                done.append(f"recorded interrupted {intent.get('kind') or 'add'} of {memory_id}")
            self._intent_path(memory_id).unlink(missing_ok=True)
        return done

    def get_memory(self, memory_id: str) -> MemoryRecord:
        path = self.memory_path(memory_id)
        try:
            data = path.read_bytes()
        except FileNotFoundError as exc:
            raise NotFound(f"no memory {memory_id!r} in {self.paths.vault}") from exc
        return open_memory(data, self.keys, str(path), memory_id)

    def scan_memories(self) -> MemoryScan:
        opened, problems = self._open_folder(self.paths.vault, "mem_", open_memory_file)
        scan = MemoryScan(memories=[o.value for o in opened], problems=problems,
                          file_sha256={o.value.memory_id: o.sha256 for o in opened})
        scan.memories.sort(key=lambda m: (parse_ts(m.time), m.memory_id))
        return scan

    def check_memories(self) -> RecordCheck:
        """Every memory record checked as :meth:`scan_memories` checks it, keeping only what ``verify``
        needs (:class:`core.vault.scan.MemoryFacts`, by memory id): in a pool of processes, the facts cost
        little to send back, where whole memories cost more than building them."""
        opened, problems = self._open_folder(self.paths.vault, "mem_", memory_facts_file)
        return RecordCheck({o.value.memory_id: o.value for o in opened},
                           {o.value.memory_id: o.sha256 for o in opened}, problems)

    def list_memories(self) -> list[MemoryRecord]:
        """Memories that verify, oldest first. Damaged records are reported by ``verify``, not returned."""
        return self.scan_memories().memories

    def memory_listing(self) -> list[ListedMemory]:
        """Every memory record of ``vault/``: those that open, oldest first, each with whether it matches
        the ledger (the rule of :meth:`verified_ids`), then each record that does not open, by name, with
        the reason (``modified: signature does not match …``). A damaged record is listed, not dropped."""
        chain_ok = not [p for p in self.ledger.read().problems if p.kind != "incomplete"]
        scan = self.scan_memories()
        placement = self.ledger_placement() if chain_ok else {}

        def verified(memory_id: str) -> bool:
            entry = placement.get(memory_id)
            return (entry is not None and entry.kind in MEMORY_KINDS
                    and entry.record_sha256 == scan.file_sha256[memory_id])

        listed = [ListedMemory(m.memory_id, m, verified(m.memory_id)) for m in scan.memories]
        for problem in scan.problems:
            memory_id = problem.subject.rsplit("/", 1)[-1].removesuffix(".json")
            listed.append(ListedMemory(memory_id, None, False, f"{problem.kind}: {problem.detail}"))
        return listed

    def ledger_placement(self) -> dict[str, LedgerEntry]:
        """Memory id → the latest ledger entry about it."""
        return {e.record_id: e for e in self.ledger.read().entries if e.record_id.startswith("mem_")}

    def verified_ids(self) -> set[str]:
        """Ids of memories whose record verifies AND matches the ledger's latest checksum for it; none while
        the ledger chain is damaged (an entry that does not verify, or links wrongly, vouches for nothing)."""
        if [p for p in self.ledger.read().problems if p.kind != "incomplete"]:
            return set()
        scan = self.scan_memories()
        placement = self.ledger_placement()
        return {
            mid
            for mid, digest in scan.file_sha256.items()
            if mid in placement
            and placement[mid].kind in MEMORY_KINDS
            and placement[mid].record_sha256 == digest
        }


def _without_where(error: str, name: str) -> str:
    """``error`` without the record's path in front (``vault/mem_x.json: signature …`` → ``signature …``):
    a problem names its record as its subject, and saying it twice reads as two records."""
    head, sep, rest = error.partition(f"{name}: ")
    if sep and (not head or head.endswith(("/", os.sep))):
        return rest
    return error


def _refuse_lost_update(stored: StoredDraft, draft: StoredDraft) -> None:
    """``DraftChanged`` when saving ``draft`` over ``stored`` would drop something (:func:`lost_update`)."""
    lost = lost_update(stored, draft)
    if lost:
        raise DraftChanged(f"draft {draft.draft_id!r} changed since it was read ({lost}); "
                           "nothing was written: open it again")
