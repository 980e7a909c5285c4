"""The vector coverage note counts only what gets a vector (text turns and memories), says why the
rest has none, and points at `reverie reindex` only when reindex would embed something."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.config import Config
from core.embed.hashing import HashingEmbedder
from core.paths import HomePaths
from core.vault.crypto import VaultKeys
from core.workbench import Workbench


def chat(folder: Path, name: str, texts: int, tools: int, day: str) -> Path:
    lines = [{"id": f"{name}-t{i}", "ts": f"{day}T10:{i:02d}:00Z", "role": "user", "session": name,
              "text": f"We planned the lantern festival trip ({i})."} for i in range(texts)]
    lines += [{"id": f"{name}-a{i}", "ts": f"{day}T11:{i:02d}:00Z", "role": "assistant", "session": name,
               "type": "action", "text": f"$ ls -la /tmp/lantern-{i}"} for i in range(tools)]
    path = folder / f"{name}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.fixture
def workbench(paths: HomePaths, keys: VaultKeys) -> Workbench:
    config = Config()
    config.general.timezone = "UTC"
    bench = Workbench(paths, config, embedder=lambda: HashingEmbedder(dim=64))
    bench.adopt_keys(keys)
    return bench


def test_fully_embedded_text_needs_no_reindex_hint(workbench: Workbench, tmp_path: Path) -> None:
    workbench.log.ingest([chat(tmp_path, "a", texts=3, tools=5, day="2026-11-20")], embed=True)
    assert workbench.index.status().pending_vectors == 0
    notes = workbench.search("lantern festival", mode="hybrid").notes
    assert not any("reindex" in note for note in notes), notes
    assert not any("cover 3 of 8" in note for note in notes), notes


def test_the_note_counts_what_gets_a_vector_and_says_why_the_rest_has_none(workbench: Workbench,
                                                                           tmp_path: Path) -> None:
    workbench.log.ingest([chat(tmp_path, "a", texts=3, tools=5, day="2026-11-20")], embed=True)
    workbench.log.ingest([chat(tmp_path, "b", texts=2, tools=4, day="2026-11-21")])  # not embedded
    assert workbench.index.status().pending_vectors == 2
    notes = workbench.search("lantern festival", mode="hybrid").notes
    cover = next(note for note in notes if "semantic results cover" in note)
    assert "3 of 5" in cover and "`reverie reindex` embeds the other 2" in cover, cover
    assert "9" in cover and "tool" in cover, cover  # the 9 tool outputs: found by words only
    workbench.log.reindex(embed=True)
    assert not any("reindex" in note for note in workbench.search("lantern festival", mode="hybrid").notes)
