"""`reverie suggest DRAFT`, run as a person runs it: a real `reverie` process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from core.paths import HomePaths
from tests.helpers.embedding_server import FakeServer
from tests.helpers.vault import PASSPHRASE, make_vault

ROOT = Path(__file__).resolve().parents[2]


def reverie(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "REVERIE_PASSPHRASE": PASSPHRASE}
    return subprocess.run([sys.executable, "-m", "tui_app.cli.main", *args], capture_output=True, text=True,
                          env=env, input="", timeout=120, cwd=ROOT)


def home_with_memories(paths: HomePaths) -> str:
    vault = make_vault(paths)
    d = vault.create_draft("Hiking up Bukhansan with Minji", ["hiking"])
    d = d.add_suggestion("people", ["Minji"], "me", suggestion_id="p").accept("p", reviewer="me")
    d = d.add_suggestion("location", "Bukhansan", "me", suggestion_id="l").accept("l", reviewer="me")
    d = d.approve(reviewer="me")
    vault.save_draft(d)
    vault.finalize_draft(d)
    return vault.create_draft("Yesterday: hiking up Bukhansan with Minji again").draft_id


def test_suggest_attaches_once_and_explains(paths: HomePaths) -> None:
    draft_id = home_with_memories(paths)
    first = reverie("suggest", draft_id, "--only", "dates", "--only", "people", "--only", "places", "--json")
    assert first.returncode == 0, first.stderr
    data = json.loads(first.stdout)
    assert {s["field_name"] for s in data["added"]} == {"occurred_at", "people", "location"}
    assert data["saved"] is True and all(f["why"] for f in data["found"])
    again = reverie("suggest", draft_id, "--only", "dates", "--only", "people", "--only", "places")
    assert again.returncode == 0 and again.stdout.startswith(f"{draft_id}: 0 suggestion(s) added")
    shown = reverie("draft", "show", draft_id, "--json")
    assert len(json.loads(shown.stdout)["suggestions"]) == 3


def test_dry_run_changes_nothing_and_bad_names_are_one_line(paths: HomePaths) -> None:
    draft_id = home_with_memories(paths)
    dry = reverie("suggest", draft_id, "--only", "dates", "--dry-run", "--all")
    assert dry.returncode == 0 and "+ local-dates-" in dry.stdout and "[attach]" in dry.stdout
    assert json.loads(reverie("draft", "show", draft_id, "--json").stdout)["suggestions"] == []
    bad = reverie("suggest", draft_id, "--only", "moods")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "unknown 'moods'" in bad.stderr
    missing = reverie("suggest", "draft_nope")
    assert missing.returncode == 3 and "no draft 'draft_nope'" in missing.stderr


def test_every_suggester_with_a_local_embedding_server(paths: HomePaths) -> None:
    draft_id = home_with_memories(paths)
    with FakeServer() as server:
        paths.config.write_text(f'[embedding]\nbackend = "openai-compatible"\nendpoint = "{server.url}"\n'
                                'model = "nomic-embed-text"\n', encoding="utf-8")
        result = reverie("suggest", draft_id, "--json")
    assert result.returncode == 0, result.stderr
    added = {s["field_name"]: s for s in json.loads(result.stdout)["added"]}
    assert added["tags"]["value"] == ["hiking"] and added["tags"]["model"] == f"nomic-embed-text@{server.url}"
