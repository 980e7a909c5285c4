"""``reverie serve``: the TUI in a browser through textual-serve, on 127.0.0.1 unless ``--public``."""

from __future__ import annotations

import click

from tui_app.cli.state import CliState


@click.command("serve")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help="Port to listen on.")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on. Anything but a loopback address is refused without --public.",
)
@click.option(
    "--public",
    is_flag=True,
    help="Allow a non-loopback --host. textual-serve has no authentication: prefer an SSH tunnel.",
)
@click.pass_obj
def serve(state: CliState, port: int, host: str, public: bool) -> None:
    """Serve the app in a browser: one app per tab, each asking for the passphrase; at most
    serve.max_sessions tabs (config.toml, default 4) at once.

    \b
    From another machine, tunnel instead of using --public:
      ssh -L 8000:127.0.0.1:8000 HOST
    then open http://localhost:8000 there.
    """
    from tui_app.serve import serve as run_server  # lazy: it loads the workbench, for this command only

    run_server(state.paths.root, host, port, public=public, say=lambda line: click.echo(line, err=True),
               max_sessions=state.config.serve.max_sessions)


def register(cli: click.Group) -> None:
    cli.add_command(serve)
