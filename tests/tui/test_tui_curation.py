"""The curation screen driven by keys: candidates grouped by tier, approve and reject (each confirmed),
the full text, and a move that starts with a dry run, shows exactly what will move, and moves in a
worker; then what the files and the core hold. Nothing is ever deleted."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Button, DataTable, Static

from core.config import ScopeConfig, load_config, save_config
from core.curate import engine
from core.curate.cold import list_cold
from core.curate.errors import CurationError
from core.curate.runs import read_runs
from core.demo.build import DemoHome
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    make_app,
    press,
    settle,
)
from tests.helpers.tui_curation import (
    HIGH,
    IN_COLD,
    MEDIUM,
    PERSONA,
    SCOPE,
    assert_nothing_lost,
    cid,
    decision_of,
    highlight,
    last_scan_tier,
    records,
    row_keys,
    scope_root,
    text_of,
)
from tui_app.screens.curation import CurationScreen
from tui_app.screens.curation_candidate import CandidateScreen
from tui_app.screens.curation_dialogs import MovePlanDialog
from tui_app.screens.home import HomeScreen
from tui_app.views import curation_data
from tui_app.widgets.dialogs import ConfirmDialog, ErrorDialog

SIZE = (100, 30)


async def test_candidates_are_grouped_by_tier_with_their_reasons(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "f7")
        assert isinstance(app.screen, CurationScreen)
        keys = row_keys(app, "curation-table")
        assert keys[0] == "tier:high" and keys.index("tier:medium") == 5 and keys.index("tier:low") == 8
        assert set(keys[1:5]) == {cid(rel) for rel in HIGH}
        assert set(keys[6:8]) == {cid(rel) for rel in MEDIUM}
        assert app.screen.query_one(DataTable).cursor_row == 1  # on the first candidate, not a heading
        assert "1 high 4  2 medium 2  3 low 6  0 all 12" in text_of(app, "#curation-filter")
        assert "reverie-memory claude-code · 21 records · unused ≥ 77d, clearly old ≥ 182d" in text_of(
            app, "#curation-scopes"
        )
        highlight(app, "curation-table", cid(PERSONA))
        await settle(pilot)
        detail = text_of(app, "#curation-detail-text")
        assert "LOW stays · 300d" in detail and "rubric v1" in detail
        assert "+ signal orphaned" in detail and "+ signal unused" in detail
        assert "= guard  persona" in detail and "only a person decides" in detail
        assert "never moved automatically" in detail
        assert "› Reply in a calm, plain voice" in detail
        await press(pilot, "2")
        assert row_keys(app, "curation-table") == [cid(rel) for rel in MEDIUM]  # a tier alone, no heading


async def test_approve_then_dry_run_then_confirmed_move(demo: DemoHome) -> None:
    root = scope_root(demo)
    before = records(root)
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "f7")
        highlight(app, "curation-table", cid("reference_conference_cfp.md"))
        await press(pilot, "a")
        assert isinstance(app.screen, ConfirmDialog)
        await press(pilot, "y")
        assert decision_of(demo, "reference_conference_cfp.md") == "approved"
        assert "1 approved, moves with m" in text_of(app, "#curation-filter")
        assert (root / "reference_conference_cfp.md").exists()  # approving moves nothing

        await press(pilot, "m")
        dialog = app.screen
        assert isinstance(dialog, MovePlanDialog)
        plan = text_of(app, "#move-plan-lines")
        assert "Will move 1 record:" in plan and "→ reverie-memory:reference_conference_cfp.md" in plan
        assert "approved by you · expired orphan" in plan
        assert "Not moved (4): report-only run 2 of 3: reported, not moved" in plan
        assert plan.count("report-only run 2 of 3 for scope reverie-memory") == 1  # explained once
        assert all(f"reverie-memory:{rel}" in plan for rel in HIGH)
        assert dialog.focused is not None and dialog.focused.id == "no"  # a stray Enter moves nothing
        assert records(root) == before  # the dry run moved nothing
        assert read_runs(demo.paths)[-1]["kind"] == "dry-run"

        await press(pilot, "y")
        assert isinstance(app.screen, CurationScreen)
        assert not (root / "reference_conference_cfp.md").exists()
        assert (root / "reference_conference_cfp.md.tombstone").exists()
        moved = {item.stone.path: item for item in list_cold(demo.paths, load_config(demo.paths.config))}
        assert set(moved) == {IN_COLD, "reference_conference_cfp.md"}
        assert moved["reference_conference_cfp.md"].stone.approved
        assert all((root / rel).exists() for rel in HIGH)  # report-only: high candidates stay this run
        assert_nothing_lost(demo, before)
        apply_run = read_runs(demo.paths)[-1]
        assert apply_run["kind"] == "apply" and apply_run["scope"] == SCOPE
        assert [m["rel"] for m in apply_run["moved"]] == ["reference_conference_cfp.md"]
        assert cid("reference_conference_cfp.md") not in row_keys(app, "curation-table")
        assert not app.screen.query_one("#curation-progress").display


async def test_cancelling_the_move_confirmation_moves_nothing(demo: DemoHome, frozen_clock: datetime) -> None:
    engine.decide_candidate(demo.paths, f"{SCOPE}:project_tokenizer_spike.md", "approved", now=frozen_clock)
    before = records(scope_root(demo))
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "f7", "m")
        assert isinstance(app.screen, MovePlanDialog)
        assert "project_tokenizer_spike.md" in text_of(app, "#move-plan-lines")
        await press(pilot, "enter")  # the focus starts on Cancel
        assert isinstance(app.screen, CurationScreen)
        await press(pilot, "m", "n")
        assert records(scope_root(demo)) == before
        assert [i.stone.path for i in list_cold(demo.paths, load_config(demo.paths.config))] == [IN_COLD]


async def test_nothing_to_move_only_reports(demo: DemoHome) -> None:
    config = load_config(demo.paths.config)
    config.curation.report_only_runs, config.curation.auto_move_cap = 0, 0  # high records held by the cap
    save_config(demo.paths.config, config)
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "f7", "m")
        assert isinstance(app.screen, MovePlanDialog)
        assert [button.id for button in app.screen.query(Button)] == ["no"]  # no Move button at all
        assert "Dry run: nothing would move" in str(app.screen.query_one(".dialog-title", Static).render())
        assert "over the cap of 0 automatic moves per run" in str(app.screen.query_one("#move-plan-lines").render())
        await press(pilot, "y")  # y does nothing here
        assert isinstance(app.screen, MovePlanDialog)
        await press(pilot, "escape")
        assert isinstance(app.screen, CurationScreen)


async def test_reject_keeps_the_record_and_guards_it(demo: DemoHome) -> None:
    root = scope_root(demo)
    before = (root / "project_tokenizer_spike.md").read_bytes()
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "f7")
        highlight(app, "curation-table", cid("project_tokenizer_spike.md"))
        await press(pilot, "r")
        assert isinstance(app.screen, ConfirmDialog)
        await press(pilot, "y")
        assert decision_of(demo, "project_tokenizer_spike.md") == "rejected"
        assert "✗ rejected by you · stays where it is" in text_of(app, "#curation-detail-text")
        await press(pilot, "s")  # scan again: the rejection is now a guard, so the record is low
        assert last_scan_tier(demo, "project_tokenizer_spike.md") == ("low", ("rejected",))
        keys = row_keys(app, "curation-table")
        assert keys.index(cid("project_tokenizer_spike.md")) > keys.index("tier:low")
    assert (root / "project_tokenizer_spike.md").read_bytes() == before


async def test_approving_persona_memory_warns_and_starts_on_cancel(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "f7")
        highlight(app, "curation-table", cid(PERSONA))
        await press(pilot, "a")
        dialog = app.screen
        assert isinstance(dialog, ConfirmDialog)
        assert "persona, identity or voice memory" in str(dialog.query_one(".dialog-warning", Static).render())
        await press(pilot, "enter")  # the focus is on Cancel
        assert decision_of(demo, PERSONA) is None


async def test_enter_opens_the_full_text_and_decides_there(demo: DemoHome) -> None:
    root = scope_root(demo)
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "f7")
        highlight(app, "curation-table", cid("launch_checklist.md"))
        await press(pilot, "enter")
        assert isinstance(app.screen, CandidateScreen)
        assert text_of(app, "#candidate-text") == (root / "launch_checklist.md").read_text(encoding="utf-8")
        assert "+ signal finished_project  project project_v1_launch is marked done" in text_of(app, "#candidate-meta")
        await press(pilot, "a", "y")
        assert decision_of(demo, "launch_checklist.md") == "approved"
        assert "✓ approved by you" in text_of(app, "#candidate-meta")
        await press(pilot, "escape")
        assert isinstance(app.screen, CurationScreen)
        assert "1 approved, moves with m" in text_of(app, "#curation-filter")  # read again on return


async def test_esc_stops_after_the_record_in_hand(
    demo: DemoHome, frozen_clock: datetime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    for i in range(8):
        (notes / f"note-{i}.md").write_text(f"# Note {i}\n\nStatus: done\n", encoding="utf-8")
    config = load_config(demo.paths.config)
    config.curation.scopes.append(ScopeConfig(name="notes", kind="markdown", path=str(notes)))
    save_config(demo.paths.config, config)
    engine.scan(demo.paths, config, now=frozen_clock)
    for i in (1, 3, 5):
        engine.decide_candidate(demo.paths, f"notes:note-{i}.md", "approved", now=frozen_clock)
    app = make_app(demo)
    original = curation_data.move_scope
    labels: list[str] = []
    scopes: list[str] = []

    def move_then_stop(session: object, scope: str, ids: set[str], **hooks: Any) -> engine.ApplyReport:
        scopes.append(scope)

        def progress(done: int, total: int) -> None:
            hooks["progress"](done, total)
            if done == 1:  # Esc right after the first of the three records
                app.call_from_thread(app.screen.action_stop_moving)
                labels.append(app.call_from_thread(lambda: text_of(app, "#curation-progress-label")))

        return original(session, scope, ids, progress=progress,  # type: ignore[arg-type]
                        should_stop=hooks["should_stop"])

    monkeypatch.setattr(curation_data, "move_scope", move_then_stop)
    before_notes = sorted(path.name for path in notes.iterdir())
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "f7", "m")
        assert "Will move 3 records:" in text_of(app, "#move-plan-lines")
        await press(pilot, "y")
        assert labels == ["Moving 1 of 3 to cold storage · stopping after this record"]
        assert not app.screen.query_one("#curation-progress").display
        assert scopes == ["notes"]
        cold = [i.stone for i in list_cold(demo.paths, load_config(demo.paths.config))]
        assert [stone.scope for stone in cold if stone.path != IN_COLD] == ["notes"]  # one record moved
        left = sorted(path.name for path in notes.iterdir())
        assert sum(f"note-{i}.md" in left for i in (1, 3, 5)) == 2  # the other two stay where they are
        assert sum(name.endswith(".tombstone") for name in left) == 1 and len(left) == len(before_notes)
        runs = [r for r in read_runs(demo.paths) if r["kind"] == "apply"]
        assert runs[-1]["scope"] == "notes" and runs[-1]["stopped"] is True


async def test_a_failed_move_is_said_and_nothing_is_half_done(
    demo: DemoHome, frozen_clock: datetime, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine.decide_candidate(demo.paths, f"{SCOPE}:reference_conference_cfp.md", "approved", now=frozen_clock)
    before = records(scope_root(demo))

    def refuse(session: object, scope: str, ids: set[str], **_hooks: object) -> engine.ApplyReport:
        raise CurationError("moving records needs the passphrase")

    monkeypatch.setattr(curation_data, "move_scope", refuse)
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "f7", "m", "y")
        assert isinstance(app.screen, ErrorDialog)
        assert "moving records needs the passphrase" in text_of(app, ".dialog-body")
        await press(pilot, "escape")
        assert isinstance(app.screen, CurationScreen)
        assert not app.screen.query_one("#curation-progress").display and not app.screen.moving
    assert records(scope_root(demo)) == before


async def test_home_banner_says_the_review_is_overdue_until_a_scan(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        banner = text_of(app, "#home-notices")
        assert "Curation review overdue (every 7 days): reverie-memory (8 days)" in banner
        assert "(press c)" in banner
        await press(pilot, "c")  # opening curation scans: that is the review
        assert isinstance(app.screen, CurationScreen)
        await press(pilot, "f2", "ctrl+r")
        assert isinstance(app.screen, HomeScreen)
        assert "Curation review overdue" not in text_of(app, "#home-notices")


async def test_no_scopes_says_how_to_add_one(demo: DemoHome) -> None:
    config = load_config(demo.paths.config)
    config.curation.scopes.clear()
    save_config(demo.paths.config, config)
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "f7")
        assert "reverie curate scope add" in text_of(app, "#curation-scopes")
        assert row_keys(app, "curation-table") == []


def test_the_demo_home_holds_every_tier_and_one_moved_record(demo: DemoHome) -> None:
    found = engine.last_candidates(demo.paths, SCOPE)
    tiers = {tier: sorted(c.rel for c in found if c.tier == tier) for tier in ("high", "medium", "low")}
    assert tiers["high"] == sorted(HIGH) and tiers["medium"] == sorted(MEDIUM) and len(tiers["low"]) == 6
    persona = next(c for c in found if c.rel == PERSONA)
    assert persona.person_only and "persona" in persona.guards
    calibration = json.loads((demo.paths.curation / "calibration.json").read_text(encoding="utf-8"))
    assert calibration["scopes"][SCOPE]["measured"] is True
    (item,) = list_cold(demo.paths, load_config(demo.paths.config), verify=True)
    assert item.stone.path == IN_COLD and item.intact and item.tombstone_present and item.stone.approved
    index = (scope_root(demo) / "MEMORY.md").read_text(encoding="utf-8")
    assert "[Testing feedback](feedback_testing.md)" in index
    kinds = {
        line.split(": ", 1)[1]
        for p in scope_root(demo).glob("*.md")
        for line in p.read_text().splitlines()
        if line.startswith("type: ")
    }
    assert kinds == {"user", "feedback", "project", "reference"}


async def test_unreadable_settings_are_said_on_home_without_breaking_it(demo: DemoHome) -> None:
    demo.paths.config.write_text("[curation\n", encoding="utf-8")
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        assert "Curation cannot check its weekly review: " in text_of(app, "#home-notices")
        assert "8 memories" in text_of(app, "#home-vault")


async def test_the_full_text_says_when_the_record_changed_since_the_scan(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "f7")
        (scope_root(demo) / "launch_checklist.md").write_text("Rewritten today.\n", encoding="utf-8")
        highlight(app, "curation-table", cid("launch_checklist.md"))
        await press(pilot, "enter")
        box = app.screen.query_one("#candidate-text-box")
        assert text_of(app, "#candidate-text") == "Rewritten today.\n"
        assert "Changed since the scan" in str(box.border_subtitle)
        await press(pilot, "a", "y")  # the core refuses a decision on content it did not judge
        assert isinstance(app.screen, ErrorDialog)
        assert "changed since the last scan" in text_of(app, ".dialog-body")
        assert decision_of(demo, "launch_checklist.md") is None
