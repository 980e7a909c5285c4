"""``reverie mirror``: keep a PostgreSQL + pgvector database in step with the home through a sharing
profile (docs/mirror.md), and ``reverie mirror search`` over it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import click
import msgspec

from tui_app.cli.state import CliState, emit, pass_state, progress_printer

if TYPE_CHECKING:
    from core.workbench.types import MirrorAnswer, MirrorReport

DSN_HELP = "PostgreSQL URL (else REVERIE_MIRROR_DSN, else mirror.dsn in config.toml); its password is never shown."


@click.group(invoke_without_command=True)
@click.option("--profile", default=None, help="The sharing profile that decides what reaches the database.")
@click.option("--dsn", default=None, help=DSN_HELP)
@click.option("--rebuild", is_flag=True, help="Drop the mirror's tables and write everything again from the log.")
@click.option("--json", "as_json", is_flag=True, help="Print what was written as JSON.")
@click.pass_context
def mirror(ctx: click.Context, profile: str | None, dsn: str | None, rebuild: bool, as_json: bool) -> None:
    """Mirror what a sharing profile shares (turns, memories, vectors) into PostgreSQL with pgvector:
    only the days that changed since the last run, one transaction per day."""
    if ctx.invoked_subcommand is not None:
        return
    if not profile:
        raise click.UsageError("reverie mirror needs --profile NAME (the sharing profile whose items may leave)")
    state: CliState = ctx.obj
    report = state.workbench.mirror.run(profile, dsn=dsn, rebuild=rebuild, progress=_progress())
    emit(msgspec.to_builtins(report.form()), as_json, _plain_report(report))


def _progress() -> Callable[[str, int, int], None] | None:
    """The day files done, on stderr when it is a terminal."""
    show = progress_printer()
    if show is None:
        return None
    return lambda phase, done, total: show("files", done, total)


def _plain_report(report: MirrorReport) -> str:
    head = "rebuilt" if report.rebuilt else "mirrored"
    lines = [f"{head} {report.database} under profile {report.profile} ({report.model}, {report.dim} dims)",
             f"days: {report.days_seen} in the log, {len(report.steps)} changed; turns written "
             f"{report.turns_written}, withheld {report.turns_withheld}",
             f"memories: written {report.memories_written}, removed {report.memories_removed}, "
             f"withheld {report.memories_withheld}"]
    lines += [f"  {step.day}: {step.action}, {step.written} written" for step in report.steps[:20]]
    if len(report.steps) > 20:
        lines.append(f"  … and {len(report.steps) - 20} more days")
    lines += [f"skipped {line}" for line in report.bad_lines[:10]]
    return "\n".join(lines)


@mirror.command("search")
@click.argument("query", nargs=-1, required=True)
@click.option("--dsn", default=None, help=DSN_HELP)
@click.option("--limit", "-n", type=click.IntRange(1, 200), default=10, show_default=True)
@click.option("--now", "now_text", metavar="ISO8601", default=None, help="Search as if it were this time.")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@pass_state
def mirror_search(state: CliState, query: tuple[str, ...], dsn: str | None, limit: int, now_text: str | None,
                  as_json: bool) -> None:
    """Search the mirror: the time range first, then PostgreSQL full-text search and pgvector inside it."""
    now, _ = state.clock(now_text)
    answer = state.workbench.mirror.search(" ".join(query), dsn=dsn, now=now, limit=limit)
    emit(msgspec.to_builtins(answer.form()), as_json, _plain_answer(answer))


def _plain_answer(answer: MirrorAnswer) -> str:
    lines = []
    if answer.plan.range is not None:
        lines.append(f"range  {answer.plan.range.start:%Y-%m-%d %H:%M} – {answer.plan.range.end:%Y-%m-%d %H:%M} "
                     f"from “{answer.plan.expression}”")
    lines.append(f"mode   {answer.mode}")
    if answer.note:
        lines.append(f"note   {answer.note}")
    for hit in answer.hits:
        who = hit.who or "memory"
        lines.append(f"{hit.ts:%Y-%m-%d %H:%M}  {who}: {' '.join(hit.text.split())[:160]}")
    if not answer.hits:
        lines.append("nothing found")
    return "\n".join(lines)


def register(cli: click.Group) -> None:
    cli.add_command(mirror)
