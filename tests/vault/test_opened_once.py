"""What unlocking reads (finishing interrupted work, the counts, the verification) decrypts each record
file once per open vault: a file whose bytes were opened before is not decrypted and checked again.
Whatever changed on disk since is opened and checked in full: a damaged or swapped record is still
reported, and the decrypted records go with the keys."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from core.paths import HomePaths
from core.vault import scan
from core.vault.store import MemoryStore
from core.workbench.verify import verify_home
from tests.helpers.vault import SENTENCES, finalize_reviewed, make_vault


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How many times each record file was decrypted and checked, by file name."""
    counted: Counter[str] = Counter()
    real_memory, real_draft = scan.open_memory, scan.open_draft

    def open_memory(data: bytes, keys: object, where: str, memory_id: str) -> object:
        counted[Path(where).name] += 1
        return real_memory(data, keys, where, memory_id)  # type: ignore[arg-type]

    def open_draft(data: bytes, keys: object, where: str, draft_id: str) -> object:
        counted[Path(where).name] += 1
        return real_draft(data, keys, where, draft_id)  # type: ignore[arg-type]

    monkeypatch.setattr(scan, "open_memory", open_memory)
    monkeypatch.setattr(scan, "open_draft", open_draft)
    return counted


def unlock_reads(vault: MemoryStore, paths: HomePaths) -> tuple[object, ...]:
    """What the app reads after the keys, in its order: interrupted work, the counts, the verification."""
    vault.complete_interrupted()
    drafts = vault.list_drafts()
    memories = vault.list_memories()
    report = verify_home(paths, vault.keys, incremental=True, vault=vault)
    return drafts, memories, report


def test_unlocking_decrypts_each_record_once(paths: HomePaths, opened: Counter[str]) -> None:
    vault = make_vault(paths)
    for i in range(3):
        finalize_reviewed(vault, f"{SENTENCES[i % 4]} ({i})")
    vault = MemoryStore.open(paths, vault.keys)  # as the app opens it after the keys
    opened.clear()
    drafts, memories, report = unlock_reads(vault, paths)
    files = {p.name for p in paths.vault.glob("mem_*.json")} | {p.name for p in paths.drafts.glob("*.json")}
    assert len(files) == 6 and set(opened) == files
    assert set(opened.values()) == {1}  # each once, though three readers read every record
    assert report.ok and report.counts["memories"] == 3  # type: ignore[attr-defined]
    fresh = MemoryStore.open(paths, vault.keys)  # the same answers as a vault that opens everything anew
    assert (fresh.list_drafts(), fresh.list_memories()) == (drafts, memories)
    assert verify_home(paths, vault.keys).counts == report.counts  # type: ignore[attr-defined]


def test_a_record_changed_after_it_was_read_is_checked_again_and_reported(paths: HomePaths,
                                                                          opened: Counter[str]) -> None:
    vault = make_vault(paths)
    memories = [finalize_reviewed(vault, f"{SENTENCES[i % 4]} ({i})") for i in range(3)]
    vault = MemoryStore.open(paths, vault.keys)
    unlock_reads(vault, paths)
    altered = vault.memory_path(memories[1].memory_id)
    original = altered.read_bytes()
    data = bytearray(original)
    data[data.index(b'"hmac": "') + 9] ^= 1  # one character of the signature
    altered.write_bytes(bytes(data))
    planted = paths.vault / "mem_planted.json"
    planted.write_bytes(vault.memory_path(memories[2].memory_id).read_bytes())  # another record's bytes
    opened.clear()
    report = verify_home(paths, vault.keys, incremental=True, vault=vault)
    problems = {(p.kind, p.subject) for p in report.problems}  # type: ignore[attr-defined]
    assert ("modified", f"vault/{altered.name}") in problems
    assert ("swapped", "vault/mem_planted.json") in problems
    assert set(opened) == {altered.name, planted.name}  # only what changed was opened again
    assert len(vault.list_memories()) == 2
    altered.write_bytes(original)
    planted.unlink()
    assert verify_home(paths, vault.keys, incremental=True, vault=vault).ok  # type: ignore[attr-defined]
    assert len(vault.list_memories()) == 3


def test_the_decrypted_records_go_with_the_keys(paths: HomePaths) -> None:
    vault = make_vault(paths)
    finalize_reviewed(vault, SENTENCES[0])
    vault.list_memories()
    assert any(vault.known.values())
    vault.forget_keys()
    assert vault.known == {}
