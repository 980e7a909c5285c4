"""Tamper evidence: every change to a record, the ledger or the set of records is named by verify."""

from __future__ import annotations

import base64
import json
import shutil
from pathlib import Path

import pytest

from core.paths import HomePaths
from core.vault.crypto import KdfParams, create_header
from core.vault.ledger import Checkpoint, Ledger
from core.vault.records import seal_memory
from core.workbench.verify import verify_home
from tests.helpers.vault import populated


def _kinds(paths: HomePaths, keys, checkpoint=None) -> set[tuple[str, str]]:  # type: ignore[no-untyped-def]
    report = verify_home(paths, keys, checkpoint)
    return {(p.kind, p.subject) for p in report.problems}


def test_an_untouched_home_verifies(paths: HomePaths) -> None:
    vault, _memories = populated(paths)
    report = verify_home(paths, vault.keys)
    assert report.ok, report.problems
    assert report.counts["memories"] == 4 and report.counts["ledger_entries"] == 4


FIELDS = ["format_version", "id", "record_version", "nonce", "ciphertext", "hmac"]


@pytest.mark.parametrize("field", FIELDS)
def test_a_changed_field_of_a_record_is_named(paths: HomePaths, field: str) -> None:
    vault, memories = populated(paths)
    target = vault.memory_path(memories[1].memory_id)
    record = json.loads(target.read_text())
    value = record[field]
    if isinstance(value, int):
        record[field] = value + 1
    elif field in ("nonce", "ciphertext"):
        raw = bytearray(base64.b64decode(value))
        raw[len(raw) // 2] ^= 0x01
        record[field] = base64.b64encode(bytes(raw)).decode()
    else:
        record[field] = value[:-1] + ("0" if value[-1] != "0" else "1")
    target.write_text(json.dumps(record))
    report = verify_home(paths, vault.keys)
    assert not report.ok
    assert any(p.subject == f"vault/{target.name}" and p.kind in ("modified", "swapped") for p in report.problems)


def test_every_single_byte_flip_of_a_record_is_detected(paths: HomePaths) -> None:
    vault, memories = populated(paths)
    target = vault.memory_path(memories[0].memory_id)
    original = target.read_bytes()
    for offset in range(0, len(original), max(1, len(original) // 97)):
        flipped = bytearray(original)
        flipped[offset] ^= 0x04
        target.write_bytes(bytes(flipped))
        assert not verify_home(paths, vault.keys).ok, f"flip at byte {offset} went unnoticed"
    target.write_bytes(original)
    assert verify_home(paths, vault.keys).ok


def test_a_deleted_record_is_named(paths: HomePaths) -> None:
    vault, memories = populated(paths)
    vault.memory_path(memories[2].memory_id).unlink()
    assert ("removed", f"vault/{memories[2].memory_id}.json") in _kinds(paths, vault.keys)


def test_a_swapped_pair_is_named(paths: HomePaths) -> None:
    vault, memories = populated(paths)
    a, b = vault.memory_path(memories[0].memory_id), vault.memory_path(memories[1].memory_id)
    data_a, data_b = a.read_bytes(), b.read_bytes()
    a.write_bytes(data_b)
    b.write_bytes(data_a)
    kinds = _kinds(paths, vault.keys)
    assert ("swapped", f"vault/{a.name}") in kinds and ("swapped", f"vault/{b.name}") in kinds


def test_an_inserted_record_is_named_even_when_validly_signed(paths: HomePaths) -> None:
    vault, memories = populated(paths)
    from core.vault.records import MemoryRecord, RecordMetadata

    forged = MemoryRecord("mem_forgedforgedforged000", "I never wrote this.", RecordMetadata(), memories[0].created_at)
    vault.memory_path(forged.memory_id).write_bytes(seal_memory(forged, vault.keys))
    assert ("inserted", f"vault/{forged.memory_id}.json") in _kinds(paths, vault.keys)


def test_a_record_forged_with_another_key_is_named(paths: HomePaths, tmp_path: Path) -> None:
    vault, memories = populated(paths)
    other_keys = create_header(tmp_path / "other.json", "another passphrase", KdfParams.for_tests())
    from core.vault.records import MemoryRecord, RecordMetadata

    forged = MemoryRecord("mem_otherkeyotherkey00000", "Forged elsewhere.", RecordMetadata(), memories[0].created_at)
    vault.memory_path(forged.memory_id).write_bytes(seal_memory(forged, other_keys))
    kinds = _kinds(paths, vault.keys)
    assert ("inserted", f"vault/{forged.memory_id}.json") in kinds
    assert ("modified", f"vault/{forged.memory_id}.json") in kinds


def test_an_older_valid_version_of_a_record_is_named(paths: HomePaths) -> None:
    vault, memories = populated(paths)
    # re-seal the same memory: valid signature, but not the bytes the ledger sealed
    path = vault.memory_path(memories[0].memory_id)
    path.write_bytes(seal_memory(memories[0], vault.keys))
    assert ("modified", f"vault/{path.name}") in _kinds(paths, vault.keys)


def _ledger_lines(paths: HomePaths) -> list[str]:
    return paths.ledger.read_text().splitlines(keepends=True)


def test_a_modified_ledger_entry_is_named(paths: HomePaths) -> None:
    vault, _ = populated(paths)
    lines = _ledger_lines(paths)
    entry = json.loads(lines[1])
    entry["ts"] = "2020-01-01T00:00:00+00:00"
    lines[1] = json.dumps(entry) + "\n"
    paths.ledger.write_text("".join(lines))
    assert ("modified", "ledger line 2") in _kinds(paths, vault.keys)


def test_reordered_ledger_entries_are_named(paths: HomePaths) -> None:
    vault, _ = populated(paths)
    lines = _ledger_lines(paths)
    lines[1], lines[2] = lines[2], lines[1]
    paths.ledger.write_text("".join(lines))
    kinds = {k for k, _ in _kinds(paths, vault.keys)}
    assert "reordered" in kinds or "inserted" in kinds or "removed" in kinds
    assert not verify_home(paths, vault.keys).ok


def test_a_removed_ledger_entry_is_named(paths: HomePaths) -> None:
    vault, memories = populated(paths)
    lines = _ledger_lines(paths)
    del lines[1]
    paths.ledger.write_text("".join(lines))
    kinds = _kinds(paths, vault.keys)
    assert ("removed", "ledger line 2") in kinds
    assert ("inserted", f"vault/{memories[1].memory_id}.json") in kinds


def test_a_truncated_ledger_is_named(paths: HomePaths) -> None:
    vault, _memories = populated(paths)
    lines = _ledger_lines(paths)
    paths.ledger.write_text("".join(lines[:-1]))
    kinds = _kinds(paths, vault.keys)
    assert ("removed", "ledger") in kinds  # the signed head says there was more


def test_a_forged_ledger_entry_is_named(paths: HomePaths, tmp_path: Path) -> None:
    vault, _ = populated(paths)
    other = create_header(tmp_path / "other.json", "another passphrase", KdfParams.for_tests())
    stolen = HomePaths(root=tmp_path / "copy", cache=tmp_path / "cache2")
    shutil.copytree(paths.root, stolen.root)
    Ledger(stolen, other)  # a ledger object with the wrong key cannot append to a ledger it cannot verify
    lines = _ledger_lines(paths)
    entry = json.loads(lines[-1])
    from core.vault.canonical import canonical_json, sha256_hex

    body = {k: entry[k] for k in ("seq", "ts", "kind", "record_id", "record_sha256", "data", "prev")}
    body.update(seq=entry["seq"] + 1, prev=entry["hash"], record_id="mem_forged")
    digest = sha256_hex(canonical_json(body))
    lines.append(json.dumps({**body, "hash": digest, "sig": other.sign(digest.encode())}) + "\n")
    paths.ledger.write_text("".join(lines))
    assert ("forged", f"ledger line {len(lines)}") in _kinds(paths, vault.keys)


def test_a_rolled_back_home_is_caught_against_a_checkpoint(paths: HomePaths, tmp_path: Path) -> None:
    vault, _ = populated(paths)
    backup = tmp_path / "backup"
    shutil.copytree(paths.root, backup)
    from tests.helpers.vault import finalize_reviewed

    finalize_reviewed(vault, "A memory made after the backup.")
    checkpoint = verify_home(paths, vault.keys).head
    assert checkpoint is not None and checkpoint.seq == 5
    shutil.rmtree(paths.root)
    shutil.copytree(backup, paths.root)
    assert verify_home(paths, vault.keys).ok  # self-consistent: only the checkpoint can tell
    report = verify_home(paths, vault.keys, Checkpoint.parse(str(checkpoint)))
    assert not report.ok and report.problems[0].kind == "rolled_back"
    assert verify_home(paths, vault.keys, Checkpoint(checkpoint.seq - 1, "0" * 64)).problems[0].kind == "rolled_back"


def test_a_tampered_draft_is_named(paths: HomePaths) -> None:
    vault, _ = populated(paths)
    draft = vault.create_draft("pending review")
    path = paths.drafts / f"{draft.draft_id}.json"
    record = json.loads(path.read_text())
    record["record_version"] += 5
    path.write_text(json.dumps(record))
    assert ("modified", f"drafts/{path.name}") in _kinds(paths, vault.keys)
    assert draft.draft_id not in [d.draft_id for d in vault.list_drafts()]


def test_checkpoint_text_is_validated() -> None:
    from core.errors import RecordError

    with pytest.raises(RecordError, match="SEQ:SHA256"):
        Checkpoint.parse("12:nothex")


def _ingest_sealed_day(paths: HomePaths, vault, tmp_path: Path) -> Path:  # type: ignore[no-untyped-def]
    from core.conversation import ingest

    source = tmp_path / "turns.jsonl"
    source.write_text(
        "".join(
            json.dumps({"ts": f"2026-11-03T0{i}:00:00Z", "role": "user", "text": f"turn {i} about the trip"}) + "\n"
            for i in range(3)
        )
    )
    report = ingest(paths, [source], keys=vault.keys)
    assert report.added == 3
    day = paths.logs / "2026" / "11" / "2026-11-03.jsonl"
    assert verify_home(paths, vault.keys).counts["sealed_days"] == 1
    return day


def test_a_changed_sealed_day_log_is_named(paths: HomePaths, tmp_path: Path) -> None:
    vault, _ = populated(paths)
    day = _ingest_sealed_day(paths, vault, tmp_path)
    assert verify_home(paths, vault.keys).ok
    day.write_text(day.read_text().replace("about the trip", "about nothing"))
    assert ("modified", "logs/2026/11/2026-11-03.jsonl") in _kinds(paths, vault.keys)


def test_a_removed_sealed_day_log_is_named(paths: HomePaths, tmp_path: Path) -> None:
    vault, _ = populated(paths)
    day = _ingest_sealed_day(paths, vault, tmp_path)
    day.unlink()
    assert ("removed", "logs/2026/11/2026-11-03.jsonl") in _kinds(paths, vault.keys)
