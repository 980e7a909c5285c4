"""Moving one judged record to cold storage: the only unlink of an original record in Reverie.

A move goes through durable steps (:data:`MOVE_STEPS`): its journal, the copy in
``cold/<scope>/<move_id>/record``, the copy verified by checksum, the tombstone beside the record and
its mirror in cold storage, the ledger's ``archive`` entry, and only then the original's unlink. A
failed check rolls the move back and leaves the record in place. Callers hold the curation lock.
"""

from __future__ import annotations

import contextlib
import hashlib
from dataclasses import dataclass
from datetime import datetime
from pathlib import PurePosixPath

from core import clock
from core.curate.cold.journal import StepHook, no_steps, pending_dir, remove_durably, write_journal
from core.curate.cold.ledger_entries import append_archive, ledger_data, ledger_id, ledger_state
from core.curate.cold.site import (
    Site,
    check_in_place,
    open_cold,
    open_scope_root,
    remove_cold,
    remove_own_tombstone,
    stones_as_written,
)
from core.curate.dirfd import Folder, shown
from core.curate.errors import ChecksumMismatch, CurationError, PathEscape
from core.curate.kinds import TOMBSTONE_SUFFIX
from core.curate.model import Candidate
from core.curate.relpath import contained, safe_rel
from core.curate.results import MovedForm
from core.curate.scopes import SCOPE_NAME, Scope
from core.curate.tombstone import MIRROR_NAME, Places, Tombstone, cold_rel, new_move_id, validate
from core.errors import NotFound
from core.paths import HomePaths
from core.vault.ledger import Ledger

MOVE_STEPS = ("journal", "copied", "verified", "tombstoned", "ledgered", "unlinked")


@dataclass(frozen=True)
class Moved:
    stone: Tombstone
    places: Places

    def form(self) -> MovedForm:
        """The move as a report shows it: the places' paths and the tombstone's facts."""
        return MovedForm(str(self.places.target), str(self.places.cold), str(self.places.tombstone),
                         self.stone.sha256, self.stone.scope, self.stone.path, self.stone.move_id, self.stone.tier,
                         self.stone.approved, list(self.stone.signals))


def _tombstone_details(scope: Scope, candidate: Candidate) -> dict[str, str]:
    """Why it moved, signal by signal; for a vault memory only the signal names (the reasons can
    quote its encrypted tags, and the tombstone is plaintext)."""
    if scope.kind.name == "vault":
        return {}
    return {k: v for k, v in candidate.details.items() if k in candidate.signals}


def move_record(paths: HomePaths, scope: Scope, candidate: Candidate, ledger: Ledger, *, approved: bool,
                now: datetime | None = None, on_step: StepHook = no_steps) -> Moved:
    """Move one judged record to cold storage (see the module docstring). Every folder is held open
    from the scope root down, so one swapped for a symlink meanwhile is never followed."""
    if not SCOPE_NAME.match(scope.name):
        raise CurationError(f"scope name {scope.name!r} cannot name a cold storage folder; rename it in config.toml")
    rel = safe_rel(candidate.rel, f"candidate {candidate.id}: path")
    contained(scope.root, rel, f"candidate {candidate.id}: path")
    with contextlib.ExitStack() as stack:
        root = stack.enter_context(open_scope_root(scope, "moved"))
        try:
            folder = stack.enter_context(root.walk(rel.parent.parts, "moved"))
        except FileNotFoundError:
            raise NotFound(f"{shown(scope.root.joinpath(*rel.parts))}: no longer there; nothing was moved") from None
        stone, data = _new_stone(scope, candidate, folder, rel.name, now or clock.utc_now(), approved)
        places = validate(stone, scope, paths)
        site = Site(root, rel.parent.parts, rel.name, PurePosixPath(stone.tombstone).name, folder)
        _move(paths, scope, stone, data, places, site, ledger, stack, on_step)
    return Moved(stone, places)


def _new_stone(scope: Scope, candidate: Candidate, folder: Folder, name: str, now: datetime,
               approved: bool) -> tuple[Tombstone, bytes]:
    """The tombstone of a move of ``name`` (read from the open ``folder``), if it is as judged."""
    data, info = folder.read(name)
    digest = hashlib.sha256(data).hexdigest()
    if digest != candidate.sha256:
        raise CurationError(f"{folder.where / name}: changed since it was judged; scan again")
    move_id = new_move_id(now)
    plain = candidate.rel + TOMBSTONE_SUFFIX
    stone_rel = plain if folder.lstat(name + TOMBSTONE_SUFFIX) is None else \
        f"{candidate.rel}.{move_id[-12:]}{TOMBSTONE_SUFFIX}"
    return Tombstone(
        move_id=move_id, scope=scope.name, kind=scope.kind.name, path=candidate.rel, tombstone=stone_rel,
        cold_path=cold_rel(scope.name, move_id, candidate.rel),
        sha256=digest, size=len(data), mode=info.st_mode & 0o7777, mtime_ns=info.st_mtime_ns,
        moved_at=now.isoformat(timespec="seconds"), rubric_version=candidate.rubric_version, tier=candidate.tier,
        approved=approved, signals=candidate.signals, details=_tombstone_details(scope, candidate),
    ), data


