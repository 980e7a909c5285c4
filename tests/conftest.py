"""Tests never see the developer's own home, cache or passphrase: every test gets a fresh home."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.paths import HomePaths
from core.vault.crypto import KdfParams, VaultKeys, create_header

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
TEST_PASSPHRASE = "correct horse battery staple"


@pytest.fixture(scope="session")
def model_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One models cache for the run: the ONNX model is prepared (exported from the packaged weights)
    once, by the first test that needs it, not once per test."""
    return tmp_path_factory.mktemp("models")


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, model_cache: Path) -> Iterator[HomePaths]:
    """Point REVERIE_HOME and REVERIE_CACHE at temporary folders; clear any passphrase."""
    home = tmp_path / "home"
    monkeypatch.setenv("REVERIE_HOME", str(home))
    monkeypatch.setenv("REVERIE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("REVERIE_MODEL_CACHE", str(model_cache))
    monkeypatch.delenv("REVERIE_PASSPHRASE", raising=False)
    yield HomePaths.at(home)


@pytest.fixture
def paths(isolated_home: HomePaths) -> HomePaths:
    return isolated_home.ensure()


@pytest.fixture
def keys(paths: HomePaths) -> VaultKeys:
    """An initialised vault header in the test home (cheap KDF), and its keys."""
    return create_header(paths.vault_header, TEST_PASSPHRASE, KdfParams.for_tests())


@pytest.fixture
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared data not present at {SHARED_DATA} (only in the developers' workspace)")
    return SHARED_DATA
