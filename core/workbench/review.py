"""Capture and review through the workbench: a new draft after the near-duplicate check, the local
suggesters, suggestions, accept / reject / approve, finalize once, and the portable ``.dvmem`` record
of a memory (export sealed under a passphrase, import verified before it is accepted)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.vault.canonical import sha256_hex
from core.vault.portable import (  # ExportPassphraseWrong: what import_dvmem raises for another passphrase
    ExportPassphraseWrong,
    export_dvmem,
    import_dvmem,
    read_dvmem_file,
)
from core.vault.store import MEMORY_KINDS
from core.workbench.capture import CHOICES, CaptureOutcome, DuplicateChoice
from core.workbench.freshness import VAULT_SEEN_KEY, vault_fingerprint
from core.workbench.service import Service

__all__ = ["ExportPassphraseWrong", "Imported", "Review", "SealedMemory"]

if TYPE_CHECKING:
    from core.export import HomeExporter
    from core.index import SearchIndex
    from core.suggest.runner import SuggestRun
    from core.vault.ledger import LedgerEntry
    from core.vault.records import MemoryRecord
    from core.vault.review import StoredDraft
    from core.vault.store import ListedMemory


@dataclass(frozen=True)
class Imported:
    """A ``.dvmem`` record taken in: the memory, and whether it was added (False: already here)."""

    memory: MemoryRecord
    added: bool


@dataclass(frozen=True)
class SealedMemory:
    """A memory as its record opens (signature, ciphertext and content hash checked), whether the
    record's bytes are the version the ledger signed last, and that ledger entry (None: none)."""

    memory: MemoryRecord
    verified: bool
    entry: LedgerEntry | None


