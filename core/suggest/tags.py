"""Tags from the most similar confirmed memories (embedding neighbours in the search index).

The draft is embedded with the index's model and compared with the vectors of the memories the person
approved (the vault's memories are brought into the index first, as ``reverie search`` does); how a
tag's confidence is computed: :class:`TagSuggester`. Without vectors in the index, or with vectors of
another model, the suggester says so in the run's notes and proposes nothing.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

from core.index import Filters, SearchIndex
from core.suggest.suggester import Proposal, SuggestContext
from core.tags import normalize_tag
from core.vault.review import StoredDraft


@dataclass
class TagSuggester:
    """Among the ``k`` nearest confirmed memories with cosine of at least ``min_similarity``, each tag
    they carry gets ``confidence = nearest × (0.5 + 0.5 × support)``: ``nearest`` the cosine of the
    closest neighbour carrying it, ``support`` the share of the neighbours' similarity that carries it
    (a tag on one very close memory, or on most of several fairly close ones, scores high). Tags already
    on the draft are left out; one ``tags`` suggestion lists those that clear ``threshold`` (at most
    ``max_tags``, best first), its confidence the lowest of theirs."""

    name: str = "tags"
    source: str = "local:tags"
    process_version: str = "tags-1"
    threshold: float = 0.5
    k: int = 8
    min_similarity: float = 0.25
    max_tags: int = 5

    def model_name(self, ctx: SuggestContext) -> str:
        return ctx.embedding_model().name

    def neighbours(self, draft: StoredDraft, ctx: SuggestContext) -> list[tuple[float, tuple[str, ...]]]:
        """(cosine, tags) of the nearest confirmed memories, closest first."""
        embedder = ctx.embedding_model()
        shared = ctx.memory_index() if ctx.memory_index is not None else None
        with contextlib.nullcontext(shared) if shared is not None else SearchIndex.open(ctx.paths) as index:
            model = index.vector_model()
            if model is None:
                ctx.notes.append("tags: the index holds no vectors yet (run `reverie reindex`)")
                return []
            if model.name != embedder.name:
                ctx.notes.append(f"tags: the index holds vectors of {model.name}, not {embedder.name} "
                                 "(run `reverie reindex`)")
                return []
            vector = embedder.embed([draft.content])[0]
            hits = index.vector_search(vector, k=self.k, filters=Filters(kinds=("memory",), reviewed=True))
            docs = {doc.id: doc for doc in index.get_memories([hit.id for hit in hits])}
        return [(float(hit.score), docs[hit.id].tags) for hit in hits
                if hit.id in docs and hit.score >= self.min_similarity]

    def propose(self, draft: StoredDraft, ctx: SuggestContext) -> list[Proposal]:
        near = self.neighbours(draft, ctx)
        if not near:
            return []
        total = sum(score for score, _ in near)
        have = {normalize_tag(t) for t in draft.tags}
        spelled: dict[str, str] = {}
        nearest: dict[str, float] = {}
        weight: dict[str, float] = {}
        for score, tags in near:
            for tag in dict.fromkeys(tags):
                key = normalize_tag(tag)
                if key in have:
                    continue
                spelled.setdefault(key, tag)
                nearest[key] = max(nearest.get(key, 0.0), score)
                weight[key] = weight.get(key, 0.0) + score
        scored = sorted(((nearest[k] * (0.5 + 0.5 * weight[k] / total), k) for k in nearest), reverse=True)
        kept = [(conf, key) for conf, key in scored if conf >= self.threshold][: self.max_tags]
        proposals = []
        if kept:
            value = [spelled[key] for _, key in kept]
            why = "on similar confirmed memories: " + ", ".join(f"{spelled[k]} {c:.2f}" for c, k in kept)
            proposals.append(Proposal("tags", value, round(min(c for c, _ in kept), 3), why))
        shown = {key for _, key in kept}
        for conf, key in scored:
            if key not in shown:
                proposals.append(Proposal("tags", [spelled[key]], round(min(conf, 1.0), 3),
                                          "on a less similar confirmed memory", attach=False))
        return proposals
