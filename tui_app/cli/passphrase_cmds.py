"""``reverie passphrase change`` and ``reverie passphrase recovery-key``.

The vault's data key is wrapped under the passphrase (``core.vault.crypto``), so a change rewrites
one small header, whatever the vault's size. Secrets come from the terminal (never echoed) or, for
scripts, from the environment: the current passphrase as for every command (``REVERIE_PASSPHRASE``
or the keyring), the new one from ``REVERIE_NEW_PASSPHRASE``, a recovery key from
``REVERIE_RECOVERY_KEY``. None of them is ever printed, except a new recovery key, once, on request.
"""

from __future__ import annotations

import os
import sys

import click

from core.errors import HomeError, VaultLocked
from tui_app.cli.state import CliState, emit, pass_state

NEW_PASSPHRASE_ENV = "REVERIE_NEW_PASSPHRASE"
RECOVERY_KEY_ENV = "REVERIE_RECOVERY_KEY"


def _secret(env: str, prompt: str, *, confirm: str | None = None) -> str:
    """The secret from ``env`` or the terminal (never echoed), asked again with ``confirm`` when given."""
    value = os.environ.get(env)
    if value:
        return value
    if not sys.stdin.isatty():
        raise VaultLocked(f"no {prompt.lower()}: set {env} or run in a terminal")
    return click.prompt(prompt, hide_input=True, confirmation_prompt=confirm or False, err=True)


def _vault_header(state: CliState) -> None:
    if not state.paths.vault_header.exists():
        raise HomeError(f"{state.paths.vault_header}: no vault here; run `reverie init` first")


@click.group()
def passphrase() -> None:
    """Change the vault's passphrase, or make a recovery key that can set a new one. A lost
    passphrase and a lost recovery key mean the vault cannot be opened: nobody can recover it."""


@passphrase.command()
@click.option("--recovery-key", "use_recovery", is_flag=True,
              help="Prove the right to change with the recovery key instead of the current passphrase.")
@click.option("--json", "as_json", is_flag=True)
@pass_state
def change(state: CliState, use_recovery: bool, as_json: bool) -> None:
    """Set a new passphrase (asked twice). The old one stops working at once; a recovery key keeps
    working. Takes the same time for any vault size: one header is rewritten atomically."""
    _vault_header(state)
    if use_recovery:
        recovery = _secret(RECOVERY_KEY_ENV, "Recovery key")
        current = None
    else:
        current, recovery = state.passphrase("Current passphrase"), None
    new = _secret(NEW_PASSPHRASE_ENV, "New passphrase", confirm="Repeat the new passphrase")
    changed = state.workbench.access.change_passphrase(new, current=current, recovery_key=recovery)
    text = "\n".join(["Passphrase changed: the old one no longer opens this vault.", *changed.notes])
    emit({"changed": True, "keyring_updated": changed.keyring_updated}, as_json, text)


@passphrase.command("recovery-key")
@click.option("--json", "as_json", is_flag=True)
@pass_state
def recovery_key(state: CliState, as_json: bool) -> None:
    """Make a recovery key and show it once: write it down and keep it apart from the machine. It can
    set a new passphrase (`reverie passphrase change --recovery-key`). A new one replaces the old one."""
    _vault_header(state)
    key = state.workbench.access.create_recovery_key(state.passphrase())
    emit({"recovery_key": key}, as_json,
         f"Recovery key (shown once; Reverie keeps only a wrapped copy of the vault's key):\n\n  {key}\n\n"
         "Keep it somewhere safe and apart from this machine. Anyone with it can open the vault.")


def register(cli: click.Group) -> None:
    cli.add_command(passphrase)
