"""Signals that a record may go, and guards that keep it in place, for one record among its scope.

Signals: ``superseded``, ``expired``, ``finished_project``, ``orphaned`` (nothing points to it) and
``unused`` (past the scope's measured threshold). Guards: ``preference``, ``pinned``,
``restored_recently``, ``indexed``, ``persona`` (never moved without a person) and ``rejected`` (the
person said no to moving this exact content). Persona detection errs toward guarding: a mis-moved
persona record raises no error anywhere (the assistant's voice just drifts), so it looks at the type,
tags, file name, title and opening text, in English, Korean and Japanese.
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import Any

from core.curate import frontmatter
from core.curate.model import DAY, Record, Thresholds
from core.curate.rubric import Rubric

EXPIRY_FIELDS = ("expires", "expires_at", "expires_on", "expiry", "valid_until", "valid_to")
DONE = frozenset({"done", "finished", "complete", "completed", "closed", "archived", "shipped", "cancelled",
                  "canceled", "abandoned", "완료", "종료", "完了", "終了"})
SUPERSEDED_STATUS = frozenset({"superseded", "deprecated", "obsolete", "replaced"})
PREFERENCE_TYPES = frozenset({"feedback", "user", "preference", "preferences", "correction"})
PERSONA_WORDS = frozenset({"persona", "identity", "voice", "tone", "personality", "character", "soul",
                           "말투", "어조", "페르소나", "정체성", "성격", "화법", "문체",
                           "口調", "話し方", "人格", "ペルソナ", "性格", "文体", "キャラ"})
PIN_TAGS = frozenset({"pinned", "pin", "keep"})

_STATUS_LINE = re.compile(r"^\s*(?:[-*]\s*)?\**\s*(?:status|상태|状態)\s*\**\s*[:：]\s*\**\s*([^\s*,.;]+)",
                          re.IGNORECASE | re.MULTILINE)
_DO_DONT = re.compile(
    r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:\*\*)?(?:do not|don't|never|always|avoid|prefer|must not|please)\b"
    r"|\b(?:i|user|the user|they)\s+(?:prefers?|likes?|dislikes?|hates?|wants?)\b"
    r"|하지\s*마|하지\s*말|말\s*것|금지|항상|절대로?\s|선호|싫어|좋아해"
    r"|しないで|してはいけない|禁止|必ず|常に|好み|嫌い",
    re.IGNORECASE | re.MULTILINE,
)
_PERSONA_TEXT = re.compile(
    r"\b(?:persona|personality|tone of voice|voice and tone|speaking style|writing voice|speak(?:s)? like|"
    r"your identity|who you are|your name is|your character)\b"
    r"|말투|어조|페르소나|정체성|성격|화법|문체|口調|話し方|人格|ペルソナ|性格|キャラクター",
    re.IGNORECASE,
)
_NAME_SPLIT = re.compile(r"[\s_\-./]+")
# Cheap prefilters: the regular expressions above run only on text holding one of these (lower case).
_DO_DONT_HINTS = ("do not", "don't", "never", "always", "avoid", "prefer", "must", "please", "like", "hate",
                  "want", "하지", "말 것", "금지", "항상", "절대", "선호", "싫어", "좋아해",
                  "しないで", "してはいけない", "禁止", "必ず", "常に", "好み", "嫌い")
_PERSONA_HINTS = ("persona", "personality", "tone", "voice", "speak", "identity", "who you are", "your name",
                  "character", "말투", "어조", "페르소나", "정체성", "성격", "화법", "문체",
                  "口調", "話し方", "人格", "ペルソナ", "性格", "キャラクター")


def _words(text: str) -> set[str]:
    return {w for w in _NAME_SPLIT.split(text.lower()) if w}


@dataclass
class ScopeContext:
    """What judging one record needs to know about the others in its scope."""

    root: Path
    supports_orphan: bool
    records: dict[str, Record]
    by_name: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    inbound: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    indexed_by: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    superseded: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    project_status: dict[str, tuple[str, str]] = field(default_factory=dict)  # name → (status, rel)

    @classmethod
    def build(cls, root: Path, supports_orphan: bool, records: Iterable[Record]) -> ScopeContext:
        ctx = cls(root=root, supports_orphan=supports_orphan, records={r.rel: r for r in records})
        for record in ctx.records.values():
            for name in record.names:
                ctx.by_name[name].add(record.rel)
        for record in ctx.records.values():
            ctx._link(record)
            ctx._supersession(record)
            ctx._project(record)
        return ctx

    def resolve(self, source: str, target: str) -> set[str]:
        """The records a link or name written in ``source`` points to (empty when none)."""
        target = target.strip()
        if not target:
            return set()
        found: set[str] = set()
        if target.startswith(("~", "/")):
            absolute = Path(target).expanduser()
            for root in (self.root, self.root.resolve()):
                try:
                    found.add(absolute.relative_to(root).as_posix())
                except ValueError:
                    continue
        else:
            base = PurePosixPath(source).parent.as_posix()
            for candidate in (posixpath.join(base, target), target):
                normal = posixpath.normpath(candidate)
                if not normal.startswith("../"):
                    found.add(normal)
                    if not PurePosixPath(normal).suffix:
                        found.update({normal + ".md", normal + ".json"})
        hits = {rel for rel in found if rel in self.records and rel != source}
        if not hits:
            hits = {rel for rel in self.by_name.get(target.lower(), ()) if rel != source}
        return hits

    def _link(self, record: Record) -> None:
        for target in (*record.links, *record.mentions):
            for hit in self.resolve(record.rel, target):
                (self.indexed_by if record.is_index and _guards_by_index(record) else self.inbound)[hit].add(
                    record.rel)

    def _supersession(self, record: Record) -> None:
        for target in record.supersedes:
            for hit in self.resolve(record.rel, target):
                self.superseded[hit].append(f"{record.rel} says it replaces it")
        for target in record.superseded_by:
            hits = self.resolve(record.rel, target)
            where = ", ".join(sorted(hits)) if hits else f"{target} (not in this scope)"
            self.superseded[record.rel].append(f"superseded by {where}")
        status = str(record.frontmatter.get("status") or "").strip().lower()
        if status in SUPERSEDED_STATUS:
            self.superseded[record.rel].append(f"status: {status}")

    def _project(self, record: Record) -> None:
        if _own_type(record) != "project" and "project" not in record.tags:
            return
        status = project_status(record)
        if status:
            for name in record.names:
                self.project_status.setdefault(name, (status, record.rel))


def _guards_by_index(record: Record) -> bool:
    """An anchor such as ``raw_memories.md`` is never a candidate but does not guard what it lists."""
    return PurePosixPath(record.rel).name.lower() != "raw_memories.md"


def project_status(record: Record) -> str:
    for key in ("status", "project_status", "state"):
        value = record.frontmatter.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip().lower()
    match = _STATUS_LINE.search("\n".join(record.text.splitlines()[:30]))
    return match.group(1).lower() if match else ""


def record_projects(record: Record) -> list[str]:
    names = frontmatter.as_list(record.frontmatter.get("project"))
    names += [tag.split(":", 1)[1] for tag in record.tags if tag.startswith("project:")]
    return [n.strip().lower() for n in names if n.strip()]


@dataclass(frozen=True)
class Evaluation:
    signals: dict[str, str]  # name → why
    guards: dict[str, str]
    uncertain: tuple[str, ...]
    person_only: bool


def _expired(record: Record, now: float, grace_days: float, uncertain: list[str]) -> str | None:
    for key in EXPIRY_FIELDS:
        if key not in record.frontmatter:
            continue
        try:
            when = frontmatter.parse_when(record.frontmatter[key])
        except ValueError as exc:
            uncertain.append(f"field '{key}': {exc}")
            continue
        if when is not None and (now - when.timestamp()) / DAY >= grace_days and when.timestamp() < now:
            return f"{key} {when.date().isoformat()} is past"
    return None


def _finished(record: Record, ctx: ScopeContext) -> str | None:
    if _own_type(record) == "project" or "project" in record.tags:
        status = project_status(record)
        if status in DONE:
            return f"this project is marked {status}"
    explicit = str(record.frontmatter.get("project_status") or "").strip().lower()
    if explicit in DONE:
        return f"project_status: {explicit}"
    for name in record_projects(record):
        status, where = ctx.project_status.get(name, ("", ""))
        if status in DONE:
            return f"project {name} is marked {status} in {where}"
    return None


def _own_type(record: Record) -> str:
    """The record's frontmatter ``type``, lowercased ("" when it has none)."""
    return str(record.frontmatter.get("type") or "").strip().lower()


