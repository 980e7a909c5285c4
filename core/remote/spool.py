"""The spool: captured batches waiting on this machine until the home acknowledges them.

``<home>/spool/`` (0700) holds append-only segment files ``seg-<first batch>.rsp`` (0600), one record
per batch (``R1 <batch> <length> <sha256> <turns> <oldest ts or -> <spooled at>`` then the payload),
each written with one ``write`` and an fsync. A record cut short by a kill (the last of the newest
segment) is cut off by the next append; a damaged record elsewhere is named, copied to
``spool/damaged/`` and never shipped. ``state.json`` holds the highest batch the home acknowledged, the
last shipment and the last error; a segment is removed under the append lock once all its records are
acknowledged or set aside. An append past ``limit`` bytes raises :class:`SpoolFull` and writes nothing.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from core import clock
from core.errors import ReverieError
from core.fsutil import (
    PRIVATE_FILE_MODE,
    atomic_write_bytes,
    atomic_write_text,
    ensure_private_dir,
    file_lock,
    fsync_dir,
)
from core.turns import format_ts
from core.typed import convert

MAGIC = b"R1"
SEGMENT_BYTES = 4 * 1024 * 1024  # a new segment starts after this many bytes
_SEGMENT_NAME = re.compile(r"^seg-(\d{10})\.rsp\Z")
_HEADER_MAX = 256
_HEADER = re.compile(rb"^R1 (\d{10}) (\d{1,12}) ([0-9a-f]{64}) (\d{1,9}) (\S{1,40}) (\S{1,40})\Z")
LIMIT_KEY = "[remote] spool_max_bytes"


class SpoolError(ReverieError):
    """The spool cannot be written or read."""


class SpoolFull(SpoolError):
    """An append would take the spool past its limit; nothing was written."""


@dataclass(frozen=True)
class SpoolRecord:
    """One batch in the spool, as read back (``payload`` checked against its SHA-256)."""

    segment: Path
    number: int  # 1-based, within its segment
    batch: int
    payload: bytes
    sha256: str
    turns: int
    oldest: str | None  # the earliest ts among its turns
    spooled: str

    @property
    def batch_id(self) -> str:
        return f"{self.batch:010d}"


@dataclass(frozen=True)
class Damaged:
    """A record that does not read back: named by file and record number, never shipped."""

    segment: Path
    number: int
    reason: str
    start: int
    end: int

    def __str__(self) -> str:
        return f"{self.segment}: record {self.number}: {self.reason}; not shipped"


@dataclass
class SpoolReading:
    records: list[SpoolRecord] = field(default_factory=list)
    damaged: list[Damaged] = field(default_factory=list)
    torn: Damaged | None = None  # an unfinished last record (an append in progress or killed)


class SpoolState(msgspec.Struct):
    """``state.json``: the highest acknowledged batch, the last shipment and the last error."""

    acked: int = 0
    last_ship: str | None = None
    last_error: str | None = None
    last_error_at: str | None = None


class Spool:
    def __init__(self, folder: Path, limit: int) -> None:
        self.folder = folder
        self.limit = limit

    @property
    def damaged_folder(self) -> Path:
        return self.folder / "damaged"

    @property
    def state_file(self) -> Path:
        return self.folder / "state.json"

    @contextlib.contextmanager
    def append_lock(self) -> Iterator[None]:
        with file_lock(self.folder / ".append.lock"):
            yield

    @contextlib.contextmanager
    def push_lock(self) -> Iterator[None]:
        with file_lock(self.folder / ".push.lock"):
            yield

    # -- state ---------------------------------------------------------------------------------------

    def state(self) -> SpoolState:
        try:
            data = json.loads(self.state_file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return SpoolState()
        except (OSError, ValueError) as exc:
            raise SpoolError(f"{self.state_file}: cannot be read ({exc}); the spooled batches are untouched") from exc
        if not isinstance(data, dict) or not isinstance(data.get("acked"), int):
            raise SpoolError(f"{self.state_file}: acked: missing or not an integer; the spooled batches are untouched")
        return convert(data, SpoolState, f"{self.state_file}", SpoolError)

    def save_state(self, state: SpoolState) -> None:
        ensure_private_dir(self.folder)
        atomic_write_text(self.state_file, json.dumps(msgspec.to_builtins(state), ensure_ascii=False))

    # -- segments ------------------------------------------------------------------------------------

    def segments(self) -> list[Path]:
        if not self.folder.is_dir():
            return []
        return sorted(path for path in self.folder.iterdir() if _SEGMENT_NAME.match(path.name))

    def size(self) -> int:
        return sum(path.stat().st_size for path in self.segments())

    def read(self) -> SpoolReading:
        """Every record of every segment, in batch order; damaged ones apart."""
        reading = SpoolReading()
        segments = self.segments()
        for index, segment in enumerate(segments):
            _read_segment(segment, segment.read_bytes(), reading, last=index == len(segments) - 1)
        return reading

    def waiting(self) -> SpoolReading:
        """The records not yet acknowledged (and every damaged one not yet copied aside)."""
        acked = self.state().acked
        reading = self.read()
        reading.records = [record for record in reading.records if record.batch > acked]
        reading.damaged = [bad for bad in reading.damaged if not self._damaged_copy(bad).exists()]
        return reading

    # -- append --------------------------------------------------------------------------------------

    def append(self, payload: bytes, *, turns: int, oldest: str | None) -> int:
        """Add one batch durably and return its number; :class:`SpoolFull` (nothing written) past the limit."""
        ensure_private_dir(self.folder)
        with self.append_lock():
            segments = self.segments()
            reading = SpoolReading()
            if segments:
                _read_segment(segments[-1], segments[-1].read_bytes(), reading, last=True)
                if reading.torn is not None:
                    os.truncate(segments[-1], reading.torn.start)
            highest = max([self.state().acked, *(r.batch for r in self.read().records)])
            batch = highest + 1
            header = " ".join([MAGIC.decode(), f"{batch:010d}", str(len(payload)), hashlib.sha256(payload).hexdigest(),
                               str(turns), oldest or "-", format_ts(clock.utc_now())])
            record = header.encode("ascii") + b"\n" + payload + b"\n"
            size = self.size()
            if size + len(record) > self.limit:
                raise SpoolFull(
                    f"{self.folder}: spool full: {size:,} bytes held and this capture needs {len(record):,} more, past "
                    f"the limit of {self.limit:,} bytes ({LIMIT_KEY} in config.toml); nothing was added and the "
                    "transcript is untouched: run `reverie remote push` once the home is reachable, or raise the limit"
                )
            target = segments[-1] if segments and segments[-1].stat().st_size < SEGMENT_BYTES else None
            created = target is None
            target = target or self.folder / f"seg-{batch:010d}.rsp"
            _append(target, record)
            if created:
                fsync_dir(self.folder)
            return batch

    # -- after shipping ------------------------------------------------------------------------------

    def set_aside(self, bad: Damaged) -> Path:
        """Copy a damaged record's bytes to ``spool/damaged/`` (0600) so its segment can go."""
        copy = self._damaged_copy(bad)
        if not copy.exists():
            with bad.segment.open("rb") as source:
                source.seek(bad.start)
                data = source.read(bad.end - bad.start)
            atomic_write_bytes(copy, data)
        return copy

    def _damaged_copy(self, bad: Damaged) -> Path:
        return self.damaged_folder / f"{bad.segment.stem}-record{bad.number}.bad"

    def drop_settled(self) -> list[Path]:
        """Remove each segment whose records are all acknowledged or set aside; which were removed."""
        removed = []
        with self.append_lock():
            acked = self.state().acked
            for segment in self.segments():
                reading = SpoolReading()
                _read_segment(segment, segment.read_bytes(), reading, last=False)
                if reading.torn is not None:
                    continue
                if all(r.batch <= acked for r in reading.records) and all(
                        self._damaged_copy(bad).exists() for bad in reading.damaged):
                    segment.unlink()
                    removed.append(segment)
            if removed:
                fsync_dir(self.folder)
        return removed


