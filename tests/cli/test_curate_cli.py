"""`reverie curate …`: every command, its JSON shape, its text, and its errors and exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from core.config import load_config, save_config
from core.paths import HomePaths
from core.vault.crypto import VaultKeys
from tests.conftest import TEST_PASSPHRASE
from tests.helpers.curate import loose_notes

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def cli_home(paths: HomePaths, keys: VaultKeys, tmp_path: Path) -> tuple[HomePaths, Path]:
    return paths, loose_notes(tmp_path)


def curate(*args: str, ok: bool = True) -> Any:
    from tui_app.cli.main import cli

    result = CliRunner().invoke(cli, ["curate", *args], env={"REVERIE_PASSPHRASE": TEST_PASSPHRASE},
                                catch_exceptions=True)
    if ok:
        assert result.exit_code == 0, (result.output, result.exception)
    if "--json" in args and ok:
        return json.loads(result.stdout)
    return result


def set_curation(paths: HomePaths, **values: int) -> None:
    config = load_config(paths.config)
    for key, value in values.items():
        setattr(config.curation, key, value)
    save_config(paths.config, config)


def test_scope_commands(cli_home: tuple[HomePaths, Path]) -> None:
    _, notes = cli_home
    added = curate("scope", "add", "notes", "--kind", "markdown", "--path", str(notes), "--json")
    assert added == {"name": "notes", "kind": "markdown", "path": str(notes), "added": True}
    assert curate("scope", "add", "notes", "--kind", "markdown", "--path", str(notes), "--json")["added"] is False
    assert curate("scope", "list", "--json") == {"scopes": [{"name": "notes", "kind": "markdown", "path": str(notes)}]}
    assert "notes" in curate("scope", "list").output


def test_scan_apply_restore_json_shapes(cli_home: tuple[HomePaths, Path]) -> None:
    paths, notes = cli_home
    curate("scope", "add", "notes", "--kind", "markdown", "--path", str(notes))
    scan = curate("scan", "--json")
    assert scan["candidates"], scan
    for c in scan["candidates"]:
        assert {"id", "scope", "path", "tier", "signals", "guards", "rubric_version"} <= set(c)
        assert c["tier"] in ("high", "medium", "low") and isinstance(c["signals"], list)
    assert {c["tier"] for c in scan["candidates"]} >= {"high", "medium"}
    assert list(scan) == ["candidates", "rubric_version", "scanned_at", "scopes", "pending_operations"]
    assert list(scan["scopes"][0]) == ["name", "kind", "path", "records", "counts", "thresholds", "calibration",
                                       "problem"]
    dry = curate("apply", "--dry-run", "--json")
    assert dry["dry_run"] is True and dry["moved"] == [] and dry["would_move"]
    assert list(dry) == ["dry_run", "moved", "would_move", "recovered", "errors", "notes", "rubric_version",
                         "stopped", "planned"]
    assert list(dry["would_move"][0]) == ["path", "scope", "id", "rel", "tier", "signals", "guards", "sha256",
                                          "rubric_version", "age_days", "reason", "will_move", "approved"]
    reported = curate("apply", "--json")  # the first run of a scope only reports
    assert reported["dry_run"] is False and reported["moved"] == [] and reported["would_move"]
    set_curation(paths, report_only_runs=0)
    applied = curate("apply", "--json")
    assert applied["moved"]
    for m in applied["moved"]:
        assert {"path", "cold_path", "tombstone", "sha256"} <= set(m)
        assert not Path(m["path"]).exists() and Path(m["tombstone"]).is_file() and Path(m["cold_path"]).is_file()
    first = applied["moved"][0]
    assert list(first) == ["path", "cold_path", "tombstone", "sha256", "scope", "rel", "move_id", "tier",
                           "approved", "signals"]
    restored = curate("restore", first["tombstone"], "--json")
    assert list(restored) == ["restored", "sha256", "scope", "rel", "move_id", "already_restored"]
    assert restored["restored"] == first["path"] and restored["sha256"] == first["sha256"]
    assert Path(first["path"]).is_file()
    again = curate("restore", first["tombstone"], "--json")
    assert again["already_restored"] is True
    cold = curate("cold", "--verify", "--json")["cold"]
    assert len(cold) == len(applied["moved"]) - 1 and all(item["intact"] for item in cold)
    assert list(cold[0]) == ["move_id", "scope", "rel", "path", "cold_path", "tombstone", "sha256", "size",
                             "moved_at", "rubric_version", "tier", "approved", "signals", "details",
                             "tombstone_present", "intact"]
    assert "intact" in curate("cold", "--verify").output
    text = curate("scan").output
    assert "HIGH (" in text and "MEDIUM (" in text and "rubric v1" in text


def test_approve_reject_status_log_calibrate(cli_home: tuple[HomePaths, Path]) -> None:
    _, notes = cli_home
    curate("scope", "add", "notes", "--kind", "markdown", "--path", str(notes))
    scan = curate("scan", "--json")
    medium = next(c for c in scan["candidates"] if c["tier"] == "medium")
    high = next(c for c in scan["candidates"] if c["tier"] == "high")
    approved = curate("approve", medium["id"], "--json")
    assert approved["decision"] == "approved" and approved["changed"] is True
    assert "Already approved" in curate("approve", medium["id"]).output
    assert curate("reject", high["path"], "--json")["decision"] == "rejected"
    moved = curate("apply", "--json")["moved"]
    assert [m["path"] for m in moved] == [medium["path"]]
    status = curate("status", "--json")
    assert status["rubric_version"] == 1 and status["overdue"] is False and status["counts"]["cold"] == 1
    assert status["scopes"][0]["report_only_runs_left"] == 2
    assert "up to date" in curate("status").output
    events = curate("log", "--json")["events"]
    assert {"moved", "approved", "rejected", "apply", "scan"} <= {e["event"] for e in events}
    calibrated = curate("calibrate", "notes", "--json")
    assert calibrated["measured"] and calibrated["thresholds"]["unused_days"] > 0
    assert calibrated["previous"] is not None and "unused ≥" in curate("calibrate", "notes").output


@pytest.mark.usefixtures("cli_home")
def test_schedule_prints_both_forms() -> None:
    data = curate("schedule", "--method", "cron", "--json")
    assert data["method"] == "cron" and "curate apply --scheduled" in data["cron"]
    assert "OnCalendar=weekly" in data["systemd"]["reverie-curate.timer"]
    assert "crontab -e" in curate("schedule", "--method", "cron").output
    text = curate("schedule", "--method", "systemd").output
    assert "[Timer]" in text and "systemctl --user daemon-reload" in text


def reverie(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "REVERIE_PASSPHRASE": TEST_PASSPHRASE}
    return subprocess.run([sys.executable, "-m", "tui_app.cli.main", *args], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=120)


def test_errors_are_one_line_with_meaningful_exit_codes(cli_home: tuple[HomePaths, Path]) -> None:
    paths, notes = cli_home
    set_curation(paths, report_only_runs=0)
    assert reverie("curate", "scope", "add", "notes", "--kind", "markdown", "--path", str(notes)).returncode == 0
    missing = reverie("curate", "restore", str(notes / "never-was.md"))
    assert missing.returncode == 3 and missing.stderr.count("\n") == 1 and "never-was.md" in missing.stderr
    moved = json.loads(reverie("curate", "apply", "--json").stdout)["moved"][0]
    Path(moved["path"]).write_text("someone else's file")
    clobber = reverie("curate", "restore", moved["tombstone"])
    assert clobber.returncode == 2 and "nothing was changed" in clobber.stderr and clobber.stderr.count("\n") == 1
    assert Path(moved["path"]).read_text() == "someone else's file"
    unknown = reverie("curate", "calibrate", "nope")
    assert unknown.returncode == 3 and "no curation scope 'nope'" in unknown.stderr
    bad = reverie("curate", "scope", "add", "x", "--kind", "markdown", "--path", str(notes / "nope"))
    assert bad.returncode == 3 and "is not a folder" in bad.stderr


def test_ctrl_c_during_apply_finishes_the_record_and_stops(cli_home: tuple[HomePaths, Path],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A real SIGINT in the middle of the second move: that move finishes, no other starts, one line
    on stderr, exit code 130, and the next apply moves the rest."""
    import functools
    import signal

    from core.curate import engine
    from tui_app.cli.main import cli

    paths, notes = cli_home
    set_curation(paths, report_only_runs=0)
    curate("scope", "add", "notes", "--kind", "markdown", "--path", str(notes))
    ledgered: list[str] = []

    def hook(step: str) -> None:
        if step == "ledgered":
            ledgered.append(step)
            if len(ledgered) == 2:
                os.kill(os.getpid(), signal.SIGINT)

    original = engine.apply
    monkeypatch.setattr(engine, "apply", functools.partial(original, on_step=hook))  # the CLI's apply, with a hook
    before = signal.getsignal(signal.SIGINT)
    result = CliRunner().invoke(cli, ["curate", "apply", "--json"], env={"REVERIE_PASSPHRASE": TEST_PASSPHRASE})
    assert signal.getsignal(signal.SIGINT) is before
    assert result.exit_code == 130, (result.output, result.exception)
    data = json.loads(result.stdout)
    planned = data["planned"]
    assert data["stopped"] is True and len(data["moved"]) == 2 and planned >= 3
    assert all(not Path(m["path"]).exists() and Path(m["cold_path"]).is_file() for m in data["moved"])
    assert result.stderr.count("\n") == 1
    assert f"stopped (Ctrl-C) after moving 2 of {planned} records; the other {planned - 2} move" in result.stderr
    assert not (paths.curation / "pending").exists() or not list((paths.curation / "pending").iterdir())
    monkeypatch.setattr(engine, "apply", original)
    assert len(curate("apply", "--json")["moved"]) == planned - 2


