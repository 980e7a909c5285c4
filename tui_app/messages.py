"""Every message the app's workers post: small dataclasses, one place.

A worker runs the blocking work (unlock, storage, crypto) in a thread and posts one of these to its
screen; the handler runs on the app's thread and is the only code that changes what the screen
shows. Messages bubble, so :class:`Unlocked` reaches the app from whichever gate screen posted it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from core.vault.records import MemoryRecord
    from core.vault.store import MemoryStore
    from core.workbench import CaptureOutcome
    from core.workbench.types import StoredDraft
    from tui_app.views.data import HomeSummary, MemoryDetail, MemoryRow
    from tui_app.views.imports import FoundSource
    from tui_app.views.turns import SessionAbout


@dataclass
class Unlocked(Message):
    """The passphrase opened (or created) the vault; the app starts a session on it."""

    vault: MemoryStore
    created: bool = False


@dataclass
class UnlockFailed(Message):
    """The passphrase was refused; nothing was written. ``reason`` is one line for the person."""

    reason: str


@dataclass
class HomeLoaded(Message):
    summary: HomeSummary  # the counts; ``verification`` None until :class:`HomeVerified`
    stamp: tuple[object, ...] | None = None  # the home's stamp, taken before this load read (first load)


@dataclass
class HomeVerified(Message):
    """The home's verification, added to the counts it was started for (``base``)."""

    base: HomeSummary
    summary: HomeSummary


@dataclass
class InterruptedCompleted(Message):
    """Finalizations a crash had interrupted were completed at unlock (one line each)."""

    lines: list[str]


@dataclass
class DraftsLoaded(Message):
    drafts: list[StoredDraft]


@dataclass
class DraftLoaded(Message):
    draft: StoredDraft


@dataclass
class DraftDecided(Message):
    """A decision or the approval was stored; ``note`` says what, for the person (the error a stale
    save raises is :class:`core.errors.DraftChanged`)."""

    draft: StoredDraft
    note: str


@dataclass
class DraftFinalized(Message):
    draft: StoredDraft
    memory: MemoryRecord


@dataclass
class CaptureDone(Message):
    """The workbench's capture finished: a draft, a cancellation, or a near duplicate to choose about."""

    content: str
    tags: list[str]
    outcome: CaptureOutcome


@dataclass
class MemoriesLoaded(Message):
    rows: list[MemoryRow]
    problems: list[str]


@dataclass
class MemoryLoaded(Message):
    detail: MemoryDetail


# --- curation and cold storage ------------------------------------------------------------------------

if TYPE_CHECKING:
    from core.curate.cold import ColdItem
    from core.curate.engine import ApplyReport
    from tui_app.views.curation_data import (
        CalibrationView,
        CandidateList,
        RecordText,
        RestoreCheck,
        RestoreOutcome,
    )


@dataclass
class CandidatesLoaded(Message):
    """A scan (or a fresh reading of the person's decisions) for the curation screen."""

    candidates: CandidateList


@dataclass
class CandidatesUnchanged(Message):
    """Nothing the candidates depend on changed since they were shown."""


@dataclass
class CandidateDecided(Message):
    candidate_id: str
    decision: str  # approved / rejected
    changed: bool  # False: it was already decided so


@dataclass
class CandidateTextLoaded(Message):
    text: RecordText


@dataclass
class MovesPlanned(Message):
    """The dry run before a move: what would move and what not, and the scan it made."""

    report: ApplyReport
    candidates: CandidateList | None


@dataclass
class MovesDone(Message):
    """The confirmed moves finished (or stopped between records)."""

    reports: list[ApplyReport]
    candidates: CandidateList | None
    confirmed: int
    stopped: bool


@dataclass
class ColdLoaded(Message):
    items: list[ColdItem]
    verified: bool  # every cold copy was hashed again


@dataclass
class RestoreChecked(Message):
    """The cold copies' checksums, computed before the restore confirmation shows them."""

    checks: list[RestoreCheck]


@dataclass
class RestoresDone(Message):
    outcomes: list[RestoreOutcome]
    errors: list[str]  # one line each, e.g. a refusal to overwrite a different file


@dataclass
class CalibrationLoaded(Message):
    view: CalibrationView


# --- search, the session view, topics, turn activity -------------------------------------------------

if TYPE_CHECKING:
    from datetime import date

    from core.topics import Marker
    from core.turns import Turn
    from core.workbench.freshness import Freshness
    from tui_app.views.search_backend import SearchReply


@dataclass
class SearchAnswered(Message):
    """One query's answer (or why it could not be run); dropped if a newer query was typed."""

    answer: SearchReply


@dataclass
class SearchIndexReady(Message):
    """New turns and the vault's memories are in the index; what it holds now."""

    state: Freshness


@dataclass
class WorkbenchNotice(Message):
    """What the workbench waits for ("loading the embedding model…", another process upgrading the
    index), from whichever thread it waits in; the app shows it on the current screen."""

    line: str


@dataclass
class VectorProgress(Message):
    done: int
    total: int  # 0 while the build is starting


@dataclass
class VectorsBuilt(Message):
    """The vector build finished or was cancelled (``state.stopped``); it resumes where it stopped."""

    state: Freshness


@dataclass
class SessionTurnsLoaded(Message):
    turns: list[Turn]  # the hit and its neighbours in the session, in order
    about: SessionAbout | None = None  # the session's project header and first prompt, when the index has them


@dataclass
class MarkersLoaded(Message):
    markers: list[Marker]  # newest first
    problems: list[str]


@dataclass
class MarkerTurnFound(Message):
    """The conversation at a topic marker's time: the turn to open it at (None: no turn in the index)."""

    marker: Marker
    turn: Turn | None


@dataclass
class MarkerAdded(Message):
    marker: Marker


@dataclass
class TurnActivityLoaded(Message):
    days: list[tuple[date, int]]  # turns per local day, oldest first; empty when nothing is indexed


@dataclass
class ImportSourcesFound(Message):
    """What there is to import on this machine, and the index's lag and vector coverage."""

    sources: list[FoundSource]
    status: str


@dataclass
class ImportProgress(Message):
    done: int  # input bytes read (an import) or day files read (a reindex)
    total: int


@dataclass
class ImportFinished(Message):
    """An import or reindex ended (done or stopped): the report's lines."""

    lines: list[str]
    stopped: bool = False


@dataclass
class PassphraseWritten(Message):
    """The new passphrase is written (one header, atomically); ``notes``: the keyring, an environment
    variable still holding the old one (from the workbench's :class:`~core.workbench.access.PassphraseChanged`)."""

    notes: list[str]


@dataclass
class PassphraseRefused(Message):
    """A passphrase change or a recovery key was refused; nothing was written. One line, naming the field."""

    reason: str
    input_id: str  # the input to type again


@dataclass
class RecoveryKeyMade(Message):
    """A new recovery key, to be shown once (it is held only by the dialog that shows it)."""

    key: str = field(repr=False)


@dataclass
class RecoveryStatusLoaded(Message):
    """Whether the vault has a recovery key: when it was made ("" unknown), or None for none."""

    made_at: str | None
