"""Portable .dvmem records: export one memory, import it into another vault after verification."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.crypto import KdfParams
from core.errors import RecordError
from core.paths import HomePaths
from core.portable import export_dvmem, import_dvmem
from core.vault import MemoryVault
from core.verify import verify_home
from tests.vault_helpers import PASSPHRASE, populated


@pytest.fixture
def other_vault(tmp_path: Path) -> MemoryVault:
    return MemoryVault(encryption_key="the other vault's passphrase",
                       storage_dir=HomePaths(tmp_path / "elsewhere", tmp_path / "c2"), kdf=KdfParams.for_tests())


def test_export_then_import_elsewhere(paths: HomePaths, other_vault: MemoryVault) -> None:
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
    paths: HomePaths, other_vault: MemoryVault
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


def test_review_provenance_that_breaks_invariants_is_refused(paths: HomePaths, other_vault: MemoryVault) -> None:
    from core.crypto import b64d, derive_keys
    from core.sealed import seal, unseal

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
