"""A reseal intent left by a killed ingest binds the bytes that ingest appended, nothing else.

The kill is real: ``reverie ingest`` of a late turn for a sealed day runs in a child process that sends
itself SIGKILL right after the day file's append is durable (``tests.faults.crashchild``, the fsync of
the day file), so ``logs/.pending-reseal.json`` survives and the day is not resealed. Then:

- an attacker with write access to the home replaces what was appended (or adds to it): ``verify``
  reports the day ``modified`` and ``seal`` refuses it (the intent used to explain any whole turns
  after the sealed prefix, so ``seal`` resealed the forgery and ``verify`` then said intact);
- honestly, the next ``seal`` or ingest reseals it, also after two killed ingests in a row.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.conversation import ingest
from core.conversation.seals import load_pending
from core.paths import HomePaths
from core.vault.crypto import KdfParams, create_header
from tests.faults.crashes import ROOT, run_child, trial_paths
from tests.faults.homebuild import PASSPHRASE

PAST_DAY = "2025-02-03"
DAY_FILE = f"logs/2025/02/{PAST_DAY}.jsonl"


def _turn(n: int, text: str) -> str:
    return json.dumps({"ts": f"{PAST_DAY}T10:{n:02d}:00Z", "role": "user", "text": text, "session": "s1",
                       "id": f"t-{n}"})


def stored_like(line: bytes, text: str) -> bytes:
    """A day-file line as the log writes it, copied from ``line`` with another id and ``text``."""
    turn = json.loads(line)
    return (json.dumps({**turn, "id": "t-forged", "text": text}, ensure_ascii=False, sort_keys=True) + "\n").encode()


def reverie(base: Path, *args: str) -> tuple[int, str]:
    paths = trial_paths(base)
    env = {**os.environ, "REVERIE_PASSPHRASE": PASSPHRASE, "REVERIE_CACHE": str(base / "cacheroot"),
           "PYTHONPATH": str(ROOT)}
    env.pop("REVERIE_HOME", None)
    done = subprocess.run([sys.executable, "-m", "tui_app.cli.main", "--home", str(paths.root), *args],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    return done.returncode, done.stdout + done.stderr


@pytest.fixture
def sealed(tmp_path: Path) -> tuple[Path, HomePaths]:
    """A home whose past day holds one turn, ingested with the passphrase and so sealed."""
    base = tmp_path / "trial"
    paths = trial_paths(base).ensure()
    keys = create_header(paths.vault_header, PASSPHRASE, KdfParams.for_tests())
    source = tmp_path / "one.jsonl"
    source.write_text(_turn(1, "We agreed to meet at the library on Friday.") + "\n", encoding="utf-8")
    report = ingest(paths, [source], keys=keys)
    assert report.sealed == [PAST_DAY]
    return base, paths


def killed_late_ingest(base: Path, tmp_path: Path, n: int, text: str) -> None:
    """``reverie ingest`` of one late turn, killed once the day file's append is durable."""
    late = tmp_path / f"late-{n}.jsonl"
    late.write_text(_turn(n, text) + "\n", encoding="utf-8")
    run = run_child("ingest", base, {"sources": [str(late)], "after_fsync_of": f"{PAST_DAY}.jsonl"})
    assert run.killed, run.stderr
    assert not run.done("ingest")


def test_a_killed_late_ingest_leaves_a_signed_intent_and_verify_calls_it_incomplete(sealed, tmp_path: Path) -> None:
    base, paths = sealed
    killed_late_ingest(base, tmp_path, 2, "A late turn the person really had.")
    assert PAST_DAY in load_pending(paths)
    code, out = reverie(base, "verify")
    assert code == 0 and f"incomplete: {DAY_FILE}" in out, out


