"""Running `reverie` as a person runs it: a real process, with the test home's environment."""

from __future__ import annotations

import os
import subprocess
import sys

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
