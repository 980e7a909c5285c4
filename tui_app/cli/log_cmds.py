"""Conversation log commands: ``ingest`` (transcripts and exports into the day logs) and ``seal``."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

import click

from core.errors import NotFound, ReverieError
from core.textsafe import field_line, visible
from tui_app.cli.remote_cmds import ingest_on_laptop
from tui_app.cli.state import CliState, LazyChoice, counted, emit, pass_state, progress_printer

if TYPE_CHECKING:
    from core.conversation import SealReport
    from core.conversation.seals import DaySummary
    from core.workbench import IngestOutcome

def _formats() -> list[str]:
    from core.workbench.log import Log  # lazy: `reverie --version` loads no workbench module

    return ["auto", *Log.formats()]


PROGRESS_MIN_BYTES = 4 * 1024 * 1024  # smaller imports finish before a bar would help


@contextlib.contextmanager
def _progress(total: int) -> Iterator[Callable[[int], None] | None]:
    if total < PROGRESS_MIN_BYTES or not sys.stderr.isatty():
        yield None
        return
    with click.progressbar(length=total, label="Ingesting", file=sys.stderr) as bar:
        yield bar.update


def _summary(outcome: IngestOutcome, quarantine_dir: Path) -> str:
    report = outcome.report
    lines = [
        f"Read {counted(report.files, 'file')}: {counted(report.added, 'turn')} added, "
        f"{counted(report.duplicates, 'duplicate')}, {len(report.quarantined)} quarantined."
    ]
    if report.quarantine_note:
        lines.append(f"{report.quarantine_note} by an earlier ingest (not new; see {quarantine_dir}).")
    lines += [f"Not read: {entry}" for entry in report.not_read]
    if report.skipped:
        lines.append("Skipped (not turns):")
        width = len(str(max(report.skipped.values())))
        lines += [f"  {count:>{width}}  {reason}" for reason, count in sorted(report.skipped.items())]
    if report.repaired:
        lines.append("Repaired interrupted writes:")
        lines += [f"  {repair}" for repair in report.repaired]
    left = (f"Left {counted(len(report.unsealed), 'closed day')} unsealed: {report.unsealed_reason}"
            if report.unsealed else "")
    lines += _seal_lines(report.sealed, report.resealed, report.seal_problems, report.not_sealed, left)
    if report.quarantined:
        lines.append(f"Malformed lines were copied to {quarantine_dir} (listed on stderr).")
    lines.append(_index_line(outcome))
    return "\n".join(lines)


def _index_line(outcome: IngestOutcome) -> str:
    """What the index did before the command returned: searchable now, and how many wait for vectors."""
    if outcome.index is None:
        return f"Search index: not updated ({outcome.index_note})."
    line = f"Search index: up to date ({counted(outcome.index.turns_added, 'new turn')} searchable now)"
    if outcome.vectors:
        line += f"; {counted(outcome.vectors, 'vector')} embedded"
    if outcome.pending_vectors:
        how = "stopped; " if outcome.stopped else ""
        line += (f"; {how}{counted(outcome.pending_vectors, 'turn')} "
                 f"{'waits' if outcome.pending_vectors == 1 else 'wait'} for vectors: exact search finds them "
                 "now, semantic search once `reverie reindex` or a running `reverie watch` embeds them")
    return line + "."


@click.command()
@click.option(
    "--format",
    "fmt",
    type=LazyChoice(_formats),
    default="auto",
    show_default=True,
    help="Input format; auto tells each file's format from its content.",
)
@click.option("--embed/--no-embed", default=False,
              help="Also embed the new turns for semantic search before returning (Ctrl-C keeps what is "
                   "embedded). Default: no, wherever the output goes; `reverie reindex` or a running "
                   "`reverie watch` embeds them, and semantic search says how much it covers.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.argument("inputs", nargs=-1, required=True, type=click.Path(path_type=Path))
@pass_state
def ingest(state: CliState, fmt: str, embed: bool, as_json: bool, inputs: tuple[Path, ...]) -> None:
    """Import conversations into the log: Claude Code transcripts (files or a ~/.claude/projects tree),
    Codex sessions (rollout files or a ~/.codex/sessions tree), ChatGPT conversations.json exports,
    or generic JSONL (ts, role, text, ...).

    What was imported is searchable when the command returns: the exact index is updated in the same
    command, and vectors follow (see --embed). Re-importing adds nothing twice. Malformed lines are
    reported as FILE:LINE: reason, copied to the quarantine folder, and the rest is imported. Exit code
    0 when the input was imported, also when some lines were quarantined (a warning on stderr); 2 when
    no line of the input was a turn (every line malformed) or the input cannot be read. The work is the
    same wherever the output goes; only the progress display needs a terminal. Closed days are sealed
    when the passphrase is at hand (REVERIE_PASSPHRASE or the keyring); days written without it cannot
    be vouched for, and are sealed when you adopt them (`reverie seal --adopt DAY`).
    """
    workbench = state.workbench
    plan = workbench.log.plan_ingest(list(inputs), fmt)
    if workbench.remote.is_laptop:  # no vault here and a default remote: spool and ship to the home
        return ingest_on_laptop(state, plan, as_json)
    with _progress(plan.total_bytes) as progress:
        outcome = workbench.log.ingest(plan=plan, embed=embed, progress=progress,
                                   embed_progress=progress_printer() if embed else None)
    report = outcome.report
    emit(outcome.to_dict(), as_json, _summary(outcome, state.paths.quarantine))
    if report.quarantined and not as_json:
        for entry in report.quarantined:
            click.echo(visible(f"{entry}"), err=True)
        count = counted(len(report.quarantined), "line")
        click.echo(f"reverie: warning: {count} quarantined; the rest was imported" if outcome.exit_code == 0
                   else f"reverie: {count} quarantined and no turn imported", err=True)
    click.get_current_context().exit(outcome.exit_code)


def _seal_lines(sealed: Sequence[str], resealed: Sequence[str], refused: Sequence[object],
                not_sealed: Sequence[object], left: str = "") -> list[str]:
    """What a seal did, for ``ingest`` and ``seal`` alike; ``left`` (the days left unsealed and why)
    comes before the problems."""
    lines = []
    if sealed:
        lines.append(f"Sealed {counted(len(sealed), 'day')}: {', '.join(sealed)}")
    if resealed:
        lines.append(f"Resealed {counted(len(resealed), 'day')} that grew: {', '.join(resealed)}")
    if left:
        lines.append(left)
    lines += [f"Not resealed: {problem}" for problem in refused]
    lines += [f"Not sealed: {problem}" for problem in not_sealed]
    return lines


def _seal_text(report: SealReport) -> str:
    lines = _seal_lines(report.sealed, report.resealed, report.refused, report.not_sealed)
    return "\n".join(lines) or "Every closed day is already sealed."


def _day_text(summary: DaySummary) -> str:
    """What a day file holds, for the person deciding whether to adopt it (one line per field)."""
    sessions = ", ".join(f"{field_line(name, 60)} ({count})" for name, count in list(summary.sessions.items())[:8])
    more = len(summary.sessions) - 8
    return "\n".join([
        f"{summary.record_id}: {counted(summary.turns, 'turn')}, {summary.size:,} bytes"
        + (f", {counted(summary.bad_lines, 'malformed line')}" if summary.bad_lines else ""),
        f"  first  {summary.first or '-'}",
        f"  last   {summary.last or '-'}",
        f"  {counted(len(summary.sessions), 'session')}: {sessions or '-'}"
        + (f" and {more:,} more" if more > 0 else ""),
        f"  sha256 {summary.sha256}",
    ])


def _adoptions(state: CliState, days: tuple[str, ...], yes: bool) -> dict[str, str]:
    """Day → SHA-256 of each day file the person adopts, after showing what it holds and asking."""
    adopted: dict[str, str] = {}
    for day in days:
        try:
            summary = state.workbench.log.describe_day(day)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="'--adopt'") from None
        if summary is None:
            raise NotFound(f"--adopt {day}: no day log {state.paths.root}/logs/{day[:4]}/{day[5:7]}/{day}.jsonl")
        if summary.sealed:
            raise ReverieError(f"--adopt {day}: {summary.record_id} is sealed already; `reverie verify` checks it")
        click.echo(_day_text(summary), err=True)
        if not yes:
            if not sys.stdin.isatty():
                raise ReverieError(f"--adopt {day}: asked outside a terminal; read the above and add --yes to adopt it")
            if not click.confirm(f"Seal {summary.record_id} as yours, exactly as shown?", default=False, err=True):
                continue
        adopted[day] = summary.sha256
    return adopted


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--accept-unsigned", "accept_unsigned", multiple=True, metavar="YYYY-MM-DD",
              help="Reseal this sealed day although the turns appended to it have no signed intent (an ingest "
                   "without the passphrase) or are not the ones announced; read them first. Repeatable.")
@click.option("--adopt", "adopt", multiple=True, metavar="YYYY-MM-DD",
              help="Seal this day's log although Reverie cannot vouch it wrote it (a file put in logs/ by hand, "
                   "or an ingest without the passphrase): shows what it holds and asks first. Repeatable.")
@click.option("--yes", is_flag=True, help="With --adopt: adopt what is shown without asking.")
@pass_state
def seal(state: CliState, as_json: bool, accept_unsigned: tuple[str, ...], adopt: tuple[str, ...], yes: bool) -> None:
    """Seal every closed UTC day of the conversation log that Reverie's own ingests wrote in the ledger,
    and reseal days an ingest added to since. A day file Reverie did not write (or an ingest without
    the passphrase wrote) is never sealed silently: it is named, and sealed only with --adopt.
    Exit code 1 if a sealed day changed in a way no signed ingest intent explains, or a day file is
    not Reverie's."""
    adopted = _adoptions(state, adopt, yes)
    report = state.workbench.log.seal(accept_unsigned=set(accept_unsigned), adopt=adopted)
    emit(asdict(report), as_json, _seal_text(report))
    foreign = [problem for problem in report.not_sealed if problem.kind != "incomplete"]
    click.get_current_context().exit(1 if report.refused or foreign else 0)


def register(cli: click.Group) -> None:
    cli.add_command(ingest)
    cli.add_command(seal)
