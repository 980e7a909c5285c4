"""The types every curation module shares: a record as read from a scope, the thresholds a scope
was measured with, and the judgement on one record (a candidate)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.errors import RecordError
from core.typed import convert, to_builtins

TIERS = ("high", "medium", "low")
SIGNALS = ("superseded", "expired", "finished_project", "orphaned", "unused")
GUARDS = ("preference", "pinned", "restored_recently", "indexed", "persona", "rejected")
DAY = 86400.0


def candidate_id(scope: str, rel: str) -> str:
    """A short id that stays the same for the same record across scans: ``c-`` and 10 hex digits."""
    return "c-" + hashlib.sha256(f"{scope}\0{rel}".encode()).hexdigest()[:10]


@dataclass(frozen=True)
class Record:
    """One record of a scope: a memory file, a note, or a vault memory.

    ``rel`` is the POSIX path relative to the scope root. ``links`` are scope-relative paths this
    record points to; ``mentions`` are names it refers to (wiki links, ``supersedes`` values), both
    resolved against the other records by the scope context. Index records (``MEMORY.md``,
    ``CLAUDE.md``, ``AGENTS.md``) are read for their references and are never candidates.
    """

    scope: str
    rel: str
    path: Path
    text: str
    frontmatter: Mapping[str, Any]
    names: tuple[str, ...]  # lower-case names others may use for it (stem, frontmatter name, id)
    links: tuple[str, ...] = ()
    mentions: tuple[str, ...] = ()
    supersedes: tuple[str, ...] = ()  # link targets or names this record says it replaces
    superseded_by: tuple[str, ...] = ()  # link targets or names it says replace it
    tags: tuple[str, ...] = ()
    size: int = 0
    mtime: float = 0.0
    last_used: float = 0.0  # the later of the last change and any recorded use
    sha256: str = ""
    is_index: bool = False
    problems: tuple[str, ...] = ()  # why the reader is unsure about it (one line each)

    @property
    def title(self) -> str:
        for key in ("name", "title"):
            value = self.frontmatter.get(key)
            if isinstance(value, str) and value.strip():
                return value.strip()
        for line in self.text.splitlines():
            stripped = line.strip().lstrip("#").strip()
            if stripped:
                return stripped[:80]
        return self.rel

    def preview(self, limit: int = 240) -> str:
        text = " ".join(self.text.split())
        return text if len(text) <= limit else text[: limit - 1] + "…"

    def age_days(self, now: float) -> float:
        return max(0.0, (now - self.last_used) / DAY)


@dataclass(frozen=True)
class Thresholds:
    """The ages a scope's records are judged against, and where they came from."""

    unused_days: float
    clearly_old_days: float
    measured: bool
    source: str  # "measured 2026-03-01 (n=412, jenks)" or why defaults are in use

    def to_dict(self) -> dict[str, Any]:
        """The fields by msgspec; the ages are written rounded to 0.01 day (the stored form). Kept written
        out: msgspec writes a float as it is, and candidates.json's bytes (pinned in
        tests/curate/test_curate_stored_form.py) hold the rounded measurement."""
        return {**to_builtins(self), "unused_days": round(self.unused_days, 2),
                "clearly_old_days": round(self.clearly_old_days, 2)}


@dataclass(frozen=True, kw_only=True)
class Candidate:
    """The judgement on one record: its tier, every signal and guard that fired, and why.

    The fields are declared in the order of the stored form (the last scan's ``candidates.json``),
    which msgspec writes and reads; the defaults are what a candidate from an older scan lacks."""

    id: str
    scope: str
    path: Path
    tier: str
    signals: tuple[str, ...] = ()
    guards: tuple[str, ...] = ()
    rubric_version: int = 0
    rel: str
    kind: str = ""
    details: Mapping[str, str] = field(default_factory=dict)
    age_days: float = 0.0
    sha256: str = ""
    size: int = 0
    title: str = ""
    preview: str = ""
    decision: str | None = None  # "approved" / "rejected" by the person, for this exact content
    person_only: bool = False  # persona / identity / voice / tone: only a person may move it
    thresholds: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The fields by msgspec, in declared order; the age is written rounded to 0.01 day. Kept written
        out for that rounding, which msgspec does not do (candidates.json's bytes are pinned)."""
        return {**to_builtins(self), "age_days": round(self.age_days, 2)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Candidate:
        """A stored candidate by msgspec; a field of the wrong JSON type is a ``RecordError`` naming the
        candidate and the field (the one thing this adds to ``msgspec.convert``)."""
        where = f"candidate {data.get('id')!r}" if isinstance(data, Mapping) else "candidate"
        return convert(data, cls, where, RecordError)