class Review(Service):
    """Drafts to memories: capture, suggest, decide, approve, finalize; and memories in and out."""

    def draft(self, draft_id: str) -> StoredDraft:
        """One draft as stored (``NotFound`` naming it when there is none)."""
        return self.workbench.vault.get_draft(draft_id)

    def drafts(self, state: str | None = None) -> list[StoredDraft]:
        """The drafts, of one state when ``state`` names it (open, approved, finalized)."""
        return self.workbench.vault.list_drafts(state=state)

    def delete_draft(self, draft_id: str) -> None:
        """Delete a draft that was never finalized (a finalized one is refused, named)."""
        self.workbench.vault.delete_draft(draft_id)

    def memories(self) -> list[ListedMemory]:
        """Every memory record, oldest first, each opened and verified, or with why it does not open."""
        return self.workbench.vault.memory_listing()

    def opened_memories(self) -> list[MemoryRecord]:
        """The memories whose records open, oldest first, without the ledger check of :meth:`memories`
        (a damaged record is left to ``verify`` to report): what counts and activity read."""
        return self.workbench.vault.list_memories()

    def complete_interrupted(self) -> list[str]:
        """Finish finalizations a crash cut short; one line for each one completed."""
        return self.workbench.vault.complete_interrupted()

    def capture(self, content: str, tags: Sequence[str] = (), *, on_duplicate: DuplicateChoice = "ask",
                check_duplicates: bool = True, suggest: bool = False, created_by: str | None = None) -> CaptureOutcome:
        """A new draft, after the near-duplicate check (cosine ≥ ``recall.duplicate_threshold`` against
        the finalized memories). With a near duplicate and ``on_duplicate="ask"`` nothing is written
        and the outcome ``needs_choice``; replace records that the new memory supersedes the old one
        (curation then offers the old one for cold storage: nothing is deleted)."""
        from core.duplicates import DuplicateError  # heavy: numpy, ~150 ms

        if on_duplicate not in CHOICES:
            raise DuplicateError(f"on_duplicate: must be one of {', '.join(CHOICES)}, got {on_duplicate!r}")
        # the model loads beside the key derivation when no prompt can interleave with its notices
        bench = self.workbench
        quiet = check_duplicates and not bench.unlocked and bench.can_unlock_quietly()
        warming = bench.warm_embedder() if quiet else None
        try:
            return self._capture(content, tags, on_duplicate, check_duplicates, suggest, created_by)
        finally:
            # never leave the model loading while the process exits: a native runtime still starting in
            # a daemon thread at exit aborts the process ("terminate called without an active exception")
            if warming is not None:
                warming.join()

    def _capture(self, content: str, tags: Sequence[str], on_duplicate: DuplicateChoice, check_duplicates: bool,
                 suggest: bool, created_by: str | None) -> CaptureOutcome:
        from core.duplicates import decide  # heavy: numpy, ~150 ms

        vault = self.workbench.vault  # a wrong passphrase fails here, before the check
        check, notes = (self._duplicate_check(content) if check_duplicates else (None, []))
        decision = None
        if check is not None and check.duplicate is not None:
            if on_duplicate == "ask":
                return CaptureOutcome(None, check, notes=tuple(notes))
            decision = decide(check, on_duplicate)
            if not decision.keep_new:
                return CaptureOutcome(None, check, decision, notes=tuple(notes))
        supersedes = [decision.supersedes] if decision is not None and decision.supersedes else []
        draft = vault.create_draft(content, tags, created_by=created_by or self.config.general.reviewer,
                                   supersedes=supersedes)
        added: tuple[Any, ...] = ()
        if suggest:
            run = self.run_suggesters(draft)
            draft, added = run.draft, tuple(run.added)
        return CaptureOutcome(draft, check, decision, added, tuple(notes))

    def _duplicate_check(self, content: str) -> tuple[Any, list[str]]:
        from core.duplicates import check_duplicate  # heavy: numpy, ~150 ms

        fresh = self.workbench.refresh(turns=False)
        notes = ["duplicate check used the index as it is (another process is writing to it)"] if fresh.busy else []
        check = check_duplicate(content, self.workbench.embedder(), threshold=self.config.recall.duplicate_threshold,
                                index=self.workbench.index)
        return check, notes

    def run_suggesters(self, draft: StoredDraft | str, *, only: Sequence[str] = (), save: bool = True) -> SuggestRun:
        """The local suggesters (dates, tags, people, places; ``only`` some of them) on an open draft;
        saved when anything was added and ``save``. The run holds the draft as stored and what was added."""
        from core.suggest import pick_suggesters, suggest_draft  # lazy: with core.recall, ~200 ms; off Home's load

        if isinstance(draft, str):
            draft = self.workbench.vault.get_draft(draft)
        return suggest_draft(self.workbench.vault, draft, self.config, self.paths, suggesters=pick_suggesters(only),
                             embedder=self.workbench.embedder, save=save, memory_index=self.embedded_memory_index)

    def embedded_memory_index(self) -> SearchIndex:
        """The index with the vault's memories current and their vectors made by the model (for the
        suggesters that compare a draft with confirmed memories)."""
        from core.recall import sync_vault  # lazy: core.recall and the time grammar, ~150 ms

        sync_vault(self.workbench.index, self.workbench.vault, self.workbench.zone, self.workbench.embedder())
        self.workbench.index.put_meta(VAULT_SEEN_KEY, vault_fingerprint(self.paths))
        return self.workbench.index

    def suggest(self, draft_id: str, field_name: str, value: Any, source: str, *, model: str | None = None,
                process_version: str | None = None, confidence: float | None = None,
                suggestion_id: str | None = None) -> StoredDraft:
        """One more suggestion on an open draft (from an assistant or a person naming the source)."""
        draft = self.workbench.vault.get_draft(draft_id).add_suggestion(
            field_name, value, source, model=model, process_version=process_version, confidence=confidence,
            suggestion_id=suggestion_id)
        self.workbench.vault.save_draft(draft)
        return draft

    def accept(self, draft_id: str, suggestion_id: str, *, reviewer: str | None = None,
               value: Any = None) -> StoredDraft:
        return self._decide(draft_id, lambda d, who: d.accept(suggestion_id, reviewer=who, value=value), reviewer)

    def reject(self, draft_id: str, suggestion_id: str, *, reviewer: str | None = None) -> StoredDraft:
        return self._decide(draft_id, lambda d, who: d.reject_suggestion(suggestion_id, reviewer=who), reviewer)

    def approve(self, draft_id: str, *, reviewer: str | None = None) -> StoredDraft:
        return self._decide(draft_id, lambda d, who: d.approve(reviewer=who), reviewer)

    def _decide(self, draft_id: str, change: Callable[[StoredDraft, str], StoredDraft],
                reviewer: str | None) -> StoredDraft:
        draft = change(self.workbench.vault.get_draft(draft_id), reviewer or self.config.general.reviewer)
        self.workbench.vault.save_draft(draft)
        return draft

    def finalize(self, draft_id: str) -> MemoryRecord:
        """Seal an approved draft as a memory, once (the vault reads the draft once, under its lock)."""
        return self.workbench.vault.finalize(draft_id)

    def export_dvmem(self, memory_id: str, passphrase: str | None = None) -> bytes:
        """One memory as a portable ``.dvmem`` record, sealed under the passphrase it is exported with."""
        passphrase = passphrase or self.workbench.access.passphrase_for_exchange()
        return export_dvmem(self.workbench.vault, memory_id, passphrase)

    def sealed_memory(self, memory_id: str) -> SealedMemory:
        """One memory with its verification state; a record that does not open raises (named)."""
        vault = self.workbench.vault
        memory = vault.get_memory(memory_id)  # checks signature, ciphertext and content hash, or raises
        entry = vault.ledger_placement().get(memory_id)
        digest = sha256_hex(vault.memory_path(memory_id).read_bytes())
        return SealedMemory(memory, entry is not None and entry.kind in MEMORY_KINDS and entry.record_sha256 == digest,
                            entry)

    def exporter(self) -> HomeExporter:
        """Exports of the finalized memories (drafts never) with their review provenance: RAG chunks,
        JSONL (generic, OpenAI, Anthropic), conversation history, the knowledge graph."""
        from core.export import HomeExporter  # lazy: off Home's load, which builds this service

        return HomeExporter(self.workbench.vault)

    def check_dvmem(self, path: Path) -> None:
        """Refuse a path that is not a readable ``.dvmem`` file (a FIFO, a folder, an oversized file),
        naming it, before any passphrase is asked."""
        read_dvmem_file(path)

    def import_dvmem(self, path: Path, passphrase: str | None = None) -> Imported:
        """A ``.dvmem`` record, verified before it is accepted."""
        data = read_dvmem_file(path)
        passphrase = passphrase or self.workbench.access.passphrase_for_exchange()
        return Imported(*import_dvmem(self.workbench.vault, data, passphrase, str(path)))
