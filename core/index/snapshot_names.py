"""Where vector snapshots live and how their folders are named: ``<cache>/vectors/e<epoch>-g<gen>/``.

Kept apart from core.index.snapshot (which needs numpy) so that asking "is there a snapshot, and
of which generation?" costs no numpy import.
"""

from __future__ import annotations

from pathlib import Path


def folder_name(epoch: int, gen: int) -> str:
    return f"e{epoch}-g{gen}"


def parse(name: str) -> tuple[int, int] | None:
    """(epoch, gen) of a snapshot folder name, or ``None`` for anything else."""
    if not name.startswith("e") or "-g" not in name:
        return None
    epoch, _, gen = name[1:].partition("-g")
    return (int(epoch), int(gen)) if epoch.isdigit() and gen.isdigit() else None


def complete(root: Path) -> list[tuple[int, int, Path]]:
    """(epoch, gen, folder) of every complete snapshot (its ``info.json`` is written last)."""
    if not root.is_dir():
        return []
    found = []
    for entry in root.iterdir():
        parsed = parse(entry.name)
        if parsed is not None and (entry / "info.json").exists():
            found.append((parsed[0], parsed[1], entry))
    return found


def newest_gen(root: Path, epoch: int) -> int:
    """The generation of the newest complete snapshot of ``epoch`` (0: none)."""
    return max((gen for e, gen, _ in complete(root) if e == epoch), default=0)
