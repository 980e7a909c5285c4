"""Where the indexer reads turns from: the day files of the conversation log.

The indexer depends only on :class:`DayLogSource`; :class:`HomeDayLogs` is the real one, over
``core.conversation``'s read API (``list_day_files``, ``read_day``). Tests may hand in their own.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from stat import S_ISREG
from typing import TYPE_CHECKING, Protocol

import msgspec

from core.conversation import DayFileChanged, read_day
from core.conversation.logline import LOG_LINES, stamps_ok
from core.paths import HomePaths
from core.turns import DAY_FILE_NAME

if TYPE_CHECKING:
    from core.index.catalog import TurnRecord


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
    turns: Sequence[TurnRecord] = field(default_factory=list)  # in file order
    offset: int = 0  # just past the last complete line read
    bad_lines: list[str] = field(default_factory=list)  # "PATH:LINE: reason"
    data: bytes | None = None  # the bytes read, when the source kept them (the reindexer hashes them)


def read_records(path: Path) -> DayChunk | None:
    """Every line of the day file at ``path`` as a :class:`~core.conversation.logline.LogLine` (the
    log's own declaration of a line, which the store's fast path decodes too), in one msgspec call,
    when each is a line the log wrote and the file ends with a newline; ``None`` for anything else
    (a missing file included), which the caller reads the general way: through the store's
    ``read_day``, so a file reads the same either way, the same turns and for a faulty line the same
    "PATH:LINE: reason" (``tests/index/test_lean_read.py``)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    if not data.endswith(b"\n"):
        return None
    try:
        records = LOG_LINES.decode(b"[" + data[:-1].replace(b"\n", b",") + b"]")
    except msgspec.DecodeError:
        return None
    if len(records) != data.count(b"\n") or not stamps_ok([record.ts for record in records]):
        return None
    return DayChunk(turns=records, offset=len(data), data=data)


class DayLogSource(Protocol):
    def days(self) -> list[DayEntry]:
        """Every day file, oldest day first."""
        ...

    def read(self, path: Path, offset: int) -> DayChunk:
        """Turns from byte ``offset``; :class:`SourceChanged` if the offset no longer fits."""
        ...




def scan_days(logs: Path) -> list[tuple[str, str, int, int]]:
    """(day, path, size, mtime_ns) of every day file under ``logs`` (``YYYY/MM/YYYY-MM-DD.jsonl``),
    oldest day first. ``mtime_ns`` is ``round(st_mtime * 1e9)``, as the index has always recorded it
    (the float's rounding, not ``st_mtime_ns``: an index built before reads as unchanged)."""
    found: list[tuple[str, str, int, int]] = []
    try:
        years = list(os.scandir(logs))
    except (FileNotFoundError, NotADirectoryError):
        return found
    for year in years:
        if not (len(year.name) == 4 and year.name.isdigit() and year.is_dir()):
            continue
        with os.scandir(year.path) as months:
            month_dirs = [m for m in months if len(m.name) == 2 and m.name.isdigit() and m.is_dir()]
        for month in month_dirs:
            try:
                fd = os.open(month.path, os.O_RDONLY | os.O_DIRECTORY)
            except (FileNotFoundError, NotADirectoryError):
                continue
            try:
                # names stat'ed relative to the month's folder: the kernel walks one component, not ten
                names = os.listdir(fd)
                prefix = month.path + os.sep
                for name in names:
                    match = DAY_FILE_NAME.match(name)
                    if not match or match.group(1) != year.name or match.group(2) != month.name:
                        continue
                    try:
                        stat = os.stat(name, dir_fd=fd)
                    except FileNotFoundError:
                        continue
                    if S_ISREG(stat.st_mode):
                        found.append((name[:10], prefix + name, stat.st_size, round(stat.st_mtime * 1e9)))
            finally:
                os.close(fd)
    found.sort(key=lambda item: item[0])
    return found


class HomeDayLogs:
    """The day files of a data home, read through ``core.conversation``."""

    def __init__(self, paths: HomePaths) -> None:
        self.paths = paths

    def days(self) -> list[DayEntry]:
        """Every day file, as ``core.conversation.list_day_files`` lists them (the same names, the
        same checks, ``tests/index/test_day_listing.py``), in one ``stat`` each through
        ``os.scandir``: a search asks for this every time (the freshness check), and pathlib's two
        stats and Path objects per file were most of a cached search (1,825 files: 57 → 9 ms)."""
        return [DayEntry(day, Path(path), size, mtime_ns) for day, path, size, mtime_ns in scan_days(self.paths.logs)]

    def stamps(self) -> dict[str, tuple[int, int]]:
        """Day → (size, mtime_ns) of every day file (:meth:`days` without the paths)."""
        return {day: (size, mtime_ns) for day, _, size, mtime_ns in scan_days(self.paths.logs)}

    def read(self, path: Path, offset: int) -> DayChunk:
        """A whole file as lean records when it is clean (:func:`read_records`); a tail, or a file
        with anything the fast reader refuses, through the store's ``read_day``."""
        if offset == 0:
            fast = read_records(path)
            if fast is not None:
                return fast
        try:
            reading = read_day(path, offset)
        except DayFileChanged as exc:
            raise SourceChanged(str(exc)) from exc
        # An unterminated last line is reported by the store and picked up once complete: not an error.
        bad = [str(b) for b in reading.bad_lines if not (reading.incomplete_tail and b is reading.bad_lines[-1])]
        return DayChunk(turns=reading.turns, offset=reading.offset, bad_lines=bad)
