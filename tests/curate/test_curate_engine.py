"""Tiers in action: the per-run cap, the report-only first runs, approvals and rejections, dry
runs, learning from restores, status, the overdue reminder, the schedule, and scopes."""

from __future__ import annotations

import threading
from datetime import timedelta
from pathlib import Path

import msgspec
import pytest

from core.config import Config, load_config
from core.curate import engine, overdue_notice
from core.curate import schedule as sched
from core.curate.decisions import load_decisions
from core.curate.errors import CurationError
from core.curate.learning import changelog_path, learn, read_restores
from core.curate.rubric import load_rubric
from core.curate.runs import read_runs
from core.curate.scopes import add_scope
from core.curate.status import log, status
from core.errors import ConfigError, NotFound, VaultLocked
from core.paths import HomePaths
from core.vault.crypto import VaultKeys
from tests.helpers.curate import NOW, configure, loose_notes, put, tree, unlocker


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    return loose_notes(tmp_path)


def run(paths: HomePaths, config: Config, keys: VaultKeys, **kw: object) -> engine.ApplyReport:
    return engine.apply(paths, config, unlock=unlocker(keys), now=NOW, **kw)  # type: ignore[arg-type]


def test_the_batch_cap(paths: HomePaths, keys: VaultKeys, notes: Path) -> None:
    config = configure(paths, ("notes", "markdown", notes), report_only_runs=0, auto_move_cap=2)
    first = run(paths, config, keys)
    assert sorted(m.stone.path for m in first.moved) == ["old/n3.md", "old/n4.md"]  # the oldest first
    assert [p.reason for p in first.would_move] == ["over the cap of 2 automatic moves per run"] * 3
    assert len(run(paths, config, keys).moved) == 2 and len(run(paths, config, keys).moved) == 1
    assert run(paths, config, keys).moved == []


def test_the_first_runs_only_report(paths: HomePaths, keys: VaultKeys, notes: Path) -> None:
    config = configure(paths, ("notes", "markdown", notes), report_only_runs=2, auto_move_cap=10)
    before = tree(notes)
    dry = run(paths, config, keys, dry_run=True)  # a dry run is not one of the report-only runs
    assert dry.dry_run and dry.moved == [] and len(dry.would_move) == 5
    for n in (1, 2):
        report = engine.apply(paths, config, unlock=unlocker(keys), now=NOW + timedelta(days=n - 1))
        assert report.moved == [] and len(report.would_move) == 5
        assert {p.reason for p in report.would_move} == {f"report-only run {n} of 2: reported, not moved"}
        (note,) = report.notes  # the explanation, once for the run
        assert note.startswith(f"report-only run {n} of 2 for scope notes: high-tier records are reported")
        left = "1 more report-only run, then" if n == 1 else "from the next run"
        assert f"counted once per day; {left} high-tier records move" in note
        assert "curation.report_only_runs in config.toml" in note
        assert not any(p.will_move for p in report.would_move)
    assert tree(notes) == before
    assert len(engine.apply(paths, config, unlock=unlocker(keys), now=NOW + timedelta(days=2)).moved) == 5
    assert [r["kind"] for r in read_runs(paths)] == ["dry-run", "apply", "apply", "apply"]


def test_dry_run_shows_exactly_what_would_move(paths: HomePaths, keys: VaultKeys, notes: Path) -> None:
    config = configure(paths, ("notes", "markdown", notes), report_only_runs=0, auto_move_cap=3)
    before, cold_before = tree(notes), tree(paths.root)
    dry = run(paths, config, keys, dry_run=True)
    will = sorted(p.candidate.rel for p in dry.would_move if p.will_move)
    assert will == ["old/n2.md", "old/n3.md", "old/n4.md"]
    assert tree(notes) == before and not list(paths.cold.iterdir())
    data = msgspec.to_builtins(dry.form())
    assert data["dry_run"] is True and data["moved"] == []
    assert {"path", "scope", "id", "tier", "signals", "reason", "will_move"} <= set(data["would_move"][0])
    assert cold_before.keys() <= tree(paths.root).keys()
    real = run(paths, config, keys)
    assert sorted(m.stone.path for m in real.moved) == will