def _typed_or_tagged(record: Record, words: frozenset[str]) -> str | None:
    """Why ``record`` is of a kind ``words`` name: its ``type`` is one of them, or a tag is."""
    kind = _own_type(record)
    if kind in words:
        return f"type: {kind}"
    tags = words.intersection(record.tags)
    if tags:
        return f"tagged {sorted(tags)[0]}"
    return None


def _hinted_match(text: str, hints: tuple[str, ...], pattern: re.Pattern[str]) -> re.Match[str] | None:
    """``pattern`` in ``text``, searched only when one of the cheap lowercase ``hints`` occurs."""
    lowered = text.lower()
    return pattern.search(text) if any(h in lowered for h in hints) else None


def _preference(record: Record) -> str | None:
    typed = _typed_or_tagged(record, PREFERENCE_TYPES)
    if typed:
        return typed
    match = _hinted_match(record.text, _DO_DONT_HINTS, _DO_DONT)
    if match:
        return f"do / don't wording: {match.group(0).strip()!r}"
    return None


def _persona(record: Record) -> str | None:
    typed = _typed_or_tagged(record, PERSONA_WORDS)
    if typed:
        return typed
    named = PERSONA_WORDS.intersection(_words(PurePosixPath(record.rel).stem) | _words(record.title))
    if named:
        return f"named {sorted(named)[0]}"
    opening = " ".join(str(record.frontmatter.get(k) or "") for k in ("description", "title", "name"))
    match = _hinted_match(opening + "\n" + record.text[:1500], _PERSONA_HINTS, _PERSONA_TEXT)
    if match:
        return f"speaks of {match.group(0).strip()!r}"
    return None


