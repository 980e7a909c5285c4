"""Models load one at a time in a process, whichever thread asks.

The runtimes set the process's C locale and put it back while they load; two loads at once (an
ensemble's parts in threads) left it at "C" in 2 of 4 fresh processes, after which Python's default
text encoding was ASCII and every text-mode subprocess or ``open()`` without an encoding failed on the
first non-ASCII byte. This test needs no model: it counts the loads running at once.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from core.embed import onnx_backend
from core.embed.onnx_backend import OnnxEmbedder


class _Source:
    def tokenizer(self) -> object:
        return object()


class _Counting(OnnxEmbedder):
    active = 0
    most = 0
    guard = threading.Lock()

    def _import_runtime(self) -> Any:
        return object()

    def _source(self) -> Any:
        return _Source()

    def _root(self) -> Path:
        return Path("/nonexistent")

    def _open_session(self, runtime: Any, source: Any, root: Path, prepared: Any, tokenizer: Any) -> Any:
        with _Counting.guard:
            _Counting.active += 1
            _Counting.most = max(_Counting.most, _Counting.active)
        time.sleep(0.05)  # a load takes a while: a second thread would start its own meanwhile
        with _Counting.guard:
            _Counting.active -= 1
        return object(), prepared

    def _input_names(self, session: Any) -> tuple[str, ...]:
        return ()


def test_two_embedders_loading_in_threads_load_one_after_the_other(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(onnx_backend, "prepare", lambda *args, **kwargs: object())
    embedders = [_Counting(), _Counting(), _Counting()]
    threads = [threading.Thread(target=embedder._load) for embedder in embedders]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert _Counting.most == 1
    assert all(embedder._session is not None for embedder in embedders)
