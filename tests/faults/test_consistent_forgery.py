"""Forged-but-consistent attacks (issue 11): an attacker with write access to the data home (not the
passphrase) changes several files so that they agree with each other, then the person runs the real
CLI. Each test performs the attack on disk and asserts what the CLI does; each failed on the code
before the fix.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from core.paths import HomePaths
from tests.conftest import TEST_PASSPHRASE
from tui_app.cli.main import cli

PAST_DAY = "2025-02-03"
DAY_FILE = f"logs/2025/02/{PAST_DAY}.jsonl"


def run(*args: str, passphrase: bool = True) -> tuple[int, str, str]:
    env = {"REVERIE_PASSPHRASE": TEST_PASSPHRASE} if passphrase else {"REVERIE_PASSPHRASE": ""}
    result = CliRunner().invoke(cli, list(args), env=env)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def _turn(n: int, text: str) -> str:
    return json.dumps({"ts": f"{PAST_DAY}T10:0{n}:00Z", "role": "user", "text": text, "session": "s1",
                       "id": f"t-{n}"})


@pytest.fixture
def sealed_home(paths: HomePaths, tmp_path: Path) -> HomePaths:
    """``reverie init``, then one generic turn on a past day ingested (and so sealed) with the passphrase."""
    code, _, err = run("init")
    assert code == 0, err
    source = tmp_path / "one.jsonl"
    source.write_text(_turn(1, "We agreed to meet at the library on Friday.") + "\n", encoding="utf-8")
    code, out, err = run("ingest", str(source))
    assert code == 0, err + out
    code, out, _ = run("verify")
    assert code == 0 and "intact" in out.lower(), out
    return paths


# --- F1: a planted reseal intent -------------------------------------------------------------------------


def test_a_planted_reseal_intent_does_not_launder_forged_turns(sealed_home: HomePaths) -> None:
    day_file = sealed_home.root / DAY_FILE
    before = day_file.read_bytes()
    forged = _turn(2, "Forged: we agreed to transfer the savings to the new account.")
    day_file.write_bytes(before + forged.encode("utf-8") + b"\n")
    intent = {PAST_DAY: {"size": len(before), "sha256": hashlib.sha256(before).hexdigest()}}
    (sealed_home.logs / ".pending-reseal.json").write_text(json.dumps(intent), encoding="utf-8")

    code, out, _ = run("verify")
    assert code == 1, out  # was 0 ("incomplete")
    assert f"modified: {DAY_FILE}" in out and "not signed by this vault" in out

    code, out, _ = run("seal")
    assert code == 1 and "Not resealed" in out, out  # was 0, "Resealed 1 day that grew"
    code, out, _ = run("verify")
    assert code == 1 and f"modified: {DAY_FILE}" in out  # was "intact"


def test_a_planted_intent_with_a_made_up_mac_is_refused_too(sealed_home: HomePaths) -> None:
    day_file = sealed_home.root / DAY_FILE
    before = day_file.read_bytes()
    day_file.write_bytes(before + _turn(3, "Forged turn.").encode("utf-8") + b"\n")
    intent = {PAST_DAY: {"size": len(before), "sha256": hashlib.sha256(before).hexdigest(), "mac": "0" * 64}}
    (sealed_home.logs / ".pending-reseal.json").write_text(json.dumps(intent), encoding="utf-8")
    assert run("seal")[0] == 1
    assert run("verify")[0] == 1


def test_a_late_ingest_with_the_passphrase_still_reseals_and_one_without_waits_for_the_person(
        sealed_home: HomePaths, tmp_path: Path) -> None:
    late = tmp_path / "late.jsonl"
    late.write_text(_turn(4, "A late turn the person really had.") + "\n", encoding="utf-8")
    code, out, err = run("ingest", str(late))
    assert code == 0 and "resealed" in out.lower(), out + err
    assert run("verify")[0] == 0

    later = tmp_path / "later.jsonl"
    later.write_text(_turn(5, "Imported without the passphrase.") + "\n", encoding="utf-8")
    code, out, err = run("ingest", str(later), passphrase=False)
    assert code == 0, out + err
    code, out, _ = run("verify")
    assert code == 1 and "--accept-unsigned 2025-02-03" in out
    code, out, _ = run("seal", "--accept-unsigned", PAST_DAY)
    assert code == 0 and "Resealed 1 day" in out, out
    assert run("verify")[0] == 0
