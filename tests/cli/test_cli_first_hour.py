"""What a new user trips on in the CLI: damaged memories listed, plain values, every pending
suggestion named, prompts that say which passphrase they want."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.paths import HomePaths
from tests.helpers.cli import PASSPHRASE, init_vault, ok, reverie


@pytest.fixture
def initialised(isolated_home: HomePaths) -> HomePaths:
    return init_vault(isolated_home)


def _memory(text: str) -> str:
    draft_id = ok("draft", "new", text, "--no-duplicate-check")
    ok("draft", "approve", draft_id, "--reviewer", "me")
    return ok("draft", "finalize", draft_id)


def test_a_damaged_memory_is_listed_as_damaged_never_as_content(initialised: HomePaths) -> None:
    kept = _memory("The cabin's Wi-Fi password is on the fridge.")
    victim = _memory("Mina's birthday dinner at the noodle place.")
    path = initialised.vault / f"{victim}.json"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))

    plain = reverie("memory", "list")
    assert plain.returncode == 1, plain.stderr
    lines = plain.stdout.splitlines()
    damaged = next(line for line in lines if victim in line)
    assert "DAMAGED" in damaged and ("signature" in damaged or "modified" in damaged)
    assert any(kept in line and "verified" in line for line in lines)
    assert "noodle" not in plain.stdout and "no memories" not in plain.stdout

    as_json = reverie("memory", "list", "--json")
    assert as_json.returncode == 1
    rows = {r["memory_id"]: r for r in json.loads(as_json.stdout)}
    assert rows[victim]["damaged"] is True and rows[victim]["verified"] is False
    assert rows[victim]["content"] is None and rows[victim]["damage"]
    assert rows[kept]["damaged"] is False and rows[kept]["content"].startswith("The cabin")

    planted = initialised.vault / "mem_\x1b[2Jplanted.json"  # a file no vault wrote, its name an escape
    planted.write_bytes(b'{"format": "[bold]x"}')
    shown = reverie("memory", "list")
    assert shown.returncode == 1 and "\x1b" not in shown.stdout
    assert any("DAMAGED" in line and "\\x1b[2Jplanted" in line for line in shown.stdout.splitlines()), shown.stdout


def test_verify_names_a_damaged_record_once(initialised: HomePaths) -> None:
    victim = _memory("A memory to protect.")
    path = initialised.vault / f"{victim}.json"
    record = json.loads(path.read_text())
    record["nonce"] = record["nonce"][::-1]
    path.write_text(json.dumps(record))
    result = reverie("verify")
    assert result.returncode == 1
    line = next(line for line in result.stdout.splitlines() if victim in line)
    assert line.count(f"{victim}.json") == 1, line


def test_draft_suggest_takes_plain_and_comma_separated_values(initialised: HomePaths) -> None:
    draft_id = ok("draft", "new", "Dinner with Mina and Dad at the noodle place.", "--no-duplicate-check")
    ok("draft", "suggest", draft_id, "people", "Mina", "--source", "me", "--id", "s-one")
    ok("draft", "suggest", draft_id, "tags", "family, food", "--source", "me", "--id", "s-tags")
    ok("draft", "suggest", draft_id, "people", '["Mina", "Dad"]', "--source", "me", "--id", "s-json")
    ok("draft", "suggest", draft_id, "location", "[the noodle place]", "--source", "me", "--id", "s-place")
    shown = json.loads(ok("draft", "show", draft_id, "--json"))
    values = {s["suggestion_id"]: s["value"] for s in shown["suggestions"]}
    assert values == {"s-one": ["Mina"], "s-tags": ["family", "food"], "s-json": ["Mina", "Dad"],
                      "s-place": "[the noodle place]"}
    bad = reverie("draft", "suggest", draft_id, "people", '["Mina",', "--source", "me")
    assert bad.returncode == 2 and "people" in bad.stderr and "JSON" in bad.stderr
    empty = reverie("draft", "suggest", draft_id, "people", "Mina,,Dad", "--source", "me")
    assert empty.returncode == 2 and "comma" in empty.stderr
    ok("draft", "accept", draft_id, "s-one", "--reviewer", "me", "--value", "Mina, Dad")
    assert json.loads(ok("draft", "show", draft_id, "--json"))["resolved_fields"]["people"] == ["Mina", "Dad"]
    assert "comma" in ok("draft", "suggest", "--help")


def test_approve_names_every_pending_suggestion(initialised: HomePaths) -> None:
    draft_id = ok("draft", "new", "A walk by the river.", "--no-duplicate-check")
    for sid, field in (("s-a", "location"), ("s-b", "mood"), ("s-c", "title")):
        ok("draft", "suggest", draft_id, field, "x", "--source", "me", "--id", sid)
    refused = reverie("draft", "approve", draft_id, "--reviewer", "me")
    assert refused.returncode == 2 and "3 suggestion(s) still pending" in refused.stderr
    assert all(sid in refused.stderr for sid in ("s-a", "s-b", "s-c")), refused.stderr


def test_curate_scan_says_why_a_record_has_no_guards(initialised: HomePaths, tmp_path: Path) -> None:
    from tests.helpers.curate import loose_notes, put

    notes = loose_notes(tmp_path)
    put(notes, "old/bad.md", "---\nexpires: someday\n---\nan old note whose frontmatter cannot be read", 520)
    ok("curate", "scope", "add", "notes", "--kind", "markdown", "--path", str(notes))
    text = ok("curate", "scan")
    line = next(line for line in text.splitlines() if "old/bad.md" in line)
    assert "guards: -" not in line or "someday" in line, line
    assert "field 'expires': not a date: 'someday'" in line, line


def _in_terminal(args: list[str], answers: list[str], env: dict[str, str]) -> str:
    """Run `reverie ARGS` with a pseudo-terminal as stdin/stdout/stderr, answering each prompt in turn;
    what the terminal showed."""
    import os
    import pty
    import select
    import subprocess
    import sys
    import time

    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "tui_app.cli.main", *args], stdin=follower, stdout=follower,
                            stderr=follower, env=env, close_fds=True)
    os.close(follower)
    shown = b""
    pending = list(answers)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(leader, 4096)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
            if pending and shown.rstrip().endswith(b":"):
                time.sleep(0.3)  # click shows the prompt before getpass turns echo off
                os.write(leader, pending.pop(0).encode() + b"\n")
        elif proc.poll() is not None:
            break
    if proc.poll() is None:
        proc.kill()
    proc.wait(timeout=10)
    os.close(leader)
    return shown.decode(errors="replace")


def test_passphrase_change_says_which_passphrase_it_asks_for(initialised: HomePaths) -> None:
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("REVERIE_PASSPHRASE", "REVERIE_NEW_PASSPHRASE")}
    shown = _in_terminal(["passphrase", "change"], [PASSPHRASE, "a new one", "a new one"], env)
    assert "Current passphrase:" in shown and "New passphrase:" in shown, shown
    assert "Repeat the new passphrase:" in shown and "Passphrase changed" in shown, shown


def test_import_takes_the_passphrase_a_record_was_exported_with(initialised: HomePaths, tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    memory_id = _memory("The spare key is under the blue pot.")
    record = tmp_path / "key.dvmem"
    ok("export", "dvmem", "--memory", memory_id, "--out", str(record))
    other = HomePaths.at(tmp_path / "other")
    init_vault(other, "the other home's passphrase")
    env = {**os.environ, "REVERIE_HOME": str(other.root), "REVERIE_CACHE": str(tmp_path / "other-cache"),
           "REVERIE_PASSPHRASE": "the other home's passphrase"}

    def run(*args: str, extra: dict[str, str] | None = None) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "tui_app.cli.main", *args], capture_output=True, text=True,
                              env={**env, **(extra or {})}, timeout=60)

    refused = run("import", str(record))
    assert refused.returncode == 2 and "REVERIE_DVMEM_PASSPHRASE" in refused.stderr, refused.stderr
    assert "modified" not in refused.stderr
    wrong = run("import", str(record), extra={"REVERIE_DVMEM_PASSPHRASE": "not it"})
    assert wrong.returncode == 2 and "not the passphrase it was exported with" in wrong.stderr
    done = run("import", str(record), extra={"REVERIE_DVMEM_PASSPHRASE": PASSPHRASE})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"imported: {memory_id}" and "cli passphrase" not in done.stdout + done.stderr
    listed = json.loads(run("memory", "list", "--json").stdout)
    assert [(m["memory_id"], m["verified"]) for m in listed] == [(memory_id, True)]

    record.unlink()
    in_terminal = _in_terminal(["--home", str(other.root), "import", str(tmp_path / "again.dvmem")], [], env)
    assert "again.dvmem" in in_terminal  # a missing file is named, not asked about
    ok("export", "dvmem", "--memory", memory_id, "--out", str(record))
    second = HomePaths.at(tmp_path / "second")
    init_vault(second, "the other home's passphrase")
    shown = _in_terminal(["--home", str(second.root), "import", str(record)], [PASSPHRASE], env)
    assert "exported with" in shown and f"imported: {memory_id}" in shown, shown
    assert PASSPHRASE not in shown  # never echoed
