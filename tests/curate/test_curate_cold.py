"""Cold storage: move with a tombstone, byte-identical restore, refusal to clobber, path-escape
refusal, idempotence, and the vault's own memories."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from core.config import Config
from core.curate import engine
from core.curate.cold import Moved, list_cold
from core.curate.errors import ChecksumMismatch, PathEscape, WouldOverwrite
from core.curate.learning import read_restores
from core.errors import NotFound, RecordError
from core.paths import HomePaths
from core.vault.crypto import VaultKeys
from core.vault.ledger import Ledger
from tests.helpers.curate import NOW, OLD, configure, old_notes, put, tree, unlocker


@pytest.fixture
def setup(paths: HomePaths, keys: VaultKeys, tmp_path: Path) -> tuple[HomePaths, Config, VaultKeys, Path]:
    root = old_notes(tmp_path)
    config = configure(paths, ("notes", "markdown", root), report_only_runs=0, auto_move_cap=10)
    return paths, config, keys, root


def moved_all(setup: tuple[HomePaths, Config, VaultKeys, Path]) -> list[Moved]:
    paths, config, keys, _ = setup
    result = engine.apply(paths, config, unlock=unlocker(keys), now=NOW)
    assert not result.errors
    return result.moved


def test_move_then_restore_is_byte_identical(setup: tuple[HomePaths, Config, VaultKeys, Path]) -> None:
    paths, config, keys, root = setup
    before = {rel: (root / rel).read_bytes() for rel in ("old/a.md", "old/b.md", "old/c.md")}
    stat_c = (root / "old/c.md").stat()
    moved = moved_all(setup)
    assert sorted(m.stone.path for m in moved) == ["old/a.md", "old/b.md", "old/c.md"]
    for m in moved:
        assert not m.places.target.exists() and m.places.tombstone.is_file() and m.places.mirror.is_file()
        assert m.places.cold.read_bytes() == before[m.stone.path]
        stone = json.loads(m.places.tombstone.read_text())
        assert stone["path"] == m.stone.path and not stone["path"].startswith("/")
        assert stone["cold_path"].startswith(f"cold/notes/{m.stone.move_id}/record/")
        assert stone["sha256"] == m.stone.sha256 and stone["rubric_version"] == 1
        assert set(stone["signals"]) == {"orphaned", "unused"} and stone["moved_at"].startswith("2026-06-01")
    entries = [e for e in Ledger(paths, keys).read().entries if e.kind == "archive"]
    assert len(entries) == 3
    data = entries[0].data
    assert {"scope", "path", "cold_path", "tombstone"} <= set(data) and data["scope"] == "notes"
    assert (paths.root / data["cold_path"]).is_file() and (root / data["tombstone"]).is_file()
    for m in moved:
        done = engine.restore(paths, config, str(m.places.tombstone), unlock=unlocker(keys), now=NOW)
        assert done.path.read_bytes() == before[m.stone.path] and not done.already
        assert not m.places.tombstone.exists() and not m.places.cold.exists() and not m.places.mirror.parent.exists()
    restored = (root / "old/c.md").stat()
    assert restored.st_mode & 0o777 == 0o640 and restored.st_mtime_ns == stat_c.st_mtime_ns
    assert len([e for e in Ledger(paths, keys).read().entries if e.kind == "restore"]) == 3
    assert {r["path"] for r in read_restores(paths)} == {"old/a.md", "old/b.md", "old/c.md"}
    assert all(set(r["signals"]) == {"orphaned", "unused"} for r in read_restores(paths))
    assert list_cold(paths, config) == []


@pytest.mark.parametrize("how", ["tombstone", "original", "cold", "move_id"])
def test_restore_by_any_name_and_twice(setup: tuple[HomePaths, Config, VaultKeys, Path], how: str) -> None:
    paths, config, keys, root = setup
    m = next(m for m in moved_all(setup) if m.stone.path == "old/a.md")
    spec = {"tombstone": str(m.places.tombstone), "original": str(root / "old/a.md"),
            "cold": str(m.places.cold), "move_id": m.stone.move_id}[how]
    first = engine.restore(paths, config, spec, unlock=unlocker(keys), now=NOW)
    again = engine.restore(paths, config, spec if how != "cold" else str(root / "old/a.md"),
                           unlock=unlocker(keys), now=NOW)
    assert first.sha256 == again.sha256 and again.already and not first.already
    assert len(read_restores(paths)) == 1
    assert len([e for e in Ledger(paths, keys).read().entries if e.kind == "restore"]) == 1


def test_restore_refuses_to_clobber_and_changes_nothing(setup: tuple[HomePaths, Config, VaultKeys, Path]) -> None:
    paths, config, keys, root = setup
    m = next(m for m in moved_all(setup) if m.stone.path == "old/a.md")
    put(root, "old/a.md", "a new note someone wrote here", 0)
    scope_before, home_before = tree(root), tree(paths.root)
    with pytest.raises(WouldOverwrite, match="a different file now stands where the record was"):
        engine.restore(paths, config, str(m.places.tombstone), unlock=unlocker(keys), now=NOW)
    assert tree(root) == scope_before and tree(paths.root) == home_before
    # a symlink standing there is refused too
    (root / "old/a.md").unlink()
    os.symlink(root / "recent-1.md", root / "old/a.md")
    with pytest.raises(WouldOverwrite):
        engine.restore(paths, config, str(m.places.tombstone), unlock=unlocker(keys), now=NOW)


def _tamper(where: Path, **changes: object) -> None:
    data = json.loads(where.read_text())
    data.update(changes)
    where.write_text(json.dumps(data))


@pytest.mark.parametrize(("changes", "message"), [
    ({"path": "../../outside.md", "tombstone": "../../outside.md.tombstone"}, "contains '..'"),
    ({"path": "/tmp/outside.md"}, "is absolute"),
    ({"path": "old\\..\\x.md"}, "backslash"),
    ({"path": "old/./a.md"}, "contains '..', '.'"),
    ({"cold_path": "cold/notes/../../../etc/passwd"}, "field 'cold_path'"),
    ({"tombstone": "elsewhere/a.md.tombstone"}, "is not beside"),
])
def test_tampered_tombstones_cannot_escape(setup: tuple[HomePaths, Config, VaultKeys, Path], tmp_path: Path,
                                           changes: dict[str, object], message: str) -> None:
    paths, config, keys, _ = setup
    m = next(m for m in moved_all(setup) if m.stone.path == "old/a.md")
    _tamper(m.places.tombstone, **changes)
    _tamper(m.places.mirror, **changes)
    snapshot = tree(tmp_path)
    with pytest.raises(PathEscape, match=message) as info:
        engine.restore(paths, config, str(m.places.tombstone), unlock=unlocker(keys), now=NOW)
    assert "\n" not in str(info.value)
    assert tree(tmp_path) == snapshot


def test_symlink_escape_is_refused(setup: tuple[HomePaths, Config, VaultKeys, Path], tmp_path: Path) -> None:
    paths, config, keys, root = setup
    m = next(m for m in moved_all(setup) if m.stone.path == "old/a.md")
    elsewhere = tmp_path / "elsewhere"
    (root / "old").rename(elsewhere)  # the folder goes away, and a symlink out of the scope takes its place
    os.symlink(elsewhere, root / "old")
    with pytest.raises(PathEscape, match="leads outside"):
        engine.restore(paths, config, m.stone.move_id, unlock=unlocker(keys), now=NOW)
    assert not (elsewhere / "a.md").exists()


def test_a_tombstone_moved_elsewhere_or_disagreeing_with_its_mirror_is_refused(
        setup: tuple[HomePaths, Config, VaultKeys, Path]) -> None:
    paths, config, keys, root = setup
    m = next(m for m in moved_all(setup) if m.stone.path == "old/a.md")
    stray = root / "a.md.tombstone"
    stray.write_bytes(m.places.tombstone.read_bytes())
    with pytest.raises(PathEscape, match="says it belongs at"):
        engine.restore(paths, config, str(stray), unlock=unlocker(keys), now=NOW)
    stray.unlink()
    _tamper(m.places.tombstone, sha256="0" * 64)
    with pytest.raises(RecordError, match="disagrees with the other copy"):
        engine.restore(paths, config, str(m.places.tombstone), unlock=unlocker(keys), now=NOW)


def test_a_lost_tombstone_is_not_a_lost_record(setup: tuple[HomePaths, Config, VaultKeys, Path]) -> None:
    paths, config, keys, root = setup
    m = next(m for m in moved_all(setup) if m.stone.path == "old/b.md")
    data = m.places.cold.read_bytes()
    m.places.tombstone.unlink()  # a tool tidied the folder
    item = next(i for i in list_cold(paths, config) if i.stone.move_id == m.stone.move_id)
    assert not item.tombstone_present
    done = engine.restore(paths, config, str(root / "old/b.md"), unlock=unlocker(keys), now=NOW)
    assert done.path.read_bytes() == data


def test_a_damaged_cold_copy_is_reported_and_never_restored(setup: tuple[HomePaths, Config, VaultKeys, Path]) -> None:
    paths, config, keys, root = setup
    m = next(m for m in moved_all(setup) if m.stone.path == "old/a.md")
    m.places.cold.write_bytes(b"rotted")
    assert [i.intact for i in list_cold(paths, config, verify=True) if i.stone.move_id == m.stone.move_id] == [False]
    with pytest.raises(ChecksumMismatch, match="does not match its recorded SHA-256"):
        engine.restore(paths, config, m.stone.move_id, unlock=unlocker(keys), now=NOW)
    assert not (root / "old/a.md").exists() and m.places.tombstone.exists()


def test_apply_is_idempotent(setup: tuple[HomePaths, Config, VaultKeys, Path]) -> None:
    paths, config, keys, root = setup
    assert len(moved_all(setup)) == 3
    scope_before, cold_before = tree(root), tree(paths.cold)
    again = engine.apply(paths, config, unlock=unlocker(keys), now=NOW)
    assert again.moved == [] and again.would_move == [] and again.errors == []
    assert tree(root) == scope_before and tree(paths.cold) == cold_before


def test_a_record_changed_after_the_scan_stays(setup: tuple[HomePaths, Config, VaultKeys, Path]) -> None:
    paths, config, keys, root = setup
    report = engine.scan(paths, config, now=NOW)
    c = next(c for c in report.candidates if c.rel == "old/a.md")
    (root / "old/a.md").write_text("edited just now")
    ledger = Ledger(paths, keys)
    from core.curate.cold import move_record
    from core.curate.errors import CurationError
    from core.curate.scopes import get_scope

    with pytest.raises(CurationError, match="changed since it was judged"):
        move_record(paths, get_scope(config, paths, "notes"), c, ledger, approved=False, now=NOW)
    assert (root / "old/a.md").read_text() == "edited just now" and not (root / "old/a.md.tombstone").exists()


def test_a_new_record_at_a_moved_path_gets_its_own_tombstone(setup: tuple[HomePaths, Config, VaultKeys, Path]) -> None:
    paths, config, keys, root = setup
    first = next(m for m in moved_all(setup) if m.stone.path == "old/a.md")
    put(root, "old/a.md", "# A again\n", OLD + 100)
    second = next(m for m in engine.apply(paths, config, unlock=unlocker(keys), now=NOW).moved
                  if m.stone.path == "old/a.md")
    assert second.places.tombstone != first.places.tombstone and second.places.tombstone.name.endswith(".tombstone")
    engine.restore(paths, config, str(second.places.tombstone), unlock=unlocker(keys), now=NOW)
    assert (root / "old/a.md").read_text() == "# A again\n"
    with pytest.raises(WouldOverwrite):
        engine.restore(paths, config, str(first.places.tombstone), unlock=unlocker(keys), now=NOW)


def test_unknown_targets_and_missing_scope_folders_are_clear(setup: tuple[HomePaths, Config, VaultKeys, Path]) -> None:
    paths, config, keys, root = setup
    with pytest.raises(NotFound, match="no tombstone and nothing in cold storage"):
        engine.restore(paths, config, str(root / "never.md"), unlock=unlocker(keys), now=NOW)
    m = moved_all(setup)[0]
    root.rename(root.with_name("gone"))
    with pytest.raises(NotFound, match="does not exist"):
        engine.restore(paths, config, m.stone.move_id, unlock=unlocker(keys), now=NOW)


def test_the_vaults_own_memories_move_and_come_back_verified(paths: HomePaths) -> None:
    from core.workbench.verify import verify_home
    from tests.helpers.vault import populated

    vault, memories = populated(paths)
    config = configure(paths, ("mine", "vault", None))
    later = NOW.replace(year=NOW.year + 3)
    report = engine.scan(paths, config, unlock=unlocker(vault.keys), now=later)
    assert {c.rel for c in report.candidates} == {f"{m.memory_id}.json" for m in memories}
    assert all(c.tier == "medium" and c.signals == ("unused",) for c in report.candidates)
    target = report.candidates[0]
    engine.decide_candidate(paths, target.id, "approved", now=later)
    result = engine.apply(paths, config, unlock=unlocker(vault.keys), now=later)
    assert [m.stone.path for m in result.moved] == [target.rel]
    stone_text = (paths.vault / f"{target.rel}.tombstone").read_text()
    stored = (paths.curation / "candidates.json").read_text()
    for memory in memories:  # no plaintext of a sealed memory outside its ciphertext
        assert memory.content not in stone_text and memory.content not in stored
        assert all(f'"{tag}"' not in stored for tag in memory.metadata.tags)
    check = verify_home(paths, vault.keys)
    assert check.ok and check.counts["memories_in_cold_storage"] == 1
    assert target.rel[:-5] not in {m.memory_id for m in vault.list_memories()}
    engine.restore(paths, config, result.moved[0].stone.move_id, unlock=unlocker(vault.keys), now=later)
    check = verify_home(paths, vault.keys)
    assert check.ok and check.counts["memories_in_cold_storage"] == 0
    assert target.rel[:-5] in {m.memory_id for m in vault.list_memories()}


def test_verify_sees_cold_storage(setup: tuple[HomePaths, Config, VaultKeys, Path]) -> None:
    from core.curate.integrity import check_cold_storage
    from core.workbench.verify import default_extra_checks, verify_home

    paths, _, keys, _ = setup
    moved = moved_all(setup)
    assert check_cold_storage in default_extra_checks()  # the one cold-storage check `reverie verify` runs

    def problems() -> list[tuple[str, str]]:
        return [(p.kind, p.subject) for p in check_cold_storage(paths, keys, Ledger(paths, keys).read())]

    assert problems() == []
    assert verify_home(paths, keys).problems == []
    a, b = moved[0], moved[1]
    a.places.cold.write_bytes(b"changed in cold storage")
    b.places.cold.unlink()
    stray = paths.cold / "notes" / "m-20260101T000000-0123456789ab"
    stray.mkdir(parents=True)
    (stray / "tombstone.json").write_text("{}")
    (paths.curation / "pending").mkdir(exist_ok=True)
    (paths.curation / "pending" / f"{a.stone.move_id}.restore.json").write_text("{}")
    found = problems()
    assert ("modified", a.stone.cold_path) in found and ("removed", b.stone.cold_path) in found
    assert ("inserted", "cold/notes/m-20260101T000000-0123456789ab") in found
    assert ("incomplete", f"curation/pending/{a.stone.move_id}.restore.json") in found
    assert not verify_home(paths, keys).ok


def _mirror_with(m: Moved, **changes: object) -> bytes:
    stone = json.loads(m.places.mirror.read_bytes())
    stone.update(changes)
    return (json.dumps(stone, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode()


def test_the_archive_entry_records_the_tombstones_own_sha256(setup: tuple[HomePaths, Config, VaultKeys, Path]) -> None:
    import hashlib

    from core.workbench.verify import verify_home

    paths, _, keys, _ = setup
    moved = {m.stone.move_id: m for m in moved_all(setup)}
    entries = [e for e in Ledger(paths, keys).read().entries if e.kind == "archive"]
    assert len(entries) == len(moved) == 3
    for entry in entries:
        m = moved[entry.data["move_id"]]
        on_disk = m.places.mirror.read_bytes()
        assert m.places.tombstone.read_bytes() == on_disk
        assert entry.data["tombstone_sha256"] == hashlib.sha256(on_disk).hexdigest()
    m = next(iter(moved.values()))
    m.places.tombstone.unlink()  # a tool tidied it away: allowed, the mirror keeps the record restorable
    assert verify_home(paths, keys).problems == []
    m.places.mirror.write_bytes(_mirror_with(m, mtime_ns=0, details={}))  # fields the entry does not repeat
    problems = verify_home(paths, keys).problems
    assert [(p.kind, p.subject) for p in problems] == [("modified", f"cold/notes/{m.stone.move_id}/tombstone.json")]
    assert "SHA-256" in problems[0].detail


def test_archive_entries_without_the_tombstones_sha256_still_verify(
        setup: tuple[HomePaths, Config, VaultKeys, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """Entries written before ``tombstone_sha256`` existed: compared field by field, never failed for
    lacking it."""
    from core.curate.cold import ledger_entries
    from core.workbench.verify import verify_home

    paths, config, keys, _ = setup
    monkeypatch.setattr(ledger_entries, "archive_data", ledger_entries.ledger_data)
    moved = moved_all(setup)
    assert all("tombstone_sha256" not in e.data for e in Ledger(paths, keys).read().entries)
    assert verify_home(paths, keys).problems == []
    m = moved[0]
    m.places.mirror.write_bytes(_mirror_with(m, tier="low"))  # a field the entry records: still seen
    assert [p.kind for p in verify_home(paths, keys).problems] == ["modified"] * 3  # mirror, and both named
    engine.restore(paths, config, str(moved[1].places.tombstone), unlock=unlocker(keys), now=NOW)


def test_a_tombstone_that_does_not_read_back_as_written_stops_the_move(
        setup: tuple[HomePaths, Config, VaultKeys, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    from core.curate.dirfd import Folder

    paths, config, keys, root = setup
    real = Folder.write_new

    def garbling(self: Folder, name: str, data: bytes, **kwargs: int | None) -> None:
        real(self, name, data.replace(b'"note"', b'"Note"') if name.endswith(".tombstone") else data, **kwargs)

    monkeypatch.setattr(Folder, "write_new", garbling)
    result = engine.apply(paths, config, unlock=unlocker(keys), now=NOW)
    assert result.moved == [] and len(result.errors) == 3
    assert all("did not read back as written" in e for e in result.errors)
    assert all((root / rel).is_file() for rel in ("old/a.md", "old/b.md", "old/c.md"))
    assert not list(root.rglob("*.tombstone")) and not list(paths.cold.glob("*/m-*"))
    assert [e for e in Ledger(paths, keys).read().entries if e.kind == "archive"] == []


def test_restore_many(setup: tuple[HomePaths, Config, VaultKeys, Path]) -> None:
    paths, config, keys, root = setup
    moved = moved_all(setup)
    specs = [m.stone.move_id for m in moved] + ["m-20200101T000000-000000000000"]
    done, errors = engine.restore_many(paths, config, specs, unlock=unlocker(keys), now=NOW)
    assert len(done) == 3 and len(errors) == 1 and "no move m-20200101T000000-000000000000" in errors[0]
    assert all((root / m.stone.path).is_file() for m in moved)
