"""The vault and review commands, run as a person runs them: a real `reverie` process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.paths import HomePaths
from tests.helpers.cli import init_vault, ok, reverie


@pytest.fixture
def initialised(isolated_home: HomePaths) -> HomePaths:
    return init_vault(isolated_home)


def test_init_locate_and_refusal_to_init_twice(isolated_home: HomePaths) -> None:
    ok("init")  # the real Argon2id parameters: the header records them
    initialised = isolated_home
    assert json.loads(initialised.vault_header.read_text())["kdf"]["memory_cost_kib"] == 65536
    located = json.loads(ok("locate", "--json"))
    assert located["home"] == str(initialised.root) and located["vault"] == str(initialised.vault)
    again = reverie("init")
    assert again.returncode == 2 and "a vault already exists" in again.stderr
    assert again.stderr.count("\n") == 1


def test_home_option_beats_the_environment(tmp_path: Path) -> None:
    other = tmp_path / "elsewhere"
    assert json.loads(ok("--home", str(other), "locate", "--json"))["home"] == str(other)


def test_the_whole_review_flow(initialised: HomePaths) -> None:
    draft_id = ok("draft", "new", "She laughed when the dog sneezed.", "--tag", "family")
    sid = ok("draft", "suggest", draft_id, "location", "Seoul", "--source", "echo", "--model", "example-model",
             "--process-version", "memory-card-v1", "--confidence", "0.88", "--id", "suggestion-location")
    assert sid == "suggestion-location"
    ok("draft", "suggest", draft_id, "people", '["Mina", "Dad"]', "--source", "echo", "--id", "s-people")
    early = reverie("draft", "approve", draft_id, "--reviewer", "parent")
    assert early.returncode == 2 and "pending" in early.stderr
    ok("draft", "accept", draft_id, "suggestion-location", "--reviewer", "parent", "--value", "Seoul Forest")
    ok("draft", "reject", draft_id, "s-people", "--reviewer", "parent")
    ok("draft", "approve", draft_id, "--reviewer", "parent")
    shown = json.loads(ok("draft", "show", draft_id, "--json"))
    assert shown["state"] == "approved" and shown["resolved_fields"] == {"location": "Seoul Forest"}
    assert [r["action"] for r in shown["revision_history"]][-1] == "draft_approved"
    memory_id = json.loads(ok("draft", "finalize", draft_id, "--json"))["memory_id"]
    twice = reverie("draft", "finalize", draft_id)
    assert twice.returncode == 2 and "already finalized" in twice.stderr
    memories = json.loads(ok("memory", "list", "--json"))
    assert [m["memory_id"] for m in memories] == [memory_id]
    assert memories[0]["review"]["reviewed"] and memories[0]["verified"]
    assert json.loads(ok("draft", "list", "--state", "finalized", "--json"))[0]["draft_id"] == draft_id
    assert "Seoul Forest" in ok("memory", "show", memory_id)


def test_verify_exit_codes_and_checkpoint(initialised: HomePaths) -> None:
    draft_id = ok("draft", "new", "A memory to protect.")
    ok("draft", "approve", draft_id, "--reviewer", "me")
    memory_id = ok("draft", "finalize", draft_id)
    assert ok("verify").startswith("intact")
    head = ok("verify", "--checkpoint")
    assert head.startswith("1:")
    assert json.loads(ok("verify", "--json", "--against", head))["ok"] is True
    path = initialised.vault / f"{memory_id}.json"
    record = json.loads(path.read_text())
    record["nonce"] = record["nonce"][::-1]
    path.write_text(json.dumps(record))
    damaged = reverie("verify", "--json")
    assert damaged.returncode == 1
    problems = json.loads(damaged.stdout)["problems"]
    assert problems and problems[0]["subject"] == f"vault/{memory_id}.json"


def test_memory_list_and_show_json_fields_and_a_damaged_record(initialised: HomePaths) -> None:
    """The --json rows keep their fields in order; a record that does not verify is listed with its
    reason and no content, said in plain text too, and the listing exits 1."""
    ids = []
    for text in ("Kept intact.", "To be damaged."):
        draft_id = ok("draft", "new", text, "--tag", "t")
        ok("draft", "approve", draft_id, "--reviewer", "me")
        ids.append(ok("draft", "finalize", draft_id))
    intact, damaged = ids
    shown = json.loads(ok("memory", "show", intact, "--json"))
    assert list(shown) == ["memory_id", "content", "created_at", "metadata", "review", "verified"]
    assert shown["content"] == "Kept intact." and shown["verified"] and shown["metadata"]["tags"] == ["t"]
    path = initialised.vault / f"{damaged}.json"
    record = json.loads(path.read_text())
    record["nonce"] = record["nonce"][::-1]
    path.write_text(json.dumps(record))
    listed = reverie("memory", "list", "--json")
    assert listed.returncode == 1
    rows = {row["memory_id"]: row for row in json.loads(listed.stdout)}
    assert list(rows[intact]) == [*shown, "damaged", "damage"]
    assert rows[intact]["damaged"] is False and rows[intact]["damage"] is None
    assert rows[intact]["content"] == "Kept intact." and rows[intact]["review"]["reviewed"] is True
    bad = rows[damaged]
    assert bad["damaged"] is True and bad["damage"] and bad["verified"] is False
    assert [bad[k] for k in ("content", "created_at", "metadata", "review")] == [None] * 4
    plain = reverie("memory", "list")
    assert plain.returncode == 1
    line = next(line for line in plain.stdout.splitlines() if line.startswith(damaged))
    assert "DAMAGED" in line and "To be damaged." not in plain.stdout
    assert any(line.startswith(intact) and "  reviewed " in line and " verified " in line
               for line in plain.stdout.splitlines())


def test_wrong_passphrase_is_one_line_and_writes_nothing(initialised: HomePaths) -> None:
    before = sorted(p.name for p in initialised.root.rglob("*"))
    result = reverie("draft", "new", "should not be written", passphrase="wrong")
    assert result.returncode == 2
    assert result.stderr.startswith("reverie: ") and "wrong passphrase" in result.stderr
    assert result.stderr.count("\n") == 1
    assert sorted(p.name for p in initialised.root.rglob("*")) == before


def test_no_passphrase_without_a_terminal_is_a_clear_error(initialised: HomePaths) -> None:
    result = reverie("memory", "list", passphrase=None, stdin="")
    assert result.returncode == 2 and "REVERIE_PASSPHRASE" in result.stderr


def test_bad_inputs_are_named(initialised: HomePaths) -> None:
    draft_id = ok("draft", "new", "Bad inputs.")
    cases = [
        (("draft", "suggest", draft_id, "people", "[not json", "--source", "x"), "not valid JSON"),
        (("draft", "suggest", draft_id, "occurred_at", "last tuesday", "--source", "x"), "not an ISO-8601 time"),
        (("draft", "suggest", draft_id, "title", "x", "--source", "x", "--confidence", "2"), "--confidence"),
        (("draft", "show", "draft_doesnotexist"), "no draft 'draft_doesnotexist'"),
        (("memory", "show", "mem_nope"), "no memory 'mem_nope'"),
        (("verify", "--against", "7:xyz"), "SEQ:SHA256"),
    ]
    for args, message in cases:
        result = reverie(*args)
        assert result.returncode != 0, args
        assert message in result.stderr, (args, result.stderr)


def test_bad_config_is_named_on_any_command(initialised: HomePaths) -> None:
    initialised.config.write_text("[recall]\nhalf_life_days = 'soon'\n")
    result = reverie("memory", "list")
    assert result.returncode == 2
    assert "recall.half_life_days must be a number" in result.stderr and str(initialised.config) in result.stderr


def test_exports_and_dvmem_round_trip(initialised: HomePaths, tmp_path: Path) -> None:
    draft_id = ok("draft", "new", "We planted tomatoes after the rain.", "--tag", "garden")
    ok("draft", "suggest", draft_id, "location", "Balcony", "--source", "echo", "--id", "s1")
    ok("draft", "accept", draft_id, "s1", "--reviewer", "me")
    ok("draft", "approve", draft_id, "--reviewer", "me")
    memory_id = ok("draft", "finalize", draft_id)
    ok("draft", "new", "An open draft that must not be exported.")
    rag = [json.loads(line) for line in ok("export", "rag").splitlines()]
    assert [c["text"] for c in rag] == ["We planted tomatoes after the rain."]
    assert rag[0]["metadata"]["review"]["reviewed"] is True and rag[0]["metadata"]["verified"] is True
    openai_rows = [json.loads(line) for line in ok("export", "openai").splitlines()]
    assert set(openai_rows[0]) == {"messages"}
    graph = json.loads(ok("export", "graph"))
    assert any(n["type"] == "memory" and n["properties"]["review"]["reviewed"] for n in graph["nodes"])
    out = tmp_path / "one.dvmem"
    ok("export", "dvmem", "--memory", memory_id, "--out", str(out))
    other = tmp_path / "other-home"
    assert reverie("--home", str(other), "init").returncode == 0
    imported = json.loads(ok("--home", str(other), "import", str(out), "--json"))
    assert imported == {"memory_id": memory_id, "added": True}
    assert ok("--home", str(other), "verify").startswith("intact")
    corrupt = tmp_path / "corrupt.dvmem"
    corrupt.write_text(out.read_text().replace('"record_version": 1', '"record_version": 3'))
    result = reverie("--home", str(other), "import", str(corrupt))
    assert result.returncode == 2 and "does not verify" in result.stderr


def test_every_command_reminds_when_the_curation_review_is_overdue(initialised: HomePaths, tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.md").write_text("# A note\n")
    ok("curate", "scope", "add", "notes", "--kind", "markdown", "--path", str(notes))
    result = reverie("memory", "list")
    assert result.returncode == 0
    assert "Curation review overdue" in result.stderr and "notes" in result.stderr
    ok("curate", "scan", "notes")
    assert "overdue" not in reverie("memory", "list").stderr


def test_draft_new_with_local_suggesters(initialised: HomePaths) -> None:
    shown = json.loads(ok("draft", "new", "Dinner with Mina on 2026-11-03 at 19:00 in Seoul Forest.", "--suggest",
                          "--json"))
    fields = {s["field_name"]: s for s in shown["suggestions"]}
    assert "occurred_at" in fields and fields["occurred_at"]["value"].startswith("2026-11-03T19:00")
    assert fields["occurred_at"]["source"].startswith("local:")
    draft = json.loads(ok("draft", "show", shown["draft_id"], "--json"))
    assert draft["resolved_fields"] == {}  # suggestions only: nothing confirmed until the person accepts
