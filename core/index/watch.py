"""``reverie watch``: keep the index current while the person works.

Every ``interval`` seconds, one ``stat`` per day file against the previous pass (no file-event
dependency: cheap enough, the same on every OS and network folder; figures in tests/bench/README.md);
a reindex pass runs only when the log changed or the last pass left work undone. With a
:class:`~core.conversation.follow.Follower` (``--follow PATH`` or ``[watch] follow``) each pass first
ingests what is new in assistant transcript folders; an unreadable transcript is reported through
``on_error`` and the rest go on. Safe beside the TUI: writes are short ``BEGIN IMMEDIATE``
transactions, and reindex passes of different processes take turns on a file lock.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import apsw

from core.errors import ReverieError
from core.index.reindex import Reindexer, ReindexReport

if TYPE_CHECKING:
    from core.conversation.follow import Follower, FollowReport

DEFAULT_INTERVAL_S = 10.0


class Watcher:
    def __init__(
        self,
        reindexer: Reindexer,
        *,
        interval: float = DEFAULT_INTERVAL_S,
        embed: bool = True,
        on_pass: Callable[[ReindexReport], None] | None = None,
        on_error: Callable[[Exception], None] | None = None,
        follower: Follower | None = None,
        on_follow: Callable[[FollowReport], None] | None = None,
    ) -> None:
        if interval <= 0:
            raise ValueError("watch: --interval must be positive")
        self.reindexer = reindexer
        self.interval = interval
        self.embed = embed
        self.on_pass = on_pass
        self.on_error = on_error
        self.follower = follower
        self.on_follow = on_follow
        self._signature: tuple[tuple[str, int, int], ...] | None = None
        self._unfinished = True

    def _log_signature(self) -> tuple[tuple[str, int, int], ...]:
        return tuple((entry.day, entry.size, entry.mtime_ns) for entry in self.reindexer.source.days())

    def follow_once(self) -> FollowReport | None:
        """Ingest what is new in the followed folders. Problems with single files go to ``on_error``
        (or are raised, without one, once every other file was read)."""
        if self.follower is None:
            return None
        try:
            report = self.follower.run_once()
        except (ReverieError, OSError) as exc:  # e.g. the log cannot be written: the index still runs
            if self.on_error is None:
                raise
            self.on_error(exc)
            return None
        if self.on_follow is not None:
            self.on_follow(report)
        if report.errors:
            if self.on_error is None:
                raise report.errors[0]
            for error in report.errors:
                self.on_error(error)
        return report

    def run_once(self, should_stop: Callable[[], bool] | None = None) -> ReindexReport | None:
        """One pass (following first, when asked); ``None`` when the log has not changed since the last
        pass and nothing is pending."""
        self.follow_once()
        signature = self._log_signature()
        if signature == self._signature and not self._unfinished:
            return None
        report = self.reindexer.run(embed=self.embed, should_stop=should_stop)
        self._signature = signature
        self._unfinished = bool(report.pending) and self.embed
        if self.on_pass is not None:
            self.on_pass(report)
        return report

    def run(self, stop: threading.Event | None = None, max_passes: int | None = None) -> int:
        """Poll until ``stop`` is set (or ``max_passes`` passes ran); returns the passes that did work."""
        stop = stop or threading.Event()
        worked = passes = 0
        while not stop.is_set():
            started = time.monotonic()
            try:
                if self.run_once(should_stop=stop.is_set) is not None:
                    worked += 1
            except (ReverieError, apsw.Error, OSError) as exc:
                if self.on_error is None:
                    raise
                self.on_error(exc)
            passes += 1
            if max_passes is not None and passes >= max_passes:
                break
            stop.wait(max(0.0, self.interval - (time.monotonic() - started)))
        return worked
