"""The laptop's spool: private files, fsync'd checksummed records, a limit that refuses (never drops),
a damaged record named by file and record and never shipped, a torn last record cut off."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from core.remote.batch import Group, encode
from core.remote.ship import push
from core.remote.spool import Spool, SpoolFull
from tests.remote.helpers import counts, receiver_transport


def _batch(spool: Spool, n: int, text: str = "words") -> int:
    turns = [{"id": f"t{n}-{i}", "ts": f"2026-03-02T09:00:0{i}.000000Z", "actor": "user", "role": "user",
              "type": "text", "text": f"{text} {n} {i}", "model": None, "session": "s", "source": "claude-code:/x"}
             for i in range(3)]
    return spool.append(encode([Group(origin="/x.jsonl", turns=turns)]), turns=3, oldest=turns[0]["ts"])


def test_spool_folder_is_0700_and_its_files_0600(tmp_path: Path) -> None:
    spool = Spool(tmp_path / "spool", 1 << 20)
    _batch(spool, 1)
    spool.save_state(spool.state())
    assert stat.S_IMODE(spool.folder.stat().st_mode) == 0o700
    files = [path for path in spool.folder.iterdir() if path.is_file()]
    assert {p.name for p in files} >= {"seg-0000000001.rsp", "state.json"}
    for path in files:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


def test_records_read_back_in_order_with_their_counts(tmp_path: Path) -> None:
    spool = Spool(tmp_path / "spool", 1 << 20)
    assert [_batch(spool, n) for n in range(1, 4)] == [1, 2, 3]
    reading = spool.read()
    assert [r.batch for r in reading.records] == [1, 2, 3] and not reading.damaged
    assert all(r.turns == 3 and r.oldest == "2026-03-02T09:00:00.000000Z" for r in reading.records)


def test_a_full_spool_refuses_with_the_limit_named_and_keeps_what_it_holds(tmp_path: Path) -> None:
    spool = Spool(tmp_path / "spool", 4096)
    held = []
    with pytest.raises(SpoolFull) as refused:
        for n in range(1, 100):
            held.append(_batch(spool, n, "x" * 200))
    message = str(refused.value)
    assert "4,096 bytes" in message and "[remote] spool_max_bytes" in message and "\n" not in message
    size = spool.size()
    assert size <= 4096
    assert [r.batch for r in spool.read().records] == held  # nothing dropped, nothing half-written
    with pytest.raises(SpoolFull):
        _batch(spool, 1000, "x" * 200)
    assert spool.size() == size


def test_a_torn_last_record_is_not_damage_and_the_next_append_cuts_it(tmp_path: Path) -> None:
    spool = Spool(tmp_path / "spool", 1 << 20)
    _batch(spool, 1)
    segment = spool.segments()[0]
    whole = segment.read_bytes()
    with segment.open("ab") as out:  # a kill in the middle of an append
        out.write(b"R1 0000000002 500 " + b"a" * 64 + b" 3 - 2026-03-02T09:00:00.000000Z\n{\"form")
    reading = spool.read()
    assert [r.batch for r in reading.records] == [1] and not reading.damaged and reading.torn is not None
    assert _batch(spool, 2) == 2
    assert segment.read_bytes().startswith(whole)
    assert [r.batch for r in spool.read().records] == [1, 2] and spool.read().torn is None


def test_a_damaged_record_is_named_set_aside_and_never_shipped(tmp_path: Path) -> None:
    home = tmp_path / "home"
    spool = Spool(tmp_path / "laptop" / "spool", 1 << 20)
    for n in (1, 2, 3):
        _batch(spool, n)
    segment = spool.segments()[0]
    data = bytearray(segment.read_bytes())
    second = data.index(b"words 2 1")
    data[second:second + 5] = b"WORDS"  # the payload no longer matches its checksum
    segment.write_bytes(bytes(data))
    waiting = spool.waiting()
    assert [str(bad) for bad in waiting.damaged] == [f"{segment}: record 2: checksum mismatch; not shipped"]
    report = push(spool, receiver_transport(home), "home")
    assert report.damaged == [f"{segment}: record 2: checksum mismatch; not shipped"]
    stored = counts(home)
    assert set(stored) == {f"t{n}-{i}" for n in (1, 3) for i in range(3)} and set(stored.values()) == {1}
    copy = spool.damaged_folder / f"{segment.stem}-record2.bad"
    assert b"WORDS 2 1" in copy.read_bytes() and stat.S_IMODE(copy.stat().st_mode) == 0o600
    assert spool.segments() == [] and spool.waiting().damaged == []  # settled: shipped or set aside
