"""``reverie``: the root command. With no subcommand it opens the TUI on the data home."""

from __future__ import annotations

import sys

import click

from core.errors import ReverieError, disk_full
from core.paths import HomePaths
from core.textsafe import visible
from tui_app.cli import (
    app_cmds,
    assist_cmds,
    backup_cmds,
    curate_cmds,
    index_cmds,
    log_cmds,
    mirror_cmds,
    passphrase_cmds,
    remote_cmds,
    search_cmds,
    serve_cmds,
    session_cmds,
    topic_cmds,
    vault_cmds,
    when_cmds,
)
from tui_app.cli.app_cmds import open_app
from tui_app.cli.state import CliOptions, CliState


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--home",
    type=click.Path(file_okay=False),
    default=None,
    help="Data home (default: $REVERIE_HOME, then the platform's user data dir).",
)
@click.option("--no-mouse", is_flag=True, help="Open the app without mouse reporting (fewer bytes over SSH).")
@click.version_option(package_name="reverie")
@click.pass_context
def cli(ctx: click.Context, home: str | None, no_mouse: bool) -> None:
    """Reverie: a local-first memory workbench for the conversations you have with AI assistants."""
    options = ctx.obj if isinstance(ctx.obj, CliOptions) else CliOptions()
    ctx.obj = CliState(paths=HomePaths.at(home), options=options)
    if ctx.invoked_subcommand not in QUIET_COMMANDS:
        _remind_overdue_review(ctx.obj)
    if ctx.invoked_subcommand is None:
        open_app(ctx.obj, mouse=False if no_mouse else None)


# Commands that do not repeat the overdue reminder: protocol servers (their stdio and logs are not for
# people), the TUI (it shows its own banner), and curation itself (the person is already at it).
QUIET_COMMANDS = (None, "mcp", "api", "serve", "curate")


def _remind_overdue_review(state: CliState) -> None:
    """The weekly curation review is enforced by reminding: every command says when it is overdue."""
    if not state.paths.root.exists():
        return
    try:
        notice = state.workbench.curation_overdue()
    except ReverieError:
        return  # a bad config.toml is reported by the command itself, with its file and key
    if notice:
        click.echo(visible(f"reverie: {notice}"), err=True)


def _register() -> None:
    """Attach every command module's commands to the root group (each module has ``register(cli)``)."""
    for module in (app_cmds, vault_cmds, log_cmds, topic_cmds, index_cmds, curate_cmds, when_cmds, search_cmds,
                   assist_cmds, serve_cmds, passphrase_cmds, session_cmds, remote_cmds, backup_cmds,
                   mirror_cmds):
        module.register(cli)


_register()


def main(argv: list[str] | None = None) -> None:
    """Entry point: one-line errors on stderr, exit codes that mean something (0 ok, 1 verification
    failed, 2 bad input or state (a full disk too), 3 not found, 130 interrupted)."""
    try:
        code = cli.main(args=argv, standalone_mode=False, prog_name="reverie")
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except ReverieError as exc:
        click.echo(visible(f"reverie: {exc}"), err=True)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as exc:
        full = disk_full(exc)  # a full disk anywhere: one line naming what could not be written, exit 2
        if full is None:
            raise
        click.echo(visible(f"reverie: {full}"), err=True)
        sys.exit(2)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
