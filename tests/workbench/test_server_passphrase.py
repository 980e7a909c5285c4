"""Access.server_passphrase: the passphrase of a server that never prompts (``reverie mcp``,
``reverie api``), from the environment or the keyring, else one line saying how to give it."""

from __future__ import annotations

import re

import pytest

from core.config import Config
from core.errors import HomeError, VaultLocked
from core.paths import HomePaths
from core.vault.crypto import VaultKeys
from core.workbench import Workbench
from tests.conftest import TEST_PASSPHRASE


def _never_asked() -> str:
    raise AssertionError("a server asked for the passphrase")


def test_no_vault_is_named_before_any_passphrase(paths: HomePaths, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REVERIE_PASSPHRASE", TEST_PASSPHRASE)
    workbench = Workbench(paths, Config(), ask_passphrase=_never_asked)
    with pytest.raises(HomeError, match=re.escape(f"no vault in {paths.root}: run `reverie init` first")):
        workbench.access.server_passphrase()


def test_without_one_at_hand_it_never_prompts_and_says_how(paths: HomePaths, keys: VaultKeys) -> None:
    workbench = Workbench(paths, Config(), ask_passphrase=_never_asked)
    with pytest.raises(VaultLocked, match="never prompts: set REVERIE_PASSPHRASE") as raised:
        workbench.access.server_passphrase()
    assert "\n" not in str(raised.value) and TEST_PASSPHRASE not in str(raised.value)


def test_the_environment_passphrase_unlocks_the_vault(paths: HomePaths, keys: VaultKeys,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REVERIE_PASSPHRASE", TEST_PASSPHRASE)
    workbench = Workbench(paths, Config(), ask_passphrase=_never_asked)
    assert workbench.access.server_passphrase() == TEST_PASSPHRASE
    assert workbench.unlock(workbench.access.server_passphrase()) == keys
