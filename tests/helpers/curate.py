"""Builders for curation tests: realistic scopes in temporary folders, with ages set on the files.

Not a test module of its own; the ``test_curate_*`` modules import from it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from core.config import Config, ScopeConfig, save_config
from core.paths import HomePaths
from core.vault.crypto import VaultKeys

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def put(root: Path, rel: str, text: str, age_days: float = 0.0, now: datetime = NOW) -> Path:
    """Write ``text`` at ``root/rel`` and make it ``age_days`` old (its mtime)."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    stamp = (now - timedelta(days=age_days)).timestamp()
    os.utime(path, (stamp, stamp))
    return path


def memory_file(name: str, description: str, kind: str, body: str, **extra: str) -> str:
    """A Claude Code memory file: frontmatter name / description / type, then the body."""
    lines = ["---", f"name: {name}", f"description: {description}", f"type: {kind}"]
    lines += [f"{key}: {value}" for key, value in extra.items()]
    return "\n".join([*lines, "---", "", body, ""])


def claude_scope(base: Path) -> Path:
    """A Claude Code project: CLAUDE.md importing one memory, and memory/ with a MEMORY.md index."""
    root = base / "claude-project"
    put(root, "CLAUDE.md", "# Project notes for Claude\n\n@memory/build_commands.md\n\nUse pnpm, not npm.\n", 3)
    put(root, "memory/MEMORY.md", (
        "# Memory index\n\n"
        "- [User role](user_role.md) — senior data scientist, new to the frontend\n"
        "- [Testing feedback](feedback_testing.md) — integration tests hit a real database\n"
        "- [Release train](project_release.md) — current release work\n"
    ), 2)
    put(root, "memory/user_role.md", memory_file(
        "User role", "who the user is", "user", "The user is a data scientist; explain frontend ideas plainly."), 400)
    put(root, "memory/feedback_testing.md", memory_file(
        "Testing feedback", "how to test", "feedback",
        "Don't mock the database in integration tests.\n\n**Why:** a mocked test passed while prod broke."), 500)
    put(root, "memory/build_commands.md", memory_file(
        "Build commands", "how to build", "reference", "pnpm build, then pnpm test."), 300)
    put(root, "memory/project_release.md", memory_file(
        "Release train", "release work", "project", "Cutting 2.4 this month.", status="active"), 5)
    put(root, "memory/project_migration.md", memory_file(
        "project_migration", "the database migration", "project", "Moved from MySQL to Postgres.", status="done"), 420)
    put(root, "memory/migration_notes.md", memory_file(
        "Migration notes", "steps we took", "reference", "Dumped, converted, restored; two hours downtime.",
        project="project_migration"), 430)
    put(root, "memory/old_api.md", memory_file(
        "Old API endpoints", "v1 endpoints", "reference", "GET /v1/items", superseded_by="new_api.md"), 380)
    put(root, "memory/new_api.md", memory_file(
        "New API endpoints", "v2 endpoints", "reference", "GET /v2/items (replaces [v1](old_api.md))"), 1)
    put(root, "memory/sprint_goals.md", memory_file(
        "Sprint goals", "goals for the sprint", "project", "Ship the importer.", expires="2025-12-31"), 200)
    for i in range(8):
        put(root, f"memory/recent_{i}.md", memory_file(
            f"Recent {i}", "a recent fact", "reference", f"Fact number {i}, see [user role](user_role.md)."), i + 1)
    put(root, "memory/voice_and_tone.md", memory_file(
        "Voice and tone", "how to speak", "reference", "Answer in a warm tone of voice, short sentences.",
        superseded_by="new_api.md", expires="2024-01-01", project="project_migration"), 900)
    return root


