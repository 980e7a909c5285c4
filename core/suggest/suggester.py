"""What a local suggester is, what it proposes, and what it may look at."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING, Any, Protocol

import core.embed
from core.config import Config
from core.errors import ReverieError
from core.paths import HomePaths
from core.timeparse import find_time_expressions
from core.turns import parse_ts
from core.vault.review import StoredDraft

if TYPE_CHECKING:
    from core.embed.protocol import Embedder
    from core.index import SearchIndex
    from core.timeparse import TimeMatch
    from core.vault.records import MemoryRecord
    from core.vault.store import MemoryStore


class SuggestError(ReverieError):
    """Local suggesters cannot run on this draft (not open, unknown suggester)."""


@dataclass(frozen=True)
class Proposal:
    """One value a suggester found. ``attach`` is False for what stays under the suggester's threshold
    (reported by ``reverie suggest --all`` and measured by the bench, never added to the draft).
    ``why`` is one line for the person."""

    field_name: str
    value: Any
    confidence: float
    why: str
    attach: bool = True


class Suggester(Protocol):
    name: str  # short name: dates, tags, people, places
    source: str  # the suggestion's source, e.g. "local:dates"
    process_version: str
    threshold: float  # proposals below this confidence are not attached (``Proposal.attach``)

    def model_name(self, ctx: SuggestContext) -> str:
        """The suggestion's ``model`` (a rule set, or the embedding model used)."""
        ...

    def propose(self, draft: StoredDraft, ctx: SuggestContext) -> list[Proposal]:
        """Every proposal with its confidence, including those under the threshold."""
        ...


@dataclass
class SuggestContext:
    """What suggesters may read: the vault (confirmed memories), settings, the home's index
    (``memory_index``), and an embedding model (``embedder``, or the one ``config.embedding`` names, made
    on first need)."""

    vault: MemoryStore
    config: Config
    paths: HomePaths
    embedder: Embedder | Callable[[], Embedder] | None = None
    # The home's index with the vault's memories current and embedded by the model (the workbench
    # provides it); without it, suggesters read the index as it is.
    memory_index: Callable[[], SearchIndex] | None = None
    notes: list[str] = field(default_factory=list)  # why a suggester said nothing (no vectors…)
    _confirmed: list[MemoryRecord] | None = None
    _model: Embedder | None = None

    @property
    def zone(self) -> tzinfo:
        return self.config.zone()

    def written_at(self, draft: StoredDraft) -> datetime:
        """When the draft was captured, in the person's timezone: "yesterday" is relative to it."""
        return parse_ts(draft.created_at).astimezone(self.zone)

    def time_expressions(self, draft: StoredDraft) -> list[TimeMatch]:
        """The time expressions of the draft's text as of :meth:`written_at`, read with the home's
        settings as search and ``reverie when`` read them (timezone, languages, the month "FY2023"
        starts in: ``timeparse.fiscal_year_start``). Every suggester reads dates through here."""
        return find_time_expressions(draft.content, self.written_at(draft), self.zone, self.config.general.languages,
                                     fiscal_year_start=self.config.timeparse.fiscal_year_start)

    def confirmed(self) -> list[MemoryRecord]:
        """Memories the person approved through the review workflow (read once per run)."""
        if self._confirmed is None:
            self._confirmed = [m for m in self.vault.list_memories() if m.reviewed]
        return self._confirmed

    def embedding_model(self) -> Embedder:
        if self._model is None:
            source = self.embedder
            if source is None:
                self._model = core.embed.make_embedder(self.config.embedding)
            elif callable(source) and not hasattr(source, "embed"):
                self._model = source()
            else:
                self._model = source  # type: ignore[assignment]
        return self._model
