"""How much an assistant may put into the person's review queue (``[assistants]`` in ``config.toml``;
0 turns that kind of proposal off), for the MCP server and the REST API alike.

``proposals_per_hour`` (new drafts from one caller source in any sliding hour), ``open_proposals``
(assistant drafts waiting unreviewed at once, all assistants together) and ``suggestions_per_draft``
(ever, on one draft) are counted from the drafts themselves, so every process agrees and restarts
change nothing. A :class:`ProposalCounter` remembers what it read per file and re-reads only drafts
whose inode, size or times changed (figures: ``bench_proposal_limits.py`` in tests/bench/README.md).
The check and the write after it hold the home's ``proposals`` lock, so two servers cannot both take
the last place.
"""

from __future__ import annotations

import contextlib
import math
import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from core.assist.answers import LimitError
from core.errors import NotFound, RecordError, ReverieError, ReviewError
from core.fsutil import file_lock

if TYPE_CHECKING:
    from core.config import AssistantsConfig
    from core.vault.review import StoredDraft
    from core.vault.store import MemoryStore

ASSISTANT_CHANNELS = ("mcp", "api")  # a caller source is "<channel>:<name>"
WINDOW = timedelta(hours=1)
OPEN_RETRY_AFTER_S = 3600  # no clock frees an open place; the hint tells a client to come back in an hour


def is_assistant(source: str) -> bool:
    """A draft's ``created_by`` or a suggestion's ``source`` written by the assistant surface."""
    channel, sep, name = source.partition(":")
    return bool(sep and name) and channel in ASSISTANT_CHANNELS


