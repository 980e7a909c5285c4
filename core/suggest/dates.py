"""``occurred_at`` from the time expressions in a draft, through the temporal backbone.

The text is read as of the moment the draft was captured ("yesterday" in a draft written on the 25th
is the 24th), in the person's timezone and languages, as search reads it
(``SuggestContext.time_expressions``, with the backbone's own guards: "may" the verb, durations). The
suggested value is the start of the range the expression means (midnight for a day, 18:00 for a
night); how its confidence is computed: :class:`DateSuggester`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from core.suggest.cues import mentions_future
from core.suggest.suggester import Proposal, SuggestContext
from core.timeparse import TimeMatch
from core.timeparse.model import instant
from core.vault.review import StoredDraft

GRAIN_CONFIDENCE = {"hour": 0.92, "part_of_day": 0.88, "day": 0.85, "span": 0.45, "week": 0.40,
                    "month": 0.30, "year": 0.20}
FUTURE_FACTOR = 0.4
AMBIGUOUS_FACTOR = 0.8
FUTURE_TALK_FACTOR = 0.5


@dataclass
class DateSuggester:
    """``occurred_at`` with a confidence that the range's start is the right moment at the grain a
    person would confirm: by grain, an hour .92, a part of a day .88, a day .85, a span ("since
    Monday") .45, a week .40, a month .30, a year .20 (a memory rarely happened on the first of its
    month); times 0.4 when the range starts after the capture (a plan, not something that happened);
    times 0.5 when the text speaks of the future (will, going to, 예정, 予定…: "Kate is coming over on
    Saturday" names a Saturday the backbone reads as the last one); times 0.8 when the text names other,
    different days. The default threshold, 0.6, attaches only a past day or finer, unambiguous or
    nearly."""

    name: str = "dates"
    source: str = "local:dates"
    process_version: str = "dates-1"
    threshold: float = 0.6

    def model_name(self, ctx: SuggestContext) -> str:
        return "reverie-timeparse"

    def propose(self, draft: StoredDraft, ctx: SuggestContext) -> list[Proposal]:
        now = ctx.written_at(draft)
        matches = ctx.time_expressions(draft)
        if not matches:
            return []
        days = {m.range.start.date() for m in matches}
        scored = [(self._confidence(m, now, len(days) > 1), m) for m in matches]
        best_conf, best = max(scored, key=lambda pair: pair[0])  # max keeps the first of equals
        if mentions_future(draft.content):
            best_conf *= FUTURE_TALK_FACTOR
        value = best.range.start.isoformat()
        why = f"“{best.expression}” means {best.range.describe(now)} ({best.range.grain.replace('_', ' ')})"
        return [Proposal("occurred_at", value, round(best_conf, 3), why, attach=best_conf >= self.threshold)]

    @staticmethod
    def _confidence(match: TimeMatch, now: datetime, ambiguous: bool) -> float:
        confidence = GRAIN_CONFIDENCE.get(match.range.grain, 0.2)
        if instant(match.range.start) > instant(now):
            confidence *= FUTURE_FACTOR
        if ambiguous:
            confidence *= AMBIGUOUS_FACTOR
        return confidence
