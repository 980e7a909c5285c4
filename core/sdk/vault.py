"""``MemoryVault``: the DiaryVault Memory Layer v0.4 API over a Reverie data home.

``MemoryVault(encryption_key=..., storage_dir=...)`` opens (or creates) the home at ``storage_dir`` with
the key as its passphrase, over the vault's :class:`~core.vault.store.MemoryStore`. Every memory it
creates is an ordinary sealed record with its ledger entry, every draft an ordinary vault draft, so the
CLI, the TUI, search, curation and exports see them, and it sees theirs.

The ``Memory`` objects handed out are views holding the decrypted content. ``verify`` checks a view
against itself (its content still hashes to its hash) and against the vault: the sealed record
verifies, matches the ledger's checksum, and holds the view's content, hash, signature and tags. A view
changed in memory no longer verifies, nor does a record changed, replaced or rolled back on disk.
"""

from __future__ import annotations

import builtins
import hmac
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from core import clock
from core.errors import DraftChanged, NotFound, ReverieError, ReviewError, WrongPassphrase
from core.frozen import freeze, thaw
from core.fsutil import atomic_write_text, file_lock
from core.paths import HomePaths
from core.sdk.anchors import AnchorBackend, AnchorBook
from core.sdk.common import RESERVED_CUSTOM, moment, reverie_error
from core.sdk.context import ContextRequest, ContextResponse, SharedMemory
from core.sdk.crypto import MemoryCrypto
from core.sdk.drafts import RejectedDrafts, check_no_loss, from_stored, to_stored
from core.sdk.models import Memory, MemoryMetadata, MemoryStatus
from core.sdk.portable import export_file, import_file
from core.sdk.review import ReviewDraft, ReviewState
from core.sdk.sharing import Grant
from core.vault.canonical import sha256_hex
from core.vault.crypto import KdfParams
from core.vault.ledger import LedgerEntry
from core.vault.records import MEMORY_FORMAT, MemoryRecord, RecordMetadata, new_record, open_sealed_memory
from core.vault.review import check_field_value, new_id
from core.vault.scan import record_names
from core.vault.sealed import associated_data
from core.vault.store import MEMORY_KINDS, MemoryStore
from core.workbench.home import Workbench

DEFAULT_STORAGE_DIR = "~/.diaryvault/memories"


class WrongKeyError(ValueError):
    """``encryption_key`` does not open the vault at ``storage_dir``; nothing was written."""


@dataclass(frozen=True)
class _Sealed:
    """One record file as read and verified: the memory and the envelope fields a view shows."""

    memory: MemoryRecord
    signature: str
    nonce: bytes
    ciphertext: bytes
    file_sha256: str


def _sdk_review(review: dict[str, Any], tags: list[str]) -> dict[str, Any]:
    """A Reverie review record in both shapes, as a view publishes it in ``metadata.custom["review"]``:
    the upstream draft fields (``state``, ``completed_by``, ``decisions[].outcome``/``accepted_value`` …)
    beside Reverie's own (``approved_by`` …)."""
    decisions = [
        {**d, "outcome": d.get("action"), "accepted_value": d.get("value") if d.get("action") == "accepted" else None}
        for d in review.get("decisions") or []
    ]
    return {
        **review,
        "content": review.get("original_content"),
        "tags": tags,
        "decisions": decisions,
        "state": ReviewState.APPROVED.value,
        "completed_by": review.get("approved_by"),
        "completed_at": review.get("approved_at"),
    }


# Confirmed fields a view shows as its own metadata (``tags``, ``location``, ``mood``); the others are
# listed under ``metadata.custom["confirmed_fields"]``, the SDK's name for them.
_METADATA_FIELDS = frozenset({"tags", "location", "mood"})


def _source(custom: dict[str, Any], review: dict[str, Any] | None) -> str:
    """Where a memory came from, in the SDK's words: ``review`` (finalized from an approved draft),
    ``import`` (a ``.dvmem``) or ``manual`` (stored without review)."""
    if review is not None:
        return "review"
    return "import" if "imported_from" in custom else "manual"


