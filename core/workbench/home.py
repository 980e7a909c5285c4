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

import dataclasses
import threading
from collections.abc import Callable, Sequence
from datetime import datetime, tzinfo
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.clock import parse_now
from core.config import Config, load_config
from core.errors import HomeError, ReverieError, VaultLocked
from core.paths import HomePaths
from core.vault.passphrase import passphrase_without_prompt
from core.workbench import when
from core.workbench.access import NO_PASSPHRASE, Access
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
    from core.embed import Embedder
    from core.index import Filters, Reindexer, SearchIndex
    from core.index.memories import MemorySync
    from core.recall import Recaller
    from core.recall.model import RecallItem, RecallResult
    from core.sharing import ShareCheck, SharePolicy
    from core.timeparse import TimeParse
    from core.topics import Marker
    from core.vault.crypto import KdfParams, VaultKeys
    from core.vault.ledger import Checkpoint
    from core.vault.store import MemoryStore
    from core.workbench.backups import Backups
    from core.workbench.curation_service import Curation
    from core.workbench.log import Log
    from core.workbench.mirror import Mirror
    from core.workbench.recall import Recall
    from core.workbench.remote import RemoteService
    from core.workbench.review import Review
    from core.workbench.search import SearchAnswer
    from core.workbench.sharing import Sharing
    from core.workbench.topics import Topics
    from core.workbench.verify import VerifyReport

