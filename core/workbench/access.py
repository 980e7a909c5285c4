"""Access to the vault through the workbench: create it, change the passphrase, make a recovery key,
and the passphrase an exchange (``.dvmem`` export and import) is sealed under. The keys themselves,
unlocked and forgotten, stay with the :class:`~core.workbench.home.Workbench` that owns them."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from core import clock
from core.config import save_config
from core.errors import HomeError, VaultLocked
from core.vault.passphrase import PASSPHRASE_ENV, check_new_passphrase, passphrase_problem, store_in_keyring
from core.workbench.service import Service

if TYPE_CHECKING:
    from core.vault.crypto import VaultKeys

NO_PASSPHRASE = "no passphrase: set REVERIE_PASSPHRASE, enable security.keyring, or run in a terminal"


@dataclass(frozen=True)
class PassphraseChanged:
    """A passphrase changed: whether the keyring now holds the new one, and what the person should
    know (an environment variable still holding the old one, a keyring that could not be written)."""

    keyring_updated: bool
    notes: list[str]


class Access(Service):
    """Who may open the vault: a new vault, a new passphrase, a recovery key."""

    @staticmethod
    def passphrase_problem(passphrase: str) -> str | None:
        """Why ``passphrase`` is too weak for a new vault ("is shorter than …"), or None when it will do."""
        return passphrase_problem(passphrase)

    @staticmethod
    def forget_environment_passphrase() -> None:
        """Remove ``REVERIE_PASSPHRASE`` from this process's environment (``serve``: each browser tab,
        which inherits it, asks for the passphrase instead)."""
        os.environ.pop(PASSPHRASE_ENV, None)

    @staticmethod
    def passphrase_from_environment() -> str | None:
        """``REVERIE_PASSPHRASE`` when set: the passphrase ``reverie init`` uses without asking."""
        return os.environ.get(PASSPHRASE_ENV) or None

    def server_passphrase(self) -> str:
        """The passphrase of a server that never prompts (``reverie mcp``, ``reverie api``: stdin and
        stdout are not the person's): ``REVERIE_PASSPHRASE`` or the keyring, else a one-line error."""
        if not self.workbench.has_vault:
            raise HomeError(f"no vault in {self.paths.root}: run `reverie init` first")
        passphrase = self.workbench.passphrase_at_hand()
        if not passphrase:
            raise VaultLocked("the MCP server never prompts: set REVERIE_PASSPHRASE in the server's environment, "
                              "or store the passphrase in the keyring (reverie init --keyring)")
        return passphrase

    def create_vault(self, passphrase: str, *, keyring: bool = False) -> VaultKeys:
        """A new vault in the home (refused when one exists); the settings file is written when absent."""
        from core.conversation.written import begin_record  # lazy: cryptography, off the TUI's first paint
        from core.vault.crypto import create_header  # lazy: cryptography, off the TUI's first paint

        if self.workbench.has_vault:
            raise HomeError(f"{self.paths.vault_header}: a vault already exists here")
        check_new_passphrase(passphrase)
        self.paths.ensure()
        if not self.paths.config.exists():
            config = self.config
            config.security.keyring = keyring
            save_config(self.paths.config, config)
        keys = create_header(self.paths.vault_header, passphrase, self.workbench.kdf)
        begin_record(self.paths)  # a day file found in logs/ from now on is one this home's ingests wrote, or named
        if keyring:
            store_in_keyring(self.paths, passphrase)
        self.workbench.adopt_keys(keys)
        return keys

    def change_passphrase(self, new: str, *, current: str | None = None,
                          recovery_key: str | None = None) -> PassphraseChanged:
        """Set a new passphrase, proven by the current one (``current``, else the one at hand or asked)
        or by a recovery key. One header is rewritten atomically, whatever the vault's size; the old
        passphrase stops working. The keyring follows when it holds the passphrase. Returns whether the
        keyring was updated, and what the person should know (an environment variable still holding
        the old one, a keyring that could not be written)."""
        from core.vault.crypto import change_passphrase  # lazy: cryptography, off the TUI's first paint

        if not self.workbench.has_vault:
            raise HomeError(f"{self.paths.vault_header}: no vault here; run `reverie init` first")
        check_new_passphrase(new)
        if recovery_key is None and current is None:
            current = self.passphrase_for_exchange()
        change_passphrase(self.paths.vault_header, new, passphrase=current, recovery_key=recovery_key)
        notes: list[str] = []
        keyring_updated = False
        if self.config.security.keyring:
            try:
                store_in_keyring(self.paths, new)
            except Exception as exc:  # any keyring backend failure: the change itself is done
                notes.append(f"The keyring could not be updated ({type(exc).__name__}): store the new passphrase "
                             "there yourself, or turn security.keyring off.")
            else:
                keyring_updated = True
                notes.append("The keyring now holds the new passphrase.")
        if os.environ.get(PASSPHRASE_ENV):
            notes.append(f"{PASSPHRASE_ENV} still holds the old one: change it where you set it.")
        return PassphraseChanged(keyring_updated, notes)

    def create_recovery_key(self, passphrase: str | None = None) -> str:
        """A new recovery key (it replaces any earlier one), to be shown once; it can set a new passphrase."""
        from core.vault.crypto import create_recovery_key  # lazy: cryptography, off the TUI's first paint

        if not self.workbench.has_vault:
            raise HomeError(f"{self.paths.vault_header}: no vault here; run `reverie init` first")
        return create_recovery_key(self.paths.vault_header, passphrase or self.passphrase_for_exchange(),
                                   now=clock.utc_now_iso())

    def recovery_key_made_at(self) -> str | None:
        """When the vault's recovery key was made (an ISO time; "" when the header does not say), or
        None when it has none. Reads the header only: no passphrase is needed."""
        from core.vault.crypto import parse_header  # lazy: cryptography, off the TUI's first paint

        path = self.paths.vault_header
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError as exc:
            raise HomeError(f"{path}: no vault here; run `reverie init` first") from exc
        except (OSError, ValueError) as exc:
            raise HomeError(f"{path}: vault header unreadable: {exc}") from exc
        header = parse_header(path, text)
        return None if header.recovery is None else (header.recovery_created_at or "")

    def passphrase_for_exchange(self) -> str:
        found = self.workbench.passphrase_at_hand()
        if found:
            return found
        if self.workbench.ask_passphrase is None:
            raise VaultLocked(NO_PASSPHRASE)
        return self.workbench.ask_passphrase()
