"""What the search screen runs in its worker threads. Nothing here imports Textual.

One :class:`SearchBackend` per search screen holds one :class:`~core.recall.Recaller` (so the
embedding model loads once, on first semantic use, and never at start-up), brings new turns and the
vault's memories into the index (exact index only: cheap and incremental), and builds vectors when
the person asks for semantic or hybrid search and the index lacks them. Every method blocks; the
screen calls them from ``@work(thread=True)`` workers and receives what they return in a message.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING

from core.config import Config, EmbeddingConfig
from core.errors import ReverieError
from core.index import Filters, HomeDayLogs, Reindexer
from core.paths import HomePaths
from core.recall import RecallResult
from core.turns import Turn

if TYPE_CHECKING:
    from core.embed import Embedder
    from core.index import IndexStatus, MemoryDoc, ReindexReport
    from core.recall import Recaller
    from core.vault.store import MemoryVault

MODES = ("auto", "exact", "semantic", "hybrid")
Progress = Callable[[str, int, int], None]  # (phase "files" | "embed", done, total)
Status = Callable[[str], None]  # one line for the person ("loading the embedding model…")
ShouldStop = Callable[[], bool]


def default_embedder(config: EmbeddingConfig) -> Embedder:
    """The configured embedding model, not loaded yet (tests replace this with a model-free one)."""
    from core.embed import make_embedder

    return make_embedder(config)


@dataclass(frozen=True)
class SearchFilters:
    """What the person narrowed the search to: memory tags, a turn role, a session."""

    tags: tuple[str, ...] = ()
    role: str = ""
    session: str = ""

    @property
    def active(self) -> bool:
        return bool(self.tags or self.role or self.session)

    def to_core(self) -> Filters:
        return Filters(
            tags=self.tags,
            roles=(self.role,) if self.role else (),
            sessions=(self.session,) if self.session else (),
        )


@dataclass(frozen=True)
class SearchRequest:
    seq: int  # newer requests have larger numbers; an answer to an older one is dropped
    query: str
    mode: str
    filters: SearchFilters
    now: datetime
    zone: tzinfo
    limit: int


@dataclass(frozen=True)
class SearchAnswer:
    request: SearchRequest
    result: RecallResult | None  # with an error: how the query was read, without results (or None)
    error: str | None = None  # the query could not be run as asked (one line for the person)


@dataclass(frozen=True)
class IndexState:
    """What the index holds after a catch-up or a vector build."""

    turns: int
    memories: int
    vectors: int
    pending_vectors: int
    model: str | None
    turns_added: int = 0
    changed: bool = False  # turns or memories came, went or changed: a search may answer differently
    stopped: bool = False  # a vector build was cancelled (it resumes where it stopped)

    @classmethod
    def of(cls, status: IndexStatus, report: ReindexReport | None = None, stopped: bool = False) -> IndexState:
        return cls(
            turns=status.turns,
            memories=status.memories,
            vectors=status.vectors,
            pending_vectors=status.pending_vectors,
            model=status.model,
            turns_added=report.turns_added if report is not None else 0,
            changed=report is not None and changed_anything(report),
            stopped=stopped,
        )


def changed_anything(report: ReindexReport) -> bool:
    """Whether a reindex added or removed turns, or added, changed or removed memories."""
    synced = report.memories
    memories = synced is not None and bool(synced.added or synced.updated or synced.removed)
    return bool(report.turns_added or report.turns_removed) or memories


class SearchBackend:
    """The index, the recaller and the embedding model of one search screen (thread-safe)."""

    def __init__(self, paths: HomePaths, config: Config, vault: MemoryVault, zone: tzinfo) -> None:
        self.paths = paths
        self.config = config
        self.vault = vault
        self.zone = zone
        self._recaller: Recaller | None = None
        self._embedder: Embedder | None = None
        self._vault_seen: tuple[tuple[str, int, int], ...] | None = None  # the vault as last synced
        self._open_lock = threading.Lock()
        self._model_lock = threading.Lock()  # held while the model loads: searches that need no model go on
        self.on_status: Status = lambda line: None  # set by the screen: where model loading is said

    # --- the pieces, opened on first need ----------------------------------------------------------

    def recaller(self) -> Recaller:
        with self._open_lock:
            if self._recaller is None:
                from core.recall import Recaller

                self._recaller = Recaller.open(self.paths, self.config, embedder=self.embedder)
            return self._recaller

    def embedder(self) -> Embedder:
        """The embedding model, loaded here (once) so the screen can say that it is loading."""
        with self._model_lock:
            if self._embedder is None:
                embedder = default_embedder(self.config.embedding)
                self.on_status(f"Loading the embedding model {embedder.name} (first semantic use)…")
                started = time.perf_counter()
                _ = embedder.dim  # loads the model
                self.on_status(f"Embedding model loaded in {time.perf_counter() - started:.1f} s")
                self._embedder = embedder
            return self._embedder

    def embedder_name(self) -> str:
        """The configured model's name, without loading it."""
        loaded = self._embedder
        return loaded.name if loaded is not None else default_embedder(self.config.embedding).name

    def close(self) -> None:
        with self._open_lock:
            if self._recaller is not None:
                self._recaller.close()
                self._recaller = None

    # --- work for the workers ---------------------------------------------------------------------

    def memory_docs(self) -> list[MemoryDoc]:
        from core.recall import vault_docs

        return vault_docs(self.vault, self.zone)

    def vault_fingerprint(self) -> tuple[tuple[str, int, int], ...]:
        """Names, sizes and times of the vault's files and the ledger: cheap to take, and it changes
        whenever a memory is finalized, added, replaced or moved."""
        files = [*self.paths.vault.glob("*.json"), self.paths.ledger]
        return tuple(sorted((f.name, f.stat().st_size, f.stat().st_mtime_ns) for f in files if f.exists()))

    def reindexer(self, *, embed: bool) -> Reindexer:
        """A reindex of the day logs; the vault's memories are read (decrypted) only when it changed."""
        index = self.recaller().index
        seen = self.vault_fingerprint()
        changed, self._vault_seen = seen != self._vault_seen, seen
        return Reindexer(
            index,
            HomeDayLogs(self.paths),
            embedder=self.embedder if embed else None,
            memory_source=self.memory_docs if changed else None,
            batch_size=self.config.embedding.batch_size,
        )

    def state(self) -> IndexState:
        return IndexState.of(self.recaller().index.status())

    def catch_up(self, should_stop: ShouldStop | None = None) -> IndexState:
        """New turns from the day logs and the vault's memories into the exact index (no model)."""
        try:
            with self.reindexer(embed=False) as reindexer:
                report = reindexer.run(embed=False, should_stop=should_stop)
        except BaseException:
            self._vault_seen = None  # read the memories again next time
            raise
        return IndexState.of(self.recaller().index.status(), report)

    def needs_vectors(self) -> bool:
        """Whether semantic search would miss something: no vectors, some missing, another model's."""
        state = self.state()
        if state.turns + state.memories == 0:
            return False
        return state.vectors == 0 or state.pending_vectors > 0 or state.model != self.embedder_name()

    def build_vectors(self, progress: Progress | None = None, should_stop: ShouldStop | None = None) -> IndexState:
        """Give every turn and memory a vector (loads the model); resumable when stopped."""
        try:
            with self.reindexer(embed=True) as reindexer:
                report = reindexer.run(embed=True, progress=progress, should_stop=should_stop)
        except BaseException:
            self._vault_seen = None
            raise
        stopped = bool(should_stop and should_stop())
        return IndexState.of(self.recaller().index.status(), report, stopped=stopped)

    def search(self, request: SearchRequest) -> SearchAnswer:
        """Run one query. A query the recaller refuses (a mode without vectors, a query too long)
        is an answer with ``error`` set, not an exception: the screen shows it on its status line."""
        try:
            result = self.recaller().search(
                request.query,
                now=request.now,
                zone=request.zone,
                limit=request.limit,
                mode=request.mode,
                filters=request.filters.to_core(),
            )
        except ReverieError as exc:
            return SearchAnswer(request, self.understood(request), error=str(exc))
        return SearchAnswer(request, result)

    def understood(self, request: SearchRequest) -> RecallResult | None:
        """How the query was read (its range and the rest), without results: for an answer whose search
        was refused, so the screen still shows the range. ``None`` if the query itself is unreadable."""
        from core.recall import analyze

        try:
            plan = analyze(request.query, request.now, request.zone, self.config.general.languages)
        except ReverieError:
            return None
        return RecallResult(range=plan.range, expression=plan.expression, rest=plan.rest, mode=request.mode)

    def session_turns(self, turn_id: str, before: int, after: int) -> list[Turn]:
        """The turn with up to ``before`` earlier and ``after`` later turns of its session, in order."""
        return self.recaller().index.session_context(turn_id, before=before, after=after)
