"""Limits on what assistants put in the review queue ([assistants] in config.toml): per assistant per
hour, drafts awaiting review from all assistants, suggestions per draft. Counted from the drafts on
disk, so they hold across surfaces (servers) sharing a home and across restarts; nothing is written
when a limit is reached."""

from __future__ import annotations

import dataclasses
import threading
from datetime import timedelta
from typing import Any

import msgspec
import pytest

from core.assist.proposal_limits import ProposalCounter, is_assistant
from core.assist.surface import AssistantSurface, Caller, SurfaceError
from core.clock import utc_now
from core.config import AssistantsConfig, Config, parse_config
from core.errors import ConfigError
from core.paths import HomePaths
from core.sharing import SharePolicy
from core.vault.review import StoredDraft
from core.vault.store import MemoryStore
from core.workbench import Workbench
from tests.helpers.vault import make_vault

CLAUDE = Caller.named("mcp", "claude-code", "2.1")
CODEX = Caller.named("mcp", "codex")


def config_with(**limits: int) -> Config:
    return dataclasses.replace(Config(), assistants=AssistantsConfig(**limits))


def surface(paths: HomePaths, vault: MemoryStore, **limits: int) -> AssistantSurface:
    config = config_with(**limits)
    workbench = Workbench(paths, config)
    workbench.adopt_keys(vault.keys)
    return AssistantSurface(workbench, SharePolicy.from_config(config, "default"))


@pytest.fixture
def vault(paths: HomePaths) -> MemoryStore:
    return make_vault(paths)


def propose(s: AssistantSurface, caller: Caller = CLAUDE, content: str = "a thing worth keeping",
            **more: Any) -> dict[str, Any]:
    return s.call("propose_memory", {"content": content, **more}, caller)


def refused(s: AssistantSurface, tool: str, args: dict[str, Any], caller: Caller = CLAUDE) -> SurfaceError:
    before = sorted(p.name for p in s.paths.drafts.glob("*.json"))
    stamps = {p.name: p.stat().st_mtime_ns for p in s.paths.drafts.glob("*.json")}
    with pytest.raises(SurfaceError) as caught:
        s.call(tool, args, caller)
    assert sorted(p.name for p in s.paths.drafts.glob("*.json")) == before  # nothing written
    assert {p.name: p.stat().st_mtime_ns for p in s.paths.drafts.glob("*.json")} == stamps
    assert "\n" not in str(caught.value)
    return caught.value


def age(vault: MemoryStore, draft_id: str, minutes: float) -> None:
    """Make a draft look created ``minutes`` ago."""
    draft = vault.get_draft(draft_id)
    then = (utc_now() - timedelta(minutes=minutes)).isoformat(timespec="microseconds")
    vault.save_draft(msgspec.structs.replace(draft, created_at=then))


def test_defaults_and_who_counts_as_an_assistant() -> None:
    assert Config().assistants == AssistantsConfig(proposals_per_hour=20, open_proposals=50, suggestions_per_draft=50)
    assert is_assistant("mcp:claude-code") and is_assistant("api:raycast")
    assert not any(is_assistant(s) for s in ("me", "echo", "mcp:", "local:dates", "mcpx:claude"))


def test_per_assistant_per_hour(paths: HomePaths, vault: MemoryStore) -> None:
    s = surface(paths, vault, proposals_per_hour=3)
    made = [propose(s)["draft_id"] for _ in range(3)]
    err = refused(s, "propose_memory", {"content": "one too many"})
    assert err.status == 429 and err.detail is not None and err.detail["limit"] == "proposals_per_hour"
    assert str(err).startswith("proposals_per_hour limit: mcp:claude-code proposed 3 drafts in the last hour "
                               "(at most 3); the next fits at ")
    assert 3500 <= err.retry_after <= 3600 and err.detail["count"] == 3 and err.detail["max"] == 3
    assert propose(s, CODEX)["created_by"] == "mcp:codex"  # per assistant: another one still may
    assert propose(s, Caller.named("api", "claude-code"))  # the REST client is another caller

    # a sliding hour: the next place frees when the oldest leaves the window
    age(vault, made[0], 50)
    err = refused(s, "propose_memory", {"content": "still too many"})
    assert 590 <= err.retry_after <= 600 and "(in 10 min)" in str(err)
    age(vault, made[0], 61)
    assert propose(s)["state"] == "open"


