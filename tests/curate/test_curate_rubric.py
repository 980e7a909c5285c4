"""Every signal, every guard, the tiers, and the versioned rubric file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from core.curate import engine
from core.curate.judge import judge
from core.curate.kinds import KINDS
from core.curate.model import DAY, Thresholds
from core.curate.rubric import Rubric, load_rubric, rubric_path, save_rubric, tightened
from core.curate.signals import Evaluation, ScopeContext, evaluate
from core.errors import ConfigError
from core.paths import HomePaths
from core.vault.crypto import VaultKeys
from tests.helpers.curate import NOW, claude_scope, configure, memory_file, put, unlocker

T = Thresholds(unused_days=60.0, clearly_old_days=200.0, measured=True, source="test")
TS = NOW.timestamp()


def scope_of(root: Path, kind: str = "markdown") -> ScopeContext:
    return ScopeContext.build(root, KINDS[kind].supports_orphan, KINDS[kind].records("s", root))


def fired(root: Path, rel: str, rubric: Rubric | None = None, **kw: Any) -> Evaluation:
    ctx = scope_of(root)
    return evaluate(ctx.records[rel], ctx, rubric or Rubric(), T, TS, **kw)


def linked(root: Path, *rels: str) -> None:
    """An index that links every rel, so 'orphaned' stays out of the way."""
    put(root, "hub.md", " ".join(f"[x]({rel})" for rel in rels), 1)


# --- signals -----------------------------------------------------------------------------------------


def test_superseded_by_frontmatter_by_another_record_and_by_status(tmp_path: Path) -> None:
    put(tmp_path, "a.md", "---\nsuperseded_by: b.md\n---\nold", 10)
    put(tmp_path, "b.md", "new", 1)
    put(tmp_path, "c.md", "old c", 10)
    put(tmp_path, "d.md", "This replaces [c](c.md).", 1)
    put(tmp_path, "e.md", "---\nstatus: deprecated\n---\nold e", 10)
    linked(tmp_path, "a.md", "b.md", "c.md", "d.md", "e.md")
    assert fired(tmp_path, "a.md").signals["superseded"] == "superseded by b.md"
    assert fired(tmp_path, "c.md").signals["superseded"] == "d.md says it replaces it"
    assert fired(tmp_path, "e.md").signals["superseded"] == "status: deprecated"
    assert "superseded" not in fired(tmp_path, "b.md").signals


def test_expired_past_only_and_grace(tmp_path: Path) -> None:
    put(tmp_path, "past.md", "---\nvalid_until: 2026-05-01\n---\nx", 40)
    put(tmp_path, "future.md", "---\nexpires: 2027-01-01\n---\nx", 40)
    put(tmp_path, "bad.md", "---\nexpires: someday\n---\nx", 40)
    linked(tmp_path, "past.md", "future.md", "bad.md")
    assert fired(tmp_path, "past.md").signals["expired"] == "valid_until 2026-05-01 is past"
    assert "expired" not in fired(tmp_path, "future.md").signals
    strict = Rubric()
    strict.rule("expired").min_age_days = 60  # a month past expiry is not yet enough
    assert "expired" not in fired(tmp_path, "past.md", strict).signals
    assert fired(tmp_path, "bad.md").uncertain == ("field 'expires': not a date: 'someday'",)


def test_finished_project(tmp_path: Path) -> None:
    put(tmp_path, "proj.md", "---\ntype: project\nname: importer\nstatus: done\n---\nthe importer", 10)
    put(tmp_path, "note.md", "---\nproject: importer\n---\nimporter detail", 10)
    put(tmp_path, "live.md", "---\ntype: project\n---\n**Status:** active", 10)
    put(tmp_path, "live-note.md", "---\nproject: live\n---\nx", 10)
    put(tmp_path, "flag.md", "---\nproject_status: completed\n---\nx", 10)
    linked(tmp_path, "proj.md", "note.md", "live.md", "live-note.md", "flag.md")
    assert fired(tmp_path, "note.md").signals["finished_project"] == "project importer is marked done in proj.md"
    assert fired(tmp_path, "proj.md").signals["finished_project"] == "this project is marked done"
    assert fired(tmp_path, "flag.md").signals["finished_project"] == "project_status: completed"
    assert "finished_project" not in fired(tmp_path, "live-note.md").signals


def test_orphaned_and_not_for_the_vault(tmp_path: Path) -> None:
    put(tmp_path, "alone.md", "nobody links here", 10)
    put(tmp_path, "linked.md", "linked", 10)
    put(tmp_path, "other.md", "see [[linked]]", 10)
    assert fired(tmp_path, "alone.md").signals["orphaned"] == "no index entry or link points to it"
    assert "orphaned" not in fired(tmp_path, "linked.md").signals
    assert KINDS["vault"].supports_orphan is False


def test_unused_uses_the_measured_threshold_and_the_factor(tmp_path: Path) -> None:
    put(tmp_path, "old.md", "x", 90)
    put(tmp_path, "young.md", "x", 30)
    linked(tmp_path, "old.md", "young.md")
    assert fired(tmp_path, "old.md").signals["unused"] == "unchanged and unused for 90 days (threshold 60)"
    assert "unused" not in fired(tmp_path, "young.md").signals
    tight = Rubric()
    tight.rule("unused").factor = 2.0
    assert "unused" not in fired(tmp_path, "old.md", tight).signals


# --- guards ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "why"), [
    (memory_file("t", "d", "feedback", "Use tabs."), "type: feedback"),
    (memory_file("t", "d", "user", "Likes tea."), "type: user"),
    ("- Don't push on Fridays.", "do / don't wording: \"- Don't\""),
    ("The user prefers short answers.", "do / don't wording: 'The user prefers'"),
    ("배포는 금요일에 하지 마세요.", "do / don't wording: '하지 마'"),
    ("金曜日にデプロイしないでください。", "do / don't wording: 'しないで'"),
])
def test_preference_and_correction_guard(tmp_path: Path, text: str, why: str) -> None:
    put(tmp_path, "p.md", text, 400)
    assert fired(tmp_path, "p.md").guards["preference"] == why


def test_pinned_guard(tmp_path: Path) -> None:
    put(tmp_path, "a.md", "---\npinned: true\n---\nx", 400)
    put(tmp_path, "b.md", "---\ntags: [Pinned, misc]\n---\nx", 400)
    assert fired(tmp_path, "a.md").guards["pinned"] == "pinned"
    assert fired(tmp_path, "b.md").guards["pinned"] == "pinned"


def test_restored_recently_guard_expires(tmp_path: Path) -> None:
    put(tmp_path, "a.md", "x", 400)
    recent = fired(tmp_path, "a.md", restored_at=TS - 5 * DAY, restored_guard_days=30)
    assert recent.guards["restored_recently"].startswith("restored ")
    later = fired(tmp_path, "a.md", restored_at=TS - 45 * DAY, restored_guard_days=30)
    assert "restored_recently" not in later.guards


def test_indexed_guard(tmp_path: Path) -> None:
    root = claude_scope(tmp_path)
    ctx = scope_of(root, "claude-code")
    ev = evaluate(ctx.records["memory/build_commands.md"], ctx, Rubric(), T, TS)
    assert ev.guards["indexed"] == "listed in CLAUDE.md"


@pytest.mark.parametrize(("rel", "text"), [
    ("a.md", "---\ntype: persona\n---\nYou are Kit."),
    ("voice.md", "Keep it brief."),
    ("말투.md", "짧게 말한다."),
    ("c.md", "---\ntags: [tone]\n---\nx"),
    ("d.md", "Speak with a calm tone of voice."),
    ("e.md", "항상 존댓말을 쓰는 말투를 유지한다."),
    ("f.md", "丁寧な口調で話す。"),
])
def test_persona_guard(tmp_path: Path, rel: str, text: str) -> None:
    put(tmp_path, rel, text, 400)
    ev = fired(tmp_path, rel)
    assert "persona" in ev.guards and ev.person_only


def test_one_guard_keeps_a_record_in_place(tmp_path: Path) -> None:
    put(tmp_path, "a.md", "---\npinned: true\nsuperseded_by: b.md\nexpires: 2020-01-01\n---\nold", 900)
    ctx = scope_of(tmp_path)
    c = judge(ctx.records["a.md"], ctx, Rubric(), T, TS, kind="markdown")
    assert c is not None and c.tier == "low" and c.guards == ("pinned",)
    assert set(c.signals) == {"superseded", "expired", "orphaned", "unused"}
    assert c.rubric_version == 1 and c.details["pinned"] == "pinned"


# --- tiers -------------------------------------------------------------------------------------------


def test_tiers(tmp_path: Path) -> None:
    put(tmp_path, "high.md", "old and loose", 300)  # orphaned + unused + clearly old
    put(tmp_path, "medium.md", "old and loose", 100)  # orphaned + unused, not clearly old
    put(tmp_path, "explicit.md", "---\nsuperseded_by: x.md\n---\nx", 3)  # superseded + orphaned, recent
    put(tmp_path, "low.md", "recent and loose", 3)  # orphaned alone, recent: not ambiguous, new
    put(tmp_path, "unsure.md", "---\nvalid_until: whenever\n---\nold", 300)
    put(tmp_path, "none.md", "x", 3)
    put(tmp_path, "hub.md", "[n](none.md)", 1)
    ctx = scope_of(tmp_path)
    tiers = {}
    for rel, record in ctx.records.items():
        c = judge(record, ctx, Rubric(), T, TS, kind="markdown")
        tiers[rel] = c.tier if c else None
    assert tiers["high.md"] == "high" and tiers["medium.md"] == "medium" and tiers["explicit.md"] == "medium"
    assert tiers["low.md"] == "low" and tiers["unsure.md"] == "low" and tiers["none.md"] is None


def test_persona_is_never_moved_automatically_even_with_every_signal(
        tmp_path: Path, paths: HomePaths, keys: VaultKeys) -> None:
    root = claude_scope(tmp_path)
    config = configure(paths, ("claude", "claude-code", root), report_only_runs=0, auto_move_cap=100)
    report = engine.scan(paths, config, now=NOW)
    voice = next(c for c in report.candidates if c.rel == "memory/voice_and_tone.md")
    assert set(voice.signals) == {"superseded", "expired", "finished_project", "orphaned", "unused"}
    assert voice.guards == ("persona",) and voice.tier == "low" and voice.person_only
    for _ in range(5):
        result = engine.apply(paths, config, unlock=unlocker(keys), now=NOW)
        assert "memory/voice_and_tone.md" not in {m.stone.path for m in result.moved}
    assert (root / "memory/voice_and_tone.md").is_file()
    # It is a person's decision: approved, it moves.
    engine.decide_candidate(paths, voice.id, "approved", now=NOW)
    result = engine.apply(paths, config, unlock=unlocker(keys), now=NOW)
    assert [m.stone.path for m in result.moved] == ["memory/voice_and_tone.md"]
    assert result.moved[0].stone.approved


def test_claude_scope_decisions_list_signals_guards_and_version(paths: HomePaths, tmp_path: Path) -> None:
    root = claude_scope(tmp_path)
    config = configure(paths, ("claude", "claude-code", root))
    report = engine.scan(paths, config, now=NOW)
    by_rel = {c.rel: c for c in report.candidates}
    assert "memory/user_role.md" not in by_rel or by_rel["memory/user_role.md"].tier == "low"
    assert by_rel["memory/feedback_testing.md"].guards[:1] == ("preference",)
    notes = by_rel["memory/migration_notes.md"]
    assert set(notes.signals) >= {"finished_project", "orphaned", "unused"} and notes.tier in ("high", "medium")
    assert by_rel["memory/old_api.md"].signals[0] == "superseded"
    assert "memory/MEMORY.md" not in by_rel and "CLAUDE.md" not in by_rel
    for c in report.candidates:
        data = c.to_dict()
        assert {"id", "scope", "path", "tier", "signals", "guards", "rubric_version"} <= set(data)
        assert data["rubric_version"] == 1


# --- the rubric file ---------------------------------------------------------------------------------


def test_rubric_file_round_trip_and_tightening(paths: HomePaths) -> None:
    assert load_rubric(paths).version == 1 and not rubric_path(paths).exists()
    rubric = tightened(Rubric(), "orphaned", ["m-1", "m-2", "m-3"], "three restores")
    assert rubric.version == 2 and rubric.rule("orphaned").min_age_days == 30
    rubric = tightened(rubric, "unused", ["m-4"], "one more")
    assert rubric.version == 3 and rubric.rule("unused").factor == 1.5
    save_rubric(paths, rubric)
    again = load_rubric(paths)
    assert again.version == 3 and again.rule("orphaned").min_age_days == 30
    assert [c.signal for c in again.changes] == ["orphaned", "unused"]
    assert again.changes[0].restores == ["m-1", "m-2", "m-3"]
    assert rubric_path(paths).read_text().startswith("# Reverie curation rubric")


@pytest.mark.parametrize(("text", "message"), [
    ("version = 0\n", "version must be a whole number"),
    ("colour = 1\n", "unknown key 'colour'"),
    ("[signals.vibes]\nweight = 1\n", "signals.vibes: unknown signal"),
    ("[signals.unused]\nweight = 'a lot'\n", "signals.unused.weight must be a number"),
    ("[signals.unused]\nspeed = 1\n", "unknown key 'signals.unused.speed'"),
    ("version = \n", "not valid TOML"),
])
def test_bad_rubric_is_named(paths: HomePaths, text: str, message: str) -> None:
    rubric_path(paths).write_text(text)
    with pytest.raises(ConfigError, match=message) as info:
        load_rubric(paths)
    assert "rubric.toml" in str(info.value) and "\n" not in str(info.value)
