"""The turns a session view shows, read from the workbench's index (nothing here imports Textual).

The search screen hands the session view its own backend; the topics screen hands it an
:class:`IndexTurns`, which first brings the log's new turns into the index (the workbench's
freshness rule), then finds the conversation at a marker's time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from core.turns import Turn

if TYPE_CHECKING:
    from core.workbench import Workbench


class TurnSource(Protocol):
    def session_turns(self, turn_id: str, before: int, after: int) -> list[Turn]:
        """The turn with up to ``before`` earlier and ``after`` later turns of its session, in order."""
        ...


@dataclass(frozen=True)
class SessionAbout:
    """What a session is, beside its id: the importer's header (the project) and the first prompt."""

    header: str | None = None
    first_prompt: str | None = None


class IndexTurns:
    """Turns straight from the index, for screens that are not the search screen."""

    def __init__(self, workbench: Workbench) -> None:
        self.workbench = workbench

    def turn_at(self, ts: str) -> Turn | None:
        """The conversation at ``ts``: the latest text turn at or before it, else the first after."""
        return self.workbench.log.turn_at(ts)

    def session_turns(self, turn_id: str, before: int, after: int) -> list[Turn]:
        return self.workbench.log.session_turns(turn_id, before, after)


def session_about(workbench: Workbench, session: str) -> SessionAbout:
    """The project header and first prompt the index keeps for ``session`` (empty when it has none)."""
    found = workbench.log.session_summary(session)
    return SessionAbout(found.header, found.first_prompt) if found is not None else SessionAbout()
