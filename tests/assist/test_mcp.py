"""`reverie mcp`, driven by the MCP SDK's own client over stdio: each tool's result, the sharing
profile on every read, provenance on every proposal, and a tool list that can only read and propose."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from core.assist.surface import TOOLS, AssistantSurface
from core.paths import HomePaths
from tests.helpers.sharing_world import PRIVATE_SECRETS, build_world
from tests.helpers.vault import PASSPHRASE, make_vault
from tui_app.mcp.server import tool_list

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("accept", "reject", "approve", "final", "edit", "update", "modify", "delete", "remove", "curate",
             "restore", "archive", "move", "passphrase", "password", "secret", "key", "unlock", "mark")


def server_env(paths: HomePaths, passphrase: str | None = PASSPHRASE) -> dict[str, str]:
    env = {"REVERIE_HOME": str(paths.root), "REVERIE_CACHE": str(paths.cache.parent), "PYTHONPATH": str(ROOT)}
    if passphrase is not None:
        env["REVERIE_PASSPHRASE"] = passphrase
    return env


def test_the_tool_list_can_only_read_and_propose() -> None:
    tools = tool_list()
    assert tuple(t.name for t in tools) == TOOLS == ("recall", "where_are_we", "context", "propose_memory", "suggest")
    for tool in tools:
        assert not any(word in tool.name for word in FORBIDDEN), tool.name
        props = json.dumps(tool.input_schema)
        assert "passphrase" not in props and "reviewer" not in props and "approve" not in props
        assert tool.annotations.destructive_hint is False
    assert {t.name for t in tools if t.annotations.read_only_hint} == {"recall", "where_are_we", "context"}
    public = {name for name in dir(AssistantSurface) if not name.startswith("_")}
    assert not {name for name in public if any(word in name for word in FORBIDDEN)}


def text(result: Any) -> str:
    return result.content[0].text


async def test_a_real_client_session_over_stdio(paths: HomePaths) -> None:
    from mcp.client import Client
    from mcp.client.stdio import StdioServerParameters
    from mcp_types import Implementation

    world = build_world(paths)
    with paths.config.open("a", encoding="utf-8") as handle:
        handle.write("\n[assistants]\nproposals_per_hour = 1\n")
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "tui_app.cli.main", "mcp", "--profile", "claude"],
                                   env=server_env(paths), cwd=str(ROOT))
    async with Client(params, mode="legacy", client_info=Implementation(name="claude-code", version="2.1.0")) as c:
        listed = await c.list_tools()
        assert [t.name for t in listed.tools] == list(TOOLS)

        # recall: the range as understood, the mode, each result marked reviewed or not, through the profile
        night = await c.call_tool("recall", {"query": "Niseko last Tuesday", "now": "2026-11-29T15:00:00Z"})
        answer = night.structured_content
        assert not night.is_error and answer["profile"] == "claude" and answer["mode"] == "exact"
        assert answer["range"]["grain"] == "day" and answer["range"]["start"].startswith("2026-11-24T00:00:00")
        assert answer["expression"] == "last Tuesday"
        assert [r["kind"] for r in answer["results"]] == ["turn", "turn"]
        assert all(r["reviewed"] is False for r in answer["results"])
        assert json.loads(text(night)) == answer

        everything = (await c.call_tool("recall", {"query": "Niseko", "limit": 20})).structured_content
        memories = [r for r in everything["results"] if r["kind"] == "memory"]
        assert memories and all(r["reviewed"] is True for r in memories)
        dumped = json.dumps(everything)
        assert not any(secret in dumped for secret in PRIVATE_SECRETS)
        assert "9000 yen" not in dumped and "Chatgpt said" not in dumped  # unreviewed; another source

        where = (await c.call_tool("where_are_we", {})).structured_content
        assert [m["text"] for m in where["markers"]] == ["planning the Niseko ski trip"]

        block = (await c.call_tool("context", {"query": "Niseko", "budget": 500})).structured_content
        assert block["text"].startswith("## Where we are") and "Niseko ski trip booked" in block["text"]
        assert block["tokens"] <= 500 and not any(secret in block["text"] for secret in PRIVATE_SECRETS)

        # proposals: a draft in the review queue, with the assistant's provenance
        proposed = await c.call_tool("propose_memory", {
            "content": "Kate wants to go back to Niseko for the powder",
            "tags": ["travel", "kate"],
            "suggestions": [{"field": "occurred_at", "value": "2026-11-24T19:00:00+00:00", "confidence": 0.7,
                             "model": "claude-opus-4"},
                            {"field": "people", "value": ["Kate"]}],
        })
        draft_id = proposed.structured_content["draft_id"]
        assert not proposed.is_error and proposed.structured_content["created_by"] == "mcp:claude-code"
        added = await c.call_tool("suggest", {"draft_id": draft_id, "field": "title", "value": "Back to Niseko",
                                              "confidence": 0.6})
        assert added.structured_content["source"] == "mcp:claude-code" and added.structured_content["confidence"] == 0.6

        # bad input: one line naming the field; nothing written
        for args, message in (
            ({"query": "x", "limit": 0}, "limit: must be an integer from 1 to 100, got 0"),
            ({"query": "x", "bogus": 1}, "bogus: unknown field"),
            ({"query": ""}, "query: must not be empty"),
            ({"query": "x", "now": "yesterday"}, "now: \"yesterday\" is not in the expected form"),
        ):
            bad = await c.call_tool("recall", args)
            assert bad.is_error and text(bad).startswith(message) and "\n" not in text(bad)
        bad = await c.call_tool("propose_memory", {"content": "x", "suggestions": [{"field": "occurred_at",
                                                                                     "value": "soon"}]})
        assert bad.is_error and text(bad).startswith("suggestions[0].value: not an ISO-8601 time")
        # a limit reached: an error result of one line saying which, the count and when; nothing written
        limited = await c.call_tool("propose_memory", {"content": "One proposal too many"})
        assert limited.is_error and "\n" not in text(limited)
        assert text(limited).startswith("proposals_per_hour limit: mcp:claude-code proposed 1 draft in the last hour "
                                        "(at most 1); the next fits at ")
        assert "new drafts from you, at most 1 per hour" in next(t.description for t in listed.tools
                                                        if t.name == "propose_memory")
        missing = await c.call_tool("suggest", {"draft_id": "draft_nope", "field": "title", "value": "x"})
        assert missing.is_error and text(missing) == "draft_id: no draft 'draft_nope'"

        vault = make_vault(paths)
        approved = vault.get_draft(draft_id)
        for s in approved.suggestions:
            approved = approved.reject_suggestion(s.suggestion_id, reviewer="me")
        vault.save_draft(approved.approve(reviewer="me"))
        closed = await c.call_tool("suggest", {"draft_id": draft_id, "field": "mood", "value": "happy"})
        assert closed.is_error and "is approved; only open drafts take suggestions" in text(closed)

    drafts = world.vault.list_drafts()
    assert [d.draft_id for d in drafts if d.created_by != "me"] == [draft_id]
    stored = world.vault.get_draft(draft_id)
    assert stored.created_by == "mcp:claude-code" and stored.content.startswith("Kate wants")
    by_field = {s.field_name: s for s in stored.suggestions}
    assert by_field["tags"].value == ("travel", "kate") and by_field["tags"].model == "claude-code"
    assert by_field["occurred_at"].model == "claude-opus-4" and by_field["occurred_at"].confidence == 0.7
    assert by_field["occurred_at"].process_version == "claude-code 2.1.0"
    assert by_field["title"].source == "mcp:claude-code" and "mood" not in by_field


def run_server(paths: HomePaths, *args: str, passphrase: str | None = PASSPHRASE) -> subprocess.CompletedProcess:
    env = {**{k: v for k, v in os.environ.items() if k != "REVERIE_PASSPHRASE"}, **server_env(paths, passphrase)}
    return subprocess.run([sys.executable, "-m", "tui_app.cli.main", "mcp", *args], capture_output=True, text=True,
                          env=env, input="", timeout=60, cwd=ROOT)


def test_without_a_passphrase_the_server_says_so_on_stderr_and_never_prompts(paths: HomePaths) -> None:
    make_vault(paths)
    result = run_server(paths, passphrase=None)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "never prompts: set REVERIE_PASSPHRASE" in result.stderr


@pytest.mark.parametrize(("args", "passphrase", "message"), [
    ((), "not the passphrase", "passphrase"),
    (("--profile", "nope"), PASSPHRASE, "no sharing profile 'nope' (known: default)"),
])
def test_bad_start_is_one_line_on_stderr(paths: HomePaths, args: tuple[str, ...], passphrase: str,
                                         message: str) -> None:
    make_vault(paths)
    result = run_server(paths, *args, passphrase=passphrase)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and message in result.stderr


def test_without_a_vault_the_server_names_the_home(paths: HomePaths) -> None:
    result = run_server(paths)
    assert result.returncode == 2 and f"no vault in {paths.root}: run `reverie init` first" in result.stderr
