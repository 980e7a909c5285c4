"""What the search screen runs in its worker threads. Nothing here imports Textual.

One :class:`SearchBackend` per search screen adapts the app's :class:`~core.workbench.Workbench`:
the workbench's freshness policy brings new turns and the vault's memories into the index, its
recaller and model (loaded once, on first semantic use, never at start-up) answer, and vectors are
built when the person asks for semantic or hybrid search and the index lacks them. Every method
blocks; the screen calls them from ``@work(thread=True)`` workers and receives what they return in a
message.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING

from core.errors import ReverieError
from core.turns import Turn
from core.workbench.freshness import Freshness
from core.workbench.search import SEARCH_MODES
from core.workbench.types import Filters, RecallResult

if TYPE_CHECKING:
    from core.index import ReindexReport
    from core.workbench import Workbench

MODES = SEARCH_MODES
Progress = Callable[[str, int, int], None]  # (phase "files" | "embed", done, total)
ShouldStop = Callable[[], bool]


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
class SearchReply:
    """The screen's reply to one request: the recall result, or why the query could not be run (the
    workbench's :class:`~core.workbench.SearchAnswer` is what a search returns)."""

    request: SearchRequest
    result: RecallResult | None  # with an error: how the query was read, without results (or None)
    error: str | None = None  # the query could not be run as asked (one line for the person)
    notes: tuple[str, ...] = ()  # how complete the index was (behind the log, vectors missing)


def changed_anything(report: ReindexReport) -> bool:
    """Whether a reindex added or removed turns, or added, changed or removed memories."""
    synced = report.memories
    memories = synced is not None and bool(synced.added or synced.updated or synced.removed)
    return bool(report.turns_added or report.turns_removed) or memories


class SearchBackend:
    """The search screen's view of the workbench: catch-up, vectors, queries (thread-safe: the
    workbench opens the index, the recaller and the model once, under its locks)."""

    def __init__(self, workbench: Workbench) -> None:
        self.workbench = workbench

    def close(self) -> None:
        """Nothing to close: the workbench (and its index) lives as long as the app."""

    # --- work for the workers ---------------------------------------------------------------------

    def state(self) -> Freshness:
        return Freshness.of(self.workbench.index.status())

    def catch_up(self, should_stop: ShouldStop | None = None) -> Freshness:
        """New turns from the day logs and the vault's memories into the exact index (no model)."""
        fresh = self.workbench.refresh()
        changed = bool(fresh.caught_up_turns) or bool(fresh.memories_synced)
        return Freshness.of(self.workbench.index.status(), caught_up_turns=fresh.caught_up_turns, changed=changed)

    def needs_vectors(self) -> bool:
        """Whether semantic search would miss something: no vectors, some missing, another model's."""
        state = self.state()
        if state.turns + state.memories == 0:
            return False
        return state.vectors == 0 or state.pending_vectors > 0 or state.model != self.workbench.embedder_name()

    def build_vectors(self, progress: Progress | None = None, should_stop: ShouldStop | None = None) -> Freshness:
        """Give every turn and memory a vector (loads the model); resumable when stopped."""
        report = self.workbench.log.reindex(embed=True, progress=progress, should_stop=should_stop)
        stopped = bool(should_stop and should_stop())
        return Freshness.of(self.workbench.index.status(), caught_up_turns=report.turns_added,
                            changed=changed_anything(report), stopped=stopped)

    def search(self, request: SearchRequest) -> SearchReply:
        """Run one query. A query the recaller refuses (a mode without vectors, a query too long)
        is an answer with ``error`` set, not an exception: the screen shows it on its status line."""
        try:
            found = self.workbench.search(request.query, now=request.now, zone=request.zone,
                                          limit=request.limit, mode=request.mode,
                                          filters=request.filters.to_core(), refresh=False)
        except ReverieError as exc:
            return SearchReply(request, self.understood(request), error=str(exc))
        return SearchReply(request, found.result, notes=tuple(found.index_notes))

    def understood(self, request: SearchRequest) -> RecallResult | None:
        """How the query was read (its range and the rest), without results: for an answer whose search
        was refused, so the screen still shows the range. ``None`` if the query itself is unreadable."""
        return self.workbench.understood(request.query, now=request.now, zone=request.zone, mode=request.mode)

    def session_turns(self, turn_id: str, before: int, after: int) -> list[Turn]:
        """The turn with up to ``before`` earlier and ``after`` later turns of its session, in order."""
        return self.workbench.index.session_context(turn_id, before=before, after=after)
