"""A day file Reverie did not write is never sealed silently.

An attacker with write access to the home plants a back-dated day in ``logs/`` (well-formed turn lines,
and, in the stronger attack, an unsigned record of days written that agrees with it). The next ordinary
ingest used to seal it as genuine, and ``verify`` vouched for it from then on. Now ``verify`` names it,
ingest and ``seal`` leave it unsealed, and ``reverie seal --adopt DAY`` seals it only after showing what
it holds and asking (or with ``--yes``), and only the bytes it showed. Controls: the days the person's
own ingests wrote are sealed as before, also after a crash cut an append short.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from core.conversation import ingest
from core.conversation.quarantine import Quarantine
from core.conversation.seals import seal_closed_days, sealed_days
from core.conversation.written import WRITTEN_NAME, begin_record, load_written
from core.paths import HomePaths
from core.vault.crypto import VaultKeys
from core.vault.ledger import Ledger
from tests.conftest import TEST_PASSPHRASE
from tests.helpers.cli import reverie

PLANTED = "2026-01-03"
PLANTED_FILE = f"logs/2026/01/{PLANTED}.jsonl"
OWN_DAY = "2026-01-05"


def stored_line(day: str, n: int, text: str, session: str = "s-planted") -> str:
    return json.dumps({"actor": "user", "id": f"p-{n}", "model": None, "role": "user", "session": session,
                       "source": "generic:/tmp/chat.jsonl", "text": text, "ts": f"{day}T09:0{n}:00.000000Z",
                       "type": "text"}, ensure_ascii=False, sort_keys=True)


def plant(paths: HomePaths, *, with_record: bool = False) -> bytes:
    data = "".join(stored_line(PLANTED, n, text) + "\n" for n, text in enumerate(
        ["Forged: the person confirmed the savings go to account 99.", "Forged: and told no one."])).encode()
    path = paths.root / PLANTED_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    if with_record:  # consistent with everything unsigned: an entry like a keyless ingest's
        record = paths.logs / WRITTEN_NAME
        entries = json.loads(record.read_text()) if record.exists() else {}
        entries[PLANTED] = {"before_size": 0, "before_sha256": hashlib.sha256(b"").hexdigest(), "size": len(data),
                            "sha256": hashlib.sha256(data).hexdigest()}
        record.write_text(json.dumps(entries))
    return data


def own_source(tmp_path: Path, name: str = "own.jsonl", n: int = 3) -> Path:
    source = tmp_path / name
    source.write_text("".join(json.dumps({"ts": f"{OWN_DAY}T10:0{i}:00Z", "role": "user", "text": f"mine {i}",
                                          "id": f"o-{name}-{i}"}) + "\n" for i in range(n)), encoding="utf-8")
    return source


def seals(paths: HomePaths, keys: VaultKeys) -> set[str]:
    return set(sealed_days(Ledger(paths, keys).read(full=False)))


@pytest.fixture
def home(paths: HomePaths, keys: VaultKeys, monkeypatch: pytest.MonkeyPatch) -> HomePaths:
    """A home as `reverie init` leaves it: a vault, and the record of days written begun (empty)."""
    monkeypatch.setenv("REVERIE_PASSPHRASE", TEST_PASSPHRASE)
    begin_record(paths)
    return paths


@pytest.mark.parametrize("with_record", [False, True], ids=["bare-file", "with-unsigned-record"])
def test_a_planted_day_is_named_and_never_sealed_by_ingest_or_seal(home: HomePaths, keys: VaultKeys,
                                                                   tmp_path: Path, with_record: bool) -> None:
    plant(home, with_record=with_record)
    report = ingest(home, [own_source(tmp_path)], keys=keys)
    assert report.sealed == [OWN_DAY]  # control: the person's own day
    assert PLANTED_FILE not in seals(home, keys)  # was sealed by this ordinary ingest
    assert any(PLANTED_FILE in line for line in report.not_sealed)

    result = reverie("verify", passphrase=TEST_PASSPHRASE)
    if with_record:
        assert f"incomplete: {PLANTED_FILE}: written by an ingest without the passphrase, 2 lines" in result.stdout
    else:
        assert result.returncode == 1, result.stdout
        assert f"inserted: {PLANTED_FILE}: not written by Reverie (2 lines)" in result.stdout
    assert seal_closed_days(home, keys).sealed == []
    assert PLANTED_FILE not in seals(home, keys)
    late = tmp_path / "late.jsonl"  # a real import adds turns to the planted day: it is still not vouched for
    late.write_text(json.dumps({"ts": f"{PLANTED}T20:00:00Z", "role": "user", "text": "a real late turn"}) + "\n")
    second = ingest(home, [late], keys=keys)
    assert second.added == 1 and second.sealed == [] and PLANTED_FILE not in seals(home, keys)
    assert reverie("verify", passphrase=TEST_PASSPHRASE).stdout.count(PLANTED_FILE) >= 1


def test_seal_adopt_shows_what_the_day_holds_then_seals_exactly_that(home: HomePaths, keys: VaultKeys) -> None:
    data = plant(home)
    refused = reverie("seal", "--adopt", PLANTED, passphrase=TEST_PASSPHRASE)  # not a terminal, no --yes
    assert refused.returncode == 2 and "add --yes to adopt it" in refused.stderr, refused.stderr
    assert f"{PLANTED_FILE}: 2 turns" in refused.stderr and "first  2026-01-03T09:00:00.000000Z" in refused.stderr
    assert "s-planted (2)" in refused.stderr
    assert PLANTED_FILE not in seals(home, keys)

    adopted = reverie("seal", "--adopt", PLANTED, "--yes", passphrase=TEST_PASSPHRASE)
    assert adopted.returncode == 0 and f"Sealed 1 day: {PLANTED}" in adopted.stdout, adopted.stdout + adopted.stderr
    entry = sealed_days(Ledger(home, keys).read(full=False))[PLANTED_FILE]
    assert entry.record_sha256 == hashlib.sha256(data).hexdigest()
    assert reverie("verify", passphrase=TEST_PASSPHRASE).returncode == 0


def test_adopting_seals_only_the_bytes_shown(home: HomePaths, keys: VaultKeys) -> None:
    shown = plant(home)
    (home.root / PLANTED_FILE).write_bytes(shown + (stored_line(PLANTED, 3, "slipped in after") + "\n").encode())
    report = seal_closed_days(home, keys, adopt={PLANTED: hashlib.sha256(shown).hexdigest()})
    assert report.sealed == [] and [p.kind for p in report.not_sealed] == ["inserted"]


@pytest.mark.parametrize(("args", "code", "words"), [
    (("--adopt", "2026-02-30", "--yes"), 2, "not a day"),
    (("--adopt", "2026-01-09", "--yes"), 3, "no day log"),
])
def test_adopt_bad_input(home: HomePaths, args: tuple[str, ...], code: int, words: str) -> None:
    result = reverie("seal", *args, passphrase=TEST_PASSPHRASE)
    assert result.returncode == code and words in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


def test_days_written_without_the_passphrase_wait_for_the_person(home: HomePaths, keys: VaultKeys,
                                                                 tmp_path: Path) -> None:
    report = ingest(home, [own_source(tmp_path)], keys=None)
    assert report.unsealed == [OWN_DAY]
    later = seal_closed_days(home, keys)
    assert later.sealed == [] and [p.kind for p in later.not_sealed] == ["incomplete"]
    assert "written by an ingest without the passphrase" in later.not_sealed[0].detail
    adopted = reverie("seal", "--adopt", OWN_DAY, "--yes", passphrase=TEST_PASSPHRASE)
    assert adopted.returncode == 0 and f"Sealed 1 day: {OWN_DAY}" in adopted.stdout


def test_own_days_are_sealed_after_a_crash_cut_an_append_short(home: HomePaths, keys: VaultKeys,
                                                               tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Control: an append cut short by a crash is cut back (quarantined) and the day is sealed as the
    person's own once the next ingest adds the turns again; a planted day beside it still is not."""
    import core.conversation.store as store_module

    class Crash(BaseException):
        pass

    real_write = os.write

    def half_write(fd: int, data: bytes) -> int:
        real_write(fd, bytes(data[: len(data) // 2]))
        raise Crash

    source = own_source(tmp_path, n=6)
    with monkeypatch.context() as patched, pytest.raises(Crash):
        patched.setattr(store_module.os, "write", half_write)
        ingest(home, [source], keys=keys)
    assert OWN_DAY in load_written(home)
    plant(home)
    report = ingest(home, [source], keys=keys)
    assert report.sealed == [OWN_DAY] and report.added == 6, report.to_dict()
    assert any("cut short" in line for line in report.repaired)
    assert Quarantine(home).root.is_dir()
    result = reverie("verify", passphrase=TEST_PASSPHRASE)
    problems = [line.strip() for line in result.stdout.splitlines()
                if line.strip().startswith(("inserted", "modified", "incomplete", "removed"))]
    assert problems == [f"inserted: {PLANTED_FILE}: not written by Reverie (2 lines); never sealed "
                        f"unless you adopt it: `reverie seal --adopt {PLANTED}` shows what it holds first"]


def test_init_begins_the_record_of_days_written(isolated_home: HomePaths) -> None:
    from core.workbench import Workbench

    Workbench(isolated_home).access.create_vault("a long enough passphrase")
    assert json.loads((isolated_home.logs / WRITTEN_NAME).read_text()) == {}


def test_a_home_from_an_earlier_version_is_named_not_called_damaged(paths: HomePaths, keys: VaultKeys,
                                                                      tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Upgrade: day files an earlier version wrote (no record of days written yet) are 'incomplete', not
    'inserted' (exit 0, not 1), never sealed without the person, and adopting them still works; once the
    record has begun, a day planted later is 'inserted' again."""
    monkeypatch.setenv("REVERIE_PASSPHRASE", TEST_PASSPHRASE)
    earlier = plant(paths)  # as an earlier version left it: a closed, unsealed day and no record
    result = reverie("verify", passphrase=TEST_PASSPHRASE)
    assert result.returncode == 0, result.stdout
    assert f"incomplete: {PLANTED_FILE}: 2 lines from before Reverie recorded the days it writes" in result.stdout
    report = ingest(paths, [own_source(tmp_path)], keys=keys)  # the first ingest of this version
    assert report.sealed == [OWN_DAY] and PLANTED_FILE not in seals(paths, keys)
    assert load_written(paths)[PLANTED].found  # taken in as found: unsigned, never vouched for
    grown = tmp_path / "grown.jsonl"  # an import that adds to a found day keeps it found (keys at hand)
    grown.write_text(json.dumps({"ts": f"{PLANTED}T11:00:00Z", "role": "user", "text": "added", "id": "g-1"}) + "\n")
    ingest(paths, [grown], keys=keys)
    assert load_written(paths)[PLANTED].found and PLANTED_FILE not in seals(paths, keys)
    checked = reverie("verify", passphrase=TEST_PASSPHRASE)
    assert checked.returncode == 0 and f"{PLANTED_FILE}: 3 lines from before Reverie recorded" in checked.stdout
    assert reverie("seal", passphrase=TEST_PASSPHRASE).returncode in (0, 1) and PLANTED_FILE not in seals(paths, keys)
    earlier = (paths.root / PLANTED_FILE).read_bytes()
    adopted = reverie("seal", "--adopt", PLANTED, "--yes", passphrase=TEST_PASSPHRASE)
    assert adopted.returncode == 0, adopted.stdout + adopted.stderr
    assert PLANTED_FILE in seals(paths, keys)
    assert hashlib.sha256((paths.root / PLANTED_FILE).read_bytes()).hexdigest() == hashlib.sha256(earlier).hexdigest()
    later = paths.root / "logs/2026/01/2026-01-02.jsonl"  # planted after the record began
    later.write_text(stored_line("2026-01-02", 1, "Forged later.") + "\n")
    after = reverie("verify", passphrase=TEST_PASSPHRASE)
    assert after.returncode == 1 and "inserted: logs/2026/01/2026-01-02.jsonl: not written by Reverie" in after.stdout
