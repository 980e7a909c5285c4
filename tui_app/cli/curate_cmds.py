"""``reverie curate …``: scopes, scan, apply, approve / reject, restore, cold, calibrate, status, log,
schedule, recover. Plain text by default, ``--json`` for scripts."""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Iterator
from dataclasses import asdict
from types import FrameType
from typing import TYPE_CHECKING, Any, Literal

import click
import msgspec

from core.textsafe import visible
from tui_app.cli.state import CliState, emit, pass_state

if TYPE_CHECKING:
    pass

LOW_SHOWN = 20
PROGRESS_MIN_RECORDS = 5  # fewer moves finish before a bar would help
NO_SCOPES = "No scopes yet: reverie curate scope add NAME --kind markdown --path FOLDER"
TIER_HEADINGS = {
    "high": "moves automatically (within the per-run cap, after the report-only runs)",
    "medium": "waits for your approval: reverie curate approve ID",
    "low": "stays (guarded or uncertain)",
}


@click.group()
def curate() -> None:
    """Curation that never deletes: move unused records to cold storage, restore any time."""


# --- scopes -----------------------------------------------------------------------------------------


@curate.group()
def scope() -> None:
    """Manage the scopes curation looks after."""


@scope.command("add")
@click.argument("name")
@click.option("--kind", required=True, type=click.Choice(["vault", "claude-code", "codex", "markdown"]))
@click.option("--path", "path", default=None, help="The scope's folder (not for kind vault).")
@click.option("--json", "as_json", is_flag=True)
@pass_state
def scope_add(state: CliState, name: str, kind: str, path: str | None, as_json: bool) -> None:
    """Add a scope (idempotent: adding the same scope again changes nothing)."""
    added, changed = state.workbench.curation.add_scope(name, kind, path)
    verb = "Added" if changed else "Already configured:"
    text = f"{verb} scope {added.name} ({added.kind.name}) at {added.root}"
    emit({**msgspec.to_builtins(added.form()), "added": changed}, as_json, text)


@scope.command("remove")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True)
@pass_state
def scope_remove(state: CliState, name: str, as_json: bool) -> None:
    """Stop curating scope NAME. Nothing in cold storage is lost: its moved records can still be
    restored where they were (the scope is remembered for its tombstones)."""
    removed = state.workbench.curation.remove_scope(name)
    moved = removed.cold_records
    text = (f"Removed scope {removed.scope.name} ({removed.scope.kind.name}) at {removed.scope.root}: "
            f"no longer scanned or moved. {moved} record{'' if moved == 1 else 's'} in cold storage "
            "stay restorable with `reverie curate restore`.")
    emit({**msgspec.to_builtins(removed.scope.form()), "removed": True, "cold_records": moved}, as_json, text)


@scope.command("list")
@click.option("--json", "as_json", is_flag=True)
@pass_state
def scope_list(state: CliState, as_json: bool) -> None:
    """List the configured scopes."""
    scopes = [msgspec.to_builtins(s.form()) for s in state.workbench.curation.scopes()]
    text = "\n".join(f"{s['name']:<16} {s['kind']:<12} {s['path']}" for s in scopes) or NO_SCOPES
    emit({"scopes": scopes}, as_json, text)


# --- scan / apply -------------------------------------------------------------------------------------


def _candidate_line(c: dict[str, Any]) -> str:
    uncertain = (c.get("details") or {}).get("uncertain")
    guards = ", ".join(c["guards"]) or (f"- (held back: {uncertain})" if uncertain else "-")
    note = f"  [{c['decision']}]" if c.get("decision") else ""
    return (
        f"  {c['id']}  {c['scope']}:{c['rel']}  {c['age_days']:.0f} d  "
        f"signals: {', '.join(c['signals'])}  guards: {guards}{note}"
    )