def _move(paths: HomePaths, scope: Scope, stone: Tombstone, data: bytes, places: Places, site: Site,
          ledger: Ledger, stack: contextlib.ExitStack, on_step: StepHook) -> None:
    journal = write_journal(paths, "move", stone)
    on_step("journal")
    try:
        _copy_and_tombstone(paths, stone, data, places, site, stack, on_step)
    except OSError as exc:  # a folder removed or replaced under the move, a full disk
        roll_back_move(paths, stone, site, None, "a write failed")
        raise CurationError(f"{shown(places.target)}: {exc.strerror or exc} while it was being moved; "
                            "nothing was moved") from None
    append_archive(ledger, scope, stone)
    on_step("ledgered")
    unlink_original(paths, stone, places, site, ledger)
    on_step("unlinked")
    remove_durably(journal)


def _copy_and_tombstone(paths: HomePaths, stone: Tombstone, data: bytes, places: Places, site: Site,
                        stack: contextlib.ExitStack, on_step: StepHook) -> None:
    """Steps ``copied``, ``verified`` and ``tombstoned``, each checked; on a failed check the move is
    rolled back and the error names it. Last, the folders written in must still be where they were."""
    assert site.folder is not None
    original, digest = places.target, stone.sha256
    open_cold(stack, paths, site, stone, "moved", create=True)
    assert site.copy is not None and site.move is not None
    site.copy.write_new(site.record, data)
    on_step("copied")
    if site.copy_sha256() != digest:
        roll_back_move(paths, stone, site, None, "the copy does not match")
        raise ChecksumMismatch(f"{places.cold}: the copy does not match {original}; nothing was moved")
    on_step("verified")
    stone_bytes = stone.to_bytes()
    site.move.write_new(MIRROR_NAME, stone_bytes)
    site.folder.write_new(site.stone, stone_bytes)
    on_step("tombstoned")
    if site.record_sha256() != digest:
        roll_back_move(paths, stone, site, None, "the record changed while it was being moved")
        raise CurationError(f"{original}: changed while it was being moved; left in place")
    if not (site.stone_present() and site.mirror_present() and stones_as_written(stone, site)):
        roll_back_move(paths, stone, site, None, "its tombstone did not read back as written")
        raise ChecksumMismatch(f"{places.tombstone}: the tombstone or its copy in cold storage did not read back "
                               f"as written; {original} left in place")
    try:
        check_in_place(site, paths, stone, "moved")
    except PathEscape:
        roll_back_move(paths, stone, site, None, "a folder was replaced while it was being moved")
        raise


def unlink_original(paths: HomePaths, stone: Tombstone, places: Places, site: Site, ledger: Ledger) -> None:
    """The one place an original is removed: only while its verified copy and tombstone exist. It is
    removed from the folder held open, never from wherever its path leads now."""
    if site.copy_sha256() != stone.sha256 or not site.stone_present():
        raise ChecksumMismatch(f"{places.cold}: no verified copy with its tombstone; {places.target} left in place")
    current = site.record_sha256()
    if current is None or site.folder is None:
        return
    if current != stone.sha256:
        roll_back_move(paths, stone, site, ledger, "the record changed while it was being moved")
        raise CurationError(f"{places.target}: changed while it was being moved; left in place")
    site.folder.unlink(site.record)


def roll_back_move(paths: HomePaths, stone: Tombstone, site: Site, ledger: Ledger | None, why: str) -> None:
    """Undo a move whose original is still in place: tombstone and cold copy go, the record stays."""
    remove_own_tombstone(site, stone.move_id)
    remove_cold(site, stone.move_id)
    if ledger is not None and ledger_state(ledger).get(stone.move_id) == "archive":
        data = {**ledger_data(stone), "rolled_back": why}
        ledger.append("restore", ledger_id(stone.kind, stone.scope, stone.path), stone.sha256, data)
    remove_durably(pending_dir(paths) / f"{stone.move_id}.move.json")