class MemoryVault:
    """A personal memory vault: Reverie's sealed records, ledger and review queue behind the SDK API.

    ``encryption_key`` is the vault's passphrase (Argon2id → keys). A wrong key for an existing home is
    a :class:`WrongKeyError` before anything is read or written. ``kdf`` (Reverie only) sets the
    Argon2id cost when the home is created. The state it keeps is what upstream's API needs: one view
    per memory (the same object on every call), the anchor book and the drafts rejected as a whole."""

    def __init__(
        self,
        encryption_key: str,
        storage_dir: str | os.PathLike[str] = DEFAULT_STORAGE_DIR,
        anchor_backend: AnchorBackend | None = None,
        *,
        kdf: KdfParams | None = None,
    ) -> None:
        if not isinstance(encryption_key, str) or not encryption_key:
            raise ValueError("encryption_key: must be a non-empty string")
        paths = HomePaths.at(Path(os.path.expanduser(os.fspath(storage_dir))))
        self._workbench = Workbench(paths, kdf=kdf)
        try:
            if self._workbench.has_vault:
                self._workbench.unlock(encryption_key)
            else:  # a new home, as `reverie init` makes it (settings file included)
                self._workbench.access.create_vault(encryption_key)
            self._store = self._workbench.vault
        except WrongPassphrase as exc:
            raise WrongKeyError(str(exc)) from exc
        except ReverieError as exc:
            raise reverie_error(exc) from exc
        self._passphrase = encryption_key
        self._crypto = MemoryCrypto(encryption_key)
        self._storage_dir = paths.root
        keys = self._store.keys
        self._anchors = AnchorBook(paths.root, lambda digest: keys.sign(f"reverie/sdk/anchor:{digest}".encode()),
                                   anchor_backend)
        self._rejected = RejectedDrafts(paths, self._store.keys)
        self._memories: dict[str, Memory] = {}
        self._records: dict[str, MemoryRecord] = {}
        self._unreadable: dict[str, str] = {}
        self._sync()

    @property
    def workbench(self) -> Workbench:
        """Reverie's application layer on the same home (capture with duplicate check and suggesters,
        recall, context, curation, ingest): everything the SDK API does not name."""
        return self._workbench

    @property
    def store(self) -> MemoryStore:
        """The Reverie vault underneath (``core.vault.store.MemoryStore``)."""
        return self._store

    @property
    def storage_dir(self) -> Path:
        return self._storage_dir

    # -- reading the home ---------------------------------------------------------------------------

    def _read_sealed(self, memory_id: str) -> _Sealed:
        path = self._store.memory_path(memory_id)
        try:
            data = path.read_bytes()
        except FileNotFoundError as exc:
            raise NotFound(f"no memory {memory_id!r} in {self._store.paths.vault}") from exc
        memory, parts = open_sealed_memory(data, self._store.keys, f"vault/{path.name}", memory_id)
        return _Sealed(memory=memory, signature=parts.hmac, nonce=parts.nonce, ciphertext=parts.ciphertext,
                       file_sha256=sha256_hex(data))

    def _view(self, sealed: _Sealed) -> Memory:
        stored = sealed.memory
        meta = stored.metadata
        tags = list(meta.tags)
        custom = thaw(meta.custom)
        review = custom.get("review") if isinstance(custom.get("review"), dict) else None
        confirmed = thaw(meta.confirmed_fields)
        if review is not None:
            custom["review"] = _sdk_review(review, tags)
            extra = {name: value for name, value in confirmed.items() if name not in _METADATA_FIELDS}
            if extra:
                custom["confirmed_fields"] = extra
        accepted = any(d.get("action") == "accepted" for d in (review or {}).get("decisions") or [])
        mood = confirmed.get("mood")
        anchors = self._anchors.load(stored.memory_id)
        return Memory(
            id=stored.memory_id,
            content=stored.content,
            hash=stored.content_sha256,
            encrypted_content=sealed.ciphertext,
            signature=sealed.signature,
            nonce=sealed.nonce,
            created_at=stored.created_at,
            status=MemoryStatus.ANCHORED if anchors else MemoryStatus.SIGNED,
            metadata=MemoryMetadata(
                tags=tags,
                location=meta.location,
                mood=mood if isinstance(mood, str) else None,
                source=_source(custom, review),
                ai_enriched=accepted,
                custom=custom,
            ),
            anchors=anchors,
        )

    def _sync(self) -> None:
        """Pick up memories other front doors added (TUI, CLI, imports) and drop those moved away
        (cold storage); views already handed out stay the same objects."""
        present = {name.removesuffix(".json") for name in record_names(self._store.paths.vault, "mem_")}
        for gone in set(self._memories) - present:
            self._memories.pop(gone)
            self._records.pop(gone, None)
        self._unreadable = {}
        for memory_id in sorted(present - set(self._memories)):
            try:
                sealed = self._read_sealed(memory_id)
            except (ReverieError, OSError, ValueError, KeyError) as exc:
                self._unreadable[memory_id] = str(exc)  # reported by batch_verify, never loaded
                continue
            self._memories[memory_id] = self._view(sealed)
            self._records[memory_id] = sealed.memory

    def _latest_entries(self) -> dict[str, LedgerEntry] | None:
        """The ledger's latest entry per record, or None when the ledger itself does not verify."""
        reading = self._store.ledger.read(full=False)
        if any(p.kind != "incomplete" for p in reading.problems):
            return None
        return reading.latest_by_record()

    def _intact(self, memory: Memory, latest: dict[str, LedgerEntry] | None) -> bool:
        """The view against itself, its sealed record and the ledger (status untouched)."""
        if not isinstance(memory.content, str) or not isinstance(memory.hash, str):
            return False
        if not MemoryCrypto.verify_hash(memory.content, memory.hash) or latest is None:
            return False
        try:
            sealed = self._read_sealed(memory.id)
        except (ReverieError, OSError, ValueError, KeyError):
            return False
        entry = latest.get(memory.id)
        if entry is None or entry.kind not in MEMORY_KINDS or entry.record_sha256 != sealed.file_sha256:
            return False
        stored = sealed.memory
        return (
            memory.content == stored.content
            and hmac.compare_digest(memory.hash, stored.content_sha256)
            and isinstance(memory.signature, str)
            and hmac.compare_digest(memory.signature, sealed.signature)
            and list(memory.metadata.tags) == list(stored.metadata.tags)
        )

    def _anchors_hold(self, memory: Memory) -> bool:
        return self._anchors.hold(memory.id, str(memory.hash), memory.anchors)

    # -- core operations ----------------------------------------------------------------------------

    def create(
        self,
        content: str,
        tags: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        auto_encrypt: bool = True,
        auto_anchor: bool = False,
    ) -> Memory:
        """Store a memory without review: SHA-256 → AES-256-GCM → HMAC → atomic write → ledger.

        ``metadata`` becomes ``memory.metadata.custom`` (JSON values; the keys ``review``,
        ``supersedes``, ``imported_from`` and ``confirmed`` are Reverie's). ``auto_encrypt`` is
        accepted for compatibility: a Reverie record is always encrypted at rest."""
        if not isinstance(content, str):
            raise TypeError("content: must be a string")
        if not content.strip():
            raise ValueError("content: must be a non-empty string")
        tag_list = list(tags or [])
        custom = dict(metadata or {})
        reserved = sorted(RESERVED_CUSTOM & set(custom))
        if reserved:
            raise ValueError(f"metadata: key {reserved[0]!r} is reserved (Reverie sets it)")
        try:
            checked_tags = check_field_value("tags", tag_list, "tags")
            frozen_custom = freeze(custom, "metadata")
            metadata = RecordMetadata(tags=checked_tags, custom=frozen_custom)
            stored = new_record(new_id("mem"), content, metadata, clock.utc_now_iso(), "memory")
            self._store.store_memory(stored, "add")
        except ReverieError as exc:
            raise reverie_error(exc) from exc
        memory = self._adopt(stored.memory_id)
        if auto_anchor:
            self.anchor(memory)
        return memory

    def _adopt(self, memory_id: str) -> Memory:
        sealed = self._read_sealed(memory_id)
        memory = self._view(sealed)
        self._memories[memory_id] = memory
        self._records[memory_id] = sealed.memory
        return memory

    def verify(self, memory: Memory | str) -> bool:
        """Whether the memory is intact: the view's content matches its hash, the sealed record
        verifies and matches the ledger, the view matches the record, and every anchor agrees.
        A memory id re-checks the stored record through the vault's view of it."""
        if isinstance(memory, str):
            self._sync()
            found = self._memories.get(memory)
            if found is None:
                return False
            memory = found
        if not isinstance(memory, Memory):
            raise TypeError(f"memory: expected a Memory or a memory id, got {type(memory).__name__}")
        if not self._intact(memory, self._latest_entries()) or not self._anchors_hold(memory):
            return False
        memory.status = MemoryStatus.VERIFIED
        return True

    def anchor(self, memory: Memory, backend: str | AnchorBackend | None = None) -> Memory:
        """Record the memory's hash with ``backend`` (``"local"``: the home's anchor; an
        ``AnchorBackend``; default: the vault's). Arweave and Ethereum raise ``NotImplementedError``."""
        if isinstance(backend, str):
            chosen = self._anchors.named(backend)
        else:
            chosen = backend if backend is not None else self._anchors.default
        if chosen is None:
            raise ValueError(f"Unknown anchor backend: {backend}")
        if memory.hash is None:
            raise ValueError(f"memory {memory.id}: has no hash to anchor")
        record = chosen.anchor(memory_id=memory.id, content_hash=memory.hash, signature=memory.signature or "")
        memory.anchors.append(record)
        memory.status = MemoryStatus.ANCHORED
        if memory.id in self._records:  # a memory of this vault: its anchors are kept with the home
            self._anchors.save(memory.id, memory.anchors)
        return memory

    def decrypt(self, memory: Memory) -> str:
        """The plaintext of the view's ciphertext (the sealed record's), decrypted with the vault key.
        A changed ciphertext or nonce is a ``ValueError``; a view without ciphertext gives its content."""
        if memory.encrypted_content is None or memory.nonce is None:
            return memory.content
        record = self._records.get(memory.id)
        if record is None:
            raise KeyError(f"no memory {memory.id!r} in {self._store.paths.vault}")
        aad = associated_data(MEMORY_FORMAT, memory.id, record.record_version)
        try:
            plaintext = self._store.keys.decrypt(memory.nonce, memory.encrypted_content, aad, f"memory {memory.id}")
        except ReverieError as exc:
            raise ValueError(str(exc)) from exc
        return str(json.loads(plaintext)["content"])

    # -- retrieval ----------------------------------------------------------------------------------

    def get(self, memory_id: str) -> Memory | None:
        """The memory's view (the same object on every call), or None."""
        self._sync()
        return self._memories.get(memory_id)

    def list(
        self,
        tags: builtins.list[str] | None = None,
        after: str | None = None,
        before: str | None = None,
        limit: int = 50,
    ) -> builtins.list[Memory]:
        """Memories newest first: any of ``tags``, created strictly after / before the ISO times."""
        self._sync()
        results = builtins.list(self._memories.values())
        if tags:
            wanted = set(tags)
            results = [m for m in results if wanted & set(m.metadata.tags)]
        if after:
            start = moment(after, "after")
            results = [m for m in results if moment(m.created_at, f"memory {m.id}") > start]
        if before:
            end = moment(before, "before")
            results = [m for m in results if moment(m.created_at, f"memory {m.id}") < end]
        results.sort(key=lambda m: moment(m.created_at, f"memory {m.id}"), reverse=True)
        return results[:limit]

    def search(self, query: str) -> builtins.list[Memory]:
        """Memories whose content contains ``query`` (case-insensitive), oldest first. For ranked,
        time-bounded search use Reverie's recall (``reverie search``)."""
        self._sync()
        needle = query.casefold()
        found = [m for m in self._memories.values() if needle in m.content.casefold()]
        return sorted(found, key=lambda m: moment(m.created_at, f"memory {m.id}"))

    # -- batch operations ---------------------------------------------------------------------------

    def batch_verify(self) -> dict[str, Any]:
        """``{"total", "valid", "invalid", "invalid_ids"}`` (the plain dict upstream's API returns) over
        every memory record in the home, including records too damaged to open (counted invalid, never
        loaded)."""
        self._sync()
        latest = self._latest_entries()
        invalid_ids = sorted(self._unreadable)
        valid = 0
        for memory_id, memory in self._memories.items():
            if self._intact(memory, latest) and self._anchors_hold(memory):
                memory.status = MemoryStatus.VERIFIED
                valid += 1
            else:
                invalid_ids.append(memory_id)
        total = len(self._memories) + len(self._unreadable)
        return {"total": total, "valid": valid, "invalid": total - valid, "invalid_ids": invalid_ids}

    def compute_merkle_root(self) -> str | None:
        """The Merkle root over the sorted content hashes of every memory (None when there is none)."""
        self._sync()
        hashes = sorted(m.hash for m in self._memories.values() if m.hash is not None)
        return self._crypto.compute_merkle_root(hashes) if hashes else None

    # -- export and import --------------------------------------------------------------------------

    def export_memory(self, memory: Memory, path: str) -> str:
        """Write the memory's stored record as a sealed ``.dvmem`` (encrypted under the vault key with
        its own salt; ``.dvmem`` is appended when missing). Returns the path written."""
        return export_file(self._store, memory.id, self._passphrase, path)

    def import_memory(self, path: str) -> Memory:
        """Import a memory file after verifying it (``core.sdk.portable``): Reverie's sealed ``.dvmem``
        (same key; the memory keeps its id, twice adds nothing), a DiaryVault v1.x ``.dvmem`` or memory
        file (hash and HMAC checked with this key; stored as ``mem_<its id>``), or a view's own
        ``to_dvmem()``. Returns the memory's view."""
        memory_id, added = import_file(self._store, self._crypto, self._passphrase, path)
        if added:  # a view cached from an earlier record under this id is stale now
            self._memories.pop(memory_id, None)
        self._sync()
        return self._memories.get(memory_id) or self._adopt(memory_id)

    def export_vault(self, path: str) -> str:
        """Every memory (plaintext included: a disclosure) with the vault's Merkle root, as one JSON
        file written 0600."""
        self._sync()
        document = {
            "dvmem_vault_version": "1.0",
            "exported_at": clock.utc_now_iso(),
            "memory_count": len(self._memories),
            "merkle_root": self.compute_merkle_root(),
            "memories": {mid: m.to_dict() for mid, m in self._memories.items()},
        }
        atomic_write_text(Path(os.fspath(path)), json.dumps(document, indent=2, ensure_ascii=False, default=str))
        return os.fspath(path)

    def _export_records(self) -> builtins.list[tuple[Memory, MemoryRecord, bool]]:
        """(view, sealed record, verified) for every memory, oldest first: what exports are made of."""
        self._sync()
        latest = self._latest_entries()
        rows = [(m, self._records[mid], self._intact(m, latest)) for mid, m in self._memories.items()]
        return sorted(rows, key=lambda row: moment(row[1].created_at, f"memory {row[1].memory_id}"))

    # -- stats --------------------------------------------------------------------------------------

    @property
    def stats(self) -> dict[str, Any]:
        """Counts and tags, as the plain dict upstream's API returns."""
        self._sync()
        memories = builtins.list(self._memories.values())
        return {
            "total_memories": len(memories),
            "encrypted": sum(1 for m in memories if m.encrypted_content),
            "anchored": sum(1 for m in memories if m.is_anchored),
            "verified": sum(1 for m in memories if m.verified),
            "tags": sorted({tag for m in memories for tag in m.metadata.tags}),
        }

    # -- agent context sharing ----------------------------------------------------------------------

    def share(
        self,
        request: ContextRequest,
        allowed_tags: builtins.list[str] | None = None,
        denied_tags: builtins.list[str] | None = None,
        max_memories: int | None = None,
    ) -> ContextResponse:
        """Share the memories the request asked for and the owner allows, newest first.

        Granted tags are the requested ones the owner allows (``allowed_tags``, or the whole request
        when None) minus ``denied_tags``. A memory is shared when it carries a granted tag and no
        denied one: denied wins, also over a memory's other tags. Each shared memory carries its hash,
        signature and verification result; the response carries the vault's Merkle root."""
        if not isinstance(request, ContextRequest):
            raise TypeError(f"request: expected a ContextRequest, got {type(request).__name__}")
        self._sync()
        grant = Grant.of(request.scope, allowed_tags, denied_tags)
        matching = [m for m in self._memories.values() if grant.allows(m.metadata.tags)]
        matching.sort(key=lambda m: moment(m.created_at, f"memory {m.id}"), reverse=True)
        limit = max_memories if max_memories is not None else request.max_memories
        latest = self._latest_entries()
        shared = []
        for memory in matching[: max(limit, 0)]:
            ok = self._intact(memory, latest) and self._anchors_hold(memory)
            if ok:
                memory.status = MemoryStatus.VERIFIED
            shared.append(SharedMemory(
                memory_id=memory.id,
                content=memory.content,
                tags=builtins.list(memory.metadata.tags),
                hash=str(memory.hash),
                signature=str(memory.signature),
                created_at=memory.created_at,
                verified=ok,
            ))
        return ContextResponse(
            request_id=request.request_id,
            agent_id=request.agent_id,
            vault_merkle_root=self.compute_merkle_root(),
            shared_memories=shared,
            scope_granted=grant.granted,
            scope_denied=grant.refused,
            purpose=request.purpose,
            scope_requested=grant.requested,
        )

    # -- review drafts ------------------------------------------------------------------------------

    def _stored_draft(self, draft_id: str) -> Any:
        try:
            return self._store.get_draft(draft_id)
        except NotFound:
            return None
        except ReverieError as exc:
            raise reverie_error(exc) from exc

    def create_draft(self, content: str, tags: Iterable[str] | None = None) -> ReviewDraft:
        """A new open draft, saved in the home's review queue (the TUI lists it)."""
        draft = ReviewDraft(content=content, tags=tuple(tags or ()), draft_id=new_id("draft"))
        return self.save_draft(draft)

    def save_draft(self, draft: ReviewDraft) -> ReviewDraft:
        """Store ``draft`` and return it as saved. A finalized draft can never be replaced; a save made
        from an older read that would drop a suggestion or decision added since is refused."""
        if not isinstance(draft, ReviewDraft):
            raise TypeError(f"draft: expected a ReviewDraft, got {type(draft).__name__}")
        already = self._store.finalized_memory_id(draft.draft_id)
        if already:
            raise ValueError(f"draft {draft.draft_id!r} was finalized as {already}; it cannot be replaced")
        rejected = self._rejected.get(draft.draft_id)
        if rejected is not None and rejected != draft:
            raise ValueError(f"draft {draft.draft_id!r} was rejected; a rejected draft cannot change")
        if draft.state is ReviewState.REJECTED:
            return self._save_rejected(draft)
        try:
            self._store.save_draft(to_stored(draft, self._stored_draft(draft.draft_id)))
        except DraftChanged as exc:
            raise ValueError(str(exc)) from exc
        except ReverieError as exc:
            raise reverie_error(exc) from exc
        saved = self.get_draft(draft.draft_id)
        assert saved is not None  # just written
        return saved

    def _save_rejected(self, draft: ReviewDraft) -> ReviewDraft:
        with file_lock(self._store.paths.lock("drafts")):
            stored = self._stored_draft(draft.draft_id)
            # the same checks as any stored draft (ids, times, field values), on its open form
            open_form = to_stored(replace(draft, state=ReviewState.OPEN, completed_by=None, completed_at=None), stored)
            moment(str(draft.completed_at), f"draft {draft.draft_id!r}.completed_at")
            if stored is not None:
                if stored.state == "finalized":
                    raise ValueError(f"draft {draft.draft_id!r} was finalized; it cannot be rejected")
                check_no_loss(stored, open_form)
            self._rejected.put(draft)
            if stored is not None:
                self._store.paths.drafts.joinpath(f"{draft.draft_id}.json").unlink(missing_ok=True)
        saved = self._rejected.get(draft.draft_id)
        assert saved is not None
        return saved

    def get_draft(self, draft_id: str) -> ReviewDraft | None:
        """The stored draft, or None when there is none. A draft that fails verification on disk is a
        ``ValueError`` naming its file (never loaded silently)."""
        stored = self._stored_draft(draft_id)
        if stored is not None:
            return from_stored(stored)
        return self._rejected.get(draft_id)

    def list_drafts(self, state: ReviewState | str | None = None) -> builtins.list[ReviewDraft]:
        """Drafts in creation order, optionally only those in ``state`` (``open``, ``approved`` —
        finalized ones included — or ``rejected``)."""
        wanted = ReviewState(state) if state is not None else None
        drafts = [from_stored(d) for d in self._store.list_drafts()] + self._rejected.all()
        drafts.sort(key=lambda d: moment(d.created_at, f"draft {d.draft_id}"))
        return [d for d in drafts if wanted is None or d.state is wanted]

    def delete_draft(self, draft_id: str) -> bool:
        """Delete a draft that was never finalized: True when one was deleted, False when there was
        none by that id. A finalized draft is provenance: ``ValueError``."""
        if self._rejected.delete(draft_id):
            return True
        try:
            self._store.delete_draft(draft_id)
        except NotFound:
            return False
        except ReverieError as exc:
            raise reverie_error(exc) from exc
        return True

    def finalize_draft(self, draft: ReviewDraft | str) -> Memory:
        """Seal an approved draft (or the stored draft with that id) as a memory, exactly once, also
        across restarts: the memory carries the full review record in ``metadata.custom["review"]``
        and the confirmed fields. An id with no stored draft is a ``ValueError``."""
        if isinstance(draft, str):
            draft = self._draft_to_finalize(draft)
        if not isinstance(draft, ReviewDraft):
            raise TypeError(f"draft: expected a ReviewDraft or a draft id, got {type(draft).__name__}")
        already = self._store.finalized_memory_id(draft.draft_id)
        if already:
            raise ValueError(f"draft {draft.draft_id!r} was already finalized as {already}")
        if draft.state is not ReviewState.APPROVED:
            raise ValueError(f"draft {draft.draft_id!r} is {draft.state.value}: only approved drafts can be finalized")
        try:
            stored = to_stored(draft, self._stored_draft(draft.draft_id))
            self._store.save_draft(stored)
            memory = self._store.finalize_draft(stored)
        except (ReviewError, DraftChanged) as exc:
            raise ValueError(str(exc)) from exc
        except ReverieError as exc:
            raise reverie_error(exc) from exc
        return self._adopt(memory.memory_id)

    def _draft_to_finalize(self, draft_id: str) -> ReviewDraft:
        """The stored draft ``draft_id`` names; a finalized one or none at all is a ``ValueError``."""
        already = self._store.finalized_memory_id(draft_id)
        if already:
            raise ValueError(f"draft {draft_id!r} was already finalized as {already}")
        found = self.get_draft(draft_id)
        if found is None:
            raise ValueError(f"no draft {draft_id!r} to finalize (save it first)")
        return found

    def finalized_memory_id(self, draft_id: str) -> str | None:
        """The id of the memory ``draft_id`` was finalized as (from the ledger), or None."""
        return self._store.finalized_memory_id(draft_id)

    def __repr__(self) -> str:
        return f"MemoryVault(memories={len(self._memories)}, storage='{self._storage_dir}')"

    def __len__(self) -> int:
        self._sync()
        return len(self._memories)