@pytest.mark.parametrize("forge", ["replace-longer", "add", "same-length"])
def test_forged_appends_after_a_killed_ingest_are_modified_and_never_resealed(sealed, tmp_path: Path,
                                                                               forge: str) -> None:
    base, paths = sealed
    day_file = paths.root / DAY_FILE
    sealed_size = day_file.stat().st_size
    killed_late_ingest(base, tmp_path, 2, "A late turn the person really had.")
    data = day_file.read_bytes()
    honest = data[sealed_size:]
    forged_line = stored_like(honest, "Forged: we agreed to wire all the savings to the new account, today.")
    if forge == "replace-longer":
        assert len(forged_line) > len(honest)
        day_file.write_bytes(data[:sealed_size] + forged_line)
    elif forge == "add":
        day_file.write_bytes(data + forged_line)
    else:
        day_file.write_bytes(data[:sealed_size] + honest.replace(b"really had", b"really hid"))

    code, out = reverie(base, "verify")
    assert code == 1 and f"modified: {DAY_FILE}" in out and "not the ones the ingest announced" in out, out
    code, out = reverie(base, "seal")
    assert code == 1 and "Not resealed" in out, out  # was 0: "Resealed 1 day that grew"
    code, out = reverie(base, "verify")
    assert code == 1 and f"modified: {DAY_FILE}" in out, out  # was "intact"
    # an ordinary ingest afterwards does not launder it either
    code, out = reverie(base, "ingest", str(tmp_path / "late-2.jsonl"))
    assert "Not resealed" in out, out
    assert reverie(base, "verify")[0] == 1


def test_a_shorter_forgery_is_taken_for_a_cut_short_append_and_moved_out_never_sealed(sealed, tmp_path: Path) -> None:
    """Fewer bytes than announced look like an append a crash cut short: verify says so (a crash or an
    edit), and the next seal moves them to the quarantine instead of sealing them."""
    base, paths = sealed
    day_file = paths.root / DAY_FILE
    sealed_bytes = day_file.read_bytes()
    killed_late_ingest(base, tmp_path, 2, "A late turn the person really had, a long one.")
    forged_line = stored_like(day_file.read_bytes()[len(sealed_bytes):], "Forged: wire it.")
    assert len(forged_line) < len(day_file.read_bytes()) - len(sealed_bytes)
    day_file.write_bytes(sealed_bytes + forged_line)
    code, out = reverie(base, "verify")
    assert f"incomplete: {DAY_FILE}: fewer bytes after the seal than the last ingest announced" in out, out
    code, out = reverie(base, "seal")
    assert code == 0 and "Resealed" not in out, out
    assert day_file.read_bytes() == sealed_bytes  # the forgery left the log for the quarantine
    assert any("Forged: wire it." in p.read_text() for p in paths.quarantine.glob("*.jsonl"))
    assert reverie(base, "verify")[0] == 0


def test_the_honest_intent_completes_after_two_kills_in_a_row(sealed, tmp_path: Path) -> None:
    base, paths = sealed
    killed_late_ingest(base, tmp_path, 2, "A late turn the person really had.")
    killed_late_ingest(base, tmp_path, 3, "And a second late turn, also killed before its reseal.")
    code, out = reverie(base, "verify")
    assert f"incomplete: {DAY_FILE}" in out, out
    code, out = reverie(base, "seal")
    assert code == 0 and "Resealed 1 day" in out, out
    code, out = reverie(base, "verify")
    assert code == 0 and "intact" in out.lower(), out
    texts = [json.loads(line)["text"] for line in (paths.root / DAY_FILE).read_text().splitlines()]
    assert texts == ["We agreed to meet at the library on Friday.", "A late turn the person really had.",
                     "And a second late turn, also killed before its reseal."]
    assert not (paths.logs / ".pending-reseal.json").exists()


def test_the_next_ingest_of_the_same_file_completes_the_reseal(sealed, tmp_path: Path) -> None:
    base, _ = sealed
    killed_late_ingest(base, tmp_path, 2, "A late turn the person really had.")
    code, out = reverie(base, "ingest", str(tmp_path / "late-2.jsonl"))
    assert code == 0 and "Resealed 1 day" in out, out
    code, out = reverie(base, "verify")
    assert code == 0 and "intact" in out.lower(), out
