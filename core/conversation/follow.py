"""Following assistant transcript folders (``reverie watch --follow``, ``[watch] follow`` in
``config.toml``): ingest what is new in them, pass after pass.

Each :meth:`Follower.run_once` walks the followed folders as ``reverie ingest`` does (one ``stat`` per
file), reads only the files whose size or modification time changed since the state file
(``<cache>/follow.json``, written atomically) and ingests them through the ordinary pipeline, so a
grown transcript adds only its new turns and an unterminated last line waits for the next pass. A file
that cannot be read is reported once per distinct error and tried again; deleting the state file only
costs one pass that reads everything again.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.conversation.detect import Source, SourcePlan, detect_format
from core.conversation.pipeline import IngestReport, ingest
from core.conversation.quarantine import QuarantineEntry
from core.errors import ReverieError
from core.fsutil import atomic_write_text
from core.paths import HomePaths
from core.vault.crypto import VaultKeys

STATE_VERSION = 1
_EXTENSIONS = (".jsonl", ".json")


class FollowError(ReverieError):
    """One followed file or folder could not be read; the others were."""


@dataclass
class FollowReport:
    files: int = 0  # transcript files seen in the followed folders
    read: int = 0  # of them, new or changed and read this pass
    added: int = 0
    duplicates: int = 0
    quarantined: list[QuarantineEntry] = field(default_factory=list)  # newly reported this pass
    errors: list[FollowError] = field(default_factory=list)  # newly reported this pass
    days: set[str] = field(default_factory=set)

    def absorb(self, report: IngestReport) -> None:
        self.added += report.added
        self.duplicates += report.duplicates
        self.days |= report.days


@dataclass
class _Seen:
    size: int
    mtime_ns: int
    format: str | None
    quarantined: int = 0  # malformed lines of this file already reported

    def to_json(self) -> list[Any]:
        return [self.size, self.mtime_ns, self.format, self.quarantined]


def _walk(root: Path, found: dict[Path, os.stat_result]) -> None:
    try:
        entries = sorted(os.scandir(root), key=lambda entry: entry.name)
    except FileNotFoundError:
        return
    for entry in entries:
        if entry.name.startswith("."):
            continue
        if entry.is_dir(follow_symlinks=False):
            _walk(Path(entry.path), found)
        elif entry.name.endswith(_EXTENSIONS):
            try:
                if entry.is_file():
                    found[Path(entry.path)] = entry.stat()
            except FileNotFoundError:
                continue


class Follower:
    def __init__(
        self,
        paths: HomePaths,
        roots: Iterable[Path | str],
        *,
        keys: VaultKeys | None = None,
        unsealed_reason: str = "no passphrase available",
        state_file: Path | None = None,
    ) -> None:
        self.paths = paths
        self.roots = [Path(root).expanduser().resolve() for root in dict.fromkeys(str(r) for r in roots if str(r))]
        self.keys = keys
        self.unsealed_reason = unsealed_reason
        self.state_file = state_file or paths.cache / "follow.json"
        self._seen: dict[Path, _Seen] | None = None
        self._reported: dict[str, str] = {}  # path -> the error last reported for it

    # -- state ---------------------------------------------------------------------------------

    def _load(self) -> dict[Path, _Seen]:
        if self._seen is None:
            self._seen = {}
            try:
                data = json.loads(self.state_file.read_text(encoding="utf-8"))
                if data.get("version") == STATE_VERSION:
                    for name, (size, mtime_ns, fmt, quarantined) in data["files"].items():
                        self._seen[Path(name)] = _Seen(int(size), int(mtime_ns), fmt, int(quarantined))
            except FileNotFoundError:
                pass
            except (ValueError, TypeError, KeyError, AttributeError, OSError):
                self._seen = {}  # a damaged state file costs one full pass, nothing more
        return self._seen

    def _save(self, seen: dict[Path, _Seen]) -> None:
        self.paths.ensure_cache()
        files = {str(path): state.to_json() for path, state in sorted(seen.items())}
        atomic_write_text(self.state_file, json.dumps({"version": STATE_VERSION, "files": files}))

    # -- one pass ------------------------------------------------------------------------------

    def _error(self, report: FollowReport, path: Path, message: str) -> None:
        key = str(path)
        if self._reported.get(key) != message:
            self._reported[key] = message
            report.errors.append(FollowError(f"{path}: {message}"))

    def _scan(self, report: FollowReport) -> dict[Path, os.stat_result]:
        found: dict[Path, os.stat_result] = {}
        for root in self.roots:
            try:
                if root.is_dir():
                    _walk(root, found)
                elif root.is_file():
                    found[root] = root.stat()
                else:
                    self._error(report, root, "no such file or folder (yet); watching for it")
                    continue
            except OSError as exc:
                self._error(report, root, f"cannot be read: {exc.strerror or exc}")
                continue
            self._reported.pop(str(root), None)
        return found

    def run_once(self) -> FollowReport:
        """Ingest what is new in the followed folders; never raises for one bad file."""
        report = FollowReport()
        seen = self._load()
        found = self._scan(report)
        report.files = len(found)
        changed = False
        for gone in [path for path in seen if path not in found]:
            del seen[gone]
            changed = True
        plan = SourcePlan()
        for path, stat in found.items():
            before = seen.get(path)
            if before is not None and before.size == stat.st_size and before.mtime_ns == stat.st_mtime_ns:
                continue
            try:
                fmt = detect_format(path) if stat.st_size else None
            except OSError as exc:
                self._error(report, path, f"cannot be read: {exc.strerror or exc}")
                continue
            except ValueError as exc:
                self._error(report, path, str(exc))
                continue
            now = _Seen(stat.st_size, stat.st_mtime_ns, fmt, before.quarantined if before else 0)
            if fmt is None:
                seen[path] = now  # empty, or not a transcript (yet): looked at again when it changes
                changed = True
                continue
            plan.sources.append(Source(path=path, format=fmt, size=stat.st_size))
            seen[path] = now
            changed = True
        if plan.sources:
            report.read = len(plan.sources)
            for source, result in self._ingest(plan, report):
                if result is None:  # could not be read: forget it, so the next pass tries again
                    seen.pop(source.path, None)
                    continue
                self._reported.pop(str(source.path), None)
                mine = [entry for entry in result if entry.file == str(source.path)]
                state = seen[source.path]
                fresh = [entry for entry in mine if entry.line > state.quarantined]
                report.quarantined.extend(fresh)
                if mine:
                    state.quarantined = max(state.quarantined, *(entry.line for entry in mine))
        if changed:
            try:
                self._save(seen)
            except OSError as exc:
                self._error(report, self.state_file, f"cannot be written: {exc.strerror or exc}")
        return report

    def _ingest(
        self, plan: SourcePlan, report: FollowReport
    ) -> list[tuple[Source, list[QuarantineEntry] | None]]:
        """Ingest every source of ``plan``: all at once, or one by one when one of them fails, so that
        one unreadable file does not hold the others back. Returns each source's quarantined lines
        (``None`` for a source that could not be read)."""
        try:
            result = self._ingest_plan(plan)
        except (ReverieError, OSError):
            pass
        else:
            report.absorb(result)
            return [(source, result.quarantined) for source in plan.sources]
        outcome: list[tuple[Source, list[QuarantineEntry] | None]] = []
        for source in plan.sources:
            try:
                result = self._ingest_plan(SourcePlan(sources=[source]))
            except (ReverieError, OSError) as exc:
                message = str(exc)
                prefix = f"{source.path}: "
                self._error(report, source.path, message[len(prefix):] if message.startswith(prefix) else message)
                outcome.append((source, None))
                continue
            report.absorb(result)
            outcome.append((source, result.quarantined))
        return outcome

    def _ingest_plan(self, plan: SourcePlan) -> IngestReport:
        return ingest(self.paths, plan=plan, keys=self.keys, unsealed_reason=self.unsealed_reason)
