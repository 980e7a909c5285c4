"""SDK vaults in the test home, with cheap Argon2id (the vault header records it like any other)."""

from __future__ import annotations

import pytest

from core.paths import HomePaths
from core.sdk import MemoryVault
from core.vault.crypto import KdfParams

KEY = "synthetic-example-key"


def open_vault(paths: HomePaths, key: str = KEY) -> MemoryVault:
    return MemoryVault(encryption_key=key, storage_dir=str(paths.root), kdf=KdfParams.for_tests())


@pytest.fixture
def vault(isolated_home: HomePaths) -> MemoryVault:
    return open_vault(isolated_home)
