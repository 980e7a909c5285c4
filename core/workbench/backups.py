"""Backups of the home: take one, check a repository, list its snapshots, restore one into an empty
home and derive its index again. The repository's passphrase is the caller's to ask for (it is not
the vault's, though a person may choose the same; the CLI reads ``REVERIE_BACKUP_PASSPHRASE``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from core.backup.check import CheckReport, check_repository
from core.backup.listing import SnapshotInfo, list_snapshots
from core.backup.repository import Repository
from core.backup.restore import RestoreResult, check_empty_target, pick_snapshot, restore_snapshot
from core.backup.take import BackupResult, check_destination, take_backup
from core.errors import ReverieError
from core.paths import HomePaths
from core.workbench.service import Service

if TYPE_CHECKING:
    from core.index.reindex import ReindexReport


@dataclass(frozen=True)
class HomeRestored:
    result: RestoreResult
    reindex: ReindexReport | None  # None when the index was not derived (``reindex=False``)
    note: str | None = None  # what the reindex could not do (the memories, when the vault stayed locked)


class Backups(Service):
    """``reverie backup``: encrypted snapshots of everything in the home that is not derived."""

    @staticmethod
    def repository_exists(dest: Path) -> bool:
        return Repository.exists(dest)

    def backup(self, dest: Path, passphrase: str) -> BackupResult:
        """A new snapshot in the repository at ``dest``, created first when there is none (with the
        workbench's Argon2id parameters, the vault's defaults unless a test passed cheaper ones)."""
        check_destination(self.paths, dest)
        if Repository.exists(dest):
            repo = Repository.open(dest, passphrase)
        else:
            repo = Repository.create(dest, passphrase, self.workbench.kdf)
        return take_backup(self.paths, repo)

    def check(self, dest: Path, passphrase: str, *, read_data: bool = False) -> CheckReport:
        return check_repository(Repository.open(dest, passphrase), read_data=read_data)

    def snapshots(self, dest: Path, passphrase: str) -> list[SnapshotInfo]:
        return list_snapshots(Repository.open(dest, passphrase))

    def restore(self, dest: Path, passphrase: str, target: Path, *, snapshot: str | None = None,
                reindex: bool = True, embed: bool = True, vault_passphrase: str | None = None) -> HomeRestored:
        """Restore ``snapshot`` (default: the latest) into ``target``, an empty or new folder, then
        derive its index (:meth:`core.workbench.log.Log.reindex` on a workbench opened there, with this
        one's settings for the embedder and the passphrase prompt). The memories are indexed too when
        the restored vault opens (``vault_passphrase``, else the one at hand, else the prompt); when it
        does not, :attr:`HomeRestored.note` says so and the next search with the vault open indexes them."""
        target = Path(target).expanduser().absolute()
        check_empty_target(target)  # before the passphrase's slow key derivation
        repo = Repository.open(dest, passphrase)
        result = restore_snapshot(repo, pick_snapshot(repo, snapshot), target)
        if not reindex:
            return HomeRestored(result, None)
        source, note = self.workbench, None
        with type(source)(HomePaths.at(target), kdf=source.kdf, embedder=source._embedder_factory,
                          ask_passphrase=source.ask_passphrase, notice=source.notice) as restored:
            if restored.has_vault:
                try:
                    restored.unlock(vault_passphrase)
                except ReverieError as exc:
                    note = f"memories not indexed yet ({exc}); the next search with the vault open indexes them"
            report = restored.log.reindex(embed=embed)
        return HomeRestored(result, report, note)
