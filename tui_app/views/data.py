"""What the screens show, loaded from the core. Plain functions run inside worker threads; they read
the vault and return frozen values that a message carries back to the app's thread.

The core modules are imported inside the functions: the home screen imports this module for its
first frame, and the vault, ledger and verification code loads in its worker, after that frame."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from core.textsafe import one_line
from core.workbench.when import utc_now
from tui_app.views.imports import index_status_line
from tui_app.widgets.activity import ACTIVITY_WEEKS
from tui_app.widgets.format import parse_time, plural

if TYPE_CHECKING:
    from core.paths import HomePaths
    from core.vault.ledger import LedgerEntry
    from core.vault.records import MemoryRecord
    from tui_app.screens.session import Session

STAMP_SECONDS = 60  # a screen shown again within the same minute, nothing stored having changed, is not reloaded


def home_stamp(paths: HomePaths, now: float | None = None) -> tuple[object, ...]:
    """What the stored data a screen shows depends on, in stat calls only: every file and folder of
    the data home (name, size, modification time) and the current minute. Equal stamps: nothing was
    written to the home since, by this process or another (``reverie watch``, the CLI). The derived
    index is left out: it changes when the home does (the screens' own loads write it too, a vault
    sync, a catch-up), and what it adds on its own (vectors built in the background) shows within
    the minute. Runs in a worker thread."""
    entries: list[tuple[str, int, int]] = []
    pending = [paths.root]
    while pending:
        folder = pending.pop()
        try:
            with os.scandir(folder) as scan:
                for entry in scan:
                    try:
                        info = entry.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    entries.append((entry.path, info.st_size, info.st_mtime_ns))
                    if entry.is_dir(follow_symlinks=False):
                        pending.append(Path(entry.path))
        except OSError:
            continue
    minute = int((utc_now().timestamp() if now is None else now) // STAMP_SECONDS)
    return (minute, *sorted(entries))


@dataclass(frozen=True)
class VerificationState:
    """The home's verification (``Workbench.verify``), reduced to what a screen shows."""

    ok: bool
    problems: tuple[str, ...]
    counts: dict[str, int]
    head: str | None

    @property
    def headline(self) -> str:
        memories = self.counts.get("memories", 0)
        entries = self.counts.get("ledger_entries", 0)
        if self.ok:
            return f"verified: {memories} records, ledger of {entries}"
        return f"Verification found {plural(len(self.problems), 'problem')}"


def verification(session: Session) -> VerificationState:
    """Home's verification: everything, the ledger incrementally (its signed verified prefix)."""
    report = session.workbench.verify(incremental=True)
    return VerificationState(
        ok=report.ok,
        problems=tuple(str(p) for p in report.problems),
        counts=dict(report.counts),
        head=str(report.head) if report.head else None,
    )


@dataclass(frozen=True)
class Notice:
    """One line of the home screen's banner. ``level`` is info, warning or error; ``key_hint`` names
    the key that deals with it (``"r"``)."""

    level: str
    text: str
    key_hint: str = ""


@dataclass(frozen=True)
class HomeSummary:
    open_drafts: int
    pending_suggestions: int
    approved_drafts: int
    finalized_drafts: int
    memories: int
    reviewed_memories: int
    verification: VerificationState | None  # None: counted, not verified yet (``with_verification``)
    activity: tuple[int, ...]  # drafts captured + memories, per week, oldest first
    notices: tuple[Notice, ...] = ()


# (session, summary so far) → notices for the banner. Runs in a worker thread: read, never write.
NoticeProvider = Callable[["Session", HomeSummary], Iterable[Notice]]


def review_notices(session: Session, summary: HomeSummary) -> Iterable[Notice]:
    if summary.approved_drafts:
        yield Notice(
            "warning",
            f"{plural(summary.approved_drafts, 'approved draft')} waiting to be finalized",
            key_hint="r",
        )


