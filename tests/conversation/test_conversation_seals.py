"""Day seals: closed days sealed in the ledger, legitimate growth resealed, any other change reported."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from core.conversation import day_closed, ingest, seal_closed_days, verify_day_seals
from core.conversation import pipeline as ingest_module
from core.conversation.seals import check_day_seals, load_pending
from core.paths import HomePaths
from core.vault.crypto import VaultKeys
from core.vault.ledger import Ledger

DAY = "2026-01-02"
RECORD = "logs/2026/01/2026-01-02.jsonl"
LATER = datetime(2026, 1, 10, tzinfo=UTC)


def turns_file(path: Path, ids: range, day: str = DAY) -> Path:
    with path.open("w") as out:
        for n in ids:
            out.write(json.dumps({"ts": f"{day}T10:00:{n % 60:02d}Z", "role": "user", "text": f"t{n}", "id": f"t{n}"}))
            out.write("\n")
    return path


def day_file(paths: HomePaths) -> Path:
    return paths.root / RECORD


def entries(paths: HomePaths, keys: VaultKeys) -> list:
    return [e for e in Ledger(paths, keys).read().entries if e.record_id.startswith("logs/")]


def problems(paths: HomePaths, keys: VaultKeys) -> list[tuple[str, str]]:
    return [(p.kind, p.subject) for p in verify_day_seals(paths, Ledger(paths, keys).read(), keys)]


def test_a_day_closes_after_its_end_plus_grace() -> None:
    assert not day_closed(DAY, datetime(2026, 1, 3, 0, 30, tzinfo=UTC))
    assert day_closed(DAY, datetime(2026, 1, 3, 1, 0, tzinfo=UTC))


def test_ingest_with_keys_seals_closed_days_only(paths: HomePaths, keys: VaultKeys, tmp_path: Path) -> None:
    source = turns_file(tmp_path / "a.jsonl", range(3))
    report = ingest(paths, [source], keys=keys, now=datetime(2026, 1, 3, 0, 30, tzinfo=UTC))
    assert report.sealed == [] and entries(paths, keys) == []
    report = ingest(paths, [source], keys=keys, now=datetime(2026, 1, 3, 2, 0, tzinfo=UTC))
    assert report.sealed == [DAY]
    (entry,) = entries(paths, keys)
    data = day_file(paths).read_bytes()
    assert (entry.kind, entry.record_id) == ("seal_day", RECORD)
    assert entry.record_sha256 == hashlib.sha256(data).hexdigest()
    assert entry.data == {"size": len(data), "turns": 3}
    assert problems(paths, keys) == []
    assert ingest(paths, [source], keys=keys, now=LATER).sealed == []  # sealed once


def test_ingest_without_keys_says_closed_days_wait(paths: HomePaths, tmp_path: Path) -> None:
    report = ingest(paths, [turns_file(tmp_path / "a.jsonl", range(2))], now=LATER, unsealed_reason="no passphrase")
    assert (report.unsealed, report.unsealed_reason, report.sealed) == ([DAY], "no passphrase", [])


def test_a_changed_or_removed_sealed_day_is_reported(paths: HomePaths, keys: VaultKeys, tmp_path: Path) -> None:
    ingest(paths, [turns_file(tmp_path / "a.jsonl", range(3))], keys=keys, now=LATER)
    original = day_file(paths).read_bytes()
    day_file(paths).write_bytes(original.replace(b'"t1"', b'"T1"'))
    assert problems(paths, keys) == [("modified", RECORD)]
    day_file(paths).write_bytes(original + b'{"forged": true}\n')
    assert problems(paths, keys) == [("modified", RECORD)]
    day_file(paths).unlink()
    assert problems(paths, keys) == [("removed", RECORD)]


def test_ingest_adding_to_a_sealed_day_reseals_it(paths: HomePaths, keys: VaultKeys, tmp_path: Path) -> None:
    ingest(paths, [turns_file(tmp_path / "a.jsonl", range(3))], keys=keys, now=LATER)
    sealed_sha = hashlib.sha256(day_file(paths).read_bytes()).hexdigest()
    report = ingest(paths, [turns_file(tmp_path / "b.jsonl", range(3, 5))], keys=keys, now=LATER)
    assert (report.added, report.resealed, report.sealed) == (2, [DAY], [])
    _seal, reseal = entries(paths, keys)
    assert reseal.kind == "reseal_day" and reseal.record_id == RECORD
    assert reseal.data == {"previous_sha256": sealed_sha, "added": 2, "size": day_file(paths).stat().st_size}
    assert reseal.record_sha256 == hashlib.sha256(day_file(paths).read_bytes()).hexdigest()
    assert problems(paths, keys) == [] and load_pending(paths) == {}


def test_growth_without_keys_is_unsigned_until_the_person_accepts_it(
        paths: HomePaths, keys: VaultKeys, tmp_path: Path) -> None:
    """An ingest without the passphrase cannot sign its reseal intent, and an unsigned intent is what an
    attacker could plant (issue 11, F1): the day is "modified" until the person accepts it by name."""
    ingest(paths, [turns_file(tmp_path / "a.jsonl", range(3))], keys=keys, now=LATER)
    ingest(paths, [turns_file(tmp_path / "b.jsonl", range(3, 4))], now=LATER)
    ingest(paths, [turns_file(tmp_path / "c.jsonl", range(4, 6))], now=LATER)
    assert problems(paths, keys) == [("modified", RECORD)]
    report = seal_closed_days(paths, keys, now=LATER)
    assert (report.sealed, report.resealed, [p.kind for p in report.refused]) == ([], [], ["modified"])
    assert "--accept-unsigned 2026-01-02" in report.refused[0].detail
    report = seal_closed_days(paths, keys, now=LATER, accept_unsigned={DAY})
    assert (report.sealed, report.resealed, report.refused) == ([], [DAY], [])
    assert entries(paths, keys)[-1].data["added"] == 3
    assert problems(paths, keys) == []


class Crash(BaseException):
    pass


def test_a_crash_between_append_and_reseal_is_resealed_next_time(
    paths: HomePaths, keys: VaultKeys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ingest(paths, [turns_file(tmp_path / "a.jsonl", range(3))], keys=keys, now=LATER)

    def crash(*args: object, **kwargs: object) -> None:
        raise Crash

    monkeypatch.setattr(ingest_module, "seal_closed_days_locked", crash)
    source = turns_file(tmp_path / "b.jsonl", range(3, 5))
    with pytest.raises(Crash):
        ingest(paths, [source], keys=keys, now=LATER)
    monkeypatch.undo()
    assert problems(paths, keys) == [("incomplete", RECORD)]
    report = ingest(paths, [source], keys=keys, now=LATER)  # adds nothing, but finishes the job
    assert (report.added, report.resealed) == (0, [DAY])
    assert problems(paths, keys) == []


def test_growth_not_made_by_an_ingest_is_not_resealed(paths: HomePaths, keys: VaultKeys, tmp_path: Path) -> None:
    ingest(paths, [turns_file(tmp_path / "a.jsonl", range(3))], keys=keys, now=LATER)
    line = json.dumps({"id": "x", "ts": f"{DAY}T11:00:00.000000Z", "actor": "user", "role": "user",
                       "type": "text", "text": "slipped in", "model": None, "session": "s", "source": "?"})
    with day_file(paths).open("a") as out:
        out.write(line + "\n")
    report = seal_closed_days(paths, keys, now=LATER)
    assert report.resealed == [] and report.refused == []  # sealing does not reread sealed days; verify does
    assert problems(paths, keys) == [("modified", RECORD)]
    ingest_report = ingest(paths, [turns_file(tmp_path / "b.jsonl", range(3, 4))], keys=keys, now=LATER)
    assert ingest_report.resealed == [] and len(ingest_report.seal_problems) == 1
    assert problems(paths, keys) == [("modified", RECORD)]


def test_an_ingest_cannot_launder_an_earlier_edit(paths: HomePaths, keys: VaultKeys, tmp_path: Path) -> None:
    ingest(paths, [turns_file(tmp_path / "a.jsonl", range(3))], keys=keys, now=LATER)
    day_file(paths).write_bytes(day_file(paths).read_bytes().replace(b'"t1"', b'"T1"'))
    report = ingest(paths, [turns_file(tmp_path / "b.jsonl", range(3, 4))], keys=keys, now=LATER)
    assert report.resealed == [] and report.seal_problems
    assert problems(paths, keys) == [("modified", RECORD)]


def test_a_crash_fragment_on_a_sealed_day_is_cut_and_the_seal_holds(
    paths: HomePaths, keys: VaultKeys, tmp_path: Path
) -> None:
    ingest(paths, [turns_file(tmp_path / "a.jsonl", range(3))], keys=keys, now=LATER)
    with day_file(paths).open("ab") as out:
        out.write(b'{"id": "t9", "ts": "2026-01-0')
    report = ingest(paths, [], keys=keys, now=LATER)
    assert len(report.repaired) == 1
    assert problems(paths, keys) == []


def test_the_check_fits_verify_home(paths: HomePaths, keys: VaultKeys, tmp_path: Path) -> None:
    from core.workbench.verify import verify_home

    ingest(paths, [turns_file(tmp_path / "a.jsonl", range(3))], keys=keys, now=LATER)
    day_file(paths).write_bytes(b"")
    report = verify_home(paths, keys, extra_checks=[check_day_seals])
    assert ("modified", RECORD) in [(p.kind, p.subject) for p in report.problems]
