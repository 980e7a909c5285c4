"""What a new user trips on in the CLI: damaged memories listed, plain values, every pending
suggestion named, prompts that say which passphrase they want."""

from __future__ import annotations

import json

import pytest

from core.paths import HomePaths
from tests.helpers.cli import init_vault, ok, reverie


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