def _scan_text(data: dict[str, Any]) -> str:
    if not data["scopes"]:
        return NO_SCOPES
    lines = []
    for s in data["scopes"]:
        if s["problem"]:
            lines.append(f"scope {s['name']}: {s['problem']}")
            continue
        t = s["thresholds"]
        lines.append(
            f"scope {s['name']} ({s['kind']}, {s['records']} records; unused ≥ {t['unused_days']:.0f} d, "
            f"clearly old ≥ {t['clearly_old_days']:.0f} d; {t['source']})"
        )
        if s["calibration"]:
            lines.append(f"  calibration {s['calibration']}")
    for tier in ("high", "medium", "low"):
        found = [c for c in data["candidates"] if c["tier"] == tier]
        lines.append(f"{tier.upper()} ({len(found)}): {TIER_HEADINGS[tier]}")
        shown = found if tier != "low" or len(found) <= LOW_SHOWN else found[:LOW_SHOWN]
        lines.extend(_candidate_line(c) for c in shown)
        if len(shown) < len(found):
            lines.append(f"  … and {len(found) - len(shown)} more (--json lists them all)")
    lines.append(f"rubric v{data['rubric_version']}")
    if data.get("pending_operations"):
        lines.append(f"{data['pending_operations']} interrupted operations wait: reverie curate recover")
    return "\n".join(lines)


@curate.command()
@click.argument("scope_name", metavar="[SCOPE]", required=False)
@click.option("--json", "as_json", is_flag=True)
@pass_state
def scan(state: CliState, scope_name: str | None, as_json: bool) -> None:
    """List candidates by tier, with the signals and guards that fired. Moves nothing."""

    report = state.workbench.curation.scan(scope_name)
    data = msgspec.to_builtins(report.form())
    emit(data, as_json, _scan_text(data))


def _apply_text(data: dict[str, Any]) -> str:
    lines = list(data.get("notes") or [])
    for r in data["recovered"]:
        lines.append(f"recovered {r['op']} {r['move_id']}: {r['outcome']} ({r['detail']})")
    for m in data["moved"]:
        lines.append(f"moved {m['path']} -> {m['cold_path']} (sha256 {m['sha256'][:12]}…)")
    for w in data["would_move"]:
        lines.append(f"{'would move' if w['will_move'] else 'not moved'} {w['path']}: {w['reason']}")
    for e in data["errors"]:
        lines.append(f"error: {e}")
    if not lines:
        lines.append("Nothing to move.")
    if data["dry_run"]:
        lines.append("Dry run: nothing was moved.")
    return "\n".join(lines)


class _MoveControls:
    """While ``reverie curate apply`` moves records: a progress bar on stderr (when it is a terminal)
    and Ctrl-C meaning "stop after the record in hand". Before the moves start (recovery, the scan,
    the passphrase prompt) and at a second Ctrl-C, Ctrl-C interrupts as it always does (a move
    interrupted mid-way is finished or rolled back by the next apply or `reverie curate recover`)."""

    def __init__(self, show_bar: bool) -> None:
        self.stop = threading.Event()
        self.moving = False
        self._show_bar = show_bar
        self._stack = contextlib.ExitStack()
        self._bar: Any = None
        self._shown = 0

    def progress(self, done: int, total: int) -> None:
        self.moving = True
        if self._bar is None and self._show_bar and total >= PROGRESS_MIN_RECORDS:
            self._bar = self._stack.enter_context(click.progressbar(length=total, label="Moving", file=sys.stderr))
        if self._bar is not None:
            self._bar.update(done - self._shown)
            self._shown = done

    def on_interrupt(self, signum: int, frame: FrameType | None) -> None:
        if not self.moving or self.stop.is_set():
            signal.default_int_handler(signum, frame)
        self.stop.set()

    def close(self) -> None:
        self._stack.close()


@contextlib.contextmanager
def _move_controls() -> Iterator[_MoveControls]:
    controls = _MoveControls(show_bar=sys.stderr.isatty())
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGINT, controls.on_interrupt)
    try:
        yield controls
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
        controls.close()


def _stopped_line(data: dict[str, Any]) -> str:
    moved, planned = len(data["moved"]), data["planned"]
    return (f"reverie: stopped (Ctrl-C) after moving {moved} of {planned} records; "
            f"the other {planned - moved} move at the next `reverie curate apply`")


