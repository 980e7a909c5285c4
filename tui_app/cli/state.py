"""What every command needs: the home's paths, its settings, and (only when asked) its keys."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import click

from core.config import Config, load_config
from core.errors import VaultLocked
from core.paths import HomePaths
from core.vault.crypto import KdfParams, VaultKeys, unlock
from core.vault.passphrase import passphrase_without_prompt

if TYPE_CHECKING:
    from core.vault.store import MemoryVault


def kdf_params() -> KdfParams:
    """``REVERIE_KDF=test`` selects cheap Argon2id parameters: for test suites only, never real data."""
    return KdfParams.for_tests() if os.environ.get("REVERIE_KDF") == "test" else KdfParams()


@dataclass
class CliState:
    paths: HomePaths
    _config: Config | None = None
    _keys: VaultKeys | None = field(default=None, repr=False)
    _vault: MemoryVault | None = None

    @property
    def config(self) -> Config:
        if self._config is None:
            self._config = load_config(self.paths.config)
        return self._config

    def passphrase(self) -> str:
        found = passphrase_without_prompt(self.config, self.paths)
        if found:
            return found
        if not sys.stdin.isatty():
            raise VaultLocked("no passphrase: set REVERIE_PASSPHRASE, enable security.keyring, or run in a terminal")
        return click.prompt("Passphrase", hide_input=True, err=True)

    def keys(self) -> VaultKeys:
        if self._keys is None:
            self._keys = unlock(self.paths.vault_header, self.passphrase())
        return self._keys

    def vault(self) -> MemoryVault:
        if self._vault is None:
            from core.vault.store import MemoryVault

            self._vault = MemoryVault.open(self.paths, self.keys())
        return self._vault


pass_state = click.make_pass_decorator(CliState)


def emit(data: Any, as_json: bool, text: str | None = None) -> None:
    """Print ``data`` as JSON for scripts, or ``text`` (default: str(data)) for people."""
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2, default=str))
    else:
        click.echo(text if text is not None else str(data))
