"""The duplicate check when a memory is captured from the CLI, with the real model: replace, keep
both or cancel — and replace deletes nothing: curation offers the old memory as superseded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.paths import HomePaths
from tests.helpers.cli import init_vault, ok, reverie

pytestmark = pytest.mark.model

ORIGINAL = "We decided to move the search index to SQLite FTS5 with rowid ranges."
NEAR = "We decided to move the search index to SQLite FTS5 using rowid ranges."


def _finalized(text: str) -> str:
    draft_id = ok("draft", "new", text, "--no-duplicate-check")
    ok("draft", "approve", draft_id, "--reviewer", "me")
    return ok("draft", "finalize", draft_id)


def test_near_duplicate_choices(isolated_home: HomePaths, tmp_path: Path) -> None:
    init_vault(isolated_home)
    old = _finalized(ORIGINAL)
    asked = reverie("draft", "new", NEAR, stdin="")
    assert asked.returncode == 2 and f"near duplicate of {old}" in asked.stderr
    cancelled = json.loads(ok("draft", "new", NEAR, "--on-duplicate", "cancel", "--json"))
    assert cancelled["draft_id"] is None and cancelled["duplicate"]["choice"] == "cancel"
    assert json.loads(ok("draft", "list", "--state", "open", "--json")) == []
    both = json.loads(ok("draft", "new", NEAR, "--on-duplicate", "keep-both", "--json"))
    assert both["duplicate"]["supersedes"] is None
    replaced = json.loads(ok("draft", "new", NEAR, "--on-duplicate", "replace", "--json"))
    assert replaced["duplicate"] == {"choice": "replace", "keep_new": True, "supersedes": old}
    ok("draft", "approve", replaced["draft_id"], "--reviewer", "me")
    new = ok("draft", "finalize", replaced["draft_id"])
    shown = json.loads(ok("memory", "show", new, "--json"))
    assert shown["metadata"]["custom"]["supersedes"] == [old]
    assert json.loads(ok("memory", "show", old, "--json"))["content"] == ORIGINAL  # nothing deleted
    ok("curate", "scope", "add", "memories", "--kind", "vault")
    scan = json.loads(ok("curate", "scan", "memories", "--json"))
    flagged = {c["path"]: c["signals"] for c in scan["candidates"]}
    assert any(old in cid and "superseded" in signals for cid, signals in flagged.items()), flagged
    unrelated = json.loads(ok("draft", "new", "Grandpa told the story about the night train.", "--json"))
    assert unrelated["duplicate"] is None