def test_ctrl_c_before_the_moves_or_twice_interrupts_as_usual(capsys: pytest.CaptureFixture[str]) -> None:
    import signal

    from tui_app.cli.curate_cmds import _MoveControls

    controls = _MoveControls(show_bar=True)
    with pytest.raises(KeyboardInterrupt):  # recovery, the scan or the passphrase prompt
        controls.on_interrupt(signal.SIGINT, None)
    controls.progress(0, 6)
    controls.on_interrupt(signal.SIGINT, None)
    assert controls.stop.is_set()
    with pytest.raises(KeyboardInterrupt):
        controls.on_interrupt(signal.SIGINT, None)
    for done in range(1, 7):
        controls.progress(done, 6)
    controls.close()
    assert "Moving" in capsys.readouterr().err
    quiet = _MoveControls(show_bar=True)
    quiet.progress(0, 2)  # too few to be worth a bar
    quiet.close()
    assert capsys.readouterr().err == ""


def test_status_log_and_picture_keep_the_engine_s_json_form(cli_home: tuple[HomePaths, Path]) -> None:
    """The engine returns typed results; what `--json` prints from them is their msgspec form, byte for
    byte, with every key in its order and absent keys absent (a run has no path, a move no id)."""
    import msgspec

    from core.curate.engine import calibration_picture
    from core.curate.status import log, status
    from core.workbench import Workbench
    from core.workbench.curation import CalibrationPicture, CurationEvent, CurationStatus

    paths, notes = cli_home
    curate("scope", "add", "notes", "--kind", "markdown", "--path", str(notes))
    scan = curate("scan", "--json")
    curate("approve", next(c for c in scan["candidates"] if c["tier"] == "medium")["id"])
    curate("reject", next(c for c in scan["candidates"] if c["tier"] == "high")["path"])
    set_curation(paths, report_only_runs=0)
    moved = curate("apply", "--json")["moved"]
    curate("restore", moved[0]["tombstone"])
    curate("calibrate", "notes")

    def printed(data: Any) -> str:
        return json.dumps(msgspec.to_builtins(data), ensure_ascii=False, indent=2, default=str) + "\n"

    config = load_config(paths.config)
    shown = curate("status", "--json", ok=False).stdout
    assert shown == printed(status(paths, config))
    data = json.loads(shown)
    assert list(data) == ["rubric_version", "last_run", "overdue", "notice", "review_interval_days", "counts",
                          "pending_operations", "scopes"]
    assert list(data["counts"]) == ["high", "medium", "low", "approved", "rejected", "cold", "restores"]
    assert list(data["scopes"][0]) == ["name", "kind", "path", "last_run", "last_run_kind", "overdue",
                                       "days_since_run", "apply_runs", "report_only_runs_left", "counts", "approved",
                                       "rejected", "cold", "calibrated_at", "thresholds"]
    assert data["counts"]["restores"] == 1 and data["scopes"][0]["name"] == "notes"
    engine_log = log(paths, 50)
    assert {"restored", "moved", "approved", "rejected", "apply", "scan"} <= {e.event for e in engine_log}
    shown = curate("log", "--json", ok=False).stdout
    assert shown == printed({"events": engine_log})
    keys = {e["event"]: list(e) for e in json.loads(shown)["events"]}
    assert keys["scan"] == ["ts", "event", "scope", "text", "rubric_version"]
    assert keys["moved"] == keys["restored"] == ["ts", "event", "scope", "path", "move_id", "text"]
    assert keys["approved"] == ["ts", "event", "scope", "path", "id", "text"]
    service = Workbench(paths).curation
    assert isinstance(service.status(), CurationStatus)
    assert all(isinstance(e, CurationEvent) for e in service.history())
    picture = service.picture("notes", bins=12)
    assert isinstance(picture, CalibrationPicture) and picture.measured and len(picture.bins) == 12
    assert list(msgspec.to_builtins(picture)) == ["scope", "measured", "measured_at", "n", "bins", "thresholds",
                                                  "figures", "how", "history"]
    assert picture == calibration_picture(paths, "notes", bins=12)
    assert service.picture("").measured is False  # no scope: defaults, not an error
