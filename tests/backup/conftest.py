"""A home holding one of everything a backup keeps: memories and drafts, sealed day logs, a quarantined
line, topic markers, a curation run with records in cold storage, and its index."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from core.curate import engine
from core.paths import HomePaths
from core.vault.crypto import KdfParams
from core.workbench import Workbench
from tests.helpers.curate import NOW, configure, old_notes, unlocker
from tests.helpers.recall import ConceptEmbedder
from tests.helpers.vault import PASSPHRASE, populated

BACKUP_PASSPHRASE = "backup passphrase for tests"
SECRET_SENTENCE = "the violet submarine hums beneath Lake Baikal at midnight"
LOG_LINES = [
    {"ts": "2026-05-28T20:00:00Z", "role": "user", "actor": "kate", "session": "ski",
     "text": "we went skiing on the north slope and the snow was perfect"},
    {"ts": "2026-05-28T20:01:00Z", "role": "assistant", "session": "ski", "text": "Noted: north slope, perfect snow"},
    {"ts": "2026-05-29T09:00:00Z", "role": "user", "session": "garden",
     "text": "planted tomatoes on the balcony"},
    {"ts": "2026-05-30T12:00:00Z", "role": "user", "session": "work", "text": SECRET_SENTENCE},
    {"ts": "2026-05-30T12:05:00Z", "role": "user", "session": "work", "text": "the project deadline moved"},
]


def open_workbench(paths: HomePaths) -> Workbench:
    """A workbench with cheap Argon2id parameters and the model-free embedder."""
    return Workbench(paths, kdf=KdfParams.for_tests(), embedder=lambda: ConceptEmbedder())


def write_jsonl(path: Path, rows: list[dict], *, bad_line: bool = False) -> Path:
    lines = [json.dumps(row) for row in rows]
    if bad_line:
        lines.insert(1, "{not json at all")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@dataclass
class RichHome:
    paths: HomePaths
    workbench: Workbench
    scope_root: Path


@pytest.fixture
def rich_home(paths: HomePaths, tmp_path: Path) -> Iterator[RichHome]:
    vault, _ = populated(paths)
    vault.save_draft(vault.create_draft("an open draft about the ski trip", ["winter"]))
    notes = old_notes(tmp_path / "scopes")
    config = configure(paths, ("notes", "markdown", notes), report_only_runs=0, auto_move_cap=10)
    moved = engine.apply(paths, config, unlock=unlocker(vault.keys), now=NOW)
    assert moved.moved and not moved.errors
    workbench = open_workbench(paths)
    workbench.unlock(PASSPHRASE)
    report = workbench.log.ingest([write_jsonl(tmp_path / "chat.jsonl", LOG_LINES, bad_line=True)])
    assert report.report.sealed and report.report.quarantined, "closed days sealed, the bad line kept"
    workbench.mark("planning the ski trip and the garden")
    workbench.log.reindex(embed=True)
    yield RichHome(paths, workbench, notes)
    workbench.close()


def home_files(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file of a home that a backup keeps: relative path → (bytes, mode)."""
    from core.backup.entries import is_backed_up

    found = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if path.is_file() and is_backed_up(rel.parts[0]) and not path.name.endswith(".tmp"):
            found[rel.as_posix()] = (path.read_bytes(), path.stat().st_mode & 0o777)
    return found