def test_apply_reports_progress_record_by_record(paths: HomePaths, keys: VaultKeys, notes: Path) -> None:
    config = configure(paths, ("notes", "markdown", notes), report_only_runs=0, auto_move_cap=10)
    calls: list[tuple[int, int]] = []
    report = run(paths, config, keys, progress=lambda done, total: calls.append((done, total)))
    assert len(report.moved) == 5 and report.planned == 5 and not report.stopped
    assert calls == [(0, 5), (1, 5), (2, 5), (3, 5), (4, 5), (5, 5)]
    assert report.form().stopped is False
    calls.clear()
    assert run(paths, config, keys, progress=lambda done, total: calls.append((done, total))).moved == []
    assert calls == []  # nothing to move: never called
    assert run(paths, config, keys, dry_run=True, progress=lambda d, t: calls.append((d, t))).moved == []
    assert calls == []


def test_apply_stops_between_records_and_the_next_apply_moves_the_rest(
        paths: HomePaths, keys: VaultKeys, notes: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from core.curate import cold
    from core.workbench.verify import verify_home

    config = configure(paths, ("notes", "markdown", notes), report_only_runs=0, auto_move_cap=10)
    stop = threading.Event()
    steps: list[str] = []

    def hook(step: str) -> None:  # asked to stop in the middle of the second move
        steps.append(step)
        if steps.count("ledgered") == 2:
            stop.set()

    seen: list[tuple[int, int]] = []
    report = run(paths, config, keys, progress=lambda d, t: seen.append((d, t)), should_stop=stop.is_set,
                 on_step=hook)
    assert report.stopped and report.planned == 5 and len(report.moved) == 2  # the second one finished
    assert seen == [(0, 5), (1, 5), (2, 5)]
    assert steps.count("unlinked") == 2 and not report.errors
    rest = [p for p in report.would_move if p.will_move]
    assert len(rest) == 3 and {p.reason for p in rest} == {engine.STOPPED_REASON}
    assert not any((notes / m.stone.path).exists() for m in report.moved)
    assert all((notes / p.candidate.rel).is_file() for p in rest)
    assert not cold.pending_operations(paths)
    assert verify_home(paths, keys).problems == []
    last = read_runs(paths)[-1]
    assert last["kind"] == "apply" and last["stopped"] is True and len(last["moved"]) == 2
    data = msgspec.to_builtins(report.form())
    assert data["stopped"] is True and data["planned"] == 5 and len(data["moved"]) == 2
    after = run(paths, config, keys)
    assert sorted(m.stone.path for m in after.moved) == sorted(p.candidate.rel for p in rest)
    assert not after.stopped and "stopped" not in read_runs(paths)[-1]


def test_apply_asked_to_stop_at_once_moves_nothing(paths: HomePaths, keys: VaultKeys, notes: Path) -> None:
    config = configure(paths, ("notes", "markdown", notes), report_only_runs=0, auto_move_cap=10)
    before = tree(notes)
    report = run(paths, config, keys, should_stop=lambda: True)
    assert report.stopped and report.moved == [] and report.planned == 5 and tree(notes) == before
    assert len([p for p in report.would_move if p.will_move]) == 5


def test_approve_and_reject(paths: HomePaths, keys: VaultKeys, notes: Path) -> None:
    config = configure(paths, ("notes", "markdown", notes), report_only_runs=5)
    scan = engine.scan(paths, config, now=NOW)
    maybe = next(c for c in scan.candidates if c.rel == "old/maybe.md")
    n0 = next(c for c in scan.candidates if c.rel == "old/n0.md")
    assert maybe.tier == "medium" and n0.tier == "high"
    assert engine.decide_candidate(paths, maybe.id, "approved", now=NOW).changed is True
    assert engine.decide_candidate(paths, f"notes:{maybe.rel}", "approved", now=NOW).changed is False
    assert engine.decide_candidate(paths, str(n0.path), "rejected", now=NOW).decision == "rejected"
    assert set(load_decisions(paths)) == {maybe.id, n0.id}
    rescan = {c.rel: c for c in engine.scan(paths, config, now=NOW).candidates}
    assert rescan["old/n0.md"].tier == "low" and "rejected" in rescan["old/n0.md"].guards
    assert rescan["old/maybe.md"].decision == "approved"
    # approved records move even during report-only runs; rejected ones never
    report = run(paths, config, keys)
    assert [m.stone.path for m in report.moved] == ["old/maybe.md"] and report.moved[0].stone.approved
    assert load_decisions(paths)[maybe.id]["consumed_by"] == report.moved[0].stone.move_id
    assert (notes / "old/n0.md").exists()


def test_decisions_bind_to_content(paths: HomePaths, keys: VaultKeys, notes: Path) -> None:
    config = configure(paths, ("notes", "markdown", notes), report_only_runs=5)
    scan = engine.scan(paths, config, now=NOW)
    maybe = next(c for c in scan.candidates if c.rel == "old/maybe.md")
    engine.decide_candidate(paths, maybe.id, "approved", now=NOW)
    put(notes, "old/maybe.md", "---\nsuperseded_by: recent-1.md\n---\nedited since", 5)
    assert run(paths, config, keys).moved == []  # the approval was for other bytes
    with pytest.raises(CurationError, match="changed since the last scan"):
        put(notes, "old/n1.md", "edited", 600)
        engine.decide_candidate(paths, "notes:old/n1.md", "approved", now=NOW)
    with pytest.raises(NotFound, match="no candidate 'c-0000000000' in the last scan"):
        engine.decide_candidate(paths, "c-0000000000", "approved", now=NOW)


def test_learning_from_restores(paths: HomePaths, keys: VaultKeys, notes: Path) -> None:
    config = configure(paths, ("notes", "markdown", notes), report_only_runs=0, auto_move_cap=10,
                       tighten_after_restores=3)
    moved = run(paths, config, keys).moved
    assert len(moved) == 5 and load_rubric(paths).version == 1
    for m in moved[:2]:
        engine.restore(paths, config, m.stone.move_id, unlock=unlocker(keys), now=NOW)
    assert load_rubric(paths).version == 1
    assert "no change caused by restores yet" in changelog_path(paths).read_text()
    engine.restore(paths, config, moved[2].stone.move_id, unlock=unlocker(keys), now=NOW)
    rubric = load_rubric(paths)
    assert rubric.version == 3  # both signals that fired (orphaned, unused) caused three restores
    assert {c.signal for c in rubric.changes} == {"orphaned", "unused"}
    assert rubric.rule("unused").factor == 1.5 and rubric.rule("orphaned").min_age_days == 30
    ids = [m.stone.move_id for m in moved[:3]]
    assert all(sorted(c.restores) == sorted(ids) for c in rubric.changes)
    changelog = changelog_path(paths).read_text()
    assert "## Version 3" in changelog and "## Version 2" in changelog
    for m in moved[:3]:
        assert f"`notes:{m.stone.path}`" in changelog and m.stone.move_id in changelog
    assert "factor 1 → 1.5" in changelog and "min_age_days 0 → 30" in changelog
    assert learn(paths, config) == [] and load_rubric(paths).version == 3  # idempotent
    report = engine.scan(paths, config, now=NOW)
    assert {c.rubric_version for c in report.candidates} == {3}
    back = {m.stone.path for m in moved[:3]}
    for c in report.candidates:
        if c.rel in back:
            assert "restored_recently" in c.guards and c.tier == "low"
    restores = read_restores(paths)
    assert len(restores) == 3 and all(set(r["signals"]) == {"orphaned", "unused"} for r in restores)


def test_status_overdue_notice_and_log(paths: HomePaths, keys: VaultKeys, notes: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    put(other, "a.md", "x", 3)
    config = configure(paths, ("notes", "markdown", notes), ("other", "markdown", other), report_only_runs=1)
    notice = overdue_notice(paths, config, NOW)
    assert notice is not None and "notes (never run)" in notice and "other (never run)" in notice
    assert "\n" not in notice
    run(paths, config, keys)
    engine.scan(paths, config, "other", now=NOW)
    assert overdue_notice(paths, config, NOW + timedelta(days=6)) is None
    late = overdue_notice(paths, config, NOW + timedelta(days=9))
    assert late is not None and "notes (9 days)" in late and "other (9 days)" in late
    config.curation.review_interval_days = 0
    assert overdue_notice(paths, config, NOW + timedelta(days=90)) is None
    config.curation.review_interval_days = 7
    before = tree(notes)
    for _ in range(3):
        overdue_notice(paths, config, NOW + timedelta(days=30))
    assert tree(notes) == before  # reminding never moves anything
    data = status(paths, config, NOW + timedelta(days=9))
    assert data.overdue and data.notice == late and data.rubric_version == 1
    assert data.counts.high == 5 and data.counts.cold == 0
    notes_status = data.scopes[0]
    assert notes_status.apply_runs == 1 and notes_status.report_only_runs_left == 0
    assert notes_status.last_run_kind == "apply" and notes_status.calibrated_at
    moved = run(paths, config, keys).moved
    engine.restore(paths, config, moved[0].stone.move_id, unlock=unlocker(keys), now=NOW)
    data = status(paths, config, NOW)
    assert data.counts.cold == 4 and data.counts.restores == 1 and not data.overdue
    events = [e.event for e in log(paths)]
    assert events.count("moved") == 5 and "restored" in events and "scan" in events and "apply" in events


def test_scheduled_runs_without_a_passphrase_only_report(paths: HomePaths, notes: Path) -> None:
    config = configure(paths, ("notes", "markdown", notes), report_only_runs=0)
    before = tree(notes)
    with pytest.raises(VaultLocked, match="needs the passphrase"):
        engine.apply(paths, config, now=NOW)
    report = engine.apply(paths, config, now=NOW, locked_ok=True)
    assert report.moved == [] and {p.reason for p in report.would_move} == {"no passphrase available: not moved"}
    assert tree(notes) == before and read_runs(paths)[-1]["kind"] == "apply"


def test_schedule_lines_and_install(paths: HomePaths, tmp_path: Path) -> None:
    units = sched.systemd_units(paths, executable="/usr/bin/reverie")
    service, timer = units["reverie-curate.service"], units["reverie-curate.timer"]
    assert f"ExecStart=/usr/bin/reverie --home {paths.root} curate apply --scheduled" in service
    assert "OnCalendar=weekly" in timer and "Persistent=true" in timer
    line = sched.cron_line(paths, executable="/usr/bin/reverie")
    assert line.startswith("17 9 * * 1 /usr/bin/reverie --home") and line.endswith(f"{sched.CRON_MARK} {paths.root}")
    calls: list[tuple[list[str], str | None]] = []
    crontab = {"text": "MAILTO=me\n"}

    def fake(command: object, stdin: str | None) -> str:
        calls.append((list(command), stdin))  # type: ignore[call-overload]
        if list(command) == ["crontab", "-l"]:  # type: ignore[call-overload]
            return crontab["text"]
        if list(command) == ["crontab", "-"]:  # type: ignore[call-overload]
            crontab["text"] = stdin or ""
        return ""

    unit_dir = tmp_path / "units"
    first = sched.install(paths, "systemd", executable="/usr/bin/reverie", unit_dir=unit_dir, run=fake)
    assert not first.already and (unit_dir / "reverie-curate.timer").read_text() == timer
    assert ["systemctl", "--user", "enable", "--now", "reverie-curate.timer"] in [c for c, _ in calls]
    assert sched.install(paths, "systemd", executable="/usr/bin/reverie", unit_dir=unit_dir, run=fake).already
    sched.install(paths, "cron", executable="/usr/bin/reverie", run=fake)
    again = sched.install(paths, "cron", executable="/usr/bin/reverie", run=fake)
    assert again.already and crontab["text"].count(sched.CRON_MARK) == 1 and crontab["text"].startswith("MAILTO=me")
    with pytest.raises(CurationError, match="must be 'systemd' or 'cron'"):
        sched.install(paths, "at", run=fake)


def test_scopes_are_added_once_and_checked(paths: HomePaths, notes: Path, tmp_path: Path) -> None:
    scope, added = add_scope(paths, "notes", "markdown", str(notes))
    assert added and scope.root == notes
    assert add_scope(paths, "notes", "markdown", str(notes))[1] is False
    assert [s.name for s in load_config(paths.config).curation.scopes] == ["notes"]
    with pytest.raises(ConfigError, match="scope 'notes' already exists"):
        add_scope(paths, "notes", "codex", str(notes))
    with pytest.raises(NotFound, match="is not a folder"):
        add_scope(paths, "gone", "markdown", str(tmp_path / "nope"))
    with pytest.raises(ConfigError, match="overlaps the data home"):
        add_scope(paths, "home", "markdown", str(paths.root))
    with pytest.raises(ConfigError, match="use letters, digits"):
        add_scope(paths, "../x", "markdown", str(notes))
    with pytest.raises(ConfigError, match="omit --path"):
        add_scope(paths, "v", "vault", str(notes))
    vault_scope, _ = add_scope(paths, "v", "vault", None)
    assert vault_scope.root == paths.vault
    with pytest.raises(NotFound, match="no curation scope 'x'"):
        engine.scan(paths, load_config(paths.config), "x", now=NOW)


def test_a_missing_scope_folder_is_reported_not_fatal(paths: HomePaths, notes: Path, tmp_path: Path) -> None:
    config = configure(paths, ("notes", "markdown", notes), ("gone", "markdown", tmp_path / "gone"))
    report = engine.scan(paths, config, now=NOW)
    problems = {s.scope.name: s.problem for s in report.scopes}
    assert problems["notes"] is None and "is not a folder" in (problems["gone"] or "")
    assert {r["scope"] for r in read_runs(paths)} == {"notes"}


def test_restoring_a_whole_bad_batch_tightens_each_signal_once(paths: HomePaths, keys: VaultKeys,
                                                                tmp_path: Path) -> None:
    notes = loose_notes(tmp_path, old=9)
    config = configure(paths, ("notes", "markdown", notes), report_only_runs=0, auto_move_cap=20,
                       tighten_after_restores=3)
    moved = run(paths, config, keys).moved
    assert len(moved) == 9 and {m.stone.rubric_version for m in moved} == {1}
    for m in moved:
        engine.restore(paths, config, m.stone.move_id, unlock=unlocker(keys), now=NOW)
    rubric = load_rubric(paths)
    assert rubric.version == 3 and sorted(c.signal for c in rubric.changes) == ["orphaned", "unused"]
    assert rubric.rule("unused").factor == 1.5
    assert len(read_restores(paths)) == 9


def test_apply_can_be_limited_to_what_a_dry_run_showed(paths: HomePaths, keys: VaultKeys, notes: Path) -> None:
    config = configure(paths, ("notes", "markdown", notes), report_only_runs=0, auto_move_cap=10)
    dry = run(paths, config, keys, dry_run=True)
    confirmed = {p.candidate.id for p in dry.would_move if p.will_move and p.candidate.rel != "old/n0.md"}
    put(notes, "old/late.md", "appeared after the dry run", 900)
    report = run(paths, config, keys, only=confirmed)
    assert {m.stone.path for m in report.moved} == {"old/n1.md", "old/n2.md", "old/n3.md", "old/n4.md"}
    skipped = {p.candidate.rel: p.reason for p in report.would_move}
    assert skipped["old/n0.md"] == skipped["old/late.md"] == "not in the confirmed list: not moved"


def test_scopes_may_not_overlap(paths: HomePaths, notes: Path) -> None:
    add_scope(paths, "notes", "markdown", str(notes))
    with pytest.raises(ConfigError, match="overlaps scope 'notes'"):
        add_scope(paths, "old", "markdown", str(notes / "old"))


def test_a_hand_written_scope_over_the_homes_own_folders_is_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from core.config import Config, ScopeConfig
    from core.curate.scopes import all_scopes
    from core.errors import ConfigError
    from core.paths import HomePaths

    paths = HomePaths(tmp_path / "home", tmp_path / "cache").ensure()
    for target in (paths.root, paths.cold, paths.cold / "notes", paths.logs):
        config = Config()
        config.curation.scopes.append(ScopeConfig(name="bad", kind="markdown", path=str(target)))
        with pytest.raises(ConfigError, match="overlaps the home's own"):
            all_scopes(config, paths)
    inside = paths.root / "my-notes"
    inside.mkdir()
    config = Config()
    config.curation.scopes.append(ScopeConfig(name="ok", kind="markdown", path=str(inside)))
    assert [s.name for s in all_scopes(config, paths)] == ["ok"]