@curate.command()
@click.argument("scope_name", metavar="[SCOPE]", required=False)
@click.option("--dry-run", is_flag=True, help="Show what would move; move nothing.")
@click.option("--scheduled", is_flag=True, help="For the weekly timer: without a passphrase, report only.")
@click.option("--json", "as_json", is_flag=True)
@pass_state
def apply(state: CliState, scope_name: str | None, dry_run: bool, scheduled: bool, as_json: bool) -> None:
    """Move what the tiers allow plus what you approved, each with a tombstone (never deletes).

    Ctrl-C while records are moving finishes the record in hand and stops (exit code 130)."""

    with _move_controls() as controls:
        report = state.workbench.curation.apply(scope_name, dry_run=dry_run, quiet=scheduled,
                                                progress=controls.progress, should_stop=controls.stop.is_set)
    data = msgspec.to_builtins(report.form())
    emit(data, as_json, _apply_text(data))
    for error in data["errors"] if as_json else []:
        click.echo(visible(f"reverie: {error}"), err=True)
    if report.stopped:
        click.echo(_stopped_line(data), err=True)
        raise SystemExit(130)


@curate.command()
@click.argument("candidate")
@click.option("--json", "as_json", is_flag=True)
@pass_state
def approve(state: CliState, candidate: str, as_json: bool) -> None:
    """Approve moving CANDIDATE (an id, SCOPE:PATH or a path) at the next apply."""

    _decide(state, candidate, "approved", as_json, "it moves at the next `reverie curate apply`")


@curate.command()
@click.argument("candidate")
@click.option("--json", "as_json", is_flag=True)
@pass_state
def reject(state: CliState, candidate: str, as_json: bool) -> None:
    """Reject moving CANDIDATE: it stays, and is not proposed again while its content is unchanged."""

    _decide(state, candidate, "rejected", as_json, "it stays where it is")


def _decide(state: CliState, candidate: str, decision: Literal["approved", "rejected"], as_json: bool,
            outcome: str) -> None:
    """Record ``decision`` on ``candidate`` and say so (``Already …:`` when it was decided so before)."""
    done = state.workbench.curation.decide(candidate, decision)
    verb = decision.capitalize() if done.changed else f"Already {decision}:"
    emit(asdict(done), as_json, f"{verb} {done.id} {done.path}: {outcome}")


@curate.command()
@click.argument("target", metavar="TOMBSTONE|PATH")
@click.option("--json", "as_json", is_flag=True)
@pass_state
def restore(state: CliState, target: str, as_json: bool) -> None:
    """Put a moved record back, byte for byte, verified (a tombstone, the original path, a cold path
    or a move id)."""

    done = state.workbench.curation.restore(target)
    data = msgspec.to_builtins(done.form())
    verb = "Already restored:" if done.already else "Restored"
    emit(data, as_json, f"{verb} {done.path} (sha256 {done.sha256}, verified)")


@curate.command()
@click.option("--json", "as_json", is_flag=True)
@pass_state
def recover(state: CliState, as_json: bool) -> None:
    """Finish or roll back moves and restores that were interrupted (apply and restore do this too)."""

    results = [asdict(r) for r in state.workbench.curation.recover()]
    text = "\n".join(f"{r['op']} {r['move_id']}: {r['outcome']} ({r['detail']})" for r in results)
    emit({"recovered": results}, as_json, text or "Nothing was interrupted.")


# --- cold storage, calibration ----------------------------------------------------------------------


@curate.command("cold")
@click.argument("scope_name", metavar="[SCOPE]", required=False)
@click.option("--verify", is_flag=True, help="Re-hash every cold copy.")
@click.option("--json", "as_json", is_flag=True)
@pass_state
def cold_cmd(state: CliState, scope_name: str | None, verify: bool, as_json: bool) -> None:
    """What was moved, when and why; restore with `reverie curate restore PATH`."""
    items = msgspec.to_builtins([i.form() for i in state.workbench.curation.cold(scope_name, verify=verify)])
    lines = []
    for i in items:
        check = {True: "  intact", False: "  CHECKSUM MISMATCH", None: ""}[i["intact"]]
        lines.append(
            f"{i['moved_at'][:16]}  {i['scope']}:{i['rel']}  ({', '.join(i['signals'])}; "
            f"{'approved' if i['approved'] else i['tier']}; rubric v{i['rubric_version']})  "
            f"sha256 {i['sha256'][:12]}…{check}"
        )
    emit({"cold": items}, as_json, "\n".join(lines) or "Cold storage is empty.")
    if verify and any(i["intact"] is False for i in items):
        raise SystemExit(1)


