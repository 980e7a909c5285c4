"""The one kind of damage an append-only JSONL file can take from a crash: an unterminated last line.

Appends write whole lines and fsync, so an interrupted append leaves at most one unterminated
last line. Readers stop before it (it may also be an append still in progress). Writers repair it
while holding their lock, before they append: a fragment that is already a complete record only
lacked its newline and is terminated; anything else is handed to ``keep`` (the quarantine, which
makes it durable first) and then cut off, so nothing stored is lost and the file is whole again.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

_BACK_CHUNK = 64 * 1024


@dataclass(frozen=True)
class Tail:
    """The unterminated last line of a file: where it starts, its bytes and its line number."""

    start: int
    data: bytes
    line: int


@dataclass(frozen=True)
class TailRepair:
    path: Path
    line: int
    action: str  # "terminated" (it was a whole record) or "quarantined" (copied, then cut off)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: unterminated last line {self.action}"


def count_newlines(path: Path, end: int) -> int:
    """Newlines in the first ``end`` bytes of ``path``."""
    count = 0
    with path.open("rb") as handle:
        remaining = end
        while remaining > 0:
            block = handle.read(min(remaining, 1024 * 1024))
            if not block:
                break
            count += block.count(b"\n")
            remaining -= len(block)
    return count


def find_tail(path: Path) -> Tail | None:
    """The unterminated last line of ``path``, or ``None`` if the file is empty, absent or whole."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return None
    if size == 0:
        return None
    with path.open("rb") as handle:
        handle.seek(size - 1)
        if handle.read(1) == b"\n":
            return None
        position = size
        start = 0
        while position > 0:
            step = min(_BACK_CHUNK, position)
            position -= step
            handle.seek(position)
            block = handle.read(step)
            newline = block.rfind(b"\n")
            if newline >= 0:
                start = position + newline + 1
                break
        handle.seek(start)
        data = handle.read(size - start)
    return Tail(start=start, data=data, line=count_newlines(path, start) + 1)


def repair_tail(path: Path, is_whole: Callable[[bytes], bool], keep: Callable[[Tail], None]) -> TailRepair | None:
    """Make ``path`` end with a newline again. Call only while holding the file's writer lock."""
    tail = find_tail(path)
    if tail is None:
        return None
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        if is_whole(tail.data):
            os.write(fd, b"\n")
            action = "terminated"
        else:
            keep(tail)  # durable before anything is cut
            os.ftruncate(fd, tail.start)
            action = "quarantined"
        os.fsync(fd)
    finally:
        os.close(fd)
    return TailRepair(path=path, line=tail.line, action=action)