Progress = Callable[[str, int, int], None]  # (phase "files" | "embed", done, total)
Notice = Callable[[str], None]  # one line for the person ("loading the embedding model…")
ShouldStop = Callable[[], bool]
EmbedderFactory = Callable[[], "Embedder"]


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
        self._vault: MemoryStore | None = None
        self._index: SearchIndex | None = None
        self._recaller: Recaller | None = None  # searches self._index
        self._open_lock = threading.RLock()
        self._model_lock = threading.Lock()  # held while the model loads: reads that need no model go on

    @classmethod
    def open(cls, home: str | Path | HomePaths | None = None, **options: Any) -> Workbench:
        """The workbench of ``home`` (``--home``, then ``REVERIE_HOME``, then the platform's data dir)."""
        paths = home if isinstance(home, HomePaths) else HomePaths.at(home)
        return cls(paths, **options)

    def close(self) -> None:
        with self._open_lock:
            if self._index is not None:
                self._index.close()  # the recaller's index too: it is this one
            self._index = None
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
        return passphrase_without_prompt(self.config, self.paths)

    def can_unlock_quietly(self) -> bool:
        """Whether the keys are, or can be had, without asking the person."""
        return self.unlocked or (self.has_vault and self.passphrase_at_hand() is not None)

    def unlock(self, passphrase: str | None = None) -> VaultKeys:
        """The vault's keys: from ``passphrase``, else the one at hand, else ``ask_passphrase``. A wrong
        passphrase raises before anything is read or written."""
        if self._keys is not None and passphrase is None:
            return self._keys
        from core.vault.crypto import unlock  # lazy: cryptography, off the TUI's first paint

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

    @property
    def keys(self) -> VaultKeys:
        return self.unlock()

    @property
    def vault(self) -> MemoryStore:
        with self._open_lock:
            if self._vault is None:
                from core.vault.store import MemoryStore  # lazy: cryptography, off the TUI's first paint

                self._vault = MemoryStore.open(self.paths, self.keys)
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

    def warm_embedder(self, *, bulk: bool = False) -> threading.Thread:
        """Start loading the embedding model in a thread and return it. The vault's key derivation
        (Argon2id in ``cryptography``) releases the GIL: measured, a thread counting beside it kept
        about 2/3 of its rate. ``bulk``: load what embeds many texts (OpenVINO, every part of the
        default), for an ingest whose log and word index are written meanwhile; else what a few texts
        use. Errors are left to the caller's own :meth:`embedder` call."""

        def warm() -> None:
            try:
                embedder = self.embedder()
                if bulk:
                    from core.embed import load_for_bulk  # lazy: the embedding backends, loaded by embedder()

                    load_for_bulk(embedder)
                    return
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
        from core.embed import make_embedder  # lazy: the embedding backends, with the model

        return make_embedder(self.config.embedding, notice=self.notice)

    def embedder_name(self) -> str:
        """The configured model's name, without loading it."""
        loaded = self._embedder
        return loaded.name if loaded is not None else self._new_embedder().name

    @property
    def recaller(self) -> Recaller:
        with self._open_lock:
            if self._recaller is None:
                from core.recall import Recaller  # lazy: core.recall and the time grammar, ~150 ms

                self._recaller = Recaller.open(self.paths, self.config, embedder=self.embedder, index=self.index)
            return self._recaller

    @property
    def index(self) -> SearchIndex:
        """The home's index, opened once; without the recaller (its time grammar is a large import that
        a caller only counting or reading turns does not need)."""
        with self._open_lock:
            if self._index is None:
                from core.index import BusyPolicy, SearchIndex  # lazy: core.index and apsw, ~45 ms

                # Another process upgrading the index (a migration, up to minutes) is said through the
                # workbench's notice while this one waits (the CLI prints it; the TUI's search screen
                # sets its own notice later, hence the late lookup).
                self._index = SearchIndex.open(self.paths, busy=BusyPolicy(notice=lambda line: self.notice(line)))
            return self._index

    def reindexer(self, *, embed: bool, memories: bool) -> Reindexer:
        """A reindex of the day logs (and of the vault's memories with ``memories``, when the keys are at
        hand without asking), for ``reverie watch`` and the workbench's own catch-ups; close it (or use
        ``with``)."""
        from core.index import HomeDayLogs, Reindexer  # lazy: core.index and apsw, ~45 ms

        source = None
        if memories and self.can_unlock_quietly():
            zone = self.zone

            def source() -> Sequence[Any]:
                from core.recall import vault_docs  # lazy: core.recall and the time grammar, ~150 ms

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
        import apsw  # lazy: with core.index, off the TUI's first paint

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
        from core.recall import sync_vault  # lazy: core.recall and the time grammar, ~150 ms

        seen = vault_fingerprint(self.paths)
        if not force and self.index.get_meta(VAULT_SEEN_KEY) == seen:
            return None
        result = sync_vault(self.index, self.vault, self.zone)
        self.index.put_meta(VAULT_SEEN_KEY, seen)
        return result

    # --- recall -----------------------------------------------------------------------------------

    def search(self, query: str, *, now: datetime | None = None, zone: tzinfo | None = None,
               limit: int | None = None, mode: str = "auto", filters: Filters | None = None,
               refresh: bool = True, share: SharePolicy | None = None) -> SearchAnswer:
        """The one search: the freshness policy, then :meth:`core.recall.Recaller.search`; with ``share``,
        the answer an assistant gets through that sharing profile (:func:`core.sharing.shared_search`)."""
        return self.recall.search(query, now=now, zone=zone, limit=limit, mode=mode, filters=filters,
                                  refresh=refresh, share=share)

    def read_time(self, text: str, *, now: datetime, zone: tzinfo | None = None) -> TimeParse:
        """How ``text`` reads as a time in the home's languages and fiscal year (``reverie when``)."""
        return when.read_time(text, now, zone or self.zone, self.config.general.languages,
                              fiscal_year_start=self.config.timeparse.fiscal_year_start)

    def understood(self, query: str, *, now: datetime, zone: tzinfo, mode: str = "auto") -> RecallResult | None:
        """How ``query`` is read (its time range, the expression and the rest), without searching: what a
        screen shows for a search that was refused. None when the query itself cannot be read."""
        return self.recall.understood(query, now=now, zone=zone, mode=mode)

    def context(self, query: str | None, *, now: datetime | None = None, zone: tzinfo | None = None,
                budget: int | None = None, profile: str | SharePolicy | None = None,
                refresh: bool = True) -> ContextBlock:
        """A block for a model's prompt: the latest topic markers, confirmed memories, matching turns;
        through a sharing profile when ``profile`` names one or is a policy (denied tags win)."""
        return self.sharing.context(query, now=now, zone=zone, budget=budget, profile=profile, refresh=refresh)

    def share_check(self, profile: str, query: str, *, now: datetime | None = None,
                    limit: int | None = None) -> ShareCheck:
        """What an assistant under ``profile`` would get for ``query``, and what the same query finds
        without the profile, each item with why it is withheld (``reverie share check``). The
        memories are synced first, asking for the passphrase if need be: what is shared depends on them."""
        return self.sharing.share_check(profile, query, now=now, limit=limit)

    def as_sealed(self, items: Sequence[RecallItem]) -> dict[str, RecallItem | None]:
        """Each memory among ``items`` as its sealed record says (text, tags, review state), None for one
        whose record does not verify; the index is unsigned, so what is shown of a memory comes from here."""
        return self.sharing.as_sealed(items)

    def mark(self, text: str, now: datetime | None = None) -> Marker:
        """A topic marker: where the person is now (the one way a marker is written)."""
        return self.topics.mark(text, now)

    def curation_overdue(self, now: datetime | None = None, *, live: bool = False) -> str | None:
        """One line when a scope's weekly curation review is overdue, else None: the reminder every CLI
        command and the app's Home give, read from ``runs.jsonl`` alone (the curation service loads the
        whole engine); ``live``: with the ``[curation]`` table as ``config.toml`` holds it now."""
        from core.curate.runs import overdue_notice  # lazy: the TUI loads no core.curate before its first frame

        return overdue_notice(self.paths, self.live_config() if live else self.config, now)

    def live_config(self) -> Config:
        """The settings with the ``[curation]`` table as ``config.toml`` holds it now: scopes are added
        with ``reverie curate scope add`` while the app may be open."""
        config, path = self.config, self.paths.config
        if not path.exists():
            return config
        return dataclasses.replace(config, curation=load_config(path).curation)

    @cached_property
    def topics(self) -> Topics:
        """Topic markers: write one, read them latest first."""
        from core.workbench.topics import Topics  # lazy: core.topics, off the TUI's first paint

        return Topics(self)

    # --- integrity --------------------------------------------------------------------------------

    def verify(self, checkpoint: Checkpoint | str | None = None, *, incremental: bool = False) -> VerifyReport:
        """Check every record, the ledger chain, the sealed day logs and cold storage, against
        ``checkpoint`` (a head ``verify --checkpoint`` printed) when given; ``incremental`` (the app's
        Home) skips the ledger entries a signed verified-prefix note vouches for."""
        from core.workbench.verify import Checkpoint, verify_home  # lazy: the vault, ledger and cold storage

        if isinstance(checkpoint, str):
            checkpoint = Checkpoint.parse(checkpoint)
        # The app's Home shares the open vault: a record the counts opened is not decrypted again.
        return verify_home(self.paths, self.keys, checkpoint, incremental=incremental,
                           vault=self.vault if incremental else None)

    # --- services ---------------------------------------------------------------------------------

    @cached_property
    def access(self) -> Access:
        """Create the vault, change its passphrase, make a recovery key."""
        return Access(self)

    @cached_property
    def review(self) -> Review:
        """Capture (with the duplicate check), suggestions, accept / reject / approve, finalize, .dvmem."""
        from core.workbench.review import Review  # lazy: the vault's records and .dvmem, ~50 ms

        return Review(self)

    @cached_property
    def log(self) -> Log:
        """Ingest, follow, seal, describe a day, reindex, recent sessions."""
        from core.workbench.log import Log  # lazy: the importers, core.index and apsw, ~60 ms

        return Log(self)

    @cached_property
    def curation(self) -> Curation:
        """Scan, apply, approve/reject, restore, recover, calibrate: every scope, never deleting."""
        from core.workbench.curation_service import Curation  # lazy: the curation engine and yaml, ~80 ms

        return Curation(self)

    @cached_property
    def backups(self) -> Backups:
        """Encrypted backups of everything not derived: take, check, list, restore into an empty home."""
        from core.workbench.backups import Backups  # lazy: core.backup, ~25 ms

        return Backups(self)

    @cached_property
    def mirror(self) -> Mirror:
        """Keep a PostgreSQL + pgvector mirror in step through a sharing profile, and search it."""
        from core.workbench.mirror import Mirror  # lazy: core.mirror and core.recall, ~150 ms

        return Mirror(self)

    @cached_property
    def remote(self) -> RemoteService:
        """Several machines: remotes, the laptop's spool and shipping, the home's receiving side."""
        from core.workbench.remote import RemoteService  # lazy: core.remote, ~60 ms

        return RemoteService(self)

    @cached_property
    def recall(self) -> Recall:
        """Search and how a query reads: :meth:`search` and :meth:`understood` answer through it."""
        from core.workbench.recall import Recall  # lazy: core.recall and the time grammar, ~150 ms

        return Recall(self)

    @cached_property
    def sharing(self) -> Sharing:
        """Context blocks, answers through a sharing profile, share checks, memories as sealed."""
        from core.workbench.sharing import Sharing  # lazy: core.context and core.sharing, ~20 ms more

        return Sharing(self)