def _append(path: Path, record: bytes) -> None:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, PRIVATE_FILE_MODE)
        try:
            view = memoryview(record)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        raise SpoolError(f"{path}: cannot append: {exc.strerror or exc}; nothing of this capture is spooled") from exc


def _read_segment(segment: Path, data: bytes, reading: SpoolReading, *, last: bool) -> None:
    """Records of one segment into ``reading``. An unfinished record at the end of the ``last``
    segment is ``torn``; anywhere else a record that does not read back is damaged, and a damaged
    header makes the rest of its segment one damaged stretch (no record boundary can be trusted)."""
    position, number = 0, 0
    while position < len(data):
        number += 1
        newline = data.find(b"\n", position, position + _HEADER_MAX)
        header = data[position:newline] if newline >= 0 else b""
        match = _HEADER.match(header) if newline >= 0 else None
        if match is None:
            if newline < 0 and len(data) - position < _HEADER_MAX and last:
                reading.torn = Damaged(segment, number, "unfinished record", position, len(data))
            else:
                reason = "header not readable" if newline >= 0 else "no header line"
                reading.damaged.append(Damaged(segment, number, reason, position, len(data)))
            return
        length = int(match.group(2))
        start, end = newline + 1, newline + 1 + length
        if end + 1 > len(data):
            if last:
                reading.torn = Damaged(segment, number, "unfinished record", position, len(data))
            else:
                reading.damaged.append(Damaged(segment, number, "cut short", position, len(data)))
            return
        payload = data[start:end]
        digest = hashlib.sha256(payload).hexdigest()
        if data[end:end + 1] != b"\n" or digest != match.group(3).decode():
            reason = "checksum mismatch" if digest != match.group(3).decode() else "no newline after the record"
            reading.damaged.append(Damaged(segment, number, reason, position, end + 1))
        else:
            oldest = match.group(5).decode()
            reading.records.append(SpoolRecord(segment, number, int(match.group(1)), payload, digest,
                                               int(match.group(4)), None if oldest == "-" else oldest,
                                               match.group(6).decode()))
        position = end + 1