class LimitReached(ReverieError):
    """An assistant hit one of the limits; nothing was written. ``str()`` is one line naming the
    limit, the count and when it frees up; ``retry_after`` is seconds (None: it never frees)."""

    def __init__(self, limit: str, count: int, maximum: int, message: str, *,
                 resets_at: datetime | None = None, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.limit = limit
        self.count = count
        self.maximum = maximum
        self.resets_at = resets_at
        self.retry_after = retry_after

    def form(self) -> LimitError:
        """The error body the assistant surface answers with (its message is ``error``)."""
        return LimitError(str(self), self.limit, self.count, self.maximum,
                          _iso(self.resets_at) if self.resets_at else None, self.retry_after)


@dataclass(frozen=True)
class QuotaFacts:
    """What the limits need from one draft."""

    draft_id: str
    created_by: str
    created_at: datetime
    state: str
    assistant_suggestions: int

    @classmethod
    def of(cls, draft: StoredDraft) -> QuotaFacts:
        return cls(draft.draft_id, draft.created_by, _parse(draft.created_at), draft.state,
                   sum(1 for s in draft.suggestions if is_assistant(s.source)))


def _parse(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _in(seconds: float) -> str:
    minutes = math.ceil(seconds / 60)
    return f"in {minutes} min" if minutes < 60 else f"in {minutes // 60} h {minutes % 60} min"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _turned_off(name: str, what: str) -> LimitReached:
    return LimitReached(name, 0, 0, f"{name} limit: the person turned {what} from assistants off "
                                    f"(assistants.{name} = 0 in config.toml)")


class ProposalCounter:
    """Counts drafts for the limits; one per process that serves assistants (not thread-safe on its
    own: the surface serialises its calls)."""

    def __init__(self, vault: MemoryStore, limits: AssistantsConfig) -> None:
        self.vault = vault
        self.limits = limits
        self._seen: dict[str, tuple[tuple[int, ...], QuotaFacts | None]] = {}

    # -- counting ---------------------------------------------------------------------------------

    def drafts(self) -> list[QuotaFacts]:
        """Facts of every readable draft now on disk (a tampered draft counts for nothing here;
        ``reverie verify`` reports it)."""
        seen: dict[str, tuple[tuple[int, ...], QuotaFacts | None]] = {}
        try:
            entries = list(os.scandir(self.vault.paths.drafts))
        except FileNotFoundError:
            entries = []
        for entry in entries:
            if not entry.name.endswith(".json") or entry.name.startswith("."):
                continue
            try:
                st = entry.stat()
            except FileNotFoundError:  # deleted since the listing
                continue
            stamp = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
            known = self._seen.get(entry.name)
            if known is not None and known[0] == stamp:
                seen[entry.name] = known
                continue
            try:
                facts: QuotaFacts | None = QuotaFacts.of(self.vault.get_draft(entry.name[: -len(".json")]))
            except NotFound:  # deleted between the stat and the read
                continue
            except (RecordError, ReviewError, ValueError):
                facts = None
            seen[entry.name] = (stamp, facts)
        self._seen = seen
        return [facts for _, facts in seen.values() if facts is not None]

    # -- checks -----------------------------------------------------------------------------------

    def check_proposal(self, source: str, suggestions: int, now: datetime) -> None:
        """Raise :class:`LimitReached` if ``source`` may not propose a draft carrying ``suggestions``
        suggestions now."""
        limits = self.limits
        for name in ("proposals_per_hour", "open_proposals"):
            if getattr(limits, name) == 0:
                raise _turned_off(name, "proposals")
        if suggestions and limits.suggestions_per_draft == 0:
            raise _turned_off("suggestions_per_draft", "suggestions")
        if suggestions > limits.suggestions_per_draft:
            raise LimitReached(
                "suggestions_per_draft", suggestions, limits.suggestions_per_draft,
                f"suggestions_per_draft limit: this proposal carries {suggestions} suggestions (tags count as one); "
                f"a draft takes at most {limits.suggestions_per_draft} from assistants")
        drafts = [d for d in self.drafts() if is_assistant(d.created_by)]
        since = now - WINDOW
        recent = sorted(d.created_at for d in drafts if d.created_by == source and d.created_at > since)
        if len(recent) >= limits.proposals_per_hour:
            # the place frees when enough of the recent ones have left the window
            frees = recent[len(recent) - limits.proposals_per_hour] + WINDOW
            wait = max(1, math.ceil((frees - now).total_seconds()))
            raise LimitReached(
                "proposals_per_hour", len(recent), limits.proposals_per_hour,
                f"proposals_per_hour limit: {source} proposed {_plural(len(recent), 'draft')} in the last hour "
                f"(at most {limits.proposals_per_hour}); the next fits at {_iso(frees)} ({_in(wait)})",
                resets_at=frees, retry_after=wait)
        waiting = sum(1 for d in drafts if d.state == "open")
        if waiting >= limits.open_proposals:
            raise LimitReached(
                "open_proposals", waiting, limits.open_proposals,
                f"open_proposals limit: {_plural(waiting, 'draft')} from assistants await the person's review "
                f"(at most {limits.open_proposals}); the next fits when the person approves, finalizes or deletes "
                "one", retry_after=OPEN_RETRY_AFTER_S)

    def check_suggestion(self, draft: StoredDraft) -> None:
        """Raise :class:`LimitReached` if ``draft`` takes no more suggestions from assistants."""
        if self.limits.suggestions_per_draft == 0:
            raise _turned_off("suggestions_per_draft", "suggestions")
        have = sum(1 for s in draft.suggestions if is_assistant(s.source))
        if have >= self.limits.suggestions_per_draft:
            raise LimitReached(
                "suggestions_per_draft", have, self.limits.suggestions_per_draft,
                f"suggestions_per_draft limit: draft {draft.draft_id!r} has {_plural(have, 'suggestion')} from "
                f"assistants (at most {self.limits.suggestions_per_draft}); it takes no more")

    @contextlib.contextmanager
    def exclusive(self) -> Iterator[None]:
        """Hold the home's ``proposals`` lock: check, then write, with no other server in between."""
        with file_lock(self.vault.paths.lock("proposals")):
            yield

