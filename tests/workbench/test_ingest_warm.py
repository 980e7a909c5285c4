"""``ingest`` with vectors loads the bulk model in a thread while the log's word index is written, so a
fresh process pays the load beside that work instead of before its first vector; it returns only once
that load has ended, and an ingest that adds nothing, or runs without vectors, loads nothing."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

import numpy as np
import pytest

from core.config import Config
from core.embed.hashing import HashingEmbedder
from core.paths import HomePaths
from core.vault.crypto import VaultKeys
from core.workbench import Workbench
from tests.workbench.test_freshness import transcript


class BulkLoadEmbedder(HashingEmbedder):
    """A model whose bulk runtime takes a while to load (:meth:`load_bulk`, as OpenVINO's compile does);
    ``events`` records what happened, in order, and in which thread."""

    def __init__(self, events: list[tuple[str, str]]) -> None:
        super().__init__(dim=64)
        self.events = events

    def load_bulk(self) -> None:
        self.events.append(("load_bulk start", threading.current_thread().name))
        time.sleep(0.3)
        self.events.append(("load_bulk end", threading.current_thread().name))

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.events.append(("embed", threading.current_thread().name))
        return super().embed(texts)


@pytest.fixture
def events() -> list[tuple[str, str]]:
    return []


@pytest.fixture
def workbench(paths: HomePaths, keys: VaultKeys, events: list[tuple[str, str]]) -> Workbench:
    config = Config()
    config.general.timezone = "UTC"
    bench = Workbench(paths, config, embedder=lambda: BulkLoadEmbedder(events))
    bench.adopt_keys(keys)
    return bench


def test_ingest_loads_the_bulk_model_in_a_thread_before_its_first_vector(
    workbench: Workbench, events: list[tuple[str, str]], tmp_path
) -> None:
    started = threading.active_count()
    outcome = workbench.log.ingest([transcript(tmp_path, count=5)], embed=True)
    assert outcome.vectors == 5
    kinds = [kind for kind, _ in events]
    assert kinds.count("load_bulk start") == 1
    assert kinds.index("load_bulk start") < kinds.index("embed")
    loader = dict(events)["load_bulk start"]
    assert loader != threading.current_thread().name  # beside the word index, not before the vectors
    assert "load_bulk end" in kinds and threading.active_count() <= started  # no load left running


def test_ingest_that_adds_nothing_or_embeds_nothing_loads_nothing(
    workbench: Workbench, events: list[tuple[str, str]], tmp_path
) -> None:
    workbench.log.ingest([transcript(tmp_path, "wombat", count=3)], embed=False)
    assert events == []
    file = transcript(tmp_path, count=2)
    workbench.log.ingest([file], embed=True)
    events.clear()
    again = workbench.log.ingest([file], embed=True)  # the same ids: nothing added
    assert again.report.added == 0
    assert [kind for kind, _ in events if kind.startswith("load_bulk")] == []
