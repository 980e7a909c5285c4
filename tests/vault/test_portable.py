"""Portable .dvmem records: export one memory, import it into another vault after verification."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from core.errors import NotFound, RecordError
from core.paths import HomePaths
from core.vault import portable
from core.vault.crypto import MAX_KDF_ITERATIONS, MAX_KDF_LANES, MAX_KDF_MEMORY_KIB, KdfParams
from core.vault.portable import MAX_DVMEM_BYTES, export_dvmem, import_dvmem, read_dvmem_file
from core.vault.store import MemoryStore
from core.workbench.verify import verify_home
from tests.helpers.vault import PASSPHRASE, populated


@pytest.fixture
def other_vault(tmp_path: Path) -> MemoryStore:
    return MemoryStore.create(HomePaths(tmp_path / "elsewhere", tmp_path / "c2"), "the other vault's passphrase",
                              KdfParams.for_tests())


def test_export_then_import_elsewhere(paths: HomePaths, other_vault: MemoryStore) -> None:
    vault, memories = populated(paths)
    data = export_dvmem(vault, memories[0].memory_id, PASSPHRASE)
    assert memories[0].content.encode() not in data
    imported, added = import_dvmem(other_vault, data, PASSPHRASE, "m.dvmem")
    assert added and imported == memories[0]
    assert imported.reviewed and imported.metadata.location == "Seoul Forest"
    assert verify_home(other_vault.paths, other_vault.keys).ok
    assert other_vault.ledger.read().entries[-1].kind == "import"
    again, added_again = import_dvmem(other_vault, data, PASSPHRASE, "m.dvmem")
    assert not added_again and again == imported
    assert len(other_vault.ledger.read().entries) == 1


def test_wrong_passphrase_or_tampering_is_refused_before_anything_is_written(
    paths: HomePaths, other_vault: MemoryStore
) -> None:
    vault, memories = populated(paths)
    data = export_dvmem(vault, memories[0].memory_id, PASSPHRASE)
    with pytest.raises(RecordError, match="does not verify"):
        import_dvmem(other_vault, data, "wrong", "m.dvmem")
    document = json.loads(data)
    document["record"]["record_version"] = 2
    with pytest.raises(RecordError, match="does not verify"):
        import_dvmem(other_vault, json.dumps(document).encode(), PASSPHRASE, "m.dvmem")
    with pytest.raises(RecordError, match=r"not a \.dvmem"):
        import_dvmem(other_vault, b"{}", PASSPHRASE, "m.dvmem")
    with pytest.raises(RecordError, match=r"not a \.dvmem"):
        import_dvmem(other_vault, b"\xff\xfe", PASSPHRASE, "m.dvmem")
    assert other_vault.list_memories() == [] and not other_vault.ledger.read().entries


def test_review_provenance_that_breaks_invariants_is_refused(paths: HomePaths, other_vault: MemoryStore) -> None:
    from core.vault.crypto import b64d, derive_keys
    from core.vault.sealed import seal, unseal

    vault, memories = populated(paths)
    document = json.loads(export_dvmem(vault, memories[0].memory_id, PASSPHRASE))
    kdf = document["kdf"]
    keys = derive_keys(PASSPHRASE, b64d(kdf["salt"], "salt"),
                       KdfParams(kdf["iterations"], kdf["lanes"], kdf["memory_cost_kib"]))
    envelope = unseal(json.dumps(document["record"]).encode(), "reverie.dvmem.memory", keys, "x")
    payload = envelope.payload
    payload["metadata"]["custom"]["review"]["decisions"].append(payload["metadata"]["custom"]["review"]["decisions"][0])
    document["record"] = json.loads(seal("reverie.dvmem.memory", envelope.record_id, 1, payload, keys))
    with pytest.raises(RecordError, match="review provenance"):
        import_dvmem(other_vault, json.dumps(document).encode(), PASSPHRASE, "m.dvmem")


def _one_line(error: BaseException, *names: str) -> str:
    text = str(error)
    assert text and "\n" not in text, text
    assert all(name in text for name in names), (text, names)
    return text


@pytest.mark.parametrize("costs", [{"iterations": MAX_KDF_ITERATIONS + 1}, {"lanes": MAX_KDF_LANES + 1},
                                   {"memory_cost_kib": MAX_KDF_MEMORY_KIB + 1}, {"iterations": 0},
                                   {"iterations": 64, "lanes": 64, "memory_cost_kib": 4 * 1024 * 1024}])
def test_kdf_costs_over_the_vault_header_bounds_are_refused_before_any_work(
    paths: HomePaths, other_vault: MemoryStore, monkeypatch: pytest.MonkeyPatch, costs: dict[str, int]
) -> None:
    vault, memories = populated(paths)
    document = json.loads(export_dvmem(vault, memories[0].memory_id, PASSPHRASE))
    document["kdf"].update(costs)
    derived: list[KdfParams] = []
    monkeypatch.setattr(portable, "derive_keys", lambda passphrase, salt, params: derived.append(params))
    with pytest.raises(RecordError) as caught:
        import_dvmem(other_vault, json.dumps(document).encode(), PASSPHRASE, "costly.dvmem")
    assert "out of range" in _one_line(caught.value, "costly.dvmem", f"iterations 1..{MAX_KDF_ITERATIONS}")
    assert derived == [] and other_vault.list_memories() == []


@pytest.mark.parametrize(("salt", "why"), [("AAAA", "kdf.salt is 3 bytes"), ("not base64", "kdf.salt"),
                                           (None, "kdf.salt missing")])
def test_a_bad_salt_is_a_one_line_error(paths: HomePaths, other_vault: MemoryStore, salt: str | None,
                                        why: str) -> None:
    vault, memories = populated(paths)
    document = json.loads(export_dvmem(vault, memories[0].memory_id, PASSPHRASE))
    if salt is None:
        del document["kdf"]["salt"]
    else:
        document["kdf"]["salt"] = salt
    with pytest.raises(RecordError) as caught:
        import_dvmem(other_vault, json.dumps(document).encode(), PASSPHRASE, "salty.dvmem")
    _one_line(caught.value, "salty.dvmem", why)


def test_an_oversized_dvmem_is_refused_before_it_is_read_whole(tmp_path: Path) -> None:
    sparse = tmp_path / "huge.dvmem"
    with sparse.open("wb") as handle:
        handle.truncate(MAX_DVMEM_BYTES + 1)
    with pytest.raises(RecordError) as caught:
        read_dvmem_file(sparse)
    _one_line(caught.value, str(sparse), f"{MAX_DVMEM_BYTES + 1:,} bytes", f"{MAX_DVMEM_BYTES:,}-byte limit")
    exact = tmp_path / "exact.dvmem"
    exact.write_bytes(b" " * MAX_DVMEM_BYTES)
    assert len(read_dvmem_file(exact)) == MAX_DVMEM_BYTES  # the limit itself is read; the verification refuses it
    with pytest.raises(NotFound, match="cannot be read"):
        read_dvmem_file(tmp_path / "absent.dvmem")


def test_a_large_memory_fits_the_limit_with_room_and_export_never_writes_one_over_it(
    paths: HomePaths, other_vault: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    vault, _ = populated(paths)
    memory = vault.add_memory("\U0001f600 a long letter. " * 50_000, ["long"])  # 1.1 MB of UTF-8
    data = export_dvmem(vault, memory.memory_id, PASSPHRASE)
    assert len(data) < MAX_DVMEM_BYTES / 2
    assert import_dvmem(other_vault, data, PASSPHRASE, "long.dvmem") == (memory, True)
    monkeypatch.setattr(portable, "MAX_DVMEM_BYTES", len(data) - 1)
    with pytest.raises(RecordError) as caught:
        export_dvmem(vault, memory.memory_id, PASSPHRASE)
    _one_line(caught.value, memory.memory_id, f"{len(data) - 1:,}-byte limit")
    with pytest.raises(RecordError) as caught:
        import_dvmem(other_vault, data, PASSPHRASE, "long.dvmem")
    _one_line(caught.value, "long.dvmem", f"{len(data) - 1:,}-byte limit")


@pytest.mark.parametrize("entry", ["a string", {"hash": "\ud800"}, {"hash": float("nan")}, [1, 2], {"hash": "AB"}])
def test_an_unsigned_verification_block_cannot_put_junk_in_the_ledger(
    paths: HomePaths, other_vault: MemoryStore, entry: object
) -> None:
    vault, memories = populated(paths)
    document = json.loads(export_dvmem(vault, memories[0].memory_id, PASSPHRASE))
    document["verification"]["ledger_entry"] = entry
    _, added = import_dvmem(other_vault, json.dumps(document).encode(), PASSPHRASE, "m.dvmem")
    assert added and verify_home(other_vault.paths, other_vault.keys).ok
    assert other_vault.ledger.read().entries[-1].data["source_ledger_hash"] is None


@pytest.mark.parametrize("kind", ["fifo", "socket", "device"])
def test_only_a_regular_file_is_read_and_a_fifo_never_hangs(tmp_path: Path, kind: str) -> None:
    import socket

    if kind == "fifo":
        path = tmp_path / "waiting.dvmem"
        os.mkfifo(path)  # no writer: a blocking open would wait forever
    elif kind == "socket":
        path = tmp_path / "s.dvmem"
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(path))
    else:
        path = Path("/dev/zero")  # endless, whatever its name
    outcome: list[BaseException] = []

    def read() -> None:
        try:
            read_dvmem_file(path)
        except BaseException as exc:  # handed to the test thread
            outcome.append(exc)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout=10)
    assert not reader.is_alive(), "read_dvmem_file hung"
    assert outcome and isinstance(outcome[0], (RecordError, NotFound)), outcome
    if kind != "socket":  # a socket cannot even be opened: "cannot be read"
        _one_line(outcome[0], str(path), "not a regular file")


def _crafted(vault: MemoryStore, memory_id: str) -> bytes:
    """A .dvmem sealed with the right passphrase whose memory is given ``memory_id``."""
    from core.vault.crypto import derive_keys
    from core.vault.sealed import seal, unseal

    memory = vault.list_memories()[0]
    document = json.loads(export_dvmem(vault, memory.memory_id, PASSPHRASE))
    kdf = document["kdf"]
    keys = derive_keys(PASSPHRASE, portable.b64d(kdf["salt"], "salt"),
                       KdfParams(kdf["iterations"], kdf["lanes"], kdf["memory_cost_kib"]))
    envelope = unseal(json.dumps(document["record"]).encode(), portable.DVMEM_RECORD, keys, "x")
    payload = {**envelope.payload, "memory_id": memory_id}
    document["record"] = json.loads(seal(portable.DVMEM_RECORD, memory_id, 1, payload, keys))
    return json.dumps(document).encode()


@pytest.mark.parametrize("memory_id", ["mem_", "mem_..", "mem_../../x", "mem_a/b", "mem_a\\b", "mem_a\nb",
                                       "mem_\x1b[31m", "mem_" + "a" * 300, "mem_a\x00b", "mem_.hidden", "x_abc"])
def test_a_crafted_memory_id_is_refused_before_anything_is_written(paths: HomePaths, other_vault: MemoryStore,
                                                                   memory_id: str) -> None:
    vault, _ = populated(paths)
    data = _crafted(vault, memory_id)
    before = sorted(p.name for p in other_vault.paths.root.rglob("*"))
    with pytest.raises(RecordError) as caught:
        import_dvmem(other_vault, data, PASSPHRASE, "crafted.dvmem")
    _one_line(caught.value, "crafted.dvmem", "is not a memory id")
    assert "\x1b" not in str(caught.value) and "\x00" not in str(caught.value) and len(str(caught.value)) < 300
    assert sorted(p.name for p in other_vault.paths.root.rglob("*")) == before
    assert verify_home(other_vault.paths, other_vault.keys).ok
    good = _crafted(vault, "mem_0123456789abcdef")  # the control: a well-formed id from the same craft
    assert import_dvmem(other_vault, good, PASSPHRASE, "crafted.dvmem")[1]
    assert verify_home(other_vault.paths, other_vault.keys).ok


@pytest.mark.parametrize("bad", ["mem_a\x00b", "mem_" + "a" * 300, "../vault.json", "mem_a/../../x", "mem_\n"])
def test_an_id_from_outside_is_not_found_never_a_traceback(paths: HomePaths, bad: str) -> None:
    vault, _ = populated(paths)
    with pytest.raises(NotFound):
        vault.get_memory(bad)
    with pytest.raises(NotFound):
        vault.get_draft(bad.replace("mem_", "draft_"))