def test_reviewing_frees_the_open_places(paths: HomePaths, vault: MemoryStore) -> None:
    s = surface(paths, vault, open_proposals=3)
    vault.create_draft("the person's own draft")  # only drafts from assistants count
    made = [propose(s, Caller.named("mcp", name), tags=["x"])["draft_id"] for name in ("a", "b", "c")]
    err = refused(s, "propose_memory", {"content": "a fourth"}, Caller.named("mcp", "d"))  # all assistants together
    assert err.status == 429 and err.retry_after == 3600 and err.detail["limit"] == "open_proposals"
    assert str(err) == ("open_proposals limit: 3 drafts from assistants await the person's review (at most 3); "
                        "the next fits when the person approves, finalizes or deletes one")

    vault.delete_draft(made[0])  # the person throws one away
    fourth = propose(s, Caller.named("mcp", "d"))["draft_id"]
    refused(s, "propose_memory", {"content": "a fifth"})

    draft = vault.get_draft(made[1])  # approves one
    draft = draft.reject_suggestion(draft.suggestions[0].suggestion_id, reviewer="me").approve(reviewer="me")
    vault.save_draft(draft)
    propose(s)
    refused(s, "propose_memory", {"content": "a sixth"})

    vault.finalize_draft(vault.get_draft(fourth).approve(reviewer="me"))  # finalizes one
    propose(s)
    assert len([d for d in vault.list_drafts(state="open") if d.created_by != "me"]) == 3


def test_suggestions_per_draft(paths: HomePaths, vault: MemoryStore) -> None:
    s = surface(paths, vault, suggestions_per_draft=3)
    made = propose(s, tags=["a"], suggestions=[{"field": "title", "value": "T"}])  # tags count as one
    assert len(made["suggestions"]) == 2
    s.call("suggest", {"draft_id": made["draft_id"], "field": "mood", "value": "calm"}, CODEX)
    err = refused(s, "suggest", {"draft_id": made["draft_id"], "field": "people", "value": ["Kate"]})
    assert err.status == 409 and err.retry_after is None and err.detail["limit"] == "suggestions_per_draft"
    assert str(err) == (f"suggestions_per_draft limit: draft {made['draft_id']!r} has 3 suggestions from assistants "
                        "(at most 3); it takes no more")

    many = [{"field": f"f{i}", "value": i} for i in range(4)]
    err = refused(s, "propose_memory", {"content": "crowded", "suggestions": many})
    assert err.status == 409 and "this proposal carries 4 suggestions" in str(err)

    own = vault.create_draft("mine")  # a local suggester's suggestions are not the assistants'
    for i in range(3):
        own = own.add_suggestion("tags", [f"t{i}"], "local:tags")
    vault.save_draft(own)
    for field in ("title", "mood", "location"):
        s.call("suggest", {"draft_id": own.draft_id, "field": field, "value": "x"}, CLAUDE)
    assert refused(s, "suggest", {"draft_id": own.draft_id, "field": "people", "value": ["x"]}).status == 409


def test_zero_turns_proposals_off(paths: HomePaths, vault: MemoryStore) -> None:
    err = refused(surface(paths, vault, proposals_per_hour=0), "propose_memory", {"content": "x"})
    assert err.status == 403 and "turned proposals from assistants off (assistants.proposals_per_hour = 0" in str(err)
    draft = vault.create_draft("mine")
    s = surface(paths, vault, suggestions_per_draft=0)
    assert refused(s, "suggest", {"draft_id": draft.draft_id, "field": "title", "value": "x"}).status == 403
    assert s.call("propose_memory", {"content": "no suggestions"}, CLAUDE)["suggestions"] == []


