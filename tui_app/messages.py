"""Every message the app's workers post: small dataclasses, one place.

A worker runs the blocking work (unlock, storage, crypto) in a thread and posts one of these to its
screen; the handler runs on the app's thread and is the only code that changes what the screen
shows. Messages bubble, so :class:`Unlocked` reaches the app from whichever gate screen posted it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from core.records import Memory
    from core.review import ReviewDraft
    from core.vault import MemoryVault
    from tui_app.screens.data import HomeSummary, MemoryDetail, MemoryRow


@dataclass
class Unlocked(Message):
    """The passphrase opened (or created) the vault; the app starts a session on it."""

    vault: MemoryVault
    created: bool = False


@dataclass
class UnlockFailed(Message):
    """The passphrase was refused; nothing was written. ``reason`` is one line for the person."""

    reason: str


@dataclass
class HomeLoaded(Message):
    summary: HomeSummary


@dataclass
class InterruptedCompleted(Message):
    """Finalizations a crash had interrupted were completed at unlock (one line each)."""

    lines: list[str]


@dataclass
class DraftsLoaded(Message):
    drafts: list[ReviewDraft]


@dataclass
class DraftLoaded(Message):
    draft: ReviewDraft


@dataclass
class DraftChanged(Message):
    """A decision or the approval was stored; ``note`` says what, for the person."""

    draft: ReviewDraft
    note: str


@dataclass
class DraftFinalized(Message):
    draft: ReviewDraft
    memory: Memory


@dataclass
class DraftCaptured(Message):
    draft: ReviewDraft


@dataclass
class MemoriesLoaded(Message):
    rows: list[MemoryRow]
    problems: list[str]


@dataclass
class MemoryLoaded(Message):
    detail: MemoryDetail
