"""The types every curation module shares: a record as read from a scope, the thresholds a scope
was measured with, and the judgement on one record (a candidate)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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
        return {
            "unused_days": round(self.unused_days, 2),
            "clearly_old_days": round(self.clearly_old_days, 2),
            "measured": self.measured,
            "source": self.source,
        }


@dataclass(frozen=True)
class Candidate:
    """The judgement on one record: its tier, every signal and guard that fired, and why."""

    id: str
    scope: str
    kind: str
    rel: str
    path: Path
    tier: str
    signals: tuple[str, ...]
    guards: tuple[str, ...]
    details: Mapping[str, str]
    rubric_version: int
    age_days: float
    sha256: str
    size: int
    title: str
    preview: str
    decision: str | None = None  # "approved" / "rejected" by the person, for this exact content
    person_only: bool = False  # persona / identity / voice / tone: only a person may move it
    thresholds: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "scope": self.scope,
            "path": str(self.path),
            "tier": self.tier,
            "signals": list(self.signals),
            "guards": list(self.guards),
            "rubric_version": self.rubric_version,
            "rel": self.rel,
            "kind": self.kind,
            "details": dict(self.details),
            "age_days": round(self.age_days, 2),
            "sha256": self.sha256,
            "size": self.size,
            "title": self.title,
            "preview": self.preview,
            "decision": self.decision,
            "person_only": self.person_only,
            "thresholds": dict(self.thresholds),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Candidate:
        return cls(
            id=str(data["id"]),
            scope=str(data["scope"]),
            kind=str(data.get("kind", "")),
            rel=str(data["rel"]),
            path=Path(str(data["path"])),
            tier=str(data["tier"]),
            signals=tuple(data.get("signals", ())),
            guards=tuple(data.get("guards", ())),
            details=dict(data.get("details", {})),
            rubric_version=int(data.get("rubric_version", 0)),
            age_days=float(data.get("age_days", 0.0)),
            sha256=str(data.get("sha256", "")),
            size=int(data.get("size", 0)),
            title=str(data.get("title", "")),
            preview=str(data.get("preview", "")),
            decision=data.get("decision"),
            person_only=bool(data.get("person_only", False)),
            thresholds=dict(data.get("thresholds", {})),
        )
