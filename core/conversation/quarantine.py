"""``quarantine/``: a copy of every malformed line or record that was not imported.

One JSONL file per source file (``<name>-<hash of its path>.jsonl``), one entry per rejected line::

    {"source": "/abs/path.jsonl", "line": 12, "reason": "...", "sha256": "...", "bytes": 123,
     "raw": "the line as text"}                    # or "raw_base64" when it is not UTF-8,
                                                   # or "raw_file" (a sibling file) when too long

Entries are deduplicated by (line, sha256), so ingesting the same broken file twice keeps one copy,
and the second ingest learns that the line was ``already`` quarantined (reported as such, not as a
new problem).
Every write is durable (fsync) before the caller goes on; oversized lines are streamed from the
source file into their own file, never read whole into memory.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from core.clock import utc_now
from core.conversation.items import Rejected
from core.conversation.tail import Tail
from core.fsutil import PRIVATE_FILE_MODE, append_line_durably, ensure_private_dir, fsync_dir
from core.paths import HomePaths

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_COPY_CHUNK = 1024 * 1024


@dataclass(frozen=True)
class QuarantineEntry:
    file: str
    line: int
    reason: str
    already: bool = False  # the same bytes of the same line were quarantined by an earlier ingest

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.reason}"

    def to_dict(self) -> dict[str, object]:
        return {"file": self.file, "line": self.line, "reason": self.reason}


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


class Quarantine:
    def __init__(self, paths: HomePaths) -> None:
        self.root = paths.quarantine
        self._seen: dict[Path, set[tuple[int, str]]] = {}

    def file_for(self, source: Path) -> Path:
        return self.root / f"{_slug(source)}.jsonl"

    def _known(self, source: Path) -> set[tuple[int, str]]:
        known = self._seen.get(source)
        if known is None:
            known = set()
            try:
                lines = self.file_for(source).read_text(encoding="utf-8").splitlines()
            except FileNotFoundError:
                lines = []
            for text in lines:
                try:
                    entry = json.loads(text)
                    known.add((int(entry["line"]), str(entry["sha256"])))
                except (ValueError, KeyError, TypeError):
                    continue
            self._seen[source] = known
        return known

    def add(self, source: Path, rejected: Rejected) -> QuarantineEntry:
        """Keep a durable copy of ``rejected`` (from ``source``) and return its one-line report."""
        ensure_private_dir(self.root)
        entry: dict[str, object] = {"source": str(source), "line": rejected.line, "reason": rejected.reason}
        if rejected.raw is not None:
            digest = hashlib.sha256(rejected.raw).hexdigest()
            entry["bytes"] = len(rejected.raw)
            try:
                entry["raw"] = rejected.raw.decode("utf-8")
            except UnicodeDecodeError:
                entry["raw_base64"] = base64.b64encode(rejected.raw).decode("ascii")
        elif rejected.span is not None:
            digest, size = _hash_span(source, rejected.span)
            name = _raw_name(source, rejected.line, digest)
            if (rejected.line, digest) not in self._known(source) or not (self.root / name).exists():
                digest, size, name = self._copy_span(source, rejected)  # a re-ingest copies nothing again
            entry["bytes"] = size
            entry["raw_file"] = name
        else:
            digest = hashlib.sha256(b"").hexdigest()
        entry["sha256"] = digest
        known = self._known(source)
        already = (rejected.line, digest) in known
        if not already:
            entry["quarantined_at"] = utc_now().isoformat(timespec="seconds")
            append_line_durably(self.file_for(source), json.dumps(entry, ensure_ascii=False, sort_keys=True))
            known.add((rejected.line, digest))
        return QuarantineEntry(file=str(source), line=rejected.line, reason=rejected.reason, already=already)

    def keep_tail(self, path: Path, tail: Tail) -> None:
        """Keep the unterminated fragment at the end of a home file before it is cut off."""
        self.add(path, Rejected(tail.line, "unterminated last line (an interrupted write); cut off", raw=tail.data))

    def _copy_span(self, source: Path, rejected: Rejected) -> tuple[str, int, str]:
        """Stream bytes ``span`` of ``source`` into their own quarantine file (atomic, 0600)."""
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
            name = _raw_name(source, rejected.line, hexdigest)
            os.replace(tmp, self.root / name)
            fsync_dir(self.root)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            raise
        return hexdigest, end - start - remaining, name
