"""``capture`` loads the model beside the vault's key derivation (``Workbench.warm_embedder``); it must
not return while that load is still running, or a native runtime still starting in a daemon thread
when the process exits aborts it ("terminate called without an active exception", exit −6)."""

from __future__ import annotations

import threading
import time

import pytest

from core.config import Config
from core.embed.hashing import HashingEmbedder
from core.paths import HomePaths
from core.vault.crypto import VaultKeys
from core.workbench import Workbench
from tests.conftest import TEST_PASSPHRASE


class SlowWarmEmbedder(HashingEmbedder):
    """A model whose runtime takes a while to start in :meth:`warm` (as ONNX Runtime's session does)."""

    def __init__(self, warmed: threading.Event) -> None:
        super().__init__(dim=64)
        self.warmed = warmed

    def warm(self) -> None:
        time.sleep(0.3)
        self.warmed.set()


@pytest.mark.parametrize("check", [True, False])
def test_capture_returns_only_after_the_model_load_it_started(
    paths: HomePaths, keys: VaultKeys, monkeypatch: pytest.MonkeyPatch, check: bool
) -> None:
    monkeypatch.setenv("REVERIE_PASSPHRASE", TEST_PASSPHRASE)
    warmed = threading.Event()
    bench = Workbench(paths, Config(), embedder=lambda: SlowWarmEmbedder(warmed))
    assert not bench.unlocked and bench.can_unlock_quietly()
    started = threading.active_count()
    outcome = bench.review.capture("We chose the quokka layout.", check_duplicates=check)
    assert outcome.draft is not None
    assert warmed.is_set() is check  # the load was started only for the check, and it has finished
    assert threading.active_count() <= started  # no thread left running
