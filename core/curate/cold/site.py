"""A move's folders held open: the scope root, the record's folder, and its cold storage folders.

Every write, unlink and check of a move or restore goes through descriptors opened ``O_NOFOLLOW``
from the scope root and the home (:mod:`core.curate.dirfd`), so a folder swapped for a symlink after
it was opened is never followed and a swapped folder is a ``PathEscape``. This module opens a
:class:`Site`, checks it is still in place, and tidies what a move left in it.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import PurePosixPath

from core.curate.cold.ledger_entries import tombstone_sha256
from core.curate.dirfd import Folder, is_temp_of, still_at
from core.curate.scopes import Scope
from core.curate.tombstone import MIRROR_NAME, Tombstone
from core.errors import NotFound, RecordError
from core.fsutil import PRIVATE_DIR_MODE
from core.paths import HomePaths


@dataclass
class Site:
    """A move's folders, held open: the scope root, the record's folder in it (None while missing),
    and in cold storage ``cold/<scope>``, ``<move_id>`` and its ``record`` folder (None while missing)."""

    root: Folder
    parts: tuple[str, ...]  # the record's folder below the root
    record: str  # the record's file name
    stone: str  # the tombstone's file name
    folder: Folder | None = None
    cold_scope: Folder | None = None
    move: Folder | None = None
    copy: Folder | None = None

    def record_sha256(self) -> str | None:
        return self.folder.sha256(self.record) if self.folder else None

    def copy_sha256(self) -> str | None:
        return self.copy.sha256(self.record) if self.copy else None

    def stone_present(self) -> bool:
        return self.folder is not None and self.folder.lstat(self.stone) is not None

    def mirror_present(self) -> bool:
        return self.move is not None and self.move.lstat(MIRROR_NAME) is not None


def open_scope_root(scope: Scope, what: str) -> Folder:
    """The scope's root folder, opened; ``NotFound`` (nothing was ``what``) when it does not exist."""
    try:
        return Folder.open_root(scope.root, what)
    except FileNotFoundError:
        raise NotFound(f"scope {scope.name!r}: its folder {scope.root} does not exist; nothing was {what}") from None


def open_site(stack: contextlib.ExitStack, paths: HomePaths, scope: Scope, stone: Tombstone, what: str) -> Site:
    """Open ``stone``'s folders (those that exist) for the duration of ``stack``."""
    rel = PurePosixPath(stone.path)
    site = Site(stack.enter_context(open_scope_root(scope, what)), rel.parent.parts, rel.name,
                PurePosixPath(stone.tombstone).name)
    with contextlib.suppress(FileNotFoundError):
        site.folder = stack.enter_context(site.root.walk(site.parts, what))
    open_cold(stack, paths, site, stone, what, create=False)
    return site


def open_cold(stack: contextlib.ExitStack, paths: HomePaths, site: Site, stone: Tombstone, what: str, *,
              create: bool) -> None:
    """Open (with ``create``: make, 0700) ``cold/<scope>/<move_id>/record``, none of it through a symlink."""
    mode = PRIVATE_DIR_MODE if create else None
    try:
        with Folder.open_root(paths.root, what, follow=True) as home:
            site.cold_scope = stack.enter_context(home.walk(("cold", stone.scope), what, create=mode))
        site.move = stack.enter_context(site.cold_scope.child(stone.move_id, what, create=mode))
        site.copy = stack.enter_context(site.move.child("record", what, create=mode))
    except FileNotFoundError:
        return


def check_in_place(site: Site, paths: HomePaths, stone: Tombstone, what: str) -> None:
    """The folders written in are still where their paths lead (none renamed away or replaced)."""
    if site.folder is not None:
        still_at(site.root, site.parts, site.folder, what)
    if site.move is not None:
        with Folder.open_root(paths.root, what, follow=True) as home:
            still_at(home, ("cold", stone.scope, stone.move_id), site.move, what)


def stones_as_written(stone: Tombstone, site: Site) -> bool:
    """Each of the tombstone and its mirror that exists holds exactly the bytes curation writes."""
    digest = tombstone_sha256(stone)
    found = ((site.folder, site.stone), (site.move, MIRROR_NAME))
    return all(folder.sha256(name) == digest for folder, name in found
               if folder is not None and folder.lstat(name) is not None)


def ensure_tombstones(stone: Tombstone, site: Site) -> None:
    """Write the mirror and the tombstone beside the record where either is missing."""
    for folder, name in ((site.move, MIRROR_NAME), (site.folder, site.stone)):
        if folder is not None and folder.lstat(name) is None:
            with contextlib.suppress(FileExistsError):
                folder.write_new(name, stone.to_bytes())


def remove_own_tombstone(site: Site, move_id: str) -> None:
    """Remove the tombstone beside the record only if it is this move's (never someone else's file)."""
    if site.folder is None:
        return
    try:
        data, _ = site.folder.read(site.stone)
        stone = Tombstone.from_bytes(data, str(site.folder.where / site.stone))
    except (OSError, RecordError):
        return
    if stone.move_id == move_id:
        site.folder.unlink(site.stone)


def _is_temp(name: str) -> bool:
    return name.startswith(".") and name.endswith(".tmp")


def remove_cold(site: Site, move_id: str) -> None:
    """Remove a move's cold folder: the copy, the mirror and any temp file this package left."""
    for folder, name in ((site.copy, site.record), (site.move, MIRROR_NAME)):
        if folder is not None:
            folder.unlink(name)
            for leftover in folder.names():
                if _is_temp(leftover):
                    folder.unlink(leftover)
    if site.move is not None:
        site.move.rmdir("record")
    if site.cold_scope is not None:
        site.cold_scope.rmdir(move_id)


def clean_temp(site: Site) -> None:
    """Temp files that a killed write left beside the record: ours by their exact form
    (``.<record or tombstone name>.<8 characters>.tmp``, see :meth:`Folder.write_new`), never a person's file."""
    if site.folder is not None:
        for leftover in site.folder.names():
            if any(is_temp_of(leftover, name) for name in (site.record, site.stone)):
                site.folder.unlink(leftover)
