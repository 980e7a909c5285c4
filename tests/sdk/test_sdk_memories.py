"""Memories through the SDK: the upstream behaviour, on Reverie's sealed records and ledger."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.paths import HomePaths
from core.sdk import (
    ArweaveAnchor,
    ContextRequest,
    LocalAnchor,
    Memory,
    MemoryCrypto,
    MemoryStatus,
    MemoryVault,
    WrongKeyError,
)
from tests.sdk.conftest import KEY, open_vault


def test_create_returns_a_signed_encrypted_memory_that_verifies(vault: MemoryVault) -> None:
    memory = vault.create("She laughed when the dog sneezed.", tags=["family"], metadata={"weather": "rain"})
    assert memory.status is MemoryStatus.SIGNED and not memory.verified
    assert memory.hash == MemoryCrypto.hash_content(memory.content)
    assert memory.encrypted_content and memory.nonce and memory.signature
    assert memory.metadata.tags == ["family"] and memory.metadata.custom == {"weather": "rain"}
    assert vault.verify(memory) and memory.verified
    record = (vault.storage_dir / "vault" / f"{memory.id}.json").read_bytes()
    assert b"dog sneezed" not in record and memory.hash.encode() not in record  # no plaintext, no bare hash


@pytest.mark.parametrize("change", ["content", "hash", "signature", "tags"])
def test_a_view_changed_in_memory_no_longer_verifies(vault: MemoryVault, change: str) -> None:
    memory = vault.create("We planted tomatoes.", tags=["garden"])
    original = getattr(memory, change) if change != "tags" else list(memory.metadata.tags)
    if change == "content":
        memory.content = "We planted nothing."
    elif change == "hash":
        memory.hash = MemoryCrypto.hash_content("We planted nothing.")
    elif change == "signature":
        memory.signature = "0" * 64
    else:
        memory.metadata.tags.append("private")
    assert not vault.verify(memory)
    if change == "tags":
        memory.metadata.tags[:] = original
    else:
        setattr(memory, change, original)
    assert vault.verify(memory)


def test_verify_by_id_rechecks_the_stored_record(vault: MemoryVault) -> None:
    memory = vault.create("The first snow fell.", tags=["winter"])
    assert vault.verify(memory.id)
    path = vault.storage_dir / "vault" / f"{memory.id}.json"
    record = json.loads(path.read_bytes())
    record["record_version"] = 2
    path.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    assert not vault.verify(memory.id)
    assert not vault.verify(memory)
    assert not vault.verify("mem_unknown")


def test_a_record_rolled_back_or_replaced_on_disk_fails_against_the_ledger(vault: MemoryVault) -> None:
    first = vault.create("Version one.", tags=["a"])
    second = vault.create("Version two.", tags=["a"])
    first_path = vault.storage_dir / "vault" / f"{first.id}.json"
    second_path = vault.storage_dir / "vault" / f"{second.id}.json"
    first_path.write_bytes(second_path.read_bytes())  # a valid record, under the wrong name
    fresh = open_vault(HomePaths.at(vault.storage_dir))
    report = fresh.batch_verify()
    assert report["total"] == 2 and report["valid"] == 1 and report["invalid_ids"] == [first.id]
    assert not vault.verify(first)


def test_batch_verify_counts_damaged_records_it_cannot_load(vault: MemoryVault) -> None:
    good = vault.create("Kept intact.", tags=["a"])
    bad = vault.create("Damaged on disk.", tags=["a"])
    (vault.storage_dir / "vault" / f"{bad.id}.json").write_text("{not json")
    fresh = open_vault(HomePaths.at(vault.storage_dir))
    assert fresh.get(bad.id) is None and fresh.get(good.id) is not None
    assert fresh.batch_verify() == {"total": 2, "valid": 1, "invalid": 1, "invalid_ids": [bad.id]}


def test_decrypt_uses_the_sealed_ciphertext(vault: MemoryVault) -> None:
    memory = vault.create("Grandpa told the story about the night train.", tags=["family"])
    memory.content = "something else"
    assert vault.decrypt(memory) == "Grandpa told the story about the night train."
    memory.encrypted_content = bytes([memory.encrypted_content[0] ^ 1]) + memory.encrypted_content[1:]
    with pytest.raises(ValueError, match="does not authenticate"):
        vault.decrypt(memory)
    assert vault.decrypt(Memory(content="plain view")) == "plain view"


def test_list_search_get_and_stats(vault: MemoryVault) -> None:
    a = vault.create("Morning walk in Seoul Forest.", tags=["outside", "family"])
    b = vault.create("Quiet evening at home.", tags=["home"])
    c = vault.create("Walk to the market.", tags=["outside"])
    assert [m.id for m in vault.list()] == [c.id, b.id, a.id]
    assert [m.id for m in vault.list(tags=["outside"])] == [c.id, a.id]
    assert [m.id for m in vault.list(limit=1)] == [c.id]
    assert [m.id for m in vault.list(after=a.created_at)] == [c.id, b.id]
    assert [m.id for m in vault.list(before=b.created_at)] == [a.id]
    with pytest.raises(ValueError, match="after"):
        vault.list(after="last tuesday")
    assert [m.id for m in vault.search("WALK")] == [a.id, c.id]
    assert vault.get(a.id) is a and vault.get("mem_nothing") is None
    vault.verify(a)
    assert vault.stats == {"total_memories": 3, "encrypted": 3, "anchored": 0, "verified": 1,
                           "tags": ["family", "home", "outside"]}
    assert len(vault) == 3 and "memories=3" in repr(vault)


def test_merkle_root_is_over_the_sorted_content_hashes(vault: MemoryVault) -> None:
    assert vault.compute_merkle_root() is None
    memories = [vault.create(f"Memory number {i}.", tags=["n"]) for i in range(3)]
    expected = MemoryCrypto.compute_merkle_root(sorted(m.hash for m in memories))
    assert vault.compute_merkle_root() == expected
    hashes = sorted(m.hash for m in memories)
    proof = MemoryCrypto.compute_merkle_proof(hashes, 2)
    assert MemoryCrypto.verify_merkle_proof(hashes[2], proof, expected)
    assert not MemoryCrypto.verify_merkle_proof(hashes[1], proof, expected)


def test_create_refuses_what_reverie_gives_a_meaning(vault: MemoryVault) -> None:
    with pytest.raises(ValueError, match="'review' is reserved"):
        vault.create("Forged provenance.", metadata={"review": {"approved_by": "parent"}})
    with pytest.raises(ValueError, match="tags"):
        vault.create("Bad tags.", tags=[""])
    with pytest.raises(ValueError, match="content"):
        vault.create("   ")
    with pytest.raises(TypeError):
        vault.create(42)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a JSON value"):
        vault.create("Odd metadata.", metadata={"when": object()})
    assert len(vault) == 0


def test_a_wrong_key_is_refused_before_anything_is_read(vault: MemoryVault) -> None:
    vault.create("Secret.", tags=["a"])
    with pytest.raises(WrongKeyError):
        open_vault(HomePaths.at(vault.storage_dir), key="not the key")
    with pytest.raises(ValueError, match="encryption_key"):
        MemoryVault(encryption_key="", storage_dir=str(vault.storage_dir))


def test_a_reopened_vault_sees_the_same_memories(vault: MemoryVault) -> None:
    memory = vault.create("Persisted.", tags=["a"], auto_anchor=True)
    again = open_vault(HomePaths.at(vault.storage_dir))
    view = again.get(memory.id)
    assert view is not None and view.content == "Persisted." and view.is_anchored
    assert again.verify(view)


def test_local_anchor_lives_in_the_home_and_stores_no_bare_hash(vault: MemoryVault) -> None:
    memory = vault.create("Anchored moment.", tags=["a"])
    vault.anchor(memory, backend="local")
    assert memory.status is MemoryStatus.ANCHORED and memory.anchors[0].backend == "local"
    anchor_file = vault.storage_dir / "sdk" / "anchors" / f"{memory.id}.json"
    assert anchor_file.exists() and memory.hash not in anchor_file.read_text()
    assert vault.verify(memory)
    record = json.loads(anchor_file.read_text())
    record["content_hash"] = "0" * 64
    anchor_file.write_text(json.dumps(record))
    assert not vault.verify(memory)


def test_other_anchor_backends(vault: MemoryVault, tmp_path: Path) -> None:
    memory = vault.create("Anchored elsewhere.", tags=["a"])
    own = LocalAnchor(str(tmp_path / "anchors"))
    vault.anchor(memory, backend=own)
    assert own.verify(memory.id, memory.hash) and own.list_anchors()[0]["memory_id"] == memory.id
    assert vault.verify(memory)
    with pytest.raises(NotImplementedError):
        vault.anchor(memory, backend="arweave")
    with pytest.raises(NotImplementedError):
        ArweaveAnchor().verify(memory.id, memory.hash)
    with pytest.raises(ValueError, match="Unknown anchor backend"):
        vault.anchor(memory, backend="ipfs")


def test_export_and_import_a_sealed_dvmem(vault: MemoryVault, tmp_path: Path) -> None:
    memory = vault.create("Exported memory.", tags=["a"])
    path = vault.export_memory(memory, str(tmp_path / "out"))
    assert path.endswith(".dvmem") and b"Exported memory" not in Path(path).read_bytes()
    other = open_vault(HomePaths.at(tmp_path / "other"))
    imported = other.import_memory(path)
    assert imported.id == memory.id and imported.content == memory.content and other.verify(imported)
    assert other.import_memory(path) is imported and len(other) == 1  # twice adds nothing
    stranger = open_vault(HomePaths.at(tmp_path / "stranger"), key="another key")
    with pytest.raises(ValueError, match="does not verify with this passphrase"):
        stranger.import_memory(path)


def test_import_an_upstream_dvmem_checks_its_hash_and_signature(vault: MemoryVault, tmp_path: Path) -> None:
    crypto = MemoryCrypto(KEY)
    upstream = Memory(content="Written by a DiaryVault vault.")
    upstream.metadata.tags = ["legacy"]
    upstream.hash = crypto.hash_content(upstream.content)
    upstream.signature = crypto.sign(upstream.hash)
    good = tmp_path / "good.dvmem"
    good.write_text(upstream.to_dvmem())
    imported = vault.import_memory(str(good))
    assert imported.id == f"mem_{upstream.id}" and imported.metadata.tags == ["legacy"]
    assert imported.metadata.source == "import" and vault.verify(imported)
    assert imported.metadata.custom["imported_from"]["id"] == upstream.id
    upstream.content = "Changed in transit."
    bad = tmp_path / "bad.dvmem"
    bad.write_text(upstream.to_dvmem())
    with pytest.raises(ValueError, match=r"does not match payload\.hash"):
        vault.import_memory(str(bad))
    forged = Memory(content="Signed with another key.", hash=crypto.hash_content("Signed with another key."))
    forged.signature = MemoryCrypto("other").sign(forged.hash)
    (tmp_path / "forged.dvmem").write_text(forged.to_dvmem())
    with pytest.raises(ValueError, match="signature does not verify"):
        vault.import_memory(str(tmp_path / "forged.dvmem"))
    assert len(vault) == 1


def test_share_denied_wins_and_never_goes_beyond_the_request(vault: MemoryVault) -> None:
    vault.create("Milestone and private.", tags=["milestone", "private"])
    kept = vault.create("A milestone.", tags=["milestone"])
    vault.create("Health note.", tags=["health"])
    request = ContextRequest(agent_id="agent", scope=["family", "milestone"], purpose="recap")
    response = vault.share(request, allowed_tags=["milestone", "health"], denied_tags=["Private"])
    assert [m.memory_id for m in response.shared_memories] == [kept.id]
    assert response.scope_granted == ["milestone"] and response.scope_denied == ["family"]
    assert response.verify_all() and response.shared_hashes == [kept.hash]
    assert response.purpose == "recap" and response.scope_requested == ["family", "milestone"]
    assert response.vault_merkle_root == vault.compute_merkle_root()
    kept_view = vault.get(kept.id)
    assert kept_view is not None
    kept_view.content = "tampered"
    tampered = vault.share(request, allowed_tags=["milestone"])
    assert not tampered.verify_all()
    assert vault.share(request, max_memories=0).memory_count == 0


def test_share_limits_to_the_newest(vault: MemoryVault) -> None:
    made = [vault.create(f"Preference {i}.", tags=["preference"]) for i in range(4)]
    response = vault.share(ContextRequest(agent_id="a", scope=["preference"], max_memories=2))
    assert [m.memory_id for m in response.shared_memories] == [made[3].id, made[2].id]
    restored = type(response).from_json(response.to_json())
    assert restored == response


def test_a_validly_sealed_record_the_ledger_does_not_know_fails(vault: MemoryVault) -> None:
    from core.vault.records import MemoryRecord, RecordMetadata, seal_memory

    memory = vault.create("What really happened.", tags=["a"])
    planted = MemoryRecord(memory.id, "What someone wrote later.", RecordMetadata(tags=("a",)), memory.created_at)
    (vault.storage_dir / "vault" / f"{memory.id}.json").write_bytes(seal_memory(planted, vault.store.keys))
    fresh = open_vault(HomePaths.at(vault.storage_dir))
    view = fresh.get(memory.id)
    assert view is not None and view.content == "What someone wrote later."  # it opens with the key…
    assert not fresh.verify(view)  # …but its checksum is not the ledger's
    assert fresh.batch_verify()["invalid_ids"] == [memory.id]


def test_a_view_written_with_to_dvmem_imports_back_into_its_vault(vault: MemoryVault, tmp_path: Path) -> None:
    memory = vault.create("Round trip through the upstream format.", tags=["a"])
    path = tmp_path / "view.dvmem"
    path.write_text(memory.to_dvmem())
    assert Memory.from_dvmem(path.read_text()) == memory
    assert vault.import_memory(str(path)) is memory  # already there: nothing added
    (vault.storage_dir / "vault" / f"{memory.id}.json").rename(tmp_path / "moved-away.json")
    restored = vault.import_memory(str(path))
    assert restored.id == memory.id and vault.verify(restored)
    changed = json.loads(path.read_text())
    changed["payload"]["content"] = "Something else."
    changed["payload"]["hash"] = MemoryCrypto.hash_content("Something else.")
    path.write_text(json.dumps(changed))
    with pytest.raises(ValueError, match="modified"):
        vault.import_memory(str(path))


def test_a_diaryvault_storage_folder_migrates_file_by_file(vault: MemoryVault, tmp_path: Path) -> None:
    crypto = MemoryCrypto(KEY)
    old = tmp_path / "diaryvault-memories"
    old.mkdir()
    for i, text in enumerate(["First upstream memory.", "Second upstream memory."]):
        upstream = Memory(content=text, hash=crypto.hash_content(text))
        upstream.signature = crypto.sign(upstream.hash)
        upstream.encrypted_content, upstream.nonce = crypto.encrypt(text)
        upstream.metadata.tags = ["old", f"n{i}"]
        (old / f"{upstream.id}.json").write_text(upstream.to_json())
    migrated = [vault.import_memory(str(p)) for p in sorted(old.glob("*.json"))]
    assert sorted(m.content for m in migrated) == ["First upstream memory.", "Second upstream memory."]
    assert all(vault.verify(m) for m in migrated) and len(vault.list(tags=["old"])) == 2
    assert [vault.import_memory(str(p)).id for p in sorted(old.glob("*.json"))] == [m.id for m in migrated]
    assert len(vault) == 2  # a second migration adds nothing


def test_anchors_still_check_after_the_home_moves(vault: MemoryVault, tmp_path: Path) -> None:
    memory = vault.create("Anchored, then moved.", tags=["a"], auto_anchor=True)
    moved = tmp_path / "moved-home"
    vault.storage_dir.rename(moved)
    again = open_vault(HomePaths.at(moved))
    view = again.get(memory.id)
    assert view is not None and view.anchors[0].url is not None and str(moved) not in view.anchors[0].url
    assert again.verify(view)
    assert not (vault.storage_dir / "sdk").exists()  # checking created nothing where the home was
