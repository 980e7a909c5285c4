"""Recall through the workbench: the one search, after the freshness policy, and how a query reads
without searching. :class:`~core.workbench.home.Workbench` offers both as its own methods and answers
them here; a search through a sharing profile goes on to :mod:`core.workbench.sharing`."""

from __future__ import annotations

from datetime import datetime, tzinfo
from typing import TYPE_CHECKING

from core.errors import ReverieError
from core.recall import analyze
from core.recall.model import RecallResult
from core.workbench.search import SearchAnswer
from core.workbench.service import Service

if TYPE_CHECKING:
    from core.index import Filters
    from core.sharing import SharePolicy


class Recall(Service):
    """Search and how a query reads, over the workbench's recaller."""

    def search(self, query: str, *, now: datetime | None = None, zone: tzinfo | None = None,
               limit: int | None = None, mode: str = "auto", filters: Filters | None = None,
               refresh: bool = True, share: SharePolicy | None = None) -> SearchAnswer:
        """The freshness policy, then :meth:`core.recall.Recaller.search`; with ``share``, the answer an
        assistant gets through that sharing profile (:meth:`core.workbench.sharing.Sharing.search`)."""
        bench = self.workbench
        fresh = bench.refresh() if refresh else bench.freshness()
        zone = zone or bench.zone
        now = now or bench.now(zone=zone)
        if share is not None:
            return bench.sharing.search(query, share, fresh, now=now, zone=zone, limit=limit, mode=mode)
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
