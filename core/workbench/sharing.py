"""What a model's prompt or an assistant is given, through the workbench: the context block, a search
answer through a sharing profile, what a profile would withhold (``reverie share check``), and
memories as their sealed records say (the index is unsigned). A plain search goes without this
module: :mod:`core.workbench.recall` hands a search with a profile over to it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, tzinfo

from core.context import ContextBlock, build_context
from core.recall.model import RecallItem
from core.sharing import SealedRecords, ShareCheck, SharePolicy, check_share, shared_context, shared_search
from core.workbench.freshness import Freshness
from core.workbench.search import SearchAnswer
from core.workbench.service import Service


class Sharing(Service):
    """Context blocks, answers through a sharing profile (denied tags win), and sealed views of memories."""

    def search(self, query: str, share: SharePolicy, fresh: Freshness, *, now: datetime, zone: tzinfo,
               limit: int | None = None, mode: str = "auto") -> SearchAnswer:
        """The answer an assistant gets through ``share`` (:func:`core.sharing.shared_search`), the
        index already as fresh as ``fresh`` says."""
        shared = shared_search(self.workbench.recaller, share, query, now=now, zone=zone, limit=limit, mode=mode)
        return SearchAnswer(shared.result, fresh, shared)

    def context(self, query: str | None, *, now: datetime | None = None, zone: tzinfo | None = None,
                budget: int | None = None, profile: str | SharePolicy | None = None,
                refresh: bool = True) -> ContextBlock:
        """The latest topic markers, confirmed memories, matching turns, within the budget; through a
        sharing profile when ``profile`` names one or is a policy (denied tags win)."""
        bench = self.workbench
        if refresh:
            bench.refresh()
        zone = zone or bench.zone
        now = now or bench.now(zone=zone)
        markers = bench.topics.latest()
        if profile is None:
            return build_context(bench.recaller, query, markers=markers, now=now, zone=zone,
                                 config=self.config.context, budget=budget)
        policy = profile if isinstance(profile, SharePolicy) else SharePolicy.from_config(self.config, profile)
        return shared_context(bench.recaller, policy, query, markers=markers, now=now, zone=zone,
                              config=self.config.context, budget=budget)

    def share_check(self, profile: str, query: str, *, now: datetime | None = None,
                    limit: int | None = None) -> ShareCheck:
        """What an assistant under ``profile`` would get for ``query``, and what the same query finds
        without it; the memories are synced first, asking for the passphrase if need be."""
        bench = self.workbench
        policy = SharePolicy.from_config(self.config, profile)
        if bench.has_vault:
            bench.unlock()
        bench.refresh()
        return check_share(bench.recaller, policy, query, now=now or bench.now(), zone=bench.zone, limit=limit)

    def as_sealed(self, items: Sequence[RecallItem]) -> dict[str, RecallItem | None]:
        """Each memory among ``items`` as its sealed record says, None for one whose record does not verify."""
        records = SealedRecords(lambda: self.workbench.vault)
        return {item.id: records.as_sealed(item) for item in items if item.kind == "memory"}
