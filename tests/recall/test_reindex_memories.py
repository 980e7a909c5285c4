"""Deleting the index and reindexing gives the same answers, memories included."""

from __future__ import annotations

import json

from core.paths import HomePaths
from tests.helpers.cli import init_vault, ok


def test_purge_then_reindex_brings_memories_back(isolated_home: HomePaths) -> None:
    init_vault(isolated_home)
    draft_id = ok("draft", "new", "The lighthouse on Jeju was painted red and white.")
    ok("draft", "approve", draft_id, "--reviewer", "me")
    memory_id = ok("draft", "finalize", draft_id)
    ok("reindex", "--no-embed")
    before = json.loads(ok("search", "lighthouse", "--mode", "exact", "--no-sync", "--json"))
    assert [r["id"] for r in before["results"]] == [memory_id]
    assert before["results"][0]["kind"] == "memory" and before["results"][0]["reviewed"] is True
    ok("index", "purge", "--yes")
    ok("reindex", "--no-embed")
    after = json.loads(ok("search", "lighthouse", "--mode", "exact", "--no-sync", "--json"))
    assert after["results"] == before["results"]
