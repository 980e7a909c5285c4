"""``reverie remote``: capture on a machine without a vault, shipped to the home over SSH; and the
home's side of it (``remote receive``, run by ssh, never by hand)."""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click
import msgspec

from core.textsafe import visible
from tui_app.cli.state import CliState, counted, emit, pass_state

if TYPE_CHECKING:
    from core.conversation.detect import SourcePlan
    from core.remote.ship import PushReport
    from core.workbench.remote import LaptopCapture, SpoolStatus


def register(cli: click.Group) -> None:
    cli.add_command(remote_group)


@click.group("remote")
def remote_group() -> None:
    """Several machines, one memory: ship what this machine captures to the home machine over SSH.

    On a machine with no vault and a default remote (a laptop), `reverie ingest`, the session-end hook
    and `reverie watch --follow` put the turns in a local spool (0600, bounded) and ship them to the
    home's `reverie remote receive`; they wait in the spool while the home is unreachable."""


@remote_group.command("add")
@click.argument("name")
@click.argument("target", metavar="USER@HOST")
@click.option("--port", type=click.IntRange(1, 65535), default=None, help="sshd's port on the home.")
@click.option("--identity", type=click.Path(dir_okay=False), default=None, help="The ssh key to log in with.")
@click.option("--command", "command", default=None, metavar="PATH",
              help="How the home runs reverie (default: `reverie` on the home's PATH).")
@click.option("--ssh-option", "-o", "ssh_options", multiple=True, metavar="KEY=VALUE",
              help="An extra `ssh -o` option (e.g. UserKnownHostsFile=...); repeatable.")
@click.option("--default", "make_default", is_flag=True, help="Make it the default remote (the first one is).")
@pass_state
def add(state: CliState, name: str, target: str, port: int | None, identity: str | None, command: str | None,
        ssh_options: tuple[str, ...], make_default: bool) -> None:
    """Add the home machine as remote NAME (reached as USER@HOST over ssh)."""
    remote = state.workbench.remote.add(name, target, port=port, identity=identity, command=command,
                                        ssh_options=ssh_options, default=make_default)
    laptop = state.workbench.remote.is_laptop
    click.echo(visible(f"remote {remote.name}: ssh {remote.target}" + (f" -p {remote.port}" if remote.port else "")))
    if laptop:
        click.echo("This home has no vault: what `ingest`, the session-end hook and `watch --follow` capture "
                   f"here is spooled and shipped to {remote.name}.")


@remote_group.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@pass_state
def list_remotes(state: CliState, as_json: bool) -> None:
    """The remotes of this home, the default first."""
    remotes = state.workbench.remote.remotes()
    names = sorted(remotes.remotes, key=lambda name: (name != remotes.default, name))
    data = [{"name": name, "default": name == remotes.default, **msgspec.to_builtins(remotes.remotes[name].entry())}
            for name in names]
    lines = [f"{'*' if item['default'] else ' '} {item['name']}  {item['target']}"
             + (f"  port {item['port']}" if item["port"] else "") + f"  command {item['command']}" for item in data]
    emit(data, as_json, "\n".join(lines) or "no remotes (`reverie remote add NAME USER@HOST`)")


@remote_group.command("remove")
@click.argument("name")
@pass_state
def remove(state: CliState, name: str) -> None:
    """Remove remote NAME (refused while the spool holds turns for it)."""
    state.workbench.remote.remove(name)
    click.echo(visible(f"remote {name} removed"))


def _status_text(status: SpoolStatus) -> str:
    lines = [f"remote: {status.remote or '-'} ({status.target or 'none'}); this machine: {status.machine}",
             f"spool: {counted(status.turns, 'turn')} in {counted(status.batches, 'batch', 'batches')} waiting, "
             f"{status.bytes:,} of "
             f"{status.limit:,} bytes ({status.folder})",
             f"oldest waiting turn: {status.oldest_turn or '-'}" + (
                 f" (spooled {status.oldest_spooled})" if status.oldest_spooled else ""),
             f"last successful ship: {status.last_ship or 'never'}",
             f"last error: {status.last_error or '-'}" + (f" ({status.last_error_at})" if status.last_error else "")]
    lines += [f"damaged: {entry}" for entry in status.damaged]
    return "\n".join(lines)


