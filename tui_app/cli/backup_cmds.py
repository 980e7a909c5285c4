"""``reverie backup DEST``, ``backup check``, ``backup list`` and ``backup restore``.

The repository's passphrase comes from ``REVERIE_BACKUP_PASSPHRASE`` or the terminal (asked twice
when the repository is created); it is never printed. Exit codes: 0 done, 1 the repository is
damaged (``check`` found a problem, or a restore met a blob that does not authenticate), 2 bad input
(a wrong passphrase, a non-empty restore target), 3 no repository or snapshot there.
"""

from __future__ import annotations

import os
import sys
from dataclasses import asdict
from pathlib import Path

import click

from core.errors import VaultLocked
from tui_app.cli.state import CliState, counted, emit, pass_state

PASSPHRASE_ENV = "REVERIE_BACKUP_PASSPHRASE"

_DEST = click.argument("dest", type=click.Path(file_okay=False, path_type=Path))


def _passphrase(*, new: bool) -> str:
    """The repository's passphrase from the environment or the terminal (twice for a new one)."""
    value = os.environ.get(PASSPHRASE_ENV)
    if value:
        return value
    if not sys.stdin.isatty():
        raise VaultLocked(f"no backup passphrase: set {PASSPHRASE_ENV} or run in a terminal")
    if new:
        return click.prompt("New backup passphrase", hide_input=True, err=True,
                            confirmation_prompt="Repeat the backup passphrase")
    return click.prompt("Backup passphrase", hide_input=True, err=True)


class _BackupGroup(click.Group):
    """``reverie backup DEST`` is ``reverie backup create DEST``: a first argument that names no
    subcommand is the destination."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and not args[0].startswith("-") and args[0] not in self.commands:
            args = ["create", *args]
        return super().parse_args(ctx, args)


@click.group(cls=_BackupGroup)
def backup() -> None:
    """Encrypted backups of everything in the home that is not derived (vault, drafts, ledger, day
    logs, topics, curation, cold storage, config; not the search index). `reverie backup DEST`
    takes a snapshot, safe while ingest or watch run. The passphrase comes from
    $REVERIE_BACKUP_PASSPHRASE or the terminal; keep it: without it nothing can be restored."""


@backup.command("create")
@_DEST
@click.option("--json", "as_json", is_flag=True)
@pass_state
def create(state: CliState, dest: Path, as_json: bool) -> None:
    """Take a snapshot into the repository DEST (created when missing or empty)."""
    backups = state.workbench.backups
    result = backups.backup(dest, _passphrase(new=not backups.repository_exists(dest)))
    lines = [f"snapshot {result.snapshot}: {result.files} files, {result.size:,} bytes; "
             f"{result.new_blobs} new blobs ({result.new_bytes:,} bytes), {result.reused_blobs} already stored"]
    if result.unclassified:
        lines.append(f"backed up, not in the table of home entries: {', '.join(result.unclassified)}")
    if result.skipped:
        lines.append(f"skipped (not regular files): {', '.join(result.skipped)}")
    emit(asdict(result), as_json, "\n".join(lines))


@backup.command("check")
@_DEST
@click.option("--read-data", is_flag=True, help="Also decrypt every blob and check it hashes to its id.")
@click.option("--json", "as_json", is_flag=True)
@pass_state
def check(state: CliState, dest: Path, read_data: bool, as_json: bool) -> None:
    """Verify the repository DEST without restoring it; exit 1 when anything is damaged."""
    report = state.workbench.backups.check(dest, _passphrase(new=False), read_data=read_data)
    read = f", {report.blobs_read} read and authenticated" if read_data else ""
    held = f"{counted(report.snapshots, 'snapshot')}, {counted(report.blobs, 'blob')}"
    lines = [f"{'ok' if report.ok else 'DAMAGED'}: {held}{read}",
             *(f"problem: {p}" for p in report.problems), *(f"note: {n}" for n in report.notes)]
    emit({**asdict(report), "ok": report.ok}, as_json, "\n".join(lines))
    if not report.ok:
        sys.exit(1)


@backup.command("list")
@_DEST
@click.option("--json", "as_json", is_flag=True)
@pass_state
def list_(state: CliState, dest: Path, as_json: bool) -> None:
    """The snapshots in the repository DEST, oldest first."""
    infos = state.workbench.backups.snapshots(dest, _passphrase(new=False))
    lines = [f"{i.name}  {i.time}  {i.files} files  {i.size:,} bytes  {i.host}" if i.damage is None
             else f"{i.name}  damaged: {i.damage}" for i in infos] or ["no snapshots yet"]
    emit([asdict(i) for i in infos], as_json, "\n".join(lines))


@backup.command("restore")
@_DEST
@click.argument("home", type=click.Path(path_type=Path))
@click.option("--snapshot", default=None, help="Snapshot name or a unique prefix (default: the latest).")
@click.option("--no-embed", is_flag=True, help="Derive the word index only; vectors follow with `reverie reindex`.")
@click.option("--json", "as_json", is_flag=True)
@pass_state
def restore(state: CliState, dest: Path, home: Path, snapshot: str | None, no_embed: bool, as_json: bool) -> None:
    """Restore a snapshot of DEST into HOME (an empty or new folder), then build its index."""
    done = state.workbench.backups.restore(dest, _passphrase(new=False), home, snapshot=snapshot,
                                           embed=not no_embed)
    result = done.result
    text = (f"restored snapshot {result.snapshot} into {result.target}: {result.files} files, "
            f"{result.size:,} bytes; index rebuilt. Check it: reverie --home {result.target} verify")
    if done.note:
        text += f"\n{done.note}"
    emit({"snapshot": result.snapshot, "home": str(result.target), "files": result.files, "size": result.size,
          "turns_indexed": done.reindex.turns_added if done.reindex else 0, "note": done.note}, as_json, text)


def register(cli: click.Group) -> None:
    cli.add_command(backup)
