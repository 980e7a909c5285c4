"""Where the passphrase comes from, in order: ``REVERIE_PASSPHRASE``, the OS keyring (if
``security.keyring`` is on), else the interface prompts. The passphrase never reaches a log or an
error message."""

from __future__ import annotations

import os

from core.config import Config
from core.errors import WeakPassphrase
from core.paths import HomePaths

PASSPHRASE_ENV = "REVERIE_PASSPHRASE"
KEYRING_SERVICE = "reverie"
# A new passphrase (a new vault, a change) has at least this many characters and is not only whitespace.
# Vaults made before the rule still open with theirs; the rule applies when one is chosen.
MIN_PASSPHRASE_LENGTH = 8


def passphrase_problem(passphrase: str) -> str | None:
    """Why ``passphrase`` cannot be chosen as a new one (never quoting it), or None."""
    if not passphrase.strip():
        return "must not be empty or only spaces"
    if len(passphrase) < MIN_PASSPHRASE_LENGTH:
        return f"must have at least {MIN_PASSPHRASE_LENGTH} characters"
    return None


def check_new_passphrase(passphrase: str, what: str = "passphrase") -> str:
    """``passphrase`` if it may be chosen (:func:`passphrase_problem`), else ``WeakPassphrase``."""
    problem = passphrase_problem(passphrase)
    if problem is not None:
        raise WeakPassphrase(f"the new {what} {problem}; nothing was written")
    return passphrase


def passphrase_without_prompt(config: Config, paths: HomePaths) -> str | None:
    env = os.environ.get(PASSPHRASE_ENV)
    if env:
        return env
    if config.security.keyring:
        try:
            import keyring  # lazy: ~0.2 s to import, and only a keyring-enabled home asks it

            return keyring.get_password(KEYRING_SERVICE, str(paths.root))
        except Exception:  # any keyring backend failure means: ask the person instead
            return None
    return None


def store_in_keyring(paths: HomePaths, passphrase: str) -> None:
    import keyring  # lazy: ~0.2 s to import, and only a keyring-enabled home asks it

    keyring.set_password(KEYRING_SERVICE, str(paths.root), passphrase)
