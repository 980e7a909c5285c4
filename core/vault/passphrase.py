"""Where the passphrase comes from, in order: ``REVERIE_PASSPHRASE``, the OS keyring (if
``security.keyring`` is on), else the interface prompts. The passphrase never reaches a log or an
error message."""

from __future__ import annotations

import os

from core.config import Config
from core.paths import HomePaths

PASSPHRASE_ENV = "REVERIE_PASSPHRASE"
KEYRING_SERVICE = "reverie"


def passphrase_without_prompt(config: Config, paths: HomePaths) -> str | None:
    env = os.environ.get(PASSPHRASE_ENV)
    if env:
        return env
    if config.security.keyring:
        try:
            import keyring

            return keyring.get_password(KEYRING_SERVICE, str(paths.root))
        except Exception:  # any keyring backend failure means: ask the person instead
            return None
    return None


def store_in_keyring(paths: HomePaths, passphrase: str) -> None:
    import keyring

    keyring.set_password(KEYRING_SERVICE, str(paths.root), passphrase)