def codex_scope(base: Path) -> Path:
    """A Codex home: AGENTS.md and memories/ (MEMORY.md, memory_summary.md, raw_memories.md,
    rollout_summaries/), plus files outside memories/ that are not records."""
    root = base / "codex-home"
    put(root, "AGENTS.md", "# Agents\n\nRun `make test` before committing.\n", 10)
    put(root, "config.toml", "[features]\nmemories = true\n", 10)
    put(root, "docs/notes.md", "not a memory", 600)
    put(root, "memories/MEMORY.md", "# Handbook\n\n- rollout_summaries/2026-05-20-build.md\n", 3)
    put(root, "memories/memory_summary.md", "v1\nThe user builds with make.\n", 3)
    put(root, "memories/raw_memories.md", (
        "- rollout_summaries/2025-01-02-setup.md\n- rollout_summaries/2026-05-20-build.md\n"), 3)
    put(root, "memories/rollout_summaries/2025-01-02-setup.md", "Set up the repo; chose make.", 500)
    put(root, "memories/rollout_summaries/2026-05-20-build.md", "Fixed the build.", 12)
    put(root, "memories/rollout_summaries/2024-11-11-spike.md", "A spike that went nowhere.", 560)
    return root


def notes_scope(base: Path, recent: int = 30, old: int = 10) -> Path:
    """A folder of markdown notes: an index, recent notes that link each other, old loose notes."""
    root = base / "notes"
    put(root, "index.md", "# Notes\n\n- [Today](today.md)\n", 1)
    put(root, "today.md", "Today: [[recent-1]] and [the plan](plan.md).", 0.5)
    put(root, "plan.md", "The plan. Supersedes [old plan](archive/old-plan.md).", 2)
    for i in range(recent):
        put(root, f"recent-{i}.md", f"# Recent {i}\n\nSee [[today]].", (i % 20) + 0.25)
    for i in range(old):
        put(root, f"archive/loose-{i}.md", f"# Loose {i}\n\nAn old thought.", 300 + 40 * i)
    put(root, "archive/old-plan.md", "# Old plan\n\nWe will use MySQL.", 700)
    return root


def configure(paths: HomePaths, *scopes: tuple[str, str, Path | None], **curation: int) -> Config:
    """A config with these (name, kind, path) scopes and curation settings, saved in the home."""
    config = Config()
    for name, kind, path in scopes:
        config.curation.scopes.append(ScopeConfig(name=name, kind=kind, path=str(path) if path else ""))
    for key, value in curation.items():
        setattr(config.curation, key, value)
    save_config(paths.config, config)
    return config


def unlocker(keys: VaultKeys) -> Callable[[], VaultKeys | None]:
    return lambda: keys


def tree(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (relative path → bytes), to prove that nothing changed."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


OLD = 600  # days: old enough for the high tier once calibrated


def old_notes(base: Path) -> Path:
    """Twelve linked recent notes and three loose old ones (high tier once calibrated)."""
    root = base / "notes"
    for i in range(12):
        put(root, f"recent-{i}.md", f"recent {i} [[recent-{(i + 1) % 12}]]", i + 1)
    put(root, "old/a.md", "# A\n\nan old loose note\n", OLD)
    put(root, "old/b.md", "# B\n\nanother\n", OLD + 20)
    binary = root / "old/c.md"
    binary.write_bytes("café\r\nline two\r\n\x00 ☃ no newline at the end".encode())
    os.chmod(binary, 0o640)
    stamp = (NOW - timedelta(days=OLD + 40)).timestamp()
    os.utime(binary, (stamp, stamp))
    return root


def loose_notes(base: Path, old: int = 5) -> Path:
    """Twelve recent linked notes and ``old`` loose old ones: the old ones are high tier."""
    root = base / "notes"
    for i in range(12):
        put(root, f"recent-{i}.md", f"recent {i} [[recent-{(i + 1) % 12}]]", i + 1)
    for i in range(old):
        put(root, f"old/n{i}.md", f"old note {i}", 500 + 10 * i)
    put(root, "old/maybe.md", "---\nsuperseded_by: recent-1.md\n---\nsuperseded, recent", 5)
    return root
