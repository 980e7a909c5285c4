"""Running the local suggesters on one draft and attaching what clears each threshold.

Suggestions only: the draft stays open and the person accepts, edits or rejects each one. A run is
idempotent: a suggestion's id is derived from its source, field and value, so running the suggesters
again on the same draft attaches nothing twice. A field the person already decided is left alone.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from core.config import Config
from core.frozen import thaw
from core.paths import HomePaths
from core.suggest.dates import DateSuggester
from core.suggest.entities import PeopleSuggester, PlaceSuggester
from core.suggest.suggester import Proposal, SuggestContext, Suggester, SuggestError
from core.suggest.tags import TagSuggester
from core.vault.review import StoredDraft, Suggestion

if TYPE_CHECKING:
    from core.embed.protocol import Embedder
    from core.index import SearchIndex
    from core.vault.store import MemoryStore


def default_suggesters() -> list[Suggester]:
    return [DateSuggester(), TagSuggester(), PeopleSuggester(), PlaceSuggester()]


SUGGESTER_NAMES = ("dates", "tags", "people", "places")


def pick_suggesters(names: Sequence[str] = ()) -> list[Suggester]:
    """The suggesters named (all by default); an unknown name is a one-line error."""
    every = default_suggesters()
    if not names:
        return every
    by_name = {s.name: s for s in every}
    for name in names:
        if name not in by_name:
            raise SuggestError(f"suggester: unknown {name!r} (known: {', '.join(SUGGESTER_NAMES)})")
    return [by_name[name] for name in dict.fromkeys(names)]


@dataclass(frozen=True)
class FoundProposal:
    """One suggester's proposal with the provenance a suggestion made from it carries."""

    suggester: str
    source: str
    model: str
    process_version: str
    proposal: Proposal


@dataclass
class SuggestRun:
    draft: StoredDraft
    added: list[Suggestion] = field(default_factory=list)
    found: list[FoundProposal] = field(default_factory=list)  # every proposal, attached or not
    notes: list[str] = field(default_factory=list)


def suggestion_id(source: str, field_name: str, value: object) -> str:
    body = json.dumps([source, field_name, thaw(value)], ensure_ascii=False, sort_keys=True)
    return f"{source.replace(':', '-')}-{hashlib.sha256(body.encode('utf-8')).hexdigest()[:16]}"


def collect(draft: StoredDraft, ctx: SuggestContext, suggesters: Sequence[Suggester]) -> list[FoundProposal]:
    """Every proposal of every suggester (nothing is attached). A suggester that fails is noted and
    the others still run."""
    found: list[FoundProposal] = []
    for suggester in suggesters:
        try:
            proposals = suggester.propose(draft, ctx)
            model = suggester.model_name(ctx) if proposals else ""
        except Exception as exc:  # one suggester's failure (a missing model…) must not stop the others
            ctx.notes.append(f"{suggester.name}: {' '.join(str(exc).split()) or type(exc).__name__}")
            continue
        found.extend(FoundProposal(suggester.name, suggester.source, model, suggester.process_version, p)
                     for p in proposals)
    return found


def attach(draft: StoredDraft, found: Sequence[FoundProposal]) -> tuple[StoredDraft, list[Suggestion]]:
    """``draft`` with the attachable proposals added (not saved), and the suggestions added."""
    decided = set(draft.resolved_fields())
    present = {s.suggestion_id for s in draft.suggestions}
    added: list[Suggestion] = []
    for item in found:
        p = item.proposal
        if not p.attach or p.field_name in decided:
            continue
        sid = suggestion_id(item.source, p.field_name, p.value)
        if sid in present:
            continue
        draft = draft.add_suggestion(p.field_name, p.value, item.source, model=item.model,
                                     process_version=item.process_version, confidence=p.confidence,
                                     suggestion_id=sid)
        present.add(sid)
        added.append(draft.suggestions[-1])
    return draft, added


def suggest_draft(vault: MemoryStore, draft: StoredDraft, config: Config, paths: HomePaths, *,
                  suggesters: Sequence[Suggester] | None = None,
                  embedder: Embedder | Callable[[], Embedder] | None = None, save: bool = True,
                  memory_index: Callable[[], SearchIndex] | None = None) -> SuggestRun:
    """Run the local suggesters on an open draft; with ``save`` the draft is stored when anything
    was added. ``embedder`` replaces the model ``config.embedding`` names (tests, benchmarks)."""
    if draft.state != "open":
        raise SuggestError(f"draft {draft.draft_id!r} is {draft.state}: suggestions go to open drafts only")
    ctx = SuggestContext(vault=vault, config=config, paths=paths, embedder=embedder, memory_index=memory_index)
    found = collect(draft, ctx, default_suggesters() if suggesters is None else suggesters)
    updated, added = attach(draft, found)
    if added and save:
        vault.save_draft(updated)
    return SuggestRun(updated, added, found, ctx.notes)
