"""A realistic data home for fault injection, built once and copied for every trial.

What it holds, every part written through Reverie's own code paths:

- reviewed memories (suggestions accepted with an edit, rejected, approved, finalized) and
  unreviewed ones (``add_memory``);
- drafts: one open with a pending AI suggestion, one approved but not yet finalized;
- day logs of closed UTC days, ingested from generic JSONL and sealed in the ledger, one of them
  grown by a late ingest after its seal and resealed;
- curation: a vault scope and a markdown scope, with one memory and the old notes moved to cold
  storage (cold copies, tombstone mirrors, and the tombstone beside each moved record);
- ``earlier``: a full copy of the home taken half way, for rollback trials, and ``checkpoint``: the
  ledger head the person would have kept after the last write.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from core.config import Config, ScopeConfig, load_config, save_config
from core.conversation import ingest
from core.curate import engine
from core.paths import HomePaths
from core.vault.crypto import VaultKeys
from core.vault.ledger import Checkpoint
from core.vault.store import MemoryStore
from tests.helpers.vault import PASSPHRASE, finalize_reviewed, make_vault

REVIEWED = [
    "She laughed when the dog sneezed during the wedding toast.",
    "We planted tomatoes on the balcony after the long spring rain.",
    "Grandpa told the story about the night train to Busan again.",
    "The first snow fell while we were walking in Seoul Forest.",
    "Mina decided to switch teams after the Tuesday retrospective.",
]
UNREVIEWED = [
    "Remember to renew the passport before the trip to Osaka.",
    "The landlord promised to fix the boiler by the end of November.",
]
OPEN_DRAFT = "Jun said the quarterly plan moves the launch to March."
APPROVED_DRAFT = "We chose the blue tiles for the bathroom after three visits."
LATE_MEMORY = "Kate finally beat me at chess on the rainy Sunday afternoon."
DAYS = ("2025-03-01", "2025-03-02", "2025-03-03")
TURN_TEXTS = (
    "Let us plan the ski trip for the second week of January.",
    "I think the cabin near the lake is the better choice for the kids.",
    "The budget spreadsheet needs a column for the rental car.",
    "Can you summarize what we decided about the school recital?",
)

# Every plaintext sentence a memory or draft holds: none may appear in vault/, drafts/ or cold/mine/.
SECRET_SENTENCES = (*REVIEWED, *UNREVIEWED, OPEN_DRAFT, APPROVED_DRAFT, LATE_MEMORY)


@dataclass
class BuiltHome:
    """A built home and what the trials need to know about it (paths are inside ``base``)."""

    base: Path
    paths: HomePaths
    keys: VaultKeys
    notes_root: Path
    memory_ids: list[str] = field(default_factory=list)  # memories standing in vault/
    archived_ids: list[str] = field(default_factory=list)  # vault memories moved to cold storage
    draft_ids: list[str] = field(default_factory=list)
    finalized_draft_ids: list[str] = field(default_factory=list)
    day_ids: list[str] = field(default_factory=list)  # sealed day logs, as ledger record ids
    earlier: Path | None = None  # a copy of the home before the later writes
    checkpoint: Checkpoint = field(default_factory=lambda: Checkpoint(0, "0" * 64))
    later: datetime | None = None  # the clock curation ran with (records look old by then)


def home_paths(base: Path) -> HomePaths:
    return HomePaths(root=base / "home", cache=base / "cache")


def _turn_lines(day: str, count: int, offset: int = 0, session: str = "trip") -> str:
    lines = []
    for i in range(count):
        n = i + offset
        lines.append(json.dumps({
            "ts": f"{day}T{8 + n % 12:02d}:{(7 * n) % 60:02d}:00Z",
            "role": "user" if n % 2 == 0 else "assistant",
            "text": f"{TURN_TEXTS[n % len(TURN_TEXTS)]} (turn {n} of {day})",
            "session": session,
            "id": f"{day}-{session}-{n}",
        }, ensure_ascii=False))
    return "\n".join(lines) + "\n"


def _put_note(root: Path, rel: str, text: str, age_days: float, now: datetime) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    stamp = (now - timedelta(days=age_days)).timestamp()
    os.utime(path, (stamp, stamp))


def _notes(root: Path, now: datetime) -> None:
    """Twelve recent notes that link each other and three old loose ones (high tier once measured)."""
    for i in range(12):
        _put_note(root, f"recent-{i}.md", f"recent {i} [[recent-{(i + 1) % 12}]]", i + 1, now)
    _put_note(root, "old/a.md", "# A\n\nan old loose note about the garden\n", 600, now)
    _put_note(root, "old/b.md", "# B\n\nanother old note, about the bicycle\n", 620, now)


def build_home(base: Path, *, apply_curation: bool = True, approved_drafts: int = 0) -> BuiltHome:
    """Build the home under ``base`` (``base/home``, ``base/cache``, ``base/notes``, ``base/earlier``).

    With ``apply_curation`` false, curation is scanned and two vault memories approved for a move,
    but nothing is moved (a home for crash trials of the move itself). ``approved_drafts`` more
    drafts wait approved, for crash trials of finalization."""
    base.mkdir(parents=True, exist_ok=True)
    paths = home_paths(base).ensure()
    vault = make_vault(paths)
    built = BuiltHome(base=base, paths=paths, keys=vault.keys, notes_root=base / "notes")

    for sentence in REVIEWED:
        memory = finalize_reviewed(vault, sentence)
        built.memory_ids.append(memory.memory_id)
    for sentence in UNREVIEWED:
        built.memory_ids.append(vault.add_memory(sentence, ["todo"], title="A reminder").memory_id)
    built.finalized_draft_ids = [d.draft_id for d in vault.list_drafts(state="finalized")]

    pending = vault.create_draft(OPEN_DRAFT, ["work"])
    pending = pending.add_suggestion("occurred_at", "2026-01-12T09:00:00+09:00", "date-finder", model="rules",
                                     process_version="1", confidence=0.6, suggestion_id="s-when")
    vault.save_draft(pending)
    approved = vault.create_draft(APPROVED_DRAFT, ["home"]).approve(reviewer="me")
    vault.save_draft(approved)

    source = base / "turns.jsonl"
    source.write_text("".join(_turn_lines(day, 6) for day in DAYS), encoding="utf-8")
    report = ingest(paths, [source], keys=vault.keys)
    assert report.added == 6 * len(DAYS) and len(report.sealed) == len(DAYS), report.to_dict()
    built.day_ids = [f"logs/{d[:4]}/{d[5:7]}/{d}.jsonl" for d in DAYS]

    built.earlier = base / "earlier"
    shutil.copytree(paths.root, built.earlier)

    late = base / "late.jsonl"
    late.write_text(_turn_lines(DAYS[1], 3, offset=6, session="late"), encoding="utf-8")
    report = ingest(paths, [late], keys=vault.keys)
    assert report.resealed == [DAYS[1]], report.to_dict()

    later = datetime.now(UTC) + timedelta(days=3 * 365)
    _notes(built.notes_root, later)
    config = Config()
    config.curation.report_only_runs = 0
    config.curation.auto_move_cap = 2
    config.curation.scopes = [ScopeConfig("mine", "vault", ""), ScopeConfig("notes", "markdown", str(built.notes_root))]
    save_config(paths.config, config)
    scan = engine.scan(paths, config, unlock=lambda: vault.keys, now=later)
    chosen = [next(c for c in scan.candidates if c.scope == "mine" and c.rel == f"{built.memory_ids[i]}.json")
              for i in ((2,) if apply_curation else (2, 5))]
    for candidate in chosen:
        engine.decide_candidate(paths, candidate.id, "approved", now=later)
    if apply_curation:
        applied = engine.apply(paths, config, unlock=lambda: vault.keys, now=later)
        assert not applied.errors, applied.errors
        moved = sorted(m.stone.path for m in applied.moved)
        assert moved == sorted([chosen[0].rel, "old/a.md", "old/b.md"]), moved
        built.archived_ids = [built.memory_ids.pop(2)]
    built.later = later

    late_draft = vault.create_draft(LATE_MEMORY, ["games"]).approve(reviewer="me")
    vault.save_draft(late_draft)
    built.memory_ids.append(vault.finalize_draft(late_draft).memory_id)
    built.finalized_draft_ids.append(late_draft.draft_id)
    for i in range(approved_drafts):
        waiting = vault.create_draft(f"Waiting draft {i}: the picnic by the Han river was moved to Sunday.", ["plan"])
        waiting = waiting.add_suggestion("location", "Han river park", "echo", suggestion_id="s-where")
        vault.save_draft(waiting.accept("s-where", reviewer="me").approve(reviewer="me"))
    built.draft_ids = sorted(p.stem for p in paths.drafts.glob("*.json"))
    built.checkpoint = vault.ledger.read().head()
    return built


def copy_home(built: BuiltHome, base: Path) -> BuiltHome:
    """A copy of ``built`` under ``base`` (the notes scope is shared: verify never reads it)."""
    paths = home_paths(base)
    shutil.copytree(built.paths.root, paths.root, symlinks=True)
    return BuiltHome(
        base=base, paths=paths, keys=built.keys, notes_root=built.notes_root, memory_ids=list(built.memory_ids),
        archived_ids=list(built.archived_ids), draft_ids=list(built.draft_ids),
        finalized_draft_ids=list(built.finalized_draft_ids), day_ids=list(built.day_ids), earlier=built.earlier,
        checkpoint=built.checkpoint, later=built.later,
    )


def clone_home(built: BuiltHome, base: Path) -> BuiltHome:
    """A full copy of ``built`` under ``base``: the home, the notes scope (its path in config.toml
    rewritten) and the cache folder, for trials that write."""
    copy = copy_home(built, base)
    copy.notes_root = base / "notes"
    if built.notes_root.exists():
        shutil.copytree(built.notes_root, copy.notes_root, symlinks=True)
    if built.paths.cache.exists():
        shutil.copytree(built.paths.cache, copy.paths.cache, symlinks=True)
    config = load_config(copy.paths.config)
    for scope in config.curation.scopes:
        if scope.path == str(built.notes_root):
            scope.path = str(copy.notes_root)
    save_config(copy.paths.config, config)
    copy.later = built.later
    return copy


def open_vault(built: BuiltHome) -> MemoryStore:
    return MemoryStore.open(built.paths, built.keys)


__all__ = ["PASSPHRASE", "SECRET_SENTENCES", "BuiltHome", "build_home", "clone_home", "copy_home", "home_paths",
           "open_vault"]
