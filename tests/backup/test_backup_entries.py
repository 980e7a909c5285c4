"""The table of what a backup holds names every top-level entry Reverie writes into a home."""

from __future__ import annotations

import re
from pathlib import Path

from core.backup.entries import HOME_ENTRIES, is_backed_up
from core.paths import HomePaths
from tests.backup.conftest import BACKUP_PASSPHRASE, RichHome

ROOT = Path(__file__).resolve().parents[2]
_ROOT_CHILD = re.compile(r"paths\.root\s*/\s*\"([^\"/]+)\"")


def _names_the_code_writes() -> set[str]:
    """Top-level names of a home: HomePaths' properties that are the root's children, every
    ``paths.root / "name"`` in core and tui_app, and the REST token's file."""
    from tui_app.api.token import TOKEN_FILE

    paths = HomePaths(root=Path("/h"), cache=Path("/h/.cache"))
    names = {TOKEN_FILE, paths.cache.name}
    for attr in dir(HomePaths):
        value = getattr(paths, attr) if isinstance(getattr(HomePaths, attr), property) else None
        if isinstance(value, Path) and value.parent == paths.root:
            names.add(value.name)
    for package in ("core", "tui_app"):
        for source in (ROOT / package).rglob("*.py"):
            names.update(_ROOT_CHILD.findall(source.read_text(encoding="utf-8")))
    return names


def test_every_top_level_entry_is_classified() -> None:
    names = _names_the_code_writes()
    assert {"vault", "logs", "ledger.jsonl", "config.toml", ".locks", ".cache", "sdk", "api-token"} <= names
    missing = sorted(names - set(HOME_ENTRIES))
    assert not missing, f"classify these in core/backup/entries.py HOME_ENTRIES (backed up or derived): {missing}"


def test_derived_entries_are_only_rebuildable_ones() -> None:
    derived = {name for name, entry in HOME_ENTRIES.items() if entry.kind == "derived"}
    assert derived == {".cache", ".locks"}
    assert is_backed_up("something-new")  # unknown: kept, never silently left out


def test_a_real_home_holds_only_classified_entries_and_an_unknown_one_is_kept(rich_home: RichHome,
                                                                              tmp_path: Path) -> None:
    root = rich_home.paths.root
    assert {p.name for p in root.iterdir()} <= set(HOME_ENTRIES)
    (root / "notes-by-hand.txt").write_text("kept\n", encoding="utf-8")
    (root / ".locks" / "extra.lock").write_text("", encoding="utf-8")
    (root / "exports").mkdir(mode=0o700, exist_ok=True)
    (root / "exports" / "link").symlink_to(tmp_path)  # never followed out of the home
    result = rich_home.workbench.backups.backup(tmp_path / "repo", BACKUP_PASSPHRASE)
    assert result.unclassified == ["notes-by-hand.txt"] and result.skipped == ["exports/link"]
    repo_manifest = rich_home.workbench.backups.snapshots(tmp_path / "repo", BACKUP_PASSPHRASE)
    assert repo_manifest[0].files == result.files
    restored = rich_home.workbench.backups.restore(tmp_path / "repo", BACKUP_PASSPHRASE, tmp_path / "again",
                                                   reindex=False)
    assert (restored.result.target / "notes-by-hand.txt").read_text(encoding="utf-8") == "kept\n"
    assert not (restored.result.target / ".locks").exists()
    assert not (restored.result.target / "exports" / "link").exists()
