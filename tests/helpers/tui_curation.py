"""Shared set-up for the curation and cold-storage TUI tests (no tests here): where the demo home's
Claude Code memory folder is, candidate ids, moving the table cursor, and proofs that nothing was
lost (every record is either in place or in cold storage, verified, with its tombstone)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from textual.widgets import DataTable, Static

from core.config import load_config
from core.curate import engine
from core.curate.cold import list_cold
from core.curate.model import candidate_id
from core.demo.build import DemoHome

SCOPE = "reverie-memory"
HIGH = ("launch_checklist.md", "project_v1_launch.md", "project_search_trigram.md", "reference_embedding_models.md")
MEDIUM = ("reference_conference_cfp.md", "project_tokenizer_spike.md")
PERSONA = "assistant_voice.md"
IN_COLD = "reference_meetup_talk.md"  # the demo moved it, approved, eight days before the frozen now


def scope_root(demo: DemoHome) -> Path:
    return demo.paths.root / "claude" / "projects" / "-home-me-code-reverie" / "memory"


def cid(rel: str, scope: str = SCOPE) -> str:
    return candidate_id(scope, rel)


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def highlight(app: Any, table_id: str, key: str) -> None:
    table = app.screen.query_one(f"#{table_id}", DataTable)
    table.move_cursor(row=table.get_row_index(key))


def text_of(app: Any, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def row_keys(app: Any, table_id: str) -> list[str]:
    table = app.screen.query_one(f"#{table_id}", DataTable)
    return [str(row.key.value) for row in table.ordered_rows]


def records(root: Path) -> dict[str, bytes]:
    """Every record file of the scope (tombstones apart), by name."""
    return {p.name: p.read_bytes() for p in root.iterdir() if p.is_file() and not p.name.endswith(".tombstone")}


def assert_nothing_lost(demo: DemoHome, before: dict[str, bytes]) -> None:
    """Each record that was there is still there byte for byte, or in cold storage with a copy whose
    SHA-256 matches and a tombstone where it was."""
    root = scope_root(demo)
    now = records(root)
    cold = {item.stone.path: item for item in list_cold(demo.paths, load_config(demo.paths.config), verify=True)}
    for name, data in before.items():
        if name in now:
            assert now[name] == data, f"{name} changed"
            continue
        item = cold.get(name)
        assert item is not None, f"{name} is neither in place nor in cold storage"
        assert item.intact and item.tombstone_present and item.places is not None
        assert item.places.cold.read_bytes() == data
        assert item.stone.sha256 == hashlib.sha256(data).hexdigest()


def decision_of(demo: DemoHome, rel: str) -> str | None:
    from core.curate.decisions import load_decisions

    entry = load_decisions(demo.paths).get(cid(rel))
    return None if entry is None else str(entry["decision"])


def last_scan_tier(demo: DemoHome, rel: str) -> tuple[str, tuple[str, ...]]:
    found = {c.rel: c for c in engine.last_candidates(demo.paths, SCOPE)}
    return found[rel].tier, found[rel].guards
