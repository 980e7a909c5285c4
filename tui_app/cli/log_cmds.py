"""Conversation log commands: ``ingest`` (transcripts and exports into the day logs) and ``seal``."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import click

from core.conversation import FORMATS, IngestReport, SealReport
from core.vault.crypto import VaultKeys
from tui_app.cli.state import CliState, emit, pass_state

PROGRESS_MIN_BYTES = 4 * 1024 * 1024  # smaller imports finish before a bar would help


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _keys_for_sealing(state: CliState) -> tuple[VaultKeys | None, str]:
    """Keys if the passphrase is at hand without asking (env or keyring), else why not.

    A wrong passphrase raises here, before anything is written."""
    from core.vault.passphrase import passphrase_without_prompt

    if not state.paths.vault_header.exists():
        return None, "no vault in this home yet (`reverie init`, then `reverie seal`)"
    if not passphrase_without_prompt(state.config, state.paths):
        return None, "no passphrase in REVERIE_PASSPHRASE or the keyring; run `reverie seal`"
    return state.keys(), ""


@contextlib.contextmanager
def _progress(total: int) -> Iterator[Callable[[int], None] | None]:
    if total < PROGRESS_MIN_BYTES or not sys.stderr.isatty():
        yield None
        return
    with click.progressbar(length=total, label="Ingesting", file=sys.stderr) as bar:
        yield bar.update


def _summary(report: IngestReport, quarantine_dir: Path) -> str:
    lines = [
        f"Read {_plural(report.files, 'file')}: {_plural(report.added, 'turn')} added, "
        f"{_plural(report.duplicates, 'duplicate')}, {len(report.quarantined)} quarantined."
    ]
    if report.skipped:
        lines.append("Skipped (not turns):")
        width = len(str(max(report.skipped.values())))
        lines += [f"  {count:>{width}}  {reason}" for reason, count in sorted(report.skipped.items())]
    if report.repaired:
        lines.append("Repaired interrupted writes:")
        lines += [f"  {repair}" for repair in report.repaired]
    if report.sealed:
        lines.append(f"Sealed {_plural(len(report.sealed), 'day')}: {', '.join(report.sealed)}")
    if report.resealed:
        lines.append(f"Resealed {_plural(len(report.resealed), 'day')} that grew: {', '.join(report.resealed)}")
    if report.unsealed:
        lines.append(f"Left {_plural(len(report.unsealed), 'closed day')} unsealed: {report.unsealed_reason}")
    lines += [f"Not resealed: {problem}" for problem in report.seal_problems]
    if report.quarantined:
        lines.append(f"Malformed lines were copied to {quarantine_dir} (listed on stderr).")
    return "\n".join(lines)


@click.command()
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["auto", *FORMATS]),
    default="auto",
    show_default=True,
    help="Input format; auto tells each file's format from its content.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.argument("inputs", nargs=-1, required=True, type=click.Path(path_type=Path))
@pass_state
def ingest(state: CliState, fmt: str, as_json: bool, inputs: tuple[Path, ...]) -> None:
    """Import conversations into the log: Claude Code transcripts (files or a ~/.claude/projects
    tree), Codex sessions (rollout files or a ~/.codex/sessions tree), ChatGPT conversations.json
    exports, or generic JSONL (ts, role, text, ...).

    Re-importing adds nothing twice. Malformed lines are reported as FILE:LINE: reason, copied to
    the quarantine folder, and the rest is imported. Exit code 0 when all is well, 2 when anything
    was quarantined. Closed days are sealed when the passphrase is at hand (REVERIE_PASSPHRASE or
    the keyring); otherwise `reverie seal` does it later.
    """
    from core.conversation import collect_sources
    from core.conversation import ingest as run_ingest

    plan = collect_sources(list(inputs), fmt)
    keys, reason = _keys_for_sealing(state)
    with _progress(plan.total_bytes) as progress:
        report = run_ingest(state.paths, plan=plan, keys=keys, unsealed_reason=reason, progress=progress)
    emit(report.to_dict(), as_json, _summary(report, state.paths.quarantine))
    if report.quarantined and not as_json:
        for entry in report.quarantined:
            click.echo(f"{entry}", err=True)
        click.echo(f"reverie: {_plural(len(report.quarantined), 'line')} quarantined", err=True)
    click.get_current_context().exit(report.exit_code)


def _seal_text(report: SealReport) -> str:
    lines = []
    if report.sealed:
        lines.append(f"Sealed {_plural(len(report.sealed), 'day')}: {', '.join(report.sealed)}")
    if report.resealed:
        lines.append(f"Resealed {_plural(len(report.resealed), 'day')} that grew: {', '.join(report.resealed)}")
    lines += [f"Not resealed: {problem}" for problem in report.refused]
    return "\n".join(lines) or "Every closed day is already sealed."


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@pass_state
def seal(state: CliState, as_json: bool) -> None:
    """Seal every closed UTC day of the conversation log in the ledger, and reseal days an ingest
    added to since. Exit code 1 if a sealed day changed in a way no ingest explains."""
    from core.conversation import seal_closed_days

    report = seal_closed_days(state.paths, state.keys())
    emit(report.to_dict(), as_json, _seal_text(report))
    click.get_current_context().exit(1 if report.refused else 0)


def register(cli: click.Group) -> None:
    cli.add_command(ingest)
    cli.add_command(seal)
