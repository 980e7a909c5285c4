"""Where the indexer reads turns from: the day files of the conversation log.

The indexer depends only on :class:`DayLogSource`; :class:`HomeDayLogs` is the real one, over
``core.conversation``'s read API (``list_day_files``, ``read_day``). Tests may hand in their own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from core.paths import HomePaths
from core.turns import Turn


class SourceChanged(Exception):
    """The file no longer fits the offset read before (it shrank or was replaced): read it from 0."""


@dataclass(frozen=True)
class DayEntry:
    day: str  # YYYY-MM-DD, the UTC day the file holds
    path: Path
    size: int
    mtime_ns: int


@dataclass
class DayChunk:
    turns: list[Turn] = field(default_factory=list)  # in file order
    offset: int = 0  # just past the last complete line read
    bad_lines: list[str] = field(default_factory=list)  # "PATH:LINE: reason"


class DayLogSource(Protocol):
    def days(self) -> list[DayEntry]:
        """Every day file, oldest day first."""
        ...

    def read(self, path: Path, offset: int) -> DayChunk:
        """Turns from byte ``offset``; :class:`SourceChanged` if the offset no longer fits."""
        ...


class HomeDayLogs:
    """The day files of a data home, read through ``core.conversation``."""

    def __init__(self, paths: HomePaths) -> None:
        self.paths = paths

    def days(self) -> list[DayEntry]:
        from core.conversation import list_day_files

        return [
            DayEntry(day=f.day, path=f.path, size=f.size, mtime_ns=round(f.mtime * 1e9))
            for f in list_day_files(self.paths)
        ]

    def read(self, path: Path, offset: int) -> DayChunk:
        from core.conversation import DayFileChanged, read_day

        try:
            reading = read_day(path, offset)
        except DayFileChanged as exc:
            raise SourceChanged(str(exc)) from exc
        # An unterminated last line is reported by the store and picked up once complete: not an error.
        bad = [str(b) for b in reading.bad_lines if not (reading.incomplete_tail and b is reading.bad_lines[-1])]
        return DayChunk(turns=reading.turns, offset=reading.offset, bad_lines=bad)
