"""Another embedding model configured under a home with vectors: `reverie index status` shows the
re-embedding's progress, `reverie search` answers from the old vectors and says so, and the next
`reverie reindex` completes the new set and swaps it in."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from core.embed.hashing import HashingEmbedder
from core.index import HomeDayLogs, Reindexer, SearchIndex
from core.paths import HomePaths
from tests.helpers.index import append, turn
from tui_app.cli.main import cli

DIMS = {"old-hash": 32, "new-hash": 48}


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def configure(paths: HomePaths, name: str) -> None:
    paths.config.write_text(f'[embedding]\nmodel = "{name}"\n', encoding="utf-8")


@pytest.fixture
def models(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """``make_embedder`` builds a hashing model of the configured name (no real model is loaded)."""
    import core.embed

    made: list[str] = []

    def make(config: object, **_: object) -> HashingEmbedder:
        name = config.model  # type: ignore[attr-defined]
        made.append(name)
        return HashingEmbedder(DIMS[name], name=name)

    monkeypatch.setattr(core.embed, "make_embedder", make)
    return made


def test_status_and_search_while_another_model_reembeds(paths: HomePaths, models: list[str]) -> None:
    append(paths, *[turn(f"2026-11-03T10:{n:02d}:00", f"note {n} about the skiing trip") for n in range(10)])
    configure(paths, "old-hash")
    assert run("reindex")[0] == 0
    configure(paths, "new-hash")
    windows: list[int] = []  # a re-embedding stopped after its first window (Ctrl-C, a closed TUI)
    with SearchIndex.open(paths) as index, Reindexer(index, HomeDayLogs(paths), batch_size=4, window=4,
                                                     embedder=lambda: HashingEmbedder(48, name="new-hash")) as r:
        r.run(should_stop=lambda: bool(windows),
              progress=lambda phase, done, total: windows.append(done) if phase == "embed" else None)

    code, out = run("index", "status", "--json")
    status = json.loads(out)
    assert code == 0 and (status["model"], status["vectors"], status["pending_vectors"]) == ("old-hash", 10, 0)
    assert (status["shadow_model"], status["shadow_vectors"], status["shadow_pending"]) == ("new-hash", 4, 6)
    code, out = run("index", "status")
    assert "re-embed:   new-hash 4 of 10 (6 waiting; searches use the old-hash vectors until it is done" in out

    code, out = run("search", "skiing trip", "--mode", "semantic", "--json")
    answer = json.loads(out)
    assert code == 0 and answer["mode"] == "semantic" and len(answer["results"]) == 10
    said = "vectors from old-hash while new-hash embeds 4 of 10: semantic results from the old model"
    assert said in answer["notes"][0] and answer["index"]["shadow_model"] == "new-hash"
    assert "old-hash" in models  # the old model, built by name with the configured settings
    code, out = run("search", "skiing trip", "--mode", "semantic")
    assert code == 0 and said in out

    code, out = run("reindex", "--json")
    report = json.loads(out)
    assert code == 0 and report["swapped"] and report["embedded"] == 6 and report["model"] == "new-hash"
    status = json.loads(run("index", "status", "--json")[1])
    assert (status["model"], status["dim"], status["shadow_model"], status["vectors"]) == ("new-hash", 48, None, 10)
    answer = json.loads(run("search", "skiing trip", "--mode", "semantic", "--json")[1])
    assert len(answer["results"]) == 10 and not any("old model" in note for note in answer["notes"])
