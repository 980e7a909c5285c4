"""Workbench.recovery_key_made_at: whether the vault has a recovery key and when it was made, read
from the header alone (the passphrase screen shows it before anything is asked)."""

from __future__ import annotations

import re

import pytest

from core.config import Config
from core.errors import HomeError
from core.paths import HomePaths
from core.vault.crypto import VaultKeys
from core.workbench import Workbench
from tests.conftest import TEST_PASSPHRASE


def test_none_until_a_recovery_key_is_made_then_its_time(paths: HomePaths, keys: VaultKeys,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("core.clock.utc_now_iso", lambda: "2026-12-01T21:00:00Z")
    workbench = Workbench(paths, Config())
    assert workbench.access.recovery_key_made_at() is None
    workbench.access.create_recovery_key(TEST_PASSPHRASE)
    assert workbench.access.recovery_key_made_at() == "2026-12-01T21:00:00Z"
    workbench.access.change_passphrase("a new one", current=TEST_PASSPHRASE)  # the recovery key survives a change
    assert workbench.access.recovery_key_made_at() == "2026-12-01T21:00:00Z"


def test_no_vault_or_a_broken_header_is_one_line_naming_the_file(paths: HomePaths) -> None:
    workbench = Workbench(paths, Config())
    with pytest.raises(HomeError, match=re.escape(f"{paths.vault_header}: no vault here")):
        workbench.access.recovery_key_made_at()
    paths.vault_header.write_text("{not json", encoding="utf-8")
    with pytest.raises(HomeError, match=re.escape(f"{paths.vault_header}: vault header unreadable")):
        workbench.access.recovery_key_made_at()
