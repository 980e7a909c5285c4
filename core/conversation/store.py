"""The day-log store: ``logs/YYYY/MM/YYYY-MM-DD.jsonl``, one ``Turn.to_json()`` per line, UTC days.

Reading never takes a lock and never raises for a bad line: it reports the line (path and line
number) and goes on. An unterminated last line is reported and not consumed, so the returned offset
always sits on a line boundary and a later read picks the line up once it is complete or repaired.

Writing (:class:`DayLogWriter`) happens only under the home's ingest lock. It appends whole lines
with one write and an fsync per day, skips turns whose id the day already holds, and repairs an
unterminated tail before appending. Lines are in append order, which is not always time order.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from core.conversation.items import checked_turn
from core.conversation.logline import LOG_LINE, LOG_LINES, stamps_ok
from core.conversation.tail import Tail, TailRepair, count_newlines, repair_tail
from core.errors import ReverieError
from core.fsutil import PRIVATE_FILE_MODE, ensure_private_dir, fsync_dir
from core.paths import HomePaths
from core.turns import DAY_FILE_NAME, Turn, TurnError, day_file

_INDEX_CACHE_DAYS = 256


class LogWriteError(ReverieError):
    """A day file could not be appended to (disk full, permissions)."""


class DayFileChanged(ReverieError):
    """A day file no longer matches an offset read from it before (it shrank or was rewritten):
    read it again from offset 0."""


@dataclass(frozen=True)
class DayFile:
    day: str  # YYYY-MM-DD (UTC)
    path: Path
    size: int
    mtime: float
    mtime_ns: int = 0  # the exact modification time, for change detection without float rounding


@dataclass(frozen=True)
class BadLine:
    path: Path
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.reason}"


@dataclass
class DayReading:
    turns: list[Turn] = field(default_factory=list)
    offset: int = 0  # just after the last complete line read; pass it back to read only what follows
    bad_lines: list[BadLine] = field(default_factory=list)
    incomplete_tail: bool = False  # an unterminated last line was seen (and not consumed)


def day_record_id(day: str) -> str:
    """The home-relative name of a day file, as used in the ledger: ``logs/YYYY/MM/YYYY-MM-DD.jsonl``."""
    return f"logs/{day[:4]}/{day[5:7]}/{day}.jsonl"


def list_day_files(paths: HomePaths) -> list[DayFile]:
    """Every day file of the home, oldest day first. Files not named like a day file are ignored."""
    found: list[DayFile] = []
    if not paths.logs.is_dir():
        return found
    for year in paths.logs.iterdir():
        if not (year.is_dir() and year.name.isdigit() and len(year.name) == 4):
            continue
        for month in year.iterdir():
            if not (month.is_dir() and month.name.isdigit() and len(month.name) == 2):
                continue
            for entry in month.iterdir():
                match = DAY_FILE_NAME.match(entry.name)
                if not match or match.group(1) != year.name or match.group(2) != month.name:
                    continue
                try:
                    stat = entry.stat()
                except FileNotFoundError:
                    continue
                if not entry.is_file():
                    continue
                found.append(DayFile(day=entry.name[:10], path=entry, size=stat.st_size, mtime=stat.st_mtime,
                                     mtime_ns=stat.st_mtime_ns))
    found.sort(key=lambda item: item.day)
    return found


def read_day(path: Path, offset: int = 0) -> DayReading:
    """Turns of the day file at ``path`` from byte ``offset`` (0 or an offset this function returned).

    Malformed lines are reported in ``bad_lines`` with their line numbers, never raised. A missing
    file reads as empty. ``DayFileChanged`` if ``offset`` is past the end or not at a line start.
    """
    reading = DayReading(offset=offset)
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        if offset:
            raise DayFileChanged(f"{path}: the file is gone; read it again from offset 0") from None
        return reading
    with handle:
        size = os.fstat(handle.fileno()).st_size
        if offset < 0 or offset > size:
            raise DayFileChanged(f"{path}: offset {offset} is past the end ({size} bytes); read it again from 0")
        if offset:
            handle.seek(offset - 1)
            if handle.read(1) != b"\n":
                raise DayFileChanged(f"{path}: offset {offset} is not at a line start; read it again from 0")
        data = handle.read(size - offset)
    number = count_newlines(path, offset) if offset else 0
    position = _read_whole_lines(data, offset, reading)
    number += data.count(b"\n", 0, position)
    while position < len(data):
        newline = data.find(b"\n", position)
        number += 1
        if newline < 0:
            reading.incomplete_tail = True
            reading.bad_lines.append(BadLine(path, number, "unterminated last line (an interrupted or ongoing write)"))
            break
        line = data[position:newline]
        position = newline + 1
        reading.offset = offset + position
        try:
            reading.turns.append(parse_line(line))
        except UnicodeDecodeError as exc:
            reading.bad_lines.append(BadLine(path, number, f"not UTF-8 at byte {exc.start}"))
        except TurnError as exc:
            reading.bad_lines.append(BadLine(path, number, str(exc)))
    return reading


def _read_whole_lines(data: bytes, offset: int, reading: DayReading) -> int:
    """Every complete line of ``data`` in one msgspec call when each is a line the log wrote (the
    common case: a day file decodes 3× faster than line by line); returns the position after them,
    or 0 (nothing read) if any line needs the line-by-line path, which then reads them all."""
    end = data.rfind(b"\n") + 1
    if end == 0:
        return 0
    # One JSON array of the lines: an empty or blank line, or two values on one line, cannot decode
    # into exactly one element per line, so anything the per-line path would refuse falls back.
    try:
        lines = LOG_LINES.decode(b"[" + data[: end - 1].replace(b"\n", b",") + b"]")
    except msgspec.DecodeError:
        return 0
    if len(lines) != data.count(b"\n", 0, end) or not stamps_ok([line.ts for line in lines]):
        return 0
    reading.turns = [Turn(f.id, f.ts, f.actor, f.role, f.type, f.text, f.model, f.session, f.source, f.machine)
                     for f in lines]
    reading.offset = offset + end
    return end


def parse_line(line: bytes) -> Turn:
    """One stored line as a turn; ``TurnError`` (naming the field) or ``UnicodeDecodeError``.

    A line the log wrote decodes as a :class:`~core.conversation.logline.LogLine` (all of it checked in
    C); anything else (another field, a missing ``model``, a lone surrogate, a bad value) takes the
    general path below, which accepts and refuses exactly what it did before and words the error."""
    try:
        fast = LOG_LINE.decode(line)
    except msgspec.DecodeError:
        pass
    else:
        if stamps_ok((fast.ts,)):
            return Turn(fast.id, fast.ts, fast.actor, fast.role, fast.type, fast.text, fast.model, fast.session,
                        fast.source, fast.machine)
    text = line.decode("utf-8")
    try:
        obj = json.loads(text)
    except ValueError:
        return Turn.from_json(text)  # raises with Turn's own message
    return checked_turn(obj)


def is_whole_turn(line: bytes) -> bool:
    try:
        parse_line(line)
    except (UnicodeDecodeError, TurnError):
        return False
    return True


def repair_day_tails(paths: HomePaths, keep: Callable[[Path, Tail], None]) -> list[TailRepair]:
    """Give every day file that ends in an unterminated line its newline back (a whole turn) or hand
    the fragment to ``keep`` and cut it off. Hold the ingest lock."""
    repairs = []
    for day in list_day_files(paths):
        repair = repair_tail(day.path, is_whole_turn, lambda tail, path=day.path: keep(path, tail))
        if repair is not None:
            repairs.append(repair)
    return repairs


def content_key(turn: Turn) -> int:
    """What makes two turns with one id the same turn: every field except where it was imported from.
    (A hash within one process: keys are only compared within one writer.)"""
    return hash((turn.id, turn.ts, turn.actor, turn.role, turn.type, turn.text, turn.model, turn.session))


def turn_line(turn: Turn) -> str:
    """``turn.to_json()``, byte for byte, without ``dataclasses.asdict`` (a third of ingest time)."""
    fields = {"actor": turn.actor, "id": turn.id, "model": turn.model, "role": turn.role, "session": turn.session,
              "source": turn.source, "text": turn.text, "ts": turn.ts, "type": turn.type}
    if turn.machine is not None:
        fields["machine"] = turn.machine
    return json.dumps(fields, ensure_ascii=False, sort_keys=True)


@dataclass
class DayState:
    """What the writer knows of one day file: its ids, its size and hash when first seen this run, and
    its size and running hash now (after this writer's appends)."""

    keys: dict[str, int]
    size_before: int
    sha256_before: str
    size_now: int = 0
    hash_now: Any = None  # hashlib's sha256 of the file's bytes now

    def after(self, payload: bytes) -> tuple[int, str, int, str]:
        """(size now, SHA-256 now, size after, SHA-256 after) appending ``payload``."""
        later = self.hash_now.copy()
        later.update(payload)
        return self.size_now, self.hash_now.hexdigest(), self.size_now + len(payload), later.hexdigest()


@dataclass
class AppendResult:
    added: int = 0
    duplicates: int = 0
    conflicts: int = 0  # same id already stored with other content; the stored turn is kept
    size_before: int = 0  # the day file when this writer first read it
    sha256_before: str = ""


class DayLogWriter:
    """Appends turns to day files, deduplicating by id within each day. Use under the ingest lock."""

    def __init__(self, paths: HomePaths) -> None:
        self.paths = paths
        self._days: OrderedDict[str, DayState] = OrderedDict()

    def path_for(self, day: str) -> Path:
        return day_file(self.paths.logs, day)

    def state(self, day: str) -> DayState:
        """The day's ids (loaded once per writer; the least recently used days are forgotten)."""
        state = self._days.get(day)
        if state is None:
            path = self.path_for(day)
            try:
                data = path.read_bytes()
            except FileNotFoundError:
                data = b""
            keys: dict[str, int] = {}
            for line in data.split(b"\n"):
                if not line:
                    continue
                try:
                    turn = parse_line(line)
                except (UnicodeDecodeError, TurnError):
                    continue  # reported by readers; the turn it held, if any, can be imported again
                keys.setdefault(turn.id, content_key(turn))
            running = hashlib.sha256(data)
            state = DayState(keys=keys, size_before=len(data), sha256_before=running.hexdigest(), size_now=len(data),
                             hash_now=running)
            self._days[day] = state
            while len(self._days) > _INDEX_CACHE_DAYS:
                self._days.popitem(last=False)
        else:
            self._days.move_to_end(day)
        return state

    def plan(self, day: str, turns: list[Turn]) -> tuple[list[Turn], AppendResult]:
        """Which of ``turns`` (all of ``day``) are new, without writing anything."""
        state = self.state(day)
        result = AppendResult(size_before=state.size_before, sha256_before=state.sha256_before)
        fresh: list[Turn] = []
        seen: dict[str, int] = {}
        for turn in turns:
            key = content_key(turn)
            known = state.keys.get(turn.id, seen.get(turn.id))
            if known is None:
                seen[turn.id] = key
                fresh.append(turn)
            elif known == key:
                result.duplicates += 1
            else:
                result.conflicts += 1
        result.added = len(fresh)
        return fresh, result

    @staticmethod
    def payload(turns: list[Turn]) -> bytes:
        """The bytes :meth:`write` appends for ``turns``."""
        return "".join(turn_line(turn) + "\n" for turn in turns).encode("utf-8")

    def write(self, day: str, turns: list[Turn], payload: bytes | None = None) -> None:
        """Append ``turns`` (new ones, from :meth:`plan`; ``payload`` their :meth:`payload` when it is
        already made) to the day file: one write, one fsync."""
        if not turns:
            return
        path = self.path_for(day)
        payload = self.payload(turns) if payload is None else payload
        created = not path.exists()
        if created:
            ensure_private_dir(path.parent)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, PRIVATE_FILE_MODE)
            try:
                view = memoryview(payload)
                while view:
                    written = os.write(fd, view)
                    view = view[written:]
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as exc:
            raise LogWriteError(
                f"{path}: cannot append: {exc.strerror or exc}; turns already stored are kept, "
                "and the next ingest repairs a partial last line"
            ) from exc
        if created:
            fsync_dir(path.parent)
            fsync_dir(path.parent.parent)
        state = self._days.get(day)  # if forgotten meanwhile, it is read again from the file when needed
        if state is not None:
            for turn in turns:
                state.keys[turn.id] = content_key(turn)
            state.size_now += len(payload)
            state.hash_now.update(payload)
