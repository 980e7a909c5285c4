"""The workbench: one object per process, opened on a data home, offering each use case as a method.

It owns the home's paths and settings, the keys (unlock and lock), the vault, the search index, the
recaller and the embedding model, and applies the freshness policy (:mod:`core.workbench.freshness`)
before every read. The TUI, the click CLI, the MCP server, the REST API and ``serve`` are adapters:
they parse input, call one method here and render what it returns. Nothing here prompts, prints or
knows which interface is calling; an interface that can ask for a passphrase passes
``ask_passphrase``, and one that can show progress passes a callback.

Test hooks come in through the constructor: ``kdf`` (cheap Argon2id parameters for vaults a test
creates) and ``embedder`` (a model-free embedder).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import datetime, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.config import Config, load_config
from core.errors import HomeError, ReverieError, VaultLocked
from core.paths import HomePaths
from core.workbench.capture import CHOICES, CaptureOutcome, DuplicateChoice
from core.workbench.freshness import (
    CATCH_UP_BYTES,
    VAULT_SEEN_KEY,
    Freshness,
    LogLag,
    log_lag,
    shadow_of,
    small_enough,
    vault_fingerprint,
)

if TYPE_CHECKING:
    from core.context import ContextBlock
    from core.conversation import SealReport
    from core.conversation.detect import SourcePlan
    from core.conversation.follow import Follower
    from core.conversation.seals import DaySummary
    from core.embed import Embedder
    from core.index import Filters, Reindexer, ReindexReport, SearchIndex
    from core.index.catalog import SessionInfo
    from core.index.memories import MemorySync
    from core.recall import Recaller
    from core.recall.model import RecallItem
    from core.sharing import ShareCheck, SharePolicy
    from core.suggest.runner import SuggestRun
    from core.topics import Marker
    from core.vault.crypto import KdfParams, VaultKeys
    from core.vault.ledger import Checkpoint
    from core.vault.records import Memory
    from core.vault.review import ReviewDraft
    from core.vault.store import MemoryVault
    from core.workbench.curation import Curation
    from core.workbench.ingest import IngestOutcome
    from core.workbench.search import SearchAnswer
    from core.workbench.topics import Topics
    from core.workbench.verify import VerifyReport

Progress = Callable[[str, int, int], None]  # (phase "files" | "embed", done, total)
Notice = Callable[[str], None]  # one line for the person ("loading the embedding model…")
ShouldStop = Callable[[], bool]
EmbedderFactory = Callable[[], "Embedder"]
NO_PASSPHRASE = "no passphrase: set REVERIE_PASSPHRASE, enable security.keyring, or run in a terminal"


class Workbench:
    """A data home, opened for one process. Thread-safe where the TUI's workers need it (the index,
    the recaller and the model are opened once, under a lock)."""

    def __init__(self, paths: HomePaths, config: Config | None = None, *, kdf: KdfParams | None = None,
                 embedder: EmbedderFactory | None = None, ask_passphrase: Callable[[], str] | None = None,
                 notice: Notice | None = None, catch_up_bytes: int = CATCH_UP_BYTES) -> None:
        self.paths = paths
        self.catch_up_bytes = catch_up_bytes  # the largest lag a read catches up by itself
        self._config = config
        self.kdf = kdf
        self.ask_passphrase = ask_passphrase
        self.notice: Notice = notice or (lambda line: None)
        self._embedder_factory = embedder
        self._embedder: Embedder | None = None
        self._keys: VaultKeys | None = None
        self._vault: MemoryVault | None = None
        self._recaller: Recaller | None = None
        self._open_lock = threading.RLock()
        self._model_lock = threading.Lock()  # held while the model loads: reads that need no model go on

    @classmethod
    def open(cls, home: str | Path | HomePaths | None = None, **options: Any) -> Workbench:
        """The workbench of ``home`` (``--home``, then ``REVERIE_HOME``, then the platform's data dir)."""
        paths = home if isinstance(home, HomePaths) else HomePaths.at(home)
        return cls(paths, **options)

    def close(self) -> None:
        with self._open_lock:
            if self._recaller is not None:
                self._recaller.close()
                self._recaller = None

    def __enter__(self) -> Workbench:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- settings ---------------------------------------------------------------------------------

    @property
    def config(self) -> Config:
        if self._config is None:
            self._config = load_config(self.paths.config)
        return self._config

    @property
    def zone(self) -> tzinfo:
        return self.config.zone()

    def now(self, text: str | None = None, zone: tzinfo | None = None) -> datetime:
        """The moment a request is made in: ``text`` (ISO 8601) or the current time, in ``zone``."""
        from core.clock import parse_now

        return parse_now(text, zone or self.zone)

    # --- keys -------------------------------------------------------------------------------------

    @property
    def has_vault(self) -> bool:
        return self.paths.vault_header.exists()

    @property
    def unlocked(self) -> bool:
        return self._keys is not None

    def passphrase_at_hand(self) -> str | None:
        """The passphrase when it needs no prompt (``REVERIE_PASSPHRASE`` or the keyring)."""
        from core.vault.passphrase import passphrase_without_prompt

        return passphrase_without_prompt(self.config, self.paths)

    def can_unlock_quietly(self) -> bool:
        """Whether the keys are, or can be had, without asking the person."""
        return self.unlocked or (self.has_vault and self.passphrase_at_hand() is not None)

    def unlock(self, passphrase: str | None = None) -> VaultKeys:
        """The vault's keys: from ``passphrase``, else the one at hand, else ``ask_passphrase``. A wrong
        passphrase raises before anything is read or written."""
        if self._keys is not None and passphrase is None:
            return self._keys
        from core.vault.crypto import unlock

        if not self.has_vault:
            raise HomeError(f"{self.paths.root}: no vault here yet (`reverie init` creates one)")
        passphrase = passphrase or self.passphrase_at_hand()
        if passphrase is None:
            if self.ask_passphrase is None:
                raise VaultLocked(NO_PASSPHRASE)
            passphrase = self.ask_passphrase()
        self.adopt_keys(unlock(self.paths.vault_header, passphrase))
        assert self._keys is not None
        return self._keys

    def adopt_keys(self, keys: VaultKeys) -> None:
        """Use keys unlocked elsewhere (the TUI's unlock screen, a demo home)."""
        with self._open_lock:
            self._keys = keys
            self._vault = None

    def lock(self) -> None:
        """Forget the keys and the open vault (the index, which holds no keys, stays open)."""
        with self._open_lock:
            if self._vault is not None:
                self._vault.forget_keys()
            self._keys = None
            self._vault = None

    def create_vault(self, passphrase: str, *, keyring: bool = False) -> VaultKeys:
        """A new vault in the home (refused when one exists); the settings file is written when absent."""
        from core.config import save_config
        from core.conversation.written import begin_record
        from core.vault.crypto import create_header
        from core.vault.passphrase import check_new_passphrase

        if self.has_vault:
            raise HomeError(f"{self.paths.vault_header}: a vault already exists here")
        check_new_passphrase(passphrase)
        self.paths.ensure()
        if not self.paths.config.exists():
            config = self.config
            config.security.keyring = keyring
            save_config(self.paths.config, config)
        keys = create_header(self.paths.vault_header, passphrase, self.kdf)
        begin_record(self.paths)  # a day file found in logs/ from now on is one this home's ingests wrote, or named
        if keyring:
            from core.vault.passphrase import store_in_keyring

            store_in_keyring(self.paths, passphrase)
        self.adopt_keys(keys)
        return keys

    def change_passphrase(self, new: str, *, current: str | None = None,
                          recovery_key: str | None = None) -> tuple[bool, list[str]]:
        """Set a new passphrase, proven by the current one (``current``, else the one at hand or asked)
        or by a recovery key. One header is rewritten atomically, whatever the vault's size; the old
        passphrase stops working. The keyring follows when it holds the passphrase. Returns whether the
        keyring was updated, and what the person should know (an environment variable still holding
        the old one, a keyring that could not be written)."""
        import os

        from core.vault.crypto import change_passphrase
        from core.vault.passphrase import PASSPHRASE_ENV, check_new_passphrase

        if not self.has_vault:
            raise HomeError(f"{self.paths.vault_header}: no vault here; run `reverie init` first")
        check_new_passphrase(new)
        if recovery_key is None and current is None:
            current = self._passphrase_for_exchange()
        change_passphrase(self.paths.vault_header, new, passphrase=current, recovery_key=recovery_key)
        notes: list[str] = []
        keyring_updated = False
        if self.config.security.keyring:
            from core.vault.passphrase import store_in_keyring

            try:
                store_in_keyring(self.paths, new)
            except Exception as exc:  # any keyring backend failure: the change itself is done
                notes.append(f"The keyring could not be updated ({type(exc).__name__}): store the new passphrase "
                             "there yourself, or turn security.keyring off.")
            else:
                keyring_updated = True
                notes.append("The keyring now holds the new passphrase.")
        if os.environ.get(PASSPHRASE_ENV):
            notes.append(f"{PASSPHRASE_ENV} still holds the old one: change it where you set it.")
        return keyring_updated, notes

    def create_recovery_key(self, passphrase: str | None = None) -> str:
        """A new recovery key (it replaces any earlier one), to be shown once; it can set a new passphrase."""
        from core.clock import utc_now_iso
        from core.vault.crypto import create_recovery_key

        if not self.has_vault:
            raise HomeError(f"{self.paths.vault_header}: no vault here; run `reverie init` first")
        return create_recovery_key(self.paths.vault_header, passphrase or self._passphrase_for_exchange(),
                                   now=utc_now_iso())

    def recovery_key_made_at(self) -> str | None:
        """When the vault's recovery key was made (an ISO time; "" when the header does not say), or
        None when it has none. Reads the header only: no passphrase is needed."""
        from core.vault.crypto import parse_header

        path = self.paths.vault_header
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError as exc:
            raise HomeError(f"{path}: no vault here; run `reverie init` first") from exc
        except (OSError, ValueError) as exc:
            raise HomeError(f"{path}: vault header unreadable: {exc}") from exc
        header = parse_header(path, text)
        return None if header.recovery is None else (header.recovery_created_at or "")

    @property
    def keys(self) -> VaultKeys:
        return self.unlock()

    @property
    def vault(self) -> MemoryVault:
        with self._open_lock:
            if self._vault is None:
                from core.vault.store import MemoryVault

                self._vault = MemoryVault.open(self.paths, self.keys)
            return self._vault

    # --- index, recaller, model -------------------------------------------------------------------

    def embedder(self) -> Embedder:
        """The embedding model, loaded once per process. The person is told at once when the load is
        slow (``make_embedder`` says "loading the embedding model…" or "preparing… (once)" through
        :attr:`notice`); the default backend loads in well under a second."""
        with self._model_lock:
            if self._embedder is None:
                embedder = self._new_embedder()
                _ = embedder.dim  # loads it
                self._embedder = embedder
            return self._embedder

    def warm_embedder(self) -> threading.Thread:
        """Start loading the embedding model in a thread and return it. The vault's key derivation
        (Argon2id in ``cryptography``) releases the GIL: measured, a thread counting beside it kept
        about 2/3 of its rate. Errors are left to the caller's own :meth:`embedder` call."""

        def warm() -> None:
            try:
                embedder = self.embedder()
                warm_runtime = getattr(embedder, "warm", None)  # the default backend: its quick runtime
                if warm_runtime is not None:
                    warm_runtime()
            except Exception:  # met again, and reported, by the check itself
                pass

        thread = threading.Thread(target=warm, name="reverie-model-warm", daemon=True)
        thread.start()
        return thread

    def _new_embedder(self) -> Embedder:
        if self._embedder_factory is not None:
            return self._embedder_factory()
        from core.embed import make_embedder

        return make_embedder(self.config.embedding, notice=self.notice)

    def embedder_name(self) -> str:
        """The configured model's name, without loading it."""
        loaded = self._embedder
        return loaded.name if loaded is not None else self._new_embedder().name

    @property
    def recaller(self) -> Recaller:
        with self._open_lock:
            if self._recaller is None:
                from core.index import BusyPolicy
                from core.recall import Recaller

                # Another process upgrading the index (a migration, up to minutes) is said through the
                # workbench's notice while this one waits (the CLI prints it; the TUI's search screen
                # sets its own notice later, hence the late lookup).
                self._recaller = Recaller.open(self.paths, self.config, embedder=self.embedder,
                                               busy=BusyPolicy(notice=lambda line: self.notice(line)))
            return self._recaller

    @property
    def index(self) -> SearchIndex:
        return self.recaller.index

    def reindexer(self, *, embed: bool, memories: bool) -> Reindexer:
        """A reindex of the day logs (and of the vault's memories with ``memories``, when the keys are at
        hand without asking), for ``reverie watch`` and the workbench's own catch-ups; close it (or use
        ``with``)."""
        from core.index import HomeDayLogs, Reindexer

        source = None
        if memories and self.can_unlock_quietly():
            zone = self.zone

            def source() -> Sequence[Any]:
                from core.recall import vault_docs

                return vault_docs(self.vault, zone)

        return Reindexer(self.index, HomeDayLogs(self.paths), embedder=self.embedder if embed else None,
                         memory_source=source, batch_size=self.config.embedding.batch_size, zone=self.zone,
                         languages=self.config.general.languages)

    # --- freshness --------------------------------------------------------------------------------

    def log_lag(self) -> LogLag:
        return log_lag(self.paths, self.index)

    def freshness(self) -> Freshness:
        """What the index holds now, and how far it is behind the log (no catch-up)."""
        status = self.index.status()
        return Freshness(turns=status.turns, memories=status.memories, vectors=status.vectors,
                         pending_vectors=status.pending_vectors, lag=self.log_lag(), **shadow_of(status))

    def refresh(self, *, turns: bool = True, memories: bool = True) -> Freshness:
        """Apply the freshness policy before a read: catch the exact index up when the log is only a
        little ahead, sync the vault's memories when the vault is open and changed. Never raises for a
        busy index or a vault that cannot be read: the answer is made from what the index holds, and
        :meth:`Freshness.notes` says so."""
        import apsw

        caught_up, busy, synced, memory_note = 0, False, None, None
        lag = self.log_lag() if turns else LogLag()
        if small_enough(lag, self.catch_up_bytes):
            try:
                with self.reindexer(embed=False, memories=False) as reindexer:
                    report = reindexer.run(embed=False)
                caught_up = report.turns_added
                lag = self.log_lag()
            except apsw.BusyError:
                busy = True
        if memories and self.can_unlock_quietly():
            try:
                synced = self.sync_memories() is not None
            except apsw.BusyError:
                busy = True
            except ReverieError as exc:
                memory_note = f"memories not refreshed in the index: {exc}"
        status = self.index.status()
        return Freshness(turns=status.turns, memories=status.memories, vectors=status.vectors,
                         pending_vectors=status.pending_vectors, caught_up_turns=caught_up, lag=lag,
                         memories_synced=synced, memory_note=memory_note, busy=busy, **shadow_of(status))

    def sync_memories(self, *, force: bool = False) -> MemorySync | None:
        """Make the index's memories those of the vault, when the vault changed since the last sync (a
        fingerprint of its files is kept in the index). None when nothing had to be done."""
        from core.recall import sync_vault

        seen = vault_fingerprint(self.paths)
        if not force and self.index.get_meta(VAULT_SEEN_KEY) == seen:
            return None
        result = sync_vault(self.index, self.vault, self.zone)
        self.index.put_meta(VAULT_SEEN_KEY, seen)
        return result

    def sessions(self, *, limit: int = 20, source: str | None = None) -> list[SessionInfo]:
        """The most recently active sessions, newest first, with project header and first prompt
        (after the freshness policy's catch-up of the exact index, as a search does)."""
        self.refresh(memories=False)
        return self.index.recent_sessions(limit, source=source)

    # --- recall -----------------------------------------------------------------------------------

    def search(self, query: str, *, now: datetime | None = None, zone: tzinfo | None = None,
               limit: int | None = None, mode: str = "auto", filters: Filters | None = None,
               refresh: bool = True, share: SharePolicy | None = None) -> SearchAnswer:
        """The one search: the freshness policy, then :meth:`core.recall.Recaller.search`; with ``share``,
        the answer an assistant gets through that sharing profile (:func:`core.sharing.shared_search`)."""
        from core.workbench.search import SearchAnswer

        fresh = self.refresh() if refresh else self.freshness()
        zone = zone or self.zone
        now = now or self.now(zone=zone)
        if share is not None:
            from core.sharing import shared_search

            shared = shared_search(self.recaller, share, query, now=now, zone=zone, limit=limit, mode=mode)
            return SearchAnswer(shared.result, fresh, shared)
        result = self.recaller.search(query, now=now, zone=zone, limit=limit, mode=mode, filters=filters)
        return SearchAnswer(result, fresh)

    def context(self, query: str | None, *, now: datetime | None = None, zone: tzinfo | None = None,
                budget: int | None = None, profile: str | SharePolicy | None = None,
                refresh: bool = True) -> ContextBlock:
        """A block for a model's prompt: the latest topic markers, confirmed memories, matching turns;
        through a sharing profile when ``profile`` names one or is a policy (denied tags win)."""
        from core.context import build_context

        if refresh:
            self.refresh()
        zone = zone or self.zone
        now = now or self.now(zone=zone)
        markers = self.topics.latest()
        if profile is None:
            return build_context(self.recaller, query, markers=markers, now=now, zone=zone,
                                 config=self.config.context, budget=budget)
        from core.sharing import SharePolicy, shared_context

        policy = profile if isinstance(profile, SharePolicy) else SharePolicy.from_config(self.config, profile)
        return shared_context(self.recaller, policy, query, markers=markers, now=now, zone=zone,
                              config=self.config.context, budget=budget)

    def share_check(self, profile: str, query: str, *, now: datetime | None = None,
                    limit: int | None = None) -> ShareCheck:
        """What an assistant under ``profile`` would get for ``query``, and what the same query finds
        without the profile, each item with why it is withheld (``reverie share check``). The
        memories are synced first, asking for the passphrase if need be: what is shared depends on them."""
        from core.sharing import SharePolicy, check_share

        policy = SharePolicy.from_config(self.config, profile)
        if self.has_vault:
            self.unlock()
        self.refresh()
        return check_share(self.recaller, policy, query, now=now or self.now(), zone=self.zone, limit=limit)

    def as_sealed(self, items: Sequence[RecallItem]) -> dict[str, RecallItem | None]:
        """Each memory among ``items`` as its sealed record says (text, tags, review state), None for one
        whose record does not verify; the index is unsigned, so what is shown of a memory comes from here."""
        from core.sharing import SealedRecords

        records = SealedRecords(lambda: self.vault)
        return {item.id: records.as_sealed(item) for item in items if item.kind == "memory"}

    def mark(self, text: str, now: datetime | None = None) -> Marker:
        """A topic marker: where the person is now (the one way a marker is written)."""
        return self.topics.mark(text, now)

    @property
    def topics(self) -> Topics:
        """Topic markers: write one, read them latest first."""
        from core.workbench.topics import Topics

        return Topics(self)

    # --- capture and review -----------------------------------------------------------------------

    def capture(self, content: str, tags: Sequence[str] = (), *, on_duplicate: DuplicateChoice = "ask",
                check_duplicates: bool = True, suggest: bool = False, created_by: str | None = None) -> CaptureOutcome:
        """A new draft, after the near-duplicate check (cosine ≥ ``recall.duplicate_threshold`` against
        the finalized memories). With a near duplicate and ``on_duplicate="ask"`` nothing is written
        and the outcome ``needs_choice``; replace records that the new memory supersedes the old one
        (curation then offers the old one for cold storage: nothing is deleted)."""
        from core.duplicates import DuplicateError

        if on_duplicate not in CHOICES:
            raise DuplicateError(f"on_duplicate: must be one of {', '.join(CHOICES)}, got {on_duplicate!r}")
        # the model loads beside the key derivation when no prompt can interleave with its notices
        warming = self.warm_embedder() if check_duplicates and not self.unlocked and self.can_unlock_quietly() else None
        try:
            return self._capture(content, tags, on_duplicate, check_duplicates, suggest, created_by)
        finally:
            # never leave the model loading while the process exits: a native runtime still starting in
            # a daemon thread at exit aborts the process ("terminate called without an active exception")
            if warming is not None:
                warming.join()

    def _capture(self, content: str, tags: Sequence[str], on_duplicate: DuplicateChoice, check_duplicates: bool,
                 suggest: bool, created_by: str | None) -> CaptureOutcome:
        from core.duplicates import decide

        vault = self.vault  # a wrong passphrase fails here, before the check
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
        from core.duplicates import check_duplicate

        fresh = self.refresh(turns=False)
        notes = ["duplicate check used the index as it is (another process is writing to it)"] if fresh.busy else []
        check = check_duplicate(content, self.embedder(), threshold=self.config.recall.duplicate_threshold,
                                index=self.index)
        return check, notes

    def run_suggesters(self, draft: ReviewDraft | str, *, only: Sequence[str] = (), save: bool = True) -> SuggestRun:
        """The local suggesters (dates, tags, people, places; ``only`` some of them) on an open draft;
        saved when anything was added and ``save``. The run holds the draft as stored and what was added."""
        from core.suggest import pick_suggesters, suggest_draft

        if isinstance(draft, str):
            draft = self.vault.get_draft(draft)
        return suggest_draft(self.vault, draft, self.config, self.paths, suggesters=pick_suggesters(only),
                             embedder=self.embedder, save=save, memory_index=self.embedded_memory_index)

    def embedded_memory_index(self) -> SearchIndex:
        """The index with the vault's memories current and their vectors made by the model (for the
        suggesters that compare a draft with confirmed memories)."""
        from core.recall import sync_vault

        sync_vault(self.index, self.vault, self.zone, self.embedder())
        self.index.put_meta(VAULT_SEEN_KEY, vault_fingerprint(self.paths))
        return self.index

    def suggest(self, draft_id: str, field_name: str, value: Any, source: str, *, model: str | None = None,
                process_version: str | None = None, confidence: float | None = None,
                suggestion_id: str | None = None) -> ReviewDraft:
        """One more suggestion on an open draft (from an assistant or a person naming the source)."""
        draft = self.vault.get_draft(draft_id).add_suggestion(
            field_name, value, source, model=model, process_version=process_version, confidence=confidence,
            suggestion_id=suggestion_id)
        self.vault.save_draft(draft)
        return draft

    def accept(self, draft_id: str, suggestion_id: str, *, reviewer: str | None = None,
               value: Any = None) -> ReviewDraft:
        return self._decide(draft_id, lambda d, who: d.accept(suggestion_id, reviewer=who, value=value), reviewer)

    def reject(self, draft_id: str, suggestion_id: str, *, reviewer: str | None = None) -> ReviewDraft:
        return self._decide(draft_id, lambda d, who: d.reject_suggestion(suggestion_id, reviewer=who), reviewer)

    def approve(self, draft_id: str, *, reviewer: str | None = None) -> ReviewDraft:
        return self._decide(draft_id, lambda d, who: d.approve(reviewer=who), reviewer)

    def _decide(self, draft_id: str, change: Callable[[ReviewDraft, str], ReviewDraft],
                reviewer: str | None) -> ReviewDraft:
        draft = change(self.vault.get_draft(draft_id), reviewer or self.config.general.reviewer)
        self.vault.save_draft(draft)
        return draft

    def finalize(self, draft_id: str) -> Memory:
        """Seal an approved draft as a memory, once (the vault reads the draft once, under its lock)."""
        return self.vault.finalize(draft_id)

    # --- the log ----------------------------------------------------------------------------------

    def plan_ingest(self, inputs: Sequence[Path], fmt: str = "auto") -> SourcePlan:
        """What an ingest of ``inputs`` would read (files, formats, total bytes); raises for an unknown
        format or a missing file, before anything is written."""
        from core.conversation import collect_sources

        return collect_sources(list(inputs), fmt)

    def ingest(self, inputs: Sequence[Path] = (), fmt: str = "auto", *, plan: SourcePlan | None = None,
               embed: bool = False, progress: Callable[[int], None] | None = None,
               embed_progress: Progress | None = None, should_stop: ShouldStop | None = None,
               now: datetime | None = None) -> IngestOutcome:
        """Import conversations into the log, then make them searchable before returning: the exact
        index (catalog + FTS5) always; vectors too with ``embed`` (stopping keeps what is embedded, and
        the outcome says how many wait). Closed days are sealed when the keys are at hand.
        ``progress`` gets input bytes read; ``embed_progress`` the embedding's (phase, done, total)."""
        from core.conversation import ingest as run_ingest

        plan = plan if plan is not None else self.plan_ingest(inputs, fmt)
        keys, reason = self._keys_for_sealing()
        report = run_ingest(self.paths, plan=plan, keys=keys, unsealed_reason=reason, progress=progress, now=now)
        return self._index_after_ingest(report, embed=embed, progress=embed_progress, should_stop=should_stop)

    def _keys_for_sealing(self) -> tuple[VaultKeys | None, str]:
        if not self.has_vault:
            return None, "no vault in this home yet (`reverie init`, then `reverie seal`)"
        if not self.can_unlock_quietly():
            return None, "no passphrase in REVERIE_PASSPHRASE or the keyring; run `reverie seal`"
        return self.keys, ""

    def _index_after_ingest(self, report: Any, *, embed: bool, progress: Progress | None,
                            should_stop: ShouldStop | None) -> IngestOutcome:
        import apsw

        from core.workbench.ingest import IngestOutcome

        outcome = IngestOutcome(report)
        try:
            with self.reindexer(embed=False, memories=False) as reindexer:
                outcome.index = reindexer.run(embed=False, should_stop=should_stop)
        except apsw.BusyError:
            outcome.index_note = "the index is busy (another process is writing it): the next search catches up"
            return outcome
        if embed and not (should_stop and should_stop()):
            try:
                outcome.vectors = self.reindex(embed=True, progress=progress, should_stop=should_stop).embedded
            except KeyboardInterrupt:
                outcome.stopped = True
        outcome.pending_vectors = self.index.status().pending_vectors
        outcome.stopped = outcome.stopped or bool(should_stop and should_stop())
        return outcome

    def follower(self, folders: Sequence[Path | str]) -> Follower:
        """A follower of Claude Code and Codex folders (``watch --follow``): new turns into the log,
        closed days sealed when the keys are at hand."""
        from core.conversation.follow import Follower

        keys, reason = self._keys_for_sealing()
        return Follower(self.paths, list(folders), keys=keys, unsealed_reason=reason)

    def seal(self, accept_unsigned: Collection[str] = (), adopt: Mapping[str, str] | None = None) -> SealReport:
        """Seal every closed UTC day of the log this vault's ingests wrote (and reseal days an ingest
        added to); ``accept_unsigned``: days whose appended turns the person read and accepts without a
        signed intent; ``adopt``: day → SHA-256 of a day file the person read (:meth:`describe_day`)
        and adopts although Reverie cannot vouch it wrote it."""
        from core.conversation import seal_closed_days

        return seal_closed_days(self.paths, self.keys, accept_unsigned=accept_unsigned, adopt=adopt)

    def describe_day(self, day: str) -> DaySummary | None:
        """What ``day``'s log file holds (turns, first and last time, sessions), None without one;
        ``ValueError`` for a name that is not a day."""
        from core.conversation.seals import describe_day
        from core.vault.ledger import Ledger

        return describe_day(self.paths, day, Ledger(self.paths, self.keys).read(full=False))

    def reindex(self, *, full: bool = False, embed: bool = True, progress: Progress | None = None,
                should_stop: ShouldStop | None = None) -> ReindexReport:
        """Bring the index up to date with the log (only changed day files) and the vault's memories
        (when the keys are at hand), with vectors unless ``embed`` is False."""
        with self.reindexer(embed=embed, memories=True) as reindexer:
            report = reindexer.run(full=full, embed=embed, progress=progress, should_stop=should_stop)
        if report.memories is not None:
            self.index.put_meta(VAULT_SEEN_KEY, vault_fingerprint(self.paths))
        return report

    # --- integrity and exchange -------------------------------------------------------------------

    def verify(self, checkpoint: Checkpoint | None = None) -> VerifyReport:
        """Check every record, the ledger chain, the sealed day logs and cold storage."""
        from core.workbench.verify import verify_home

        return verify_home(self.paths, self.keys, checkpoint)

    def export_dvmem(self, memory_id: str, passphrase: str | None = None) -> bytes:
        """One memory as a portable ``.dvmem`` record, sealed under the passphrase it is exported with."""
        from core.vault.portable import export_dvmem

        return export_dvmem(self.vault, memory_id, passphrase or self._passphrase_for_exchange())

    def import_dvmem(self, path: Path, passphrase: str | None = None) -> tuple[Memory, bool]:
        """A ``.dvmem`` record, verified before it is accepted; (memory, added)."""
        from core.vault.portable import import_dvmem, read_dvmem_file

        data = read_dvmem_file(path)
        return import_dvmem(self.vault, data, passphrase or self._passphrase_for_exchange(), str(path))

    def _passphrase_for_exchange(self) -> str:
        found = self.passphrase_at_hand()
        if found:
            return found
        if self.ask_passphrase is None:
            raise VaultLocked(NO_PASSPHRASE)
        return self.ask_passphrase()

    # --- curation ---------------------------------------------------------------------------------

    @property
    def curation(self) -> Curation:
        """Scan, apply, approve/reject, restore, recover, calibrate: every scope, never deleting."""
        from core.workbench.curation import Curation

        return Curation(self)
