"""The prepared-model cache is shared by every installation on a machine (it lives under the user's
cache folder): each installation's copy is keyed by what built it, so two installations used in
turn reuse their own copies instead of calling each other's damaged and rebuilding them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from core.embed import onnx_prepare as prep
from tests.helpers.embed_model import packaged_source


def _installation(root: Path, name: str) -> prep.SourceModel:
    """A copy of the packaged model's small files at another path, as another installation has it."""
    original = packaged_source().folder
    folder = root / name / "all-MiniLM-L6-v2"
    folder.mkdir(parents=True)
    for item in ("config.json", "modules.json", "sentence_bert_config.json", "tokenizer.json", "1_Pooling"):
        if (original / item).is_dir():
            shutil.copytree(original / item, folder / item)
        else:
            shutil.copy(original / item, folder / item)
    return prep.inspect_source(folder, "all-MiniLM-L6-v2")


@pytest.fixture
def exports(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Replace the torch export (seconds) by a small file with the right manifest; list each export."""
    made: list[Path] = []

    def fake_export(source: prep.SourceModel, out: Path) -> tuple[int, list[list[float]]]:
        (out / prep.MODEL_FILE).write_bytes(b"graph of " + str(source.folder).encode())
        made.append(source.folder)
        return 3, [[1.0, 0.0, 0.0]] * len(prep._CHECK_SENTENCES)

    monkeypatch.setattr(prep, "_export_into", fake_export)
    return made


def test_two_installations_used_in_turn_each_keep_their_own_copy(tmp_path: Path, exports: list[Path]) -> None:
    first, second = _installation(tmp_path, "venv-a"), _installation(tmp_path, "venv-b")
    cache = tmp_path / "cache"
    notices: list[str] = []
    for _ in range(3):
        for source in (first, second):
            found = prep.prepare(source, cache, notice=notices.append)
            assert json.loads((found.folder / prep.MANIFEST_FILE).read_text())["source"] == str(source.folder)
    assert exports == [first.folder, second.folder]  # once each, never again
    assert not any("damaged" in n for n in notices), notices
    assert prep.prepared_folder(first, cache) != prep.prepared_folder(second, cache)


def test_the_key_changes_with_the_converter_and_runtime_versions(
    tmp_path: Path, exports: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    source = _installation(tmp_path, "venv")
    cache = tmp_path / "cache"
    before = prep.prepare(source, cache).folder
    versions = dict(prep.builder_versions())
    assert set(versions) >= {"torch", "transformers", "onnx", "onnxruntime", "openvino"}
    monkeypatch.setattr(prep, "builder_versions", lambda: {**versions, "torch": "99.0"})
    after = prep.prepare(source, cache).folder
    assert after != before and before.is_dir() and after.is_dir()  # the other build's copy is left alone
    assert len(exports) == 2
