"""Local suggesters: suggestions for a draft that need no network and no API key.

    run = workbench.review.run_suggesters(draft)            # core.workbench: attached and saved
    run.draft, run.added, run.notes

``local:dates`` (:mod:`.dates`: time expressions → ``occurred_at``), ``local:tags`` (:mod:`.tags`: tags
of the most similar confirmed memories) and ``local:people`` / ``local:places`` (:mod:`.entities`:
names the person confirmed before). Each has its own ``source``, ``model`` and ``process_version`` and a
confidence that means something (each suggester's class says how it is computed and its default
threshold). They only suggest: the review workflow decides. Precision at the default thresholds:
``tests/bench/bench_assist.py``.
"""

from core.suggest.runner import (
    SUGGESTER_NAMES,
    FoundProposal,
    SuggestRun,
    collect,
    default_suggesters,
    pick_suggesters,
    suggest_draft,
    suggestion_id,
)
from core.suggest.suggester import Proposal, SuggestContext, Suggester, SuggestError

__all__ = [
    "SUGGESTER_NAMES",
    "FoundProposal",
    "Proposal",
    "SuggestContext",
    "SuggestError",
    "SuggestRun",
    "Suggester",
    "collect",
    "default_suggesters",
    "pick_suggesters",
    "suggest_draft",
    "suggestion_id",
]
