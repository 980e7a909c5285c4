"""Each tool of the assistant surface answers a typed result; what MCP and REST send is its msgspec form,
with the keys in the order they have always had and exactly the properties its published schema names."""

from __future__ import annotations

import json

import msgspec

from core.assist import answers
from core.assist.surface import OUTPUTS, AssistantSurface, Caller
from core.config import load_config
from core.paths import HomePaths
from core.sharing import SharePolicy
from core.workbench import Workbench
from tests.helpers.sharing_world import build_world

ITEM_KEYS = ["id", "ts", "text", "session", "actor", "role", "kind", "reviewed", "score"]
KEYS = {
    "recall": ["profile", "range", "expression", "mode", "note", "results"],
    "where_are_we": ["markers"],
    "context": ["profile", "text", "tokens", "budget", "markers", "memories", "turns", "mode"],
    "propose_memory": ["draft_id", "state", "created_by", "suggestions"],
    "suggest": ["draft_id", "suggestion_id", "field", "value", "source", "model", "process_version", "confidence"],
}


def test_every_answer_keeps_its_keys_and_its_schema(paths: HomePaths) -> None:
    world = build_world(paths)
    config = load_config(paths.config)
    workbench = Workbench(paths, config)
    workbench.adopt_keys(world.vault.keys)
    surface = AssistantSurface(workbench, SharePolicy.from_config(config, "default"))
    caller = Caller.named("mcp", "claude", "1")
    got = {
        "recall": surface.call("recall", {"query": "Niseko this week", "now": "2026-11-29T15:00:00Z"}, caller),
        "where_are_we": surface.call("where_are_we", {}, caller),
        "context": surface.call("context", {"query": "Niseko"}, caller),
        "propose_memory": surface.call("propose_memory", {"content": "a note", "suggestions": [
            {"field": "extra", "value": {"b": [1, 2.5], "a": None}}]}, caller),
    }
    got["suggest"] = surface.call("suggest", {"draft_id": got["propose_memory"]["draft_id"], "field": "people",
                                              "value": ["Mina"], "confidence": 0.5}, caller)
    for tool, answer in got.items():
        assert list(answer) == KEYS[tool], tool
        assert list(answer) == list(OUTPUTS[tool]["properties"]), tool  # the published schema, in order
        json.dumps(answer, ensure_ascii=False)  # plain JSON values
    assert list(got["recall"]["range"]) == ["start", "end", "grain"]
    assert got["recall"]["results"] and all(list(item) == ITEM_KEYS for item in got["recall"]["results"])
    context = got["context"]
    assert context["memories"] and context["turns"] and context["markers"]
    assert all(list(item) == ITEM_KEYS and item["reviewed"] is False for item in context["turns"])
    assert [list(m) for m in context["markers"]] == [["ts", "text", "id"]]
    assert got["suggest"]["value"] == ["Mina"] and got["suggest"]["confidence"] == 0.5
    assert set(ITEM_KEYS) == set(OUTPUTS["recall"]["properties"]["results"]["items"]["properties"])


def test_the_answer_types_are_the_published_forms() -> None:
    forms = {"recall": answers.RecallAnswer, "where_are_we": answers.Markers, "context": answers.ContextAnswer,
             "propose_memory": answers.Proposed, "suggest": answers.Suggested}
    for tool, kind in forms.items():
        assert list(kind.__struct_fields__) == KEYS[tool] and issubclass(kind, msgspec.Struct)


def test_a_lone_surrogate_in_stored_text_still_answers() -> None:
    """Turn text decoded from a log may hold a lone surrogate; the answer is built without a JSON round trip."""
    from core.recall.model import RecallItem
    from core.sharing import shared_item

    item = shared_item(RecallItem("t-1", "2026-11-01T00:00:00Z", "broken \udcff text", "turn", 0.5))
    form = msgspec.to_builtins(answers.RecallAnswer("default", None, None, "exact", None, [item]))
    assert form["results"][0]["text"] == "broken \udcff text" and form["results"][0]["reviewed"] is False


def test_a_limit_refusal_keeps_its_body() -> None:
    from datetime import UTC, datetime

    from core.assist.proposal_limits import LimitReached
    from core.assist.schemas import LIMIT_ERROR_OUTPUT
    from core.assist.surface import SurfaceError

    reached = LimitReached("proposals_per_hour", 2, 2, "proposals_per_hour limit: at most 2",
                           resets_at=datetime(2026, 11, 29, 15, 30, tzinfo=UTC), retry_after=1800)
    refused = SurfaceError.limit(reached)
    assert refused.status == 429 and refused.retry_after == 1800
    assert json.dumps(refused.detail) == (
        '{"error": "proposals_per_hour limit: at most 2", "limit": "proposals_per_hour", "count": 2, "max": 2, '
        '"resets_at": "2026-11-29T15:30:00Z", "retry_after": 1800}')
    assert list(refused.detail or {}) == list(LIMIT_ERROR_OUTPUT["properties"])