def index_notices(session: Session, summary: HomeSummary) -> Iterable[Notice]:
    """The index's lag behind the log and its vector coverage (stat calls and one status query)."""
    fresh = session.workbench.freshness()
    level = "warning" if fresh.lag.behind else "info"
    yield Notice(level, f"Index: {index_status_line(fresh)}", key_hint="i" if fresh.lag.behind else "")


def verification_notices(session: Session, summary: HomeSummary) -> Iterable[Notice]:
    """The first problem verification found; nothing while the summary is not verified yet."""
    state = summary.verification
    if state is not None and not state.ok:
        first = state.problems[0] if state.problems else ""
        yield Notice("error", f"{state.headline}: {first}", key_hint="m")


def weekly_counts(times: Iterable[datetime], now: datetime, weeks: int = ACTIVITY_WEEKS) -> tuple[int, ...]:
    counts = [0] * weeks
    start = now - timedelta(weeks=weeks)
    for moment in times:
        if start <= moment <= now:
            index = min(int((moment - start) / timedelta(weeks=1)), weeks - 1)
            counts[index] += 1
    return tuple(counts)


def load_home_summary(session: Session, providers: Iterable[NoticeProvider] = (), *,
                      verify: bool = True) -> HomeSummary:
    """The counts, the activity and the banner. ``verify=False``: without the verification (None), which
    the home screen adds from a second worker once the counts show (:func:`with_verification`)."""
    review = session.workbench.review
    drafts = review.drafts()
    memories = review.opened_memories()
    times = [parse_time(d.created_at) for d in drafts if d.state != "finalized"]
    times += [parse_time(m.time) for m in memories]
    summary = HomeSummary(
        open_drafts=sum(1 for d in drafts if d.state == "open"),
        pending_suggestions=sum(len(d.pending_suggestions()) for d in drafts if d.state == "open"),
        approved_drafts=sum(1 for d in drafts if d.state == "approved"),
        finalized_drafts=sum(1 for d in drafts if d.state == "finalized"),
        memories=len(memories),
        reviewed_memories=sum(1 for m in memories if m.reviewed),
        verification=verification(session) if verify else None,
        activity=weekly_counts(times, session.now()),
    )
    notices = tuple(notice for provider in providers for notice in provider(session, summary))
    return replace(summary, notices=notices)


def with_verification(session: Session, summary: HomeSummary) -> HomeSummary:
    """``summary`` (loaded with ``verify=False``) verified: the verification's problem, if any, heads the
    banner, as ``verification_notices`` comes first among the providers."""
    verified = replace(summary, verification=verification(session))
    return replace(verified, notices=(*verification_notices(session, verified), *summary.notices))


@dataclass(frozen=True)
class MemoryRow:
    memory_id: str
    memory: MemoryRecord | None  # None: the record does not open (``damage`` says why); never shown as content
    verified: bool  # the record verifies and matches the ledger's latest checksum for it
    damage: str | None = None

    @property
    def title(self) -> str:
        if self.memory is None:
            return f"DAMAGED: {self.damage}"
        return self.memory.metadata.title or self.memory.content

    @property
    def reviewed(self) -> bool:
        return self.memory is not None and self.memory.reviewed


def load_memory_rows(session: Session) -> tuple[list[MemoryRow], list[str]]:
    """Damaged records first (named, with the reason), then memories newest first, each with its
    verification state; and the problems of the records that failed."""
    listed = session.workbench.review.memories()
    damaged = [MemoryRow(e.memory_id, None, False, e.damage) for e in listed if e.memory is None]
    rows = damaged + [MemoryRow(e.memory_id, e.memory, e.verified) for e in reversed(listed) if e.memory is not None]
    return rows, [one_line(f"{r.memory_id}: {r.damage}") for r in damaged]


@dataclass(frozen=True)
class MemoryDetail:
    memory: MemoryRecord
    verified: bool
    entry: LedgerEntry | None  # the ledger's latest entry for this memory


def load_memory_detail(session: Session, memory_id: str) -> MemoryDetail:
    sealed = session.workbench.review.sealed_memory(memory_id)
    return MemoryDetail(memory=sealed.memory, verified=sealed.verified, entry=sealed.entry)