def test_counted_across_two_surfaces_and_a_restart(paths: HomePaths, vault: MemoryStore) -> None:
    first = surface(paths, vault, proposals_per_hour=4)
    second = surface(paths, make_vault(paths), proposals_per_hour=4)  # another server on the same home
    propose(first)
    propose(first)
    propose(second)
    propose(first)  # the first counter has read its drafts before; it must see the second's
    assert refused(second, "propose_memory", {"content": "x"}).detail["count"] == 4
    assert refused(first, "propose_memory", {"content": "x"}).status == 429
    first.close()
    second.close()
    restarted = surface(paths, make_vault(paths), proposals_per_hour=4)
    assert refused(restarted, "propose_memory", {"content": "x"}).detail["count"] == 4


def test_concurrent_proposals_never_pass_the_limit(paths: HomePaths, vault: MemoryStore) -> None:
    surfaces = [surface(paths, make_vault(paths), proposals_per_hour=5) for _ in range(3)]
    outcomes: list[str] = []

    def run(s: AssistantSurface) -> None:
        for _ in range(4):
            try:
                propose(s)
                outcomes.append("ok")
            except SurfaceError as exc:
                outcomes.append(str(exc.status))

    threads = [threading.Thread(target=run, args=(s,)) for s in surfaces]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert sorted(outcomes) == ["429"] * 7 + ["ok"] * 5
    assert len(vault.list_drafts()) == 5


def test_the_counter_skips_what_it_cannot_read_and_rereads_what_changed(paths: HomePaths,
                                                                         vault: MemoryStore) -> None:
    counter = ProposalCounter(vault, AssistantsConfig())
    draft = vault.create_draft("from an assistant", created_by="mcp:claude-code")
    assert [(d.draft_id, d.state) for d in counter.drafts()] == [(draft.draft_id, "open")]
    vault.save_draft(draft.approve(reviewer="me"))
    assert [d.state for d in counter.drafts()] == ["approved"]
    (paths.drafts / "draft_broken.json").write_text("{not a record", encoding="utf-8")
    (paths.drafts / ".draft_x.json.123.tmp").write_text("half", encoding="utf-8")
    assert [d.draft_id for d in counter.drafts()] == [draft.draft_id]
    vault.delete_draft(draft.draft_id)
    assert counter.drafts() == []


def test_a_loaded_draft_keeps_its_creator_and_time(vault: MemoryStore) -> None:
    draft = vault.create_draft("x", created_by="api:raycast")
    stored = vault.get_draft(draft.draft_id)
    assert isinstance(stored, StoredDraft) and (stored.created_by, stored.created_at) == ("api:raycast",
                                                                                          draft.created_at)


@pytest.mark.parametrize(("text", "message"), [
    ("[assistants]\nproposals_per_hour = \"lots\"", "config.toml: assistants.proposals_per_hour must be an integer, "
                                                   "got 'lots'"),
    ("[assistants]\nopen_proposals = -1",
     "config.toml: assistants.open_proposals must be in [0, 1000000] (0 turns it off)"),
    ("[assistants]\nsuggestions_per_draft = 2.5", "config.toml: assistants.suggestions_per_draft must be an "
                                                 "integer, got 2.5"),
    ("[assistants]\nper_minute = 3", "config.toml: unknown key 'assistants.per_minute'"),
])
def test_bad_settings_are_one_line_naming_the_key(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(text)
    assert str(caught.value) == message


def test_settings_are_read(paths: HomePaths) -> None:
    config = parse_config("[assistants]\nproposals_per_hour = 5\nopen_proposals = 0\n")
    assert config.assistants == AssistantsConfig(proposals_per_hour=5, open_proposals=0, suggestions_per_draft=50)
