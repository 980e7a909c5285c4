"""``reverie`` (no command) opens the app on the data home; ``reverie demo`` opens it on a demo home."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import click

from tui_app.cli.state import CliState

if TYPE_CHECKING:
    from core.vault.crypto import VaultKeys

NO_MOUSE_HELP = "Never ask the terminal for mouse events (as tui.mouse = false): fewer bytes over a slow SSH link."


def open_app(state: CliState, *, mouse: bool | None = None) -> None:
    """Open the app on the home. A passphrase available without a prompt (``REVERIE_PASSPHRASE`` or
    the keyring) is handed to the unlock screen, which derives the keys in its worker after the first
    frame ("Unlocking…"); a wrong one is said there in one line, and the field asks for the right one.
    Otherwise the app asks for it itself (or offers to create a vault when there is none). Keys
    already held by the workbench open it straight away. ``mouse=False`` (``--no-mouse``) overrides
    ``tui.mouse``; None follows it."""
    from tui_app.app import ReverieApp  # heavy: textual, ~0.17 s; only when the app opens

    workbench = state.workbench
    keys: VaultKeys | None = workbench.unlock() if workbench.unlocked else None
    at_hand = workbench.passphrase_at_hand() if keys is None and workbench.has_vault else None
    ReverieApp(state.paths, workbench.config, keys, kdf=state.options.kdf, passphrase=at_hand).run(mouse=mouse)


@click.command("demo")
@click.option(
    "--path",
    "folder",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Build the demo home in this new or empty folder and keep it (default: a temporary folder).",
)
@click.option("--keep", is_flag=True, help="Keep the temporary demo home when the app closes.")
@click.option("--no-open", is_flag=True, help="Only build the demo home and print where it is (implies --keep).")
@click.option("--locked", is_flag=True, help="Start at the unlock screen: type the demo passphrase yourself.")
@click.option("--no-mouse", is_flag=True, help=NO_MOUSE_HELP)
def demo(folder: Path | None, keep: bool, no_open: bool, locked: bool, no_mouse: bool) -> None:
    """Build a demo home with sample drafts and memories, and open the app on it.

    The demo vault's passphrase is fixed and printed, and it uses cheap Argon2id parameters: it is for
    trying Reverie, never for real data. Your own data home is not touched.
    """
    from core.workbench.demo import build_demo_home  # lazy: the demo's builders, ~80 ms, for this command only

    home = build_demo_home(folder)
    click.echo(home.banner())
    for note in home.notes:
        click.echo(f"  {note}")
    kept = folder is not None or keep or no_open
    if no_open:
        return
    from core.workbench import Workbench  # lazy: `reverie --version` loads no workbench module
    from tui_app.app import ReverieApp  # heavy: textual, ~0.17 s; only when the app opens

    try:
        app = ReverieApp(home.paths, Workbench(home.paths).config, None if locked else home.keys, label="demo",
                         gate_hint=f"Demo passphrase: {home.passphrase}", vectors_in_background=True)
        app.run(mouse=False if no_mouse else None)
    finally:
        if not kept:
            shutil.rmtree(home.paths.root, ignore_errors=True)
            shutil.rmtree(home.paths.cache, ignore_errors=True)
            click.echo("Demo home removed (use --keep or --path to keep it).")


def register(cli: click.Group) -> None:
    cli.add_command(demo)
