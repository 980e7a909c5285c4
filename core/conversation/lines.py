"""Reading a JSONL source line by line with a bound on line length.

A line longer than ``max_bytes`` is never held in memory: it is read through in chunks and
reported with its byte span, so the quarantine can copy it from the file.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from core.conversation.items import Progress, Rejected, Skipped

MAX_LINE_BYTES = 16 * 1024 * 1024
_CHUNK = 1024 * 1024
_BOM = b"\xef\xbb\xbf"


class NotRegularFile(OSError):
    """A path that is a FIFO, socket or device: reading it could block forever, so it is not read."""


def kind_of_special(mode: int) -> str | None:
    """What a non-regular file is ("a FIFO", "a socket", "a device", ...), or ``None`` for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "not a regular file"


def open_regular(path: Path) -> BinaryIO:
    """``path`` opened for reading, refusing (``NotRegularFile``) anything but a regular file. The
    open itself never blocks: a FIFO swapped in after a check is opened non-blocking and refused."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        kind = kind_of_special(os.fstat(fd).st_mode)
        if kind is not None:
            raise NotRegularFile(f"{path}: {kind}, not a regular file; not read")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


@dataclass(frozen=True)
class RawLine:
    number: int  # 1-based
    start: int  # byte offset of the line in the file
    length: int  # bytes, newline included
    data: bytes | None  # the line without its line ending; None when longer than the bound
    terminated: bool  # ends with a newline (an unterminated last line may still be being written)

    @property
    def span(self) -> tuple[int, int]:
        return (self.start, self.start + self.length)

    def text(self) -> str:
        """The line as text; ``UnicodeDecodeError`` if it is not UTF-8."""
        assert self.data is not None
        return self.data.decode("utf-8")


def iter_lines(path: Path, *, max_bytes: int | None = None, progress: Progress | None = None) -> Iterator[RawLine]:
    """Every line of ``path`` in order (blank ones included), with a leading UTF-8 BOM removed.
    Lines longer than ``max_bytes`` (default ``MAX_LINE_BYTES``) come with ``data`` ``None``."""
    max_bytes = MAX_LINE_BYTES if max_bytes is None else max_bytes
    with open_regular(path) as handle:
        offset = 0
        number = 0
        while True:
            chunk = handle.readline(max_bytes + 1)
            if not chunk:
                return
            number += 1
            start = offset
            length = len(chunk)
            oversized = length > max_bytes and not chunk.endswith(b"\n")
            if oversized:
                chunk = b""
                while True:
                    more = handle.readline(_CHUNK)
                    length += len(more)
                    if not more or more.endswith(b"\n"):
                        chunk = more
                        break
            offset += length
            if progress is not None:
                progress(length)
            terminated = chunk.endswith(b"\n")
            if oversized:
                yield RawLine(number, start, length, None, terminated)
                continue
            data = chunk[:-1] if terminated else chunk
            if data.endswith(b"\r"):
                data = data[:-1]
            if number == 1 and data.startswith(_BOM):
                data = data[len(_BOM):]
            yield RawLine(number, start, length, data, terminated)


def json_line(raw: RawLine) -> object | Rejected | Skipped:
    """The JSON value on ``raw``, or why it is not one.

    Blank lines are skipped. An unterminated last line that does not parse is skipped, not
    quarantined: a transcript that is still being written ends that way, and the next ingest reads
    the completed line.
    """
    if raw.data is None:
        why = f"line of {raw.length} bytes is over the {MAX_LINE_BYTES}-byte limit; copied, not parsed"
        return Rejected(raw.number, why, span=raw.span)
    if not raw.data.strip():
        return Skipped("blank line")
    try:
        text = raw.text()
    except UnicodeDecodeError as exc:
        return Rejected(raw.number, f"not UTF-8 at byte {exc.start}", raw=raw.data)
    try:
        return json.loads(text)
    except RecursionError:
        return Rejected(raw.number, "not JSON: nested too deeply", raw=raw.data)
    except ValueError as exc:
        if not raw.terminated:
            return Skipped("unterminated last line (still being written?); read on the next ingest")
        detail = f"{exc.msg} (column {exc.colno})" if isinstance(exc, json.JSONDecodeError) else str(exc)
        return Rejected(raw.number, f"not JSON: {detail}", raw=raw.data)
