"""`reverie reindex`, `watch`, `index status` and `index purge` from the command line."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from core.index import SearchIndex
from core.paths import HomePaths
from tests.helpers.index import append, turn
from tui_app.cli.main import cli


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)
    return result.exit_code, result.output


@pytest.fixture
def logged(paths: HomePaths) -> HomePaths:
    append(paths, turn("2026-11-03T10:00:00", "서울숲에서 산책했다"), turn("2026-11-04T09:00:00", "会議で決めた"))
    return paths


def test_reindex_status_purge_and_rebuild(logged: HomePaths) -> None:
    code, out = run("reindex", "--no-embed", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["turns_added"] == 2 and report["pending"] is None and report["files"] == 2
    code, out = run("index", "status", "--json")
    status = json.loads(out)
    assert status["exists"] and status["turns"] == 2 and status["pending_vectors"] == 2 and status["model"] is None
    assert "m001_catalog" in status["migrations"]
    code, out = run("index", "status")
    assert "turns:      2" in out and "0600" in out
    code, out = run("index", "purge", input="n\n")
    assert code == 1 and logged.index_db.exists()
    code, out = run("index", "purge", "--yes")
    assert code == 0 and not logged.index_db.exists()
    assert json.loads(run("index", "status", "--json")[1]) == {"path": str(logged.index_db), "exists": False}
    code, out = run("reindex", "--no-embed")
    assert code == 0 and "turns: +2" in out
    with SearchIndex.open(logged) as index:
        assert len(index.exact_search("서울숲")) == 1


def test_watch_once_picks_up_new_turns(logged: HomePaths) -> None:
    assert run("watch", "--once", "--no-embed")[0] == 0
    append(logged, turn("2026-11-04T11:00:00", "a new line for the watcher"))
    code, out = run("watch", "--once", "--no-embed")
    assert code == 0 and "+1 turns" in out
    with SearchIndex.open(logged) as index:
        assert len(index.exact_search("watcher")) == 1


def test_reindex_full_reports_every_file(logged: HomePaths) -> None:
    run("reindex", "--no-embed")
    code, out = run("reindex", "--no-embed", "--full", "--json")
    assert code == 0 and json.loads(out)["read"] == 2


@pytest.mark.model
def test_reindex_embeds_with_the_packaged_model(logged: HomePaths) -> None:
    append(
        logged,
        turn("2026-11-05T08:00:00", "I drank an espresso at the café"),
        turn("2026-11-05T09:00:00", "The quarterly tax filing is due"),
    )
    code, out = run("reindex", "--json")
    report = json.loads(out[out.index("{"):])  # a first run may say "preparing the embedding model" on stderr
    assert code == 0 and report["embedded"] == 4 and report["model"] == "multilingual-e5-small+all-MiniLM-L6-v2"
    from core.config import EmbeddingConfig
    from core.embed import make_embedder, query_vectors

    embedder = make_embedder(EmbeddingConfig(backend="onnx"))
    with SearchIndex.open(logged) as index:
        assert index.vector_model().dim == 384 + 384
        top = index.vector_search(query_vectors(embedder, ["coffee"])[0], k=1)
        assert index.get_turns([top[0].id])[0].text.startswith("I drank an espresso")
