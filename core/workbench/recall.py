"""Recall through the workbench: the one search (after the freshness policy), how a query reads, the
context block for a model's prompt, what a sharing profile lets an assistant see, and memories as
their sealed records say. :class:`~core.workbench.home.Workbench` offers each of these as its own
method (``search``, ``context``…) and answers it here."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING

from core.context import ContextBlock, build_context
from core.errors import ReverieError
from core.recall import analyze
from core.recall.model import RecallItem, RecallResult
from core.sharing import SealedRecords, ShareCheck, SharePolicy, check_share, shared_context, shared_search
from core.workbench.search import SearchAnswer
from core.workbench.service import Service

if TYPE_CHECKING:
    from core.index import Filters


class Recall(Service):
    """Search, how a query reads, context blocks and sharing checks, each over the workbench's recaller."""

    def search(self, query: str, *, now: datetime | None = None, zone: tzinfo | None = None,
               limit: int | None = None, mode: str = "auto", filters: Filters | None = None,
               refresh: bool = True, share: SharePolicy | None = None) -> SearchAnswer:
        """The freshness policy, then :meth:`core.recall.Recaller.search`; with ``share``, the answer an
        assistant gets through that sharing profile (:func:`core.sharing.shared_search`)."""
        bench = self.workbench
        fresh = bench.refresh() if refresh else bench.freshness()
        zone = zone or bench.zone
        now = now or bench.now(zone=zone)
        if share is not None:
            shared = shared_search(bench.recaller, share, query, now=now, zone=zone, limit=limit, mode=mode)
            return SearchAnswer(shared.result, fresh, shared)
        result = bench.recaller.search(query, now=now, zone=zone, limit=limit, mode=mode, filters=filters)
        return SearchAnswer(result, fresh)

    def understood(self, query: str, *, now: datetime, zone: tzinfo, mode: str = "auto") -> RecallResult | None:
        """How ``query`` is read (its time range, the expression and the rest), without searching. None
        when the query itself cannot be read."""
        try:
            plan = analyze(query, now, zone, self.config.general.languages,
                           fiscal_year_start=self.config.timeparse.fiscal_year_start)
        except ReverieError:
            return None
        return RecallResult(range=plan.range, expression=plan.expression, rest=plan.rest, mode=mode)

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
