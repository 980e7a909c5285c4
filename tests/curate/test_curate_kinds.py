"""Scope kinds read realistic scopes: text, frontmatter, links and references; tombstones, hidden
files and symlinks are never records."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from core.curate import frontmatter, mdtext
from core.curate.kinds import KINDS, kind_named, walk_files
from core.curate.signals import ScopeContext
from tests.helpers.curate import NOW, claude_scope, codex_scope, notes_scope, put


def records(kind: str, root: Path) -> dict:
    return {r.rel: r for r in KINDS[kind].records("s", root)}


def test_frontmatter_subset() -> None:
    text = ("---\nname: Old API\ntype: reference\ntags: [api, 'v1']\nsupersedes:\n  - a.md\n  - b.md\n"
            "pinned: true\ndescription: |\n  two\n  lines\nexpires: 2024-01-31\n---\nbody\n")
    fm = frontmatter.parse(text)
    assert fm.problems == []
    assert fm.data["name"] == "Old API" and fm.data["tags"] == ["api", "v1"]
    assert fm.data["supersedes"] == ["a.md", "b.md"] and fm.data["pinned"] is True
    assert fm.data["description"] == "two\nlines" and fm.body == "body\n"
    assert frontmatter.parse_when(fm.data["expires"]).year == 2024


def test_frontmatter_problems_are_named() -> None:
    assert frontmatter.parse("---\nname: x\n").problems == ["frontmatter: no closing '---' line"]
    fm = frontmatter.parse("---\nname: x\nthis is not yaml\n---\nbody")
    assert fm.problems == ["frontmatter line 3: not 'key: value'"]
    with pytest.raises(ValueError, match="not a date"):
        frontmatter.parse_when("next tuesday")


def test_references_and_supersession_phrases() -> None:
    refs = mdtext.references(
        "See [plan](plan.md#top) and [[Daily Note|today]] and ![img](pics/a.png) and https://x.org/a.md.\n"
        "This supersedes [old](old/plan.md). Replaced by [[v3]].\n"
        "```\n[not a link](code.md)\n```\n"
        "옛 계획은 [[old-ko]]를 대체한다. [[newer]]로 대체됨.\n",
    )
    assert "plan.md" in refs.links and "pics/a.png" in refs.links
    assert "code.md" not in refs.links
    assert not any(link.startswith("http") for link in refs.links)
    assert "Daily Note" in refs.mentions
    assert set(refs.supersedes) == {"old/plan.md", "old-ko"}
    assert set(refs.superseded_by) == {"v3", "newer"}
    imports = mdtext.references("@memory/build.md and mail me@example.com", imports=True)
    assert "memory/build.md" in imports.links and "example.com" not in " ".join(imports.links)


def test_claude_code_scope(tmp_path: Path) -> None:
    root = claude_scope(tmp_path)
    found = records("claude-code", root)
    assert found["memory/MEMORY.md"].is_index and found["CLAUDE.md"].is_index
    role = found["memory/user_role.md"]
    assert role.frontmatter["type"] == "user" and role.title == "User role"
    assert "user role" in role.names and role.sha256 and role.size == len((root / role.rel).read_bytes())
    assert abs((NOW.timestamp() - role.last_used) / 86400 - 400) < 0.01
    ctx = ScopeContext.build(root, True, found.values())
    assert ctx.indexed_by["memory/user_role.md"] == {"memory/MEMORY.md"}
    assert ctx.indexed_by["memory/build_commands.md"] == {"CLAUDE.md"}  # the @import
    assert "memory/old_api.md" in ctx.superseded and "memory/recent_0.md" in ctx.inbound["memory/user_role.md"]
    assert not ctx.inbound.get("memory/migration_notes.md") and not ctx.indexed_by.get("memory/migration_notes.md")
    assert ctx.project_status["project_migration"][0] == "done"


def test_codex_scope_reads_only_memories_and_agents(tmp_path: Path) -> None:
    root = codex_scope(tmp_path)
    found = records("codex", root)
    assert set(found) == {"AGENTS.md", "memories/MEMORY.md", "memories/memory_summary.md", "memories/raw_memories.md",
                          "memories/rollout_summaries/2025-01-02-setup.md",
                          "memories/rollout_summaries/2026-05-20-build.md",
                          "memories/rollout_summaries/2024-11-11-spike.md"}
    assert found["memories/raw_memories.md"].is_index and found["AGENTS.md"].is_index
    ctx = ScopeContext.build(root, True, found.values())
    assert ctx.indexed_by["memories/rollout_summaries/2026-05-20-build.md"] == {"memories/MEMORY.md"}
    # raw_memories.md is generated: it is never a candidate, and listing a record there is no index entry
    assert not ctx.indexed_by.get("memories/rollout_summaries/2025-01-02-setup.md")
    assert ctx.inbound["memories/rollout_summaries/2025-01-02-setup.md"] == {"memories/raw_memories.md"}
    inside = records("codex", root / "memories")
    assert "rollout_summaries/2024-11-11-spike.md" in inside and "MEMORY.md" in inside


def test_markdown_scope_links_and_wikilinks(tmp_path: Path) -> None:
    root = notes_scope(tmp_path, recent=3, old=2)
    found = records("markdown", root)
    ctx = ScopeContext.build(root, True, found.values())
    assert found["index.md"].is_index and not found["archive/loose-0.md"].is_index
    assert ctx.indexed_by["today.md"] == {"index.md"}
    assert "today.md" in ctx.inbound["recent-1.md"]  # [[recent-1]]
    assert "recent-0.md" in ctx.inbound["today.md"]  # [[today]]
    assert ctx.superseded["archive/old-plan.md"] == ["plan.md says it replaces it"]


def test_tombstones_hidden_files_and_symlinks_are_not_records(tmp_path: Path) -> None:
    root = tmp_path / "notes"
    put(root, "a.md", "a")
    put(root, "a.md.tombstone", '{"format": "reverie.tombstone"}')
    put(root, "b.md.0123456789ab.tombstone", "{}")
    put(root, ".hidden.md", "secret")
    put(root, ".git/HEAD.md", "ref")
    put(root, "node_modules/pkg/README.md", "pkg")
    outside = put(tmp_path / "outside", "o.md", "outside")
    os.symlink(outside, root / "link.md")
    os.symlink(outside.parent, root / "linked-dir")
    assert [rel for rel, _ in walk_files(root)] == ["a.md"]
    assert set(records("markdown", root)) == {"a.md"}


def test_not_utf8_is_uncertain(tmp_path: Path) -> None:
    root = tmp_path / "notes"
    root.mkdir()
    (root / "latin1.md").write_bytes("caf\xe9".encode("latin-1"))
    record = records("markdown", root)["latin1.md"]
    assert record.problems and "not UTF-8" in record.problems[0]


def test_frontmatter_use_dates_count_as_use(tmp_path: Path) -> None:
    root = tmp_path / "notes"
    put(root, "used.md", "---\nlast_used: 2026-05-30\n---\nstill in use", 500)
    put(root, "bad.md", "---\nupdated: soon\n---\nx", 500)
    found = records("markdown", root)
    assert found["used.md"].age_days(NOW.timestamp()) < 3
    assert found["bad.md"].problems == ("frontmatter field 'updated': not a date: 'soon'",)


def test_unknown_kind_is_named() -> None:
    with pytest.raises(ValueError, match="unknown scope kind 'obsidian'"):
        kind_named("obsidian")