@remote_group.command("status")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@pass_state
def status(state: CliState, as_json: bool) -> None:
    """The spool: turns and bytes waiting, the oldest waiting turn, the last ship and the last error."""
    result = state.workbench.remote.status()
    emit(msgspec.to_builtins(result), as_json, _status_text(result))


def push_text(report: PushReport) -> str:
    text = (f"shipped {counted(report.turns, 'turn')} in {counted(report.batches, 'batch', 'batches')} "
            f"to {report.remote}: "
            f"{report.added:,} added, {report.duplicates:,} already there, {report.quarantined:,} quarantined; "
            f"{counted(report.waiting, 'batch', 'batches')} waiting")
    return "\n".join([text, *(f"damaged: {entry}" for entry in report.damaged)])


@remote_group.command("push")
@click.argument("name", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@pass_state
def push(state: CliState, name: str | None, as_json: bool) -> None:
    """Ship the spool to the home now (the default remote, or NAME). Exit code 2 when the home cannot be
    reached (the turns stay spooled), 1 when a damaged spool record was set aside."""
    report = state.workbench.remote.push(name)
    emit(msgspec.to_builtins(report), as_json, push_text(report))
    click.get_current_context().exit(1 if report.damaged else 0)


@remote_group.command("receive")
@click.option("--machine", required=True, help="The name of the machine the batches come from.")
@pass_state
def receive(state: CliState, machine: str) -> None:
    """The home's side of `remote push`, run by ssh: batches on stdin, acknowledgements on stdout."""
    report = state.workbench.remote.receive(sys.stdin.buffer, sys.stdout.buffer, machine=machine)
    click.echo(f"reverie: received {counted(report.batches, 'batch', 'batches')} from {machine}: "
               f"{report.added} turns added, "
               f"{report.duplicates} already there, {report.quarantined} quarantined", err=True)


# -- the laptop's capture, for `ingest` and `watch --follow` ------------------------------------------


def capture_text(outcome: LaptopCapture) -> str:
    capture = outcome.capture
    lines = [f"Read {counted(capture.files, 'file')}: {counted(capture.spooled, 'turn')} spooled, "
             f"{counted(len(capture.rejected), 'malformed line')} sent on for the home's quarantine."]
    lines += [f"Not read: {entry}" for entry in capture.not_read]
    if outcome.push is not None:
        lines.append(push_text(outcome.push))
    else:
        lines.append(f"Not shipped yet: {outcome.push_error} (`reverie remote status` shows what waits).")
    return "\n".join(lines)


def ingest_on_laptop(state: CliState, plan: SourcePlan, as_json: bool) -> None:
    """``reverie ingest`` on a laptop: spool, then ship (exit 0 once the turns are safe in the spool;
    2 when the input held no turn at all, as a local ingest)."""
    outcome = state.workbench.remote.capture(plan)
    emit(msgspec.to_builtins(outcome.form()), as_json, capture_text(outcome))
    for entry in outcome.capture.rejected:
        click.echo(visible(f"{entry}"), err=True)
    if outcome.push_error:
        click.echo(visible(f"reverie: warning: {outcome.push_error}"), err=True)
    failed = outcome.capture.rejected and not outcome.capture.spooled
    click.get_current_context().exit(2 if failed else 0)


def follow_on_laptop(state: CliState, roots: Sequence[str | Path], interval: float, once: bool) -> None:
    """``reverie watch --follow`` on a laptop: spool what is new each pass, then ship the spool."""
    def on_push(report: PushReport | None, error: str | None) -> None:
        if error:
            click.echo(visible(f"reverie watch: {error}"), err=True)
        elif report is not None and report.batches:
            click.echo(f"{time.strftime('%H:%M:%S')} {push_text(report)}")

    follower = state.workbench.remote.follower(list(roots), on_push)
    if not once:
        click.echo(f"following {', '.join(str(root) for root in follower.roots)} for "
                   f"{state.workbench.remote.status().remote} every {interval:g} s; Ctrl-C stops", err=True)
    try:
        while True:
            report = follower.run_once()
            if report.added:
                click.echo(f"{time.strftime('%H:%M:%S')} spooled +{report.added:,} turns from {report.read:,} "
                           "transcript(s)")
            for entry in report.quarantined:
                click.echo(visible(f"reverie watch: {entry} (sent on for the home's quarantine)"), err=True)
            for error in report.errors:
                click.echo(visible(f"reverie watch: {error}"), err=True)
            if once:
                return
            time.sleep(interval)
    except KeyboardInterrupt:
        return
