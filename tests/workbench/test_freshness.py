"""From import to answer in one step: what ingest imported is found by the next search, through every
interface, with no `reindex` in between; and the freshness policy says what the index does not hold."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from core.config import Config
from core.embed.hashing import HashingEmbedder
from core.paths import HomePaths
from core.vault.crypto import VaultKeys
from core.workbench import Workbench
from tests.conftest import TEST_PASSPHRASE
from tests.helpers.cli import init_vault, reverie
from tests.helpers.index import append, turn

RARE = "quokkaboard"


def transcript(folder: Path, word: str = RARE, *, count: int = 1, day: str = "2026-11-20") -> Path:
    path = folder / f"chat-{word}.jsonl"
    lines = [{"id": f"{word}-{i}", "ts": f"{day}T10:{i % 60:02d}:00Z", "role": "user", "session": "fresh",
              "text": f"We chose the {word} layout for the index ({i})." if i == 0 else f"Filler turn {i}."}
             for i in range(count)]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def ids(answer: dict) -> list[str]:
    return [r["id"] for r in answer["results"]]


@pytest.fixture
def workbench(paths: HomePaths, keys: VaultKeys) -> Workbench:
    config = Config()
    config.general.timezone = "UTC"
    bench = Workbench(paths, config, embedder=lambda: HashingEmbedder(dim=64))
    bench.adopt_keys(keys)
    return bench


def test_an_ingest_is_searchable_when_it_returns(workbench: Workbench, tmp_path: Path) -> None:
    outcome = workbench.log.ingest([transcript(tmp_path)])
    assert outcome.searchable and outcome.index is not None and outcome.index.turns_added == 1
    assert outcome.pending_vectors == 1  # vectors wait (no --embed): semantic answers will say so
    answer = workbench.search(RARE)
    assert [r.id for r in answer.result.results] == [f"{RARE}-0"]
    assert answer.freshness.caught_up_turns == 0  # nothing left to catch up: the ingest indexed it


def test_a_small_lag_is_caught_up_before_answering(workbench: Workbench) -> None:
    workbench.search("anything")  # the index exists and is current
    append(workbench.paths, turn("2026-11-21T08:00:00", f"the {RARE} arrived by another process", id="late"))
    answer = workbench.search(RARE)
    assert [r.id for r in answer.result.results] == ["late"]
    assert answer.freshness.caught_up_turns == 1 and "indexed 1 new turns first" in answer.notes


def test_a_large_lag_is_answered_from_the_index_and_said(paths: HomePaths, keys: VaultKeys) -> None:
    bench = Workbench(paths, Config(), embedder=lambda: HashingEmbedder(dim=64), catch_up_bytes=0)
    bench.adopt_keys(keys)
    bench.search("anything")
    append(paths, turn("2026-11-21T08:00:00", f"the {RARE} is not indexed yet", id="behind"))
    answer = bench.search(RARE)
    assert answer.result.results == []
    assert answer.freshness.lag.days == 1 and answer.freshness.lag.bytes > 0
    assert any("the index is behind the log" in note and "`reverie reindex`" in note for note in answer.notes)
    assert answer.form().index.behind_days == 1
    bench.log.reindex(embed=False)
    assert [r.id for r in bench.search(RARE).result.results] == ["behind"]


def test_semantic_answers_say_how_much_the_vectors_cover(workbench: Workbench, tmp_path: Path) -> None:
    workbench.log.ingest([transcript(tmp_path, count=3)], embed=True)
    workbench.log.ingest([transcript(tmp_path, "wombat", count=2, day="2026-11-22")])  # not embedded
    answer = workbench.search("layout", mode="semantic")
    assert any("semantic results cover 3 of 5 text turns and memories" in note for note in answer.notes)
    assert not any("cover" in note for note in workbench.search(RARE, mode="exact").notes)


def test_the_vault_is_synced_once_until_it_changes(workbench: Workbench) -> None:
    vault = workbench.vault
    vault.add_memory(f"A memory about the {RARE}.", ["work"])
    assert workbench.refresh().memories_synced is True
    assert workbench.refresh().memories_synced is False  # the fingerprint in the index says: unchanged
    fresh = Workbench(workbench.paths, workbench.config, embedder=lambda: HashingEmbedder(dim=64))
    fresh.adopt_keys(workbench.keys)
    assert fresh.refresh().memories_synced is False  # another process: no decryption of every memory again
    vault.add_memory("Another one.", [])
    assert fresh.refresh().memories_synced is True
    kinds = [r.kind for r in fresh.search(RARE).result.results]
    assert kinds == ["memory"]


def test_finalize_by_id_unseals_the_draft_once(workbench: Workbench, monkeypatch: pytest.MonkeyPatch) -> None:
    from core.vault import store

    draft = workbench.review.capture("A draft to seal.", check_duplicates=False).draft
    assert draft is not None
    workbench.review.approve(draft.draft_id, reviewer="me")
    opened: list[str] = []
    real = store.unseal

    def counting(data: bytes, fmt: str, *args: object, **kwargs: object) -> object:
        if fmt == store.DRAFT_FORMAT:
            opened.append(fmt)
        return real(data, fmt, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(store, "unseal", counting)
    memory = workbench.review.finalize(draft.draft_id)
    assert memory.content == "A draft to seal." and len(opened) == 1


# --- every interface: the next search call after an ingest finds the rare word ---------------------------


def test_cli_ingest_then_search(isolated_home: HomePaths, tmp_path: Path) -> None:
    init_vault(isolated_home)
    done = reverie("ingest", str(transcript(tmp_path)))
    assert done.returncode == 0, done.stderr
    assert "Search index: up to date (1 new turn searchable now)" in done.stdout
    found = reverie("search", RARE, "--json")
    assert found.returncode == 0, found.stderr
    assert ids(json.loads(found.stdout)) == [f"{RARE}-0"]
    plain = reverie("search", RARE)
    assert plain.returncode == 0 and f"[{RARE}-0]" in plain.stdout and "nothing found" not in plain.stdout


def test_rest_ingest_then_recall(paths: HomePaths, keys: VaultKeys, tmp_path: Path,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.helpers.api import running_api

    monkeypatch.setenv("REVERIE_PASSPHRASE", TEST_PASSPHRASE)
    with running_api(paths, monkeypatch, profile="default") as api:
        status, _, first = api.call("POST", "/v1/recall", {"query": "anything"})
        assert status == 200, first
        Workbench(paths).log.ingest([transcript(tmp_path)])  # another process imports while the server runs
        status, _, answer = api.call("POST", "/v1/recall", {"query": RARE})
    assert status == 200 and ids(answer) == [f"{RARE}-0"]


async def test_mcp_ingest_then_recall(paths: HomePaths, keys: VaultKeys, tmp_path: Path) -> None:
    from mcp.client import Client
    from mcp.client.stdio import StdioServerParameters
    from mcp_types import Implementation

    root = Path(__file__).resolve().parents[2]
    env = {"REVERIE_HOME": str(paths.root), "REVERIE_CACHE": str(paths.cache.parent), "PYTHONPATH": str(root),
           "REVERIE_PASSPHRASE": TEST_PASSPHRASE}
    params = StdioServerParameters(command=sys.executable, args=["-m", "tui_app.cli.main", "mcp"], env=env,
                                   cwd=str(root))
    async with Client(params, mode="legacy", client_info=Implementation(name="claude-code", version="2")) as c:
        Workbench(paths).log.ingest([transcript(tmp_path)])
        answer = (await c.call_tool("recall", {"query": RARE})).structured_content
    assert ids(answer) == [f"{RARE}-0"]


async def test_tui_ingest_then_search(paths: HomePaths, keys: VaultKeys, tmp_path: Path) -> None:
    from textual.widgets import Input

    from tests.helpers.tui import press, tui_config
    from tui_app.app import ReverieApp
    from tui_app.screens.search import SearchScreen

    Workbench(paths).log.ingest([transcript(tmp_path)])
    app = ReverieApp(paths, tui_config(), keys, embedder=lambda: HashingEmbedder(dim=64))
    async with app.run_test(size=(100, 30)) as pilot:
        await press(pilot, "f5")
        screen = app.screen
        assert isinstance(screen, SearchScreen)
        screen.query_one("#search-query", Input).value = RARE
        await press(pilot, "enter")
        assert screen.answer is not None and screen.answer.result is not None
        assert [item.id for item in screen.answer.result.results] == [f"{RARE}-0"]


def test_a_fresh_index_of_a_small_log_is_built_on_the_first_read(workbench: Workbench) -> None:
    """Thirty new day files (a cache deleted, or another cache folder): new files cost only their bytes,
    so the first search builds the index instead of answering from an empty one."""
    for day in range(1, 31):
        append(workbench.paths, turn(f"2026-10-{day:02d}T09:00:00", f"day {day} of the {RARE} diary", id=f"d{day}"))
    answer = workbench.search(RARE, limit=50)
    assert answer.freshness.caught_up_turns == 30 and len(answer.result.results) == 30
    assert not answer.freshness.lag.behind


def test_many_grown_day_files_are_left_to_reindex_and_said(workbench: Workbench) -> None:
    for day in range(1, 21):
        append(workbench.paths, turn(f"2026-10-{day:02d}T09:00:00", f"first turn of day {day}", id=f"a{day}"))
    workbench.search("first")
    for day in range(1, 21):  # every day file grows: each would be re-hashed to its read offset
        append(workbench.paths, turn(f"2026-10-{day:02d}T10:00:00", f"the {RARE} of day {day}", id=f"b{day}"))
    answer = workbench.search(RARE)
    assert answer.result.results == [] and answer.freshness.lag.grown_days == 20
    assert any("the index is behind the log" in note for note in answer.notes)