def _truthy(value: Any) -> bool:
    return value is True or (isinstance(value, str) and value.strip().lower() in {"true", "yes", "1"})


def evaluate(
    record: Record,
    ctx: ScopeContext,
    rubric: Rubric,
    thresholds: Thresholds,
    now: float,
    *,
    restored_at: float | None = None,
    restored_guard_days: float = 30.0,
    rejected: Mapping[str, Any] | None = None,
) -> Evaluation:
    """Every signal and guard that fires for ``record``, each with a one-line reason."""
    signals: dict[str, str] = {}
    guards: dict[str, str] = {}
    uncertain = list(record.problems)
    age = record.age_days(now)

    def fire(name: str, why: str | None) -> None:
        if why and age >= rubric.rule(name).min_age_days:
            signals[name] = why

    if ctx.superseded.get(record.rel):
        fire("superseded", "; ".join(ctx.superseded[record.rel]))
    why = _expired(record, now, rubric.rule("expired").min_age_days, uncertain)
    if why:
        signals["expired"] = why
    fire("finished_project", _finished(record, ctx))
    if ctx.supports_orphan and not ctx.inbound.get(record.rel) and not ctx.indexed_by.get(record.rel):
        fire("orphaned", "no index entry or link points to it")
    limit = thresholds.unused_days * rubric.rule("unused").factor
    if age >= limit:
        fire("unused", f"unchanged and unused for {age:.0f} days (threshold {limit:.0f})")

    if (why := _preference(record)) is not None:
        guards["preference"] = why
    if _truthy(record.frontmatter.get("pinned")) or _truthy(record.frontmatter.get("keep")) or (
            PIN_TAGS.intersection(record.tags)):
        guards["pinned"] = "pinned"
    if restored_at is not None and (now - restored_at) / DAY < restored_guard_days:
        when = datetime.fromtimestamp(restored_at).date().isoformat()
        guards["restored_recently"] = f"restored {when} (guarded for {restored_guard_days:g} days)"
    if ctx.indexed_by.get(record.rel):
        guards["indexed"] = "listed in " + ", ".join(sorted(ctx.indexed_by[record.rel]))
    persona = _persona(record)
    if persona:
        guards["persona"] = persona + " (only a person decides)"
    if rejected:
        guards["rejected"] = f"you rejected moving it on {str(rejected.get('at', ''))[:10]}"
    return Evaluation(signals, guards, tuple(uncertain), person_only=persona is not None)
