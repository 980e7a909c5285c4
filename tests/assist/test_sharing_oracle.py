"""A sharing profile is no oracle: a word that only withheld items hold gets exactly the answer a
nonsense word gets (results, mode, note, counts), through the core, MCP, REST and the CLI; a control
word a shared item holds is found. Every answer is computed inside what the profile lets be searched."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC

import msgspec
import pytest

from core.config import load_config
from core.paths import HomePaths
from core.sharing import SharePolicy, check_share, shared_context, shared_search
from tests.helpers.sharing_world import NOW, World, build_world

NONSENSE = "zqxwvjk"
# profile → (words only withheld items hold, a word a shared item holds)
PROBES = {
    "claude": (["Chatgpt", "SECRETPARTY", "DIARYSECRET", "9000"], "powder"),  # source, private, PRIVATE, unreviewed
    "work": (["9000", "KNEESECRET", "Chatgpt", "DIARYSECRET"], "offsite"),  # no allowed tag, Health, no turns
}


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    root = tmp_path_factory.mktemp("oracle")
    yield build_world(HomePaths(root=root / "home", cache=root / "cache"))


def _policy(world: World, name: str) -> SharePolicy:
    return SharePolicy.from_config(load_config(world.paths.config), name).checked_against(lambda: world.vault)


def _answer(world: World, name: str, query: str, mode: str) -> dict:
    with world.recaller() as recaller:
        shared = shared_search(recaller, _policy(world, name), query, now=NOW, zone=UTC, limit=10, mode=mode)
        return msgspec.to_builtins(shared.form())


@pytest.mark.parametrize("mode", ["auto", "exact"])
@pytest.mark.parametrize("name", sorted(PROBES))
def test_a_withheld_word_answers_as_nonsense_does(world: World, name: str, mode: str) -> None:
    withheld, control = PROBES[name]
    nothing = _answer(world, name, NONSENSE, mode)
    assert nothing["results"] == []
    for word in withheld:
        assert _answer(world, name, word, mode) == nothing, (name, word)
    found = _answer(world, name, control, mode)
    assert found["results"] and control in json.dumps(found["results"])
    assert found["note"] != nothing["note"] or mode == "exact"


@pytest.mark.parametrize("name", sorted(PROBES))
def test_a_withheld_word_builds_the_context_block_nonsense_builds(world: World, name: str) -> None:
    withheld, control = PROBES[name]

    def block(query: str) -> dict:
        with world.recaller() as recaller:
            built = shared_context(recaller, _policy(world, name), query, markers=[], now=NOW, zone=UTC, budget=4000)
        return {"memories": [i.id for i in built.memories], "turns": [i.id for i in built.turns],
                "text": built.text}

    nothing = block(NONSENSE)
    for word in withheld:
        assert block(word) == nothing, (name, word)
    assert block(control)["memories"] or block(control)["turns"]


def test_share_check_shows_the_assistant_the_same_answer_for_both(world: World) -> None:
    with world.recaller() as recaller:
        policy = _policy(world, "claude")
        probe = check_share(recaller, policy, "Chatgpt", now=NOW, zone=UTC, limit=10)
        nothing = check_share(recaller, policy, NONSENSE, now=NOW, zone=UTC, limit=10)
    assert probe.shared.form() == nothing.shared.form()
    assert [c.reason for c in probe.found] == ["source not shared"]  # the person still sees why


def test_the_profile_is_a_filter_of_what_is_searched() -> None:
    from core.config import SharingProfile
    from core.recall.pool import Gate

    gate = Gate.build(None, None, SharingProfile(allow_tags=["WORK"], deny_tags=["private"], sources=["claude-code"]))
    assert gate.shares_source("claude-code:/home/me/x.jsonl") and gate.shares_source("claude-code")
    assert not gate.shares_source("claude-codex:/x") and not gate.shares_source(None)
    assert gate.shares_tags(("Work",)) and not gate.shares_tags(("work", " PRIVATE ")) and not gate.shares_tags(())


def _same_for_withheld_and_nonsense(answers: dict[str, dict], control: str) -> None:
    nothing = answers[NONSENSE]
    assert nothing["results"] == []
    for word, answer in answers.items():
        if word not in (NONSENSE, control):
            assert answer == nothing, word
    assert control in json.dumps(answers[control]["results"])


def test_over_rest_a_withheld_word_answers_as_nonsense(paths: HomePaths, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.helpers.api import running_api

    build_world(paths)
    words = [*PROBES["claude"][0], NONSENSE, "powder"]
    with running_api(paths, monkeypatch, profile="claude") as api:
        answers = {w: api.call("POST", "/v1/recall", {"query": w, "now": "2026-11-29T15:00:00Z"})[2] for w in words}
        blocks = {w: api.call("POST", "/v1/context", {"query": w})[2] for w in words}
    _same_for_withheld_and_nonsense(answers, "powder")
    assert all(blocks[w] == blocks[NONSENSE] for w in PROBES["claude"][0])
    assert "text" in blocks[NONSENSE] and blocks["powder"] != blocks[NONSENSE]


async def test_over_mcp_a_withheld_word_answers_as_nonsense(paths: HomePaths) -> None:
    import sys

    from mcp.client import Client
    from mcp.client.stdio import StdioServerParameters

    from tests.assist.test_mcp import ROOT, server_env

    build_world(paths)
    args = ["-m", "tui_app.cli.main", "mcp", "--profile", "claude"]
    params = StdioServerParameters(command=sys.executable, args=args,
                                   env=server_env(paths), cwd=str(ROOT))
    words = [*PROBES["claude"][0], NONSENSE, "powder"]
    async with Client(params, mode="legacy") as client:
        answers = {w: (await client.call_tool("recall", {"query": w, "now": "2026-11-29T15:00:00Z"})).structured_content
                   for w in words}
    _same_for_withheld_and_nonsense(answers, "powder")


def test_share_check_and_context_profile_in_the_cli(paths: HomePaths) -> None:
    from tests.helpers.api import reverie

    build_world(paths)
    now = ("--now", "2026-11-29T15:00:00Z")
    checks = {w: json.loads(reverie("share", "check", "claude", w, "--json", *now).stdout)["answer"]
              for w in ("Chatgpt", NONSENSE, "powder")}
    _same_for_withheld_and_nonsense(checks, "powder")
    blocks = {w: reverie("context", w, "--profile", "claude", "--json", *now).stdout for w in ("Chatgpt", NONSENSE)}
    assert blocks["Chatgpt"] == blocks[NONSENSE] and json.loads(blocks[NONSENSE])
