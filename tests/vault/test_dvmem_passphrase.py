"""Moving a memory to a home with another passphrase: import takes the passphrase the record was
exported with, tells a wrong passphrase from a modified file, and re-seals the memory under this
home's keys."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.errors import RecordError, WrongPassphrase
from core.paths import HomePaths
from core.vault.crypto import KdfParams
from core.vault.portable import export_dvmem, import_dvmem
from core.vault.store import MemoryStore
from core.workbench.verify import verify_home
from tests.helpers.vault import PASSPHRASE, populated

OTHER = "the other home's passphrase"


@pytest.fixture
def other_vault(tmp_path: Path) -> MemoryStore:
    return MemoryStore.create(HomePaths(tmp_path / "elsewhere", tmp_path / "c2"), OTHER, KdfParams.for_tests())


def test_a_record_moves_to_a_home_with_another_passphrase(paths: HomePaths, other_vault: MemoryStore) -> None:
    vault, memories = populated(paths)
    data = export_dvmem(vault, memories[0].memory_id, PASSPHRASE)
    imported, added = import_dvmem(other_vault, data, PASSPHRASE, "m.dvmem")
    assert added and imported.content == memories[0].content
    reopened = MemoryStore.unlock(other_vault.paths, OTHER)  # sealed under the new home's keys
    assert reopened.get_memory(imported.memory_id).content == memories[0].content
    assert imported.memory_id in reopened.verified_ids()
    assert verify_home(other_vault.paths, other_vault.keys).ok


def test_a_wrong_passphrase_is_told_from_a_modified_file(paths: HomePaths, other_vault: MemoryStore) -> None:
    vault, memories = populated(paths)
    data = export_dvmem(vault, memories[0].memory_id, PASSPHRASE)
    with pytest.raises(WrongPassphrase, match="not the passphrase it was exported with") as wrong:
        import_dvmem(other_vault, data, OTHER, "m.dvmem")
    assert "modified" not in str(wrong.value)
    document = json.loads(data)
    document["record"]["record_version"] = 2
    with pytest.raises(RecordError, match="modified") as modified:
        import_dvmem(other_vault, json.dumps(document).encode(), PASSPHRASE, "m.dvmem")
    assert not isinstance(modified.value, WrongPassphrase)
    assert other_vault.list_memories() == [] and not other_vault.ledger.read().entries