@curate.command()
@click.argument("scope_name", metavar="SCOPE")
@click.option("--json", "as_json", is_flag=True)
@pass_state
def calibrate(state: CliState, scope_name: str, as_json: bool) -> None:
    """Measure SCOPE's real distribution and place the thresholds at its natural breaks."""

    data = asdict(state.workbench.curation.calibrate(scope_name))
    t, ages = data["thresholds"], data["figures"]["age_days"]
    lines = [
        f"scope {data['scope']}: {data['source']}",
        f"  unused ≥ {t['unused_days']:.1f} days, clearly old ≥ {t['clearly_old_days']:.1f} days",
    ]
    if ages.get("n"):
        lines.append(f"  ages (days): median {ages['median']:.1f}, p90 {ages['p90']:.1f}, max {ages['max']:.1f}")
    for key, value in data["how"].items():
        lines.append(f"  {key}: {value}")
    if data["previous"]:
        p = data["previous"]
        lines.append(f"  before: unused ≥ {p['unused_days']:.1f}, clearly old ≥ {p['clearly_old_days']:.1f}")
    if data["shifted"]:
        lines.append(f"  the distribution had shifted: {data['shifted']}")
    emit(data, as_json, "\n".join(lines))


# --- status, log, schedule --------------------------------------------------------------------------


@curate.command()
@click.option("--json", "as_json", is_flag=True)
@pass_state
def status(state: CliState, as_json: bool) -> None:
    """Last run, overdue or not, rubric version, counts."""
    data = state.workbench.curation.status()
    c = data.counts
    lines = [
        f"rubric v{data.rubric_version}; last run {data.last_run or 'never'}; "
        f"{'OVERDUE' if data.overdue else 'up to date'} (every {data.review_interval_days} days)",
        f"candidates: {c.high} high, {c.medium} medium, {c.low} low; approved {c.approved}, "
        f"rejected {c.rejected}; in cold storage {c.cold}; restores {c.restores}",
    ]
    for s in data.scopes:
        lines.append(
            f"  {s.name:<16} last run {s.last_run or 'never'}{'  OVERDUE' if s.overdue else ''}; "
            f"report-only runs left {s.report_only_runs_left}; cold {s.cold}"
        )
    if data.pending_operations:
        lines.append(f"{data.pending_operations} interrupted operations wait: reverie curate recover")
    emit(msgspec.to_builtins(data), as_json, "\n".join(lines))


@curate.command("log")
@click.option("-n", "limit", default=50, show_default=True, help="How many events (0: all).")
@click.option("--json", "as_json", is_flag=True)
@pass_state
def log_cmd(state: CliState, limit: int, as_json: bool) -> None:
    """Curation's history: runs, moves, restores, decisions and rubric changes, newest first."""
    events = state.workbench.curation.history(limit)
    text = "\n".join(f"{e.ts[:19]}  {e.event:<9} {e.scope or '-':<14} {e.text}" for e in events)
    emit({"events": msgspec.to_builtins(events)}, as_json, text or "No curation history yet.")


@curate.command()
@click.option("--install", is_flag=True, help="Install it (systemd user timer, or a crontab line).")
@click.option(
    "--method", type=click.Choice(["systemd", "cron"]), default=None, help="Default: systemd when it runs, else cron."
)
@click.option("--json", "as_json", is_flag=True)
@pass_state
def schedule(state: CliState, install: bool, method: str | None, as_json: bool) -> None:
    """Print (or install) a weekly run: it reminds and moves only what the tier rules allow."""
    curation = state.workbench.curation
    if install:
        done = curation.install_schedule(method)
        verb = "Already installed (refreshed)" if done.already else "Installed"
        text = f"{verb} the weekly run ({done.method}): " + "; ".join(done.written + done.commands)
        emit(asdict(done), as_json, text)
        return
    plan = curation.schedule_plan(method)
    data = {"method": plan.method, "systemd": plan.systemd, "cron": plan.cron, "unit_dir": plan.unit_dir}
    if plan.method == "systemd":
        text = "\n".join(f"# {curation.unit_path(name)}\n{body}" for name, body in plan.systemd.items())
        text += f"\n# then: systemctl --user daemon-reload && systemctl --user enable --now {plan.unit}.timer"
    else:
        text = f"# add with `crontab -e`:\n{plan.cron}"
    emit(data, as_json, text)


def register(cli: click.Group) -> None:
    cli.add_command(curate)
