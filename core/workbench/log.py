"""The conversation log through the workbench: ingest (log, then the exact index before returning,
vectors when asked), follow assistant folders, seal closed days, describe a day's file, reindex, and
the recently active sessions."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import date, datetime, timedelta, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING, Any

import apsw

from core.conversation.seals import describe_day, seal_closed_days
from core.index import SearchIndex, Watcher, purge
from core.vault.ledger import Ledger
from core.workbench.freshness import VAULT_SEEN_KEY, vault_fingerprint
from core.workbench.ingest import IngestOutcome
from core.workbench.service import Service

if TYPE_CHECKING:
    from core.conversation import IngestReport, SealReport
    from core.conversation.detect import SourcePlan
    from core.conversation.follow import Follower, FollowReport
    from core.conversation.seals import DaySummary
    from core.index import Reindexer, ReindexReport
    from core.index.catalog import SessionInfo, SessionSummary
    from core.turns import Turn
    from core.vault.crypto import VaultKeys
    from core.workbench.home import Progress, ShouldStop


class Log(Service):
    """The lossless log: what goes in, what is sealed, and the index that follows it."""

    @staticmethod
    def formats() -> tuple[str, ...]:
        """The input formats an ingest reads (besides ``auto``, which detects them)."""
        from core.conversation.detect import FORMATS  # lazy: the importers, ~30 ms, off Home's load

        return tuple(FORMATS)

    def plan_ingest(self, inputs: Sequence[Path], fmt: str = "auto") -> SourcePlan:
        """What an ingest of ``inputs`` would read (files, formats, total bytes); raises for an unknown
        format or a missing file, before anything is written."""
        from core.conversation.detect import collect_sources  # lazy: the importers, ~30 ms, off Home's load

        return collect_sources(list(inputs), fmt)

    def ingest(self, inputs: Sequence[Path] = (), fmt: str = "auto", *, plan: SourcePlan | None = None,
               embed: bool = False, progress: Callable[[int], None] | None = None,
               embed_progress: Progress | None = None, should_stop: ShouldStop | None = None,
               now: datetime | None = None) -> IngestOutcome:
        """Import conversations into the log, then make them searchable before returning: the exact
        index (catalog + FTS5) always; vectors too with ``embed`` (stopping keeps what is embedded, and
        the outcome says how many wait). Closed days are sealed when the keys are at hand.
        ``progress`` gets input bytes read; ``embed_progress`` the embedding's (phase, done, total)."""
        from core.conversation.pipeline import ingest as run_ingest  # lazy: the importers, ~30 ms, off Home's load

        plan = plan if plan is not None else self.plan_ingest(inputs, fmt)
        keys, reason = self._keys_for_sealing()
        report = run_ingest(self.paths, plan=plan, keys=keys, unsealed_reason=reason, progress=progress, now=now)
        return self._index_after_ingest(report, embed=embed, progress=embed_progress, should_stop=should_stop)

    def ingest_items(self, groups: Sequence[tuple[Path, Sequence[Any]]], *, now: datetime | None = None
                     ) -> IngestReport:
        """Store items an importer read on another machine (:mod:`core.remote`'s receiver) through the
        same path as :meth:`ingest` (dedup by id, quarantine, seals); the index follows at the next read."""
        from core.conversation.pipeline import ingest_items  # lazy: the importers, ~30 ms, off Home's load

        keys, reason = self._keys_for_sealing()
        return ingest_items(self.paths, groups, keys=keys, unsealed_reason=reason, now=now)

    def _keys_for_sealing(self) -> tuple[VaultKeys | None, str]:
        if not self.workbench.has_vault:
            return None, "no vault in this home yet (`reverie init`, then `reverie seal`)"
        if not self.workbench.can_unlock_quietly():
            return None, "no passphrase in REVERIE_PASSPHRASE or the keyring; run `reverie seal`"
        return self.workbench.keys, ""

    def _index_after_ingest(self, report: Any, *, embed: bool, progress: Progress | None,
                            should_stop: ShouldStop | None) -> IngestOutcome:
        outcome = IngestOutcome(report)
        # New turns to embed: the model loads while the word index is written (bench_embed_paths.py).
        warming = self.workbench.warm_embedder(bulk=True) if embed and report.added else None
        try:
            try:
                with self.workbench.reindexer(embed=False, memories=False) as reindexer:
                    outcome.index = reindexer.run(embed=False, should_stop=should_stop)
            except apsw.BusyError:
                outcome.index_note = "the index is busy (another process is writing it): the next search catches up"
                return outcome
            if embed and not (should_stop and should_stop()):
                try:
                    outcome.vectors = self.reindex(embed=True, progress=progress, should_stop=should_stop).embedded
                except KeyboardInterrupt:
                    outcome.stopped = True
        finally:
            if warming is not None:
                warming.join()  # no load left running while the process exits
        outcome.pending_vectors = self.workbench.index.status().pending_vectors
        outcome.stopped = outcome.stopped or bool(should_stop and should_stop())
        return outcome

    def follower(self, folders: Sequence[Path | str]) -> Follower:
        """A follower of Claude Code and Codex folders (``watch --follow``): new turns into the log,
        closed days sealed when the keys are at hand."""
        from core.conversation.follow import Follower  # lazy: the importers, ~30 ms, off Home's load

        keys, reason = self._keys_for_sealing()
        return Follower(self.paths, list(folders), keys=keys, unsealed_reason=reason)

    def seal(self, accept_unsigned: Collection[str] = (), adopt: Mapping[str, str] | None = None) -> SealReport:
        """Seal every closed UTC day of the log this vault's ingests wrote (and reseal days an ingest
        added to); ``accept_unsigned``: days whose appended turns the person read and accepts without a
        signed intent; ``adopt``: day → SHA-256 of a day file the person read (:meth:`describe_day`)
        and adopts although Reverie cannot vouch it wrote it."""
        return seal_closed_days(self.paths, self.workbench.keys, accept_unsigned=accept_unsigned, adopt=adopt)

    def describe_day(self, day: str) -> DaySummary | None:
        """What ``day``'s log file holds (turns, first and last time, sessions), None without one;
        ``ValueError`` for a name that is not a day."""

        return describe_day(self.paths, day, Ledger(self.paths, self.workbench.keys).read(full=False))

    def reindex(self, *, full: bool = False, embed: bool = True, progress: Progress | None = None,
                should_stop: ShouldStop | None = None) -> ReindexReport:
        """Bring the index up to date with the log (only changed day files) and the vault's memories
        (when the keys are at hand), with vectors unless ``embed`` is False."""
        with self.workbench.reindexer(embed=embed, memories=True) as reindexer:
            report = reindexer.run(full=full, embed=embed, progress=progress, should_stop=should_stop)
        if report.memories is not None:
            self.workbench.index.put_meta(VAULT_SEEN_KEY, vault_fingerprint(self.paths))
        return report

    def sessions(self, *, limit: int = 20, source: str | None = None) -> list[SessionInfo]:
        """The most recently active sessions, newest first, with project header and first prompt
        (after the freshness policy's catch-up of the exact index, as a search does)."""
        self.workbench.refresh(memories=False)
        return self.workbench.index.recent_sessions(limit, source=source)

    def watcher(self, reindexer: Reindexer, *, interval: float, embed: bool,
                on_pass: Callable[[ReindexReport], None] | None = None,
                on_error: Callable[[Exception], None] | None = None, follower: Follower | None = None,
                on_follow: Callable[[FollowReport], None] | None = None) -> Watcher:
        """``reverie watch``: a pass of ``reindexer`` (after ``follower``'s, when given) every ``interval`` s."""
        return Watcher(reindexer, interval=interval, embed=embed, on_pass=on_pass, on_error=on_error,
                       follower=follower, on_follow=on_follow)

    def purge_index(self) -> list[Path]:
        """Delete the index and everything derived with it (it holds plaintext); what was removed.
        ``reverie reindex`` rebuilds it from the home."""
        return purge(self.paths)

    def turns_per_day(self, zone: tzinfo, today: date, days: int) -> list[tuple[date, int]]:
        """Turns per local day for the ``days`` days up to ``today``, oldest first, from the index as it
        is (no catch-up; empty when there is no index yet: nothing is created just to count)."""
        if not self.paths.index_db.exists():
            return []
        with SearchIndex.open(self.paths) as index:
            return index.activity(today - timedelta(days=days - 1), today + timedelta(days=1), zone)

    def turn_at(self, ts: str) -> Turn | None:
        """The conversation at ``ts``: the latest text turn at or before it, else the first after (after
        the exact index catches up with the log)."""
        self.workbench.refresh(turns=True, memories=False)
        return self.workbench.index.turn_at(ts)

    def session_turns(self, turn_id: str, before: int, after: int) -> list[Turn]:
        """The turns of ``turn_id``'s session around it: ``before`` earlier, ``after`` later."""
        return self.workbench.index.session_context(turn_id, before=before, after=after)

    def session_summary(self, session: str) -> SessionSummary | None:
        """The project header and first prompt the index keeps for ``session`` (None without one)."""
        return self.workbench.index.session_summaries([session]).get(session)
