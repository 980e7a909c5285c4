"""Running `reverie` as a person runs it: a real process, with the test home's environment."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from typing import Any

from core.paths import HomePaths
from core.vault.crypto import KdfParams, create_header

PASSPHRASE = "cli passphrase"


def reverie(*args: str, passphrase: str | None = PASSPHRASE, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ}
    if passphrase is not None:
        env["REVERIE_PASSPHRASE"] = passphrase
    return subprocess.run(
        [sys.executable, "-m", "tui_app.cli.main", *args],
        capture_output=True, text=True, env=env, input=stdin, timeout=60,
    )


def ok(*args: str) -> str:
    result = reverie(*args)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def init_vault(paths: HomePaths, passphrase: str = PASSPHRASE) -> HomePaths:
    """What `reverie init` leaves, with cheap Argon2id parameters (the header records them, so every
    later command unlocks cheaply too); `reverie init` itself is tested with the real ones."""
    paths.ensure()
    create_header(paths.vault_header, passphrase, KdfParams.for_tests())
    return paths


def in_process(*modules: Any) -> Callable[..., tuple[int, str, str]]:
    """A runner of a small `reverie` with only ``modules``' commands (each has ``register(group)``),
    in this process on the test home: ``run(*args) -> (exit code, stdout, stderr)``; an exception
    other than the command's exit is raised, not turned into an exit code."""
    import click
    from click.testing import CliRunner

    from tui_app.cli.state import CliState

    @click.group()
    @click.pass_context
    def root(ctx: click.Context) -> None:
        ctx.obj = CliState(paths=HomePaths.at(None))

    for module in modules:
        module.register(root)

    def run(*args: str) -> tuple[int, str, str]:
        result = CliRunner().invoke(root, list(args))
        if result.exception and not isinstance(result.exception, SystemExit):
            raise result.exception
        return result.exit_code, result.stdout, result.stderr

    return run
