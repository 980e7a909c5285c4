"""What the embedding backends' tests share: one real export of the packaged model per test module
(it imports torch once: seconds, not minutes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.embed import onnx_prepare as prep
from tests.helpers.embed_model import packaged_source


@pytest.fixture(scope="module")
def prepared_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("models")
    prep.prepare(packaged_source(), root)
    return root
