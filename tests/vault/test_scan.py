"""Reading every record of a folder, in this process or in a pool of processes: the same objects, the
same errors, the same order, whichever way the work is split."""

from __future__ import annotations

import threading

import pytest

from core.paths import HomePaths
from core.vault import scan
from core.vault.scan import open_draft_file, open_memory_file, open_records, read_file, record_files, record_names
from tests.helpers.vault import SENTENCES, finalize_reviewed, make_vault


@pytest.fixture
def damaged_home(paths: HomePaths) -> tuple[HomePaths, str]:
    """Five finalized memories (and their drafts); one memory altered, one planted under another's name."""
    vault = make_vault(paths)
    memories = [finalize_reviewed(vault, f"{SENTENCES[i % 4]} ({i})") for i in range(5)]
    altered = vault.memory_path(memories[1].memory_id)
    data = bytearray(altered.read_bytes())
    data[data.index(b'"hmac": "') + 9] ^= 1  # one character of the signature
    altered.write_bytes(bytes(data))
    (paths.vault / "mem_planted.json").write_bytes(vault.memory_path(memories[2].memory_id).read_bytes())
    (paths.vault / ".hidden.json").write_bytes(b"{}")  # never a record
    return paths, altered.name


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_a_pool_gives_what_one_process_gives(damaged_home: tuple[HomePaths, str], method: str,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    home, _ = damaged_home
    vault = make_vault(home)
    if method == "spawn":  # another thread is running: the workers must not be forked
        monkeypatch.setattr(threading, "active_count", lambda: 2)
    for folder, prefix, opener in ((home.vault, "mem_", open_memory_file), (home.drafts, "", open_draft_file)):
        names = record_names(folder, prefix)
        assert all(not n.startswith(".") for n in names) and names == sorted(names)
        assert record_files(folder, prefix) == [folder / n for n in names]
        alone = open_records(folder, names, vault.keys, opener, workers=1)
        pooled = open_records(folder, names, vault.keys, opener, workers=2, chunk=2, min_parallel=0)
        assert [o.name for o in alone] == names
        assert pooled == alone


def test_problems_are_named_one_line_each(damaged_home: tuple[HomePaths, str]) -> None:
    home, altered = damaged_home
    vault = make_vault(home)
    names = record_names(home.vault, "mem_")
    opened = {o.name: o for o in open_records(home.vault, names, vault.keys, open_memory_file, workers=2, chunk=1,
                                              min_parallel=0)}
    errors = {name: o.error for name, o in opened.items() if o.error}
    assert set(errors) == {altered, "mem_planted.json"}
    assert "signature does not match" in errors[altered]
    assert "swapped" in errors["mem_planted.json"] and all("\n" not in e for e in errors.values())
    scanned = vault.scan_memories()
    assert {p.subject for p in scanned.problems} == {f"vault/{n}" for n in errors}
    assert {p.kind for p in scanned.problems} == {"modified", "swapped"}
    assert len(scanned.memories) == 4 and set(scanned.file_sha256) == {m.memory_id for m in scanned.memories}


def test_the_pool_is_used_only_when_a_core_is_idle(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scan, "usable_cores", lambda: 4)
    monkeypatch.setattr(scan.os, "getloadavg", lambda: (0.3, 0.0, 0.0))
    assert scan.default_workers() == 4
    monkeypatch.setattr(scan.os, "getloadavg", lambda: (3.8, 0.0, 0.0))
    assert scan.default_workers() == 1


def test_read_file_gives_the_whole_file(tmp_path) -> None:
    for size in (0, 1, 65_535, 65_536, 200_001):  # empty, one read, exactly one chunk, several chunks
        path = tmp_path / f"f{size}"
        data = bytes(i % 251 for i in range(size))
        path.write_bytes(data)
        assert read_file(str(path)) == data
    with pytest.raises(FileNotFoundError):
        read_file(str(tmp_path / "missing"))
