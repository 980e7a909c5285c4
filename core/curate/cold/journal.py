"""The journal of cold-storage operations in progress, and the durable file steps they share.

Before a move or a restore touches anything it writes ``curation/pending/<move_id>.<op>.json``
holding its tombstone; the journal goes when the operation is done, so what :func:`pending_operations`
finds after a kill is what :mod:`core.curate.cold.recovery` must finish or roll back. ``on_step``
hooks name each durable step as it completes (tests kill between steps).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from pathlib import Path

from core.curate.tombstone import Tombstone
from core.fsutil import PRIVATE_DIR_MODE, atomic_write_text, fsync_dir
from core.paths import HomePaths

StepHook = Callable[[str], None]


def no_steps(name: str) -> None:
    """The default ``on_step``: nothing to report."""


def pending_dir(paths: HomePaths) -> Path:
    return paths.curation / "pending"


def pending_operations(paths: HomePaths) -> list[Path]:
    """The journals of moves and restores that have not finished, oldest move id first."""
    folder = pending_dir(paths)
    return sorted(folder.glob("m-*.json")) if folder.is_dir() else []


def write_journal(paths: HomePaths, op: str, stone: Tombstone) -> Path:
    """Record that ``op`` ("move" or "restore") of ``stone`` has begun; returns the journal's path."""
    path = pending_dir(paths) / f"{stone.move_id}.{op}.json"
    make_dirs_durably(path.parent)
    atomic_write_text(path, json.dumps({"op": op, "tombstone": stone.to_dict()}, ensure_ascii=False) + "\n")
    return path


def make_dirs_durably(folder: Path) -> None:
    """Create ``folder`` and any missing parents (0700, in the home), fsyncing the parent of each new
    folder so a crash cannot lose a folder that holds the only copy of a record."""
    missing = []
    probe = folder
    while not probe.exists():
        missing.append(probe)
        probe = probe.parent
    for new in reversed(missing):
        new.mkdir(mode=PRIVATE_DIR_MODE)
        fsync_dir(new.parent)


def remove_durably(path: Path) -> None:
    """Remove ``path`` if it exists, and fsync its folder."""
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
        fsync_dir(path.parent)
