"""``reverie reindex``, ``reverie watch``, ``reverie index status`` and ``reverie index purge``."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from core.textsafe import visible
from tui_app.cli.remote_cmds import follow_on_laptop
from tui_app.cli.state import CliState, emit, pass_state, progress_printer

if TYPE_CHECKING:
    from core.conversation.follow import Follower, FollowReport
    from core.index import IndexStatus, ReindexReport


def _summary(report: ReindexReport, embedded: bool = True) -> str:
    lines = [
        f"day files: {report.files:,} ({report.read:,} read, {report.replaced:,} re-read from the start, "
        f"{report.removed:,} gone)",
        f"turns: +{report.turns_added:,} -{report.turns_removed:,}"
        + (f", {report.duplicates:,} duplicate ids skipped" if report.duplicates else "")
        + (f", {report.renumbered_days:,} days reordered" if report.renumbered_days else ""),
    ]
    if report.model or report.embedded or report.pending:
        model = f" with {report.model}" if report.model else ""
        reset = " (model changed: everything re-embedded)" if report.model_reset else ""
        waiting = f", {report.pending:,} waiting" if report.pending else ""
        if report.shadow_model and not report.swapped:
            done = report.shadow_done + report.shadow_pending
            reset = (f" (beside the old vectors, which searches use until it is done: "
                     f"{report.shadow_done:,} of {done:,})")
        lines.append(f"vectors: +{report.embedded:,}{model}{reset}{waiting}")
    elif not embedded:
        lines.append("vectors: not updated (--no-embed); `reverie index status` counts what waits")
    if report.memories is not None:
        m = report.memories
        lines.append(f"memories: +{m.added} ~{m.updated} -{m.removed}")
    if report.bad_line_count:
        lines.append(f"bad lines: {report.bad_line_count:,} (left in the log; see `reverie ingest` quarantine)")
        lines.extend(f"  {line}" for line in report.bad_lines[:10])
    lines.append(f"took {report.seconds:.1f} s")
    return "\n".join(lines)


@click.command()
@click.option(
    "--full", is_flag=True, help="Read every day file again from the start (unchanged turns keep their vectors)."
)
@click.option("--no-embed", is_flag=True, help="Update the exact index only; vectors wait for the next run.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@pass_state
def reindex(state: CliState, full: bool, no_embed: bool, as_json: bool) -> None:
    """Bring the search index up to date with the conversation log (only changed day files)."""
    with state.workbench as workbench:
        try:
            report = workbench.log.reindex(full=full, embed=not no_embed,
                                       progress=None if as_json else progress_printer())
        except KeyboardInterrupt:
            info = workbench.index.status()
            waiting = info.shadow_pending if info.shadow_model else info.pending_vectors
            click.echo(f"\nreverie: stopped; what was embedded is kept, {waiting:,} wait for vectors", err=True)
            raise
    emit(report.as_dict(), as_json, _summary(report, embedded=not no_embed))


@click.command()
@click.option(
    "--interval",
    type=click.FloatRange(min=0.1),
    default=10.0,
    show_default=True,
    help="Seconds between looks at the log.",
)
@click.option("--no-embed", is_flag=True, help="Keep the exact index current; embed nothing.")
@click.option("--once", is_flag=True, help="One pass, then exit.")
@click.option(
    "--follow",
    "follow",
    multiple=True,
    type=click.Path(exists=True, path_type=Path),
    help="Also ingest new turns from this transcript folder as it grows (e.g. ~/.claude/projects, "
    "~/.codex/sessions); repeatable, added to [watch] follow in config.toml.",
)
@pass_state
def watch(state: CliState, interval: float, no_embed: bool, once: bool, follow: tuple[Path, ...]) -> None:
    """Keep the search index current while you work (safe beside the TUI). Ctrl-C stops.

    With --follow (or [watch] follow in config.toml) each pass first ingests what is new in those
    Claude Code / Codex transcript folders: only files whose size or time changed are read, and
    re-reading a grown transcript adds only its new turns."""
    def on_pass(report: ReindexReport) -> None:
        if report.read or report.removed or report.embedded or report.memories:
            stamp = time.strftime("%H:%M:%S")
            waiting = f" ({report.pending:,} waiting)" if report.pending else ""
            click.echo(
                f"{stamp} +{report.turns_added:,} turns, +{report.embedded:,} vectors{waiting} "
                f"in {report.seconds:.1f} s"
            )

    def on_error(exc: Exception) -> None:
        click.echo(f"reverie watch: {exc} (trying again in {interval:g} s)", err=True)

    def on_follow(report: FollowReport) -> None:
        if report.added:
            stamp = time.strftime("%H:%M:%S")
            click.echo(f"{stamp} followed: +{report.added:,} turns from {report.read:,} transcript(s)")
        for entry in report.quarantined:
            click.echo(visible(f"reverie watch: {entry} (quarantined)"), err=True)

    if state.workbench.remote.is_laptop:  # no vault here and a default remote: spool and ship to the home
        return follow_on_laptop(state, [*state.config.watch.follow, *map(str, follow)], interval, once)
    follower = _follower(state, follow)
    workbench = state.workbench
    reindexer = workbench.reindexer(embed=not no_embed, memories=True)
    watcher = workbench.log.watcher(reindexer, interval=interval, embed=not no_embed, on_pass=on_pass,
                                    on_error=on_error, follower=follower, on_follow=on_follow)
    stop = threading.Event()
    if not once:
        click.echo(f"watching {state.paths.logs} every {interval:g} s; Ctrl-C stops", err=True)
        if follower is not None:
            click.echo(f"following {', '.join(str(root) for root in follower.roots)}", err=True)
    with workbench, reindexer:
        try:
            watcher.run(stop, max_passes=1 if once else None)
        except KeyboardInterrupt:
            stop.set()


def _follower(state: CliState, given: Sequence[Path]) -> Follower | None:
    """The transcript folders to follow (config.toml's [watch] follow, then --follow), or ``None``."""
    roots = [*state.config.watch.follow, *(str(path) for path in given)]
    return state.workbench.log.follower(roots) if roots else None


@click.group("index")
def index_group() -> None:
    """The derived search index (in the cache folder; rebuildable with `reverie reindex`)."""


@index_group.command("status")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@pass_state
def status(state: CliState, as_json: bool) -> None:
    """What the index holds, where it is, and how far it is behind the log."""
    if not state.paths.index_db.exists():
        emit(
            {"path": str(state.paths.index_db), "exists": False},
            as_json,
            f"no index yet at {state.paths.index_db}; run `reverie reindex`",
        )
        return
    with state.workbench as workbench:
        info = workbench.index.status()
        lag = workbench.log_lag()
    data = {"exists": True, **info.__dict__, "behind_bytes": lag.bytes, "behind_days": lag.days,
            "removed_days": lag.removed_days}
    model = f"{info.model}, {info.dim}-d" if info.model else "no model yet"
    from tui_app.widgets.humane import size_text  # lazy: humanize and rich.cells, ~3 ms at every start

    behind = (f"{size_text(lag.bytes)} in {lag.days:,} day files not indexed yet"
              + (f", {lag.removed_days:,} removed day files still indexed" if lag.removed_days else "")
              + " (the next search catches up a small lag; `reverie reindex` any)") if lag.behind else "up to date"
    text = "\n".join(
        [
            f"index:      {info.path} ({size_text(info.bytes)}; holds plaintext of your conversations, mode 0600)",
            f"day files:  {info.files:,}",
            f"turns:      {info.turns:,}",
            f"memories:   {info.memories:,}",
            f"vectors:    {info.vectors:,} ({model}), {info.pending_vectors:,} waiting",
            *([_reembedding(info)] if info.shadow_model else []),
            f"the log:    {behind}",
            f"snapshot:   {info.snapshot or 'none (vectors read from the database)'}",
            f"migrations: {', '.join(info.migrations)}",
            f"log change: {info.files_changed_at or 'never'}",
        ]
    )
    emit(data, as_json, text)


def _reembedding(info: IndexStatus) -> str:
    """"re-embed:   multilingual-e5-small 1,234 of 5,678 (4,444 waiting; …)"."""
    total = info.shadow_vectors + info.shadow_pending
    return (f"re-embed:   {info.shadow_model} {info.shadow_vectors:,} of {total:,} ({info.shadow_pending:,} waiting; "
            f"searches use the {info.model} vectors until it is done; `reverie reindex` or `watch` continues it)")


@index_group.command("purge")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@pass_state
def purge_cmd(state: CliState, yes: bool) -> None:
    """Delete the index (it holds plaintext); `reverie reindex` rebuilds it from the home."""
    if not yes:
        click.confirm(f"Delete the search index in {state.paths.cache}?", abort=True, err=True)
    removed = state.workbench.log.purge_index()
    click.echo(f"removed {len(removed)} index file(s) from {state.paths.cache}" if removed else "no index to remove")


def register(cli: click.Group) -> None:
    cli.add_command(reindex)
    cli.add_command(watch)
    cli.add_command(index_group)
