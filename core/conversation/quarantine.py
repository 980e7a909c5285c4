"""``quarantine/``: a copy of every malformed line or record that was not imported.

One JSONL file per source file (``<name>-<hash of its path>.jsonl``), one :class:`StoredEntry` per
rejected line: the source, line, reason and SHA-256, and the raw bytes as text, as base64 when they
are not UTF-8, or in a sibling file when too long. Entries are deduplicated by (line, sha256), so a
second ingest of the same broken file keeps one copy and learns the line was ``already`` quarantined.
Every write is durable (fsync) before the caller goes on; oversized lines are streamed from the source
file, never read whole into memory.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import re
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from core import clock
from core.conversation.items import Rejected
from core.conversation.tail import Tail
from core.fsutil import PRIVATE_FILE_MODE, append_line_durably, ensure_private_dir, fsync_dir
from core.paths import HomePaths
from core.typed import to_builtins

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_COPY_CHUNK = 1024 * 1024
_RAW_NAME = re.compile(r"[A-Za-z0-9._-]{1,250}\.raw\Z")  # as _raw_name makes them: a name in the folder, no path


@dataclass(frozen=True)
class QuarantineEntry:
    file: str
    line: int
    reason: str
    already: bool = False  # the same bytes of the same line were quarantined by an earlier ingest

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.reason}"

    def to_dict(self) -> dict[str, object]:
        """``file``, ``line``, ``reason``: whether it was ``already`` there is the report's business (it
        says so by the list it puts the entry in), so that field is left out of this published form."""
        return to_builtins(self, omit=("already",))


class StoredEntry(msgspec.Struct, omit_defaults=True):
    """One line of a quarantine file, written with sorted keys. Exactly one way of keeping the raw
    bytes is set (``raw``, ``raw_base64`` or ``raw_file``), none for an empty record; an entry met
    again by a later ingest is not written again, so ``quarantined_at`` is when it was first kept."""

    source: str
    line: int
    reason: str
    sha256: str
    quarantined_at: str | None = None
    bytes: int | None = None
    raw: str | None = None
    raw_base64: str | None = None
    raw_file: str | None = None

    def to_line(self) -> str:
        return json.dumps(to_builtins(self), ensure_ascii=False, sort_keys=True)


_DECODER = msgspec.json.Decoder(StoredEntry)


def _slug(source: Path) -> str:
    digest = hashlib.sha256(str(source).encode("utf-8", "surrogateescape")).hexdigest()[:12]
    name = _UNSAFE.sub("_", source.name)[:60] or "input"
    return f"{name}-{digest}"


def _raw_name(source: Path, line: int, digest: str) -> str:
    return f"{_slug(source)}-L{line}-{digest[:12]}.raw"


def _hash_span(source: Path, span: tuple[int, int]) -> tuple[str, int]:
    """SHA-256 and length of bytes ``span`` of ``source``, read in chunks."""
    start, end = span
    digest = hashlib.sha256()
    size = 0
    with source.open("rb") as src:
        src.seek(start)
        while size < end - start and (block := src.read(min(_COPY_CHUNK, end - start - size))):
            digest.update(block)
            size += len(block)
    return digest.hexdigest(), size


def _hash_file(path: Path, size: int) -> str:
    """SHA-256 of the first ``size`` bytes of ``path``."""
    return _hash_span(path, (0, size))[0]


def _append_span(path: Path, source: Path, span: tuple[int, int]) -> None:
    """Append bytes ``span`` of ``source`` to ``path`` (never through a symlink, and only while it has no
    other hard link: checked again on the open file) and fsync. Killed
    midway, the file holds a prefix of the span: the next call finds it and appends the rest."""
    start, end = span
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1:
            raise OSError(f"{path}: not a file of the quarantine's own; nothing appended")
        with source.open("rb") as src:
            src.seek(start)
            remaining = end - start
            while remaining > 0 and (block := src.read(min(_COPY_CHUNK, remaining))):
                view = memoryview(block)
                while view:
                    view = view[os.write(fd, view):]
                remaining -= len(block)
        os.fsync(fd)
    finally:
        os.close(fd)


class Quarantine:
    def __init__(self, paths: HomePaths) -> None:
        self.root = paths.quarantine
        self._seen: dict[Path, dict[tuple[int, str], StoredEntry]] = {}

    def file_for(self, source: Path) -> Path:
        return self.root / f"{_slug(source)}.jsonl"

    def _known(self, source: Path) -> dict[tuple[int, str], StoredEntry]:
        """The entries kept for ``source``, by (line, sha256)."""
        known = self._seen.get(source)
        if known is None:
            known = {}
            try:
                lines = self.file_for(source).read_text(encoding="utf-8").splitlines()
            except FileNotFoundError:
                lines = []
            for text in lines:
                try:
                    entry = _DECODER.decode(text)
                except (msgspec.DecodeError, msgspec.ValidationError):
                    continue  # not an entry: it cannot say a line is already kept
                known.setdefault((entry.line, entry.sha256), entry)
            self._seen[source] = known
        return known

    def add(self, source: Path, rejected: Rejected) -> QuarantineEntry:
        """Keep a durable copy of ``rejected`` (from ``source``) and return its one-line report."""
        ensure_private_dir(self.root)
        raw: dict[str, Any] = {}
        if rejected.raw is not None:
            digest = hashlib.sha256(rejected.raw).hexdigest()
            raw["bytes"] = len(rejected.raw)
            try:
                raw["raw"] = rejected.raw.decode("utf-8")
            except UnicodeDecodeError:
                raw["raw_base64"] = base64.b64encode(rejected.raw).decode("ascii")
        elif rejected.span is not None:
            digest, size = _hash_span(source, rejected.span)
            shared = self._shared_copy(source, rejected, digest, size)  # a re-ingest copies nothing again
            if shared is None:
                entry = self._known(source).get((rejected.line, digest))
                name = entry.raw_file if entry and entry.raw_file and _RAW_NAME.match(entry.raw_file) else None
                digest, size, shared = self._copy_span(source, rejected, name)
            raw.update(bytes=size, raw_file=shared)
        else:
            digest = hashlib.sha256(b"").hexdigest()
        known = self._known(source)
        already = (rejected.line, digest) in known
        if not already:
            entry = StoredEntry(source=str(source), line=rejected.line, reason=rejected.reason, sha256=digest,
                                quarantined_at=clock.utc_now().isoformat(timespec="seconds"), **raw)
            append_line_durably(self.file_for(source), entry.to_line())
            known[(rejected.line, digest)] = entry
        return QuarantineEntry(file=str(source), line=rejected.line, reason=rejected.reason, already=already)

    def keep_tail(self, path: Path, tail: Tail) -> None:
        """Keep the unterminated fragment at the end of a home file before it is cut off."""
        self.add(path, Rejected(tail.line, "unterminated last line (an interrupted write); cut off", raw=tail.data))

    def _shared_copy(self, source: Path, rejected: Rejected, digest: str, size: int) -> str | None:
        """A raw file already kept for this line of ``source`` whose first ``size`` bytes are the span's
        (then nothing is written), or whose bytes are where the span starts (then only the rest is
        appended to it): the same line read as another format (ChatGPT's reader keeps a broken element
        up to the end of the file, the line readers the line alone) is not copied again. An entry's raw
        bytes are the first ``bytes`` bytes of its ``raw_file``, so appending changes no other entry's."""
        assert rejected.span is not None
        start, end = rejected.span
        for entry in list(self._known(source).values()):
            if entry.line != rejected.line or entry.raw_file is None or not _RAW_NAME.match(entry.raw_file):
                continue  # an entry file is plaintext in the home: a name it gives is used only if ours
            path = self.root / entry.raw_file
            try:
                held = os.lstat(path)
            except FileNotFoundError:
                continue
            if not stat.S_ISREG(held.st_mode):
                continue
            if held.st_size >= size and _hash_file(path, size) == digest:
                return entry.raw_file
            where = (start, start + held.st_size)
            if held.st_size < size and held.st_nlink == 1 and \
                    _hash_file(path, held.st_size) == _hash_span(source, where)[0]:  # never a file linked elsewhere
                _append_span(path, source, (start + held.st_size, end))
                return entry.raw_file
        return None

    def _copy_span(self, source: Path, rejected: Rejected, name: str | None = None) -> tuple[str, int, str]:
        """Stream bytes ``span`` of ``source`` into their own quarantine file (atomic, 0600), named
        ``name`` when an entry already names it (a copy that went missing), else by their digest."""
        assert rejected.span is not None
        start, end = rejected.span
        digest = hashlib.sha256()
        fd, tmp_name = tempfile.mkstemp(prefix=".raw.", suffix=".tmp", dir=self.root)
        tmp = Path(tmp_name)
        try:
            with os.fdopen(fd, "wb") as out, source.open("rb") as src:
                src.seek(start)
                remaining = end - start
                while remaining > 0:
                    block = src.read(min(_COPY_CHUNK, remaining))
                    if not block:
                        break
                    digest.update(block)
                    out.write(block)
                    remaining -= len(block)
                out.flush()
                os.fsync(out.fileno())
            os.chmod(tmp, PRIVATE_FILE_MODE)
            hexdigest = digest.hexdigest()
            name = name or _raw_name(source, rejected.line, hexdigest)
            os.replace(tmp, self.root / name)
            fsync_dir(self.root)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            raise
        return hexdigest, end - start - remaining, name
