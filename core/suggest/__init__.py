"""Local suggesters: suggestions for a draft that need no network and no API key.

    run = workbench.review.run_suggesters(draft)            # core.workbench: attached and saved
    run.draft, run.added, run.notes

Each suggester has its own ``source``, ``model`` and ``process_version`` and a confidence that
means something (each module says how it is computed and what its default threshold is):

- ``local:dates`` (:mod:`.dates`): time expressions in the text → ``occurred_at``, through the
  temporal backbone, read as of the moment the draft was captured;
- ``local:tags`` (:mod:`.tags`): tags of the most similar confirmed memories, confidence from the
  embedding similarity;
- ``local:people`` and ``local:places`` (:mod:`.entities`): people and places the person confirmed
  in earlier memories that appear in the text.

They only suggest: the review workflow decides. Precision of each at its default threshold, on a set
of drafts with known answers: ``tests/bench/bench_assist.py``.
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
