"""Cold storage: move a record out of its scope with a tombstone, restore it byte for byte, and
finish or roll back whatever a crash interrupted.

A move goes through durable steps (``journal``, ``copied``, ``verified``, ``tombstoned``,
``ledgered``, ``unlinked``: the only unlink of an original record in Reverie); a restore checks the
cold copy, refuses if anything stands at the record's path, writes the bytes back with their mode and
mtime, records the restore in the ledger and ``restores.jsonl``, and only then removes tombstone,
mirror and copy. Killed at any point, :func:`recover` finds the original or a verified copy with its
tombstone and finishes or rolls back. Callers hold the curation lock. Every folder is reached through
descriptors opened ``O_NOFOLLOW`` from the scope root (:mod:`core.curate.dirfd`), so a symlink or a
swapped folder is a ``PathEscape`` found before the ledger entry. ``on_step`` names each step as it
completes (tests kill between steps).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import stat
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import Any

from core import clock
from core.config import Config
from core.curate import learning
from core.curate.dirfd import Folder, is_temp_of, shown, still_at
from core.curate.errors import ChecksumMismatch, CurationError, PathEscape, WouldOverwrite
from core.curate.kinds import TOMBSTONE_SUFFIX, read_file
from core.curate.model import Candidate
from core.curate.relpath import contained, safe_rel
from core.curate.results import ColdItemForm, MovedForm, RestoredForm
from core.curate.scopes import SCOPE_NAME, Scope, get_scope
from core.curate.tombstone import (
    MIRROR_NAME,
    MOVE_ID,
    Places,
    Tombstone,
    cold_rel,
    new_move_id,
    validate,
)
from core.errors import NotFound, RecordError
from core.fsutil import PRIVATE_DIR_MODE, atomic_write_text, fsync_dir
from core.paths import HomePaths
from core.vault.ledger import Ledger, LedgerEntry

StepHook = Callable[[str], None]
MOVE_STEPS = ("journal", "copied", "verified", "tombstoned", "ledgered", "unlinked")
RESTORE_STEPS = ("journal", "copied", "verified", "ledgered", "logged", "cleaned")


def no_steps(name: str) -> None:
    """The default ``on_step``: nothing to report."""


def sha256_of(path: Path) -> str | None:
    """SHA-256 of the regular file at ``path`` (not following a symlink), or None if there is none."""
    try:
        data, _ = read_file(path)
    except (FileNotFoundError, OSError):
        return None
    return hashlib.sha256(data).hexdigest()


def pending_dir(paths: HomePaths) -> Path:
    return paths.curation / "pending"


def _journal(paths: HomePaths, op: str, stone: Tombstone) -> Path:
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


def _remove(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
        fsync_dir(path.parent)


@dataclass
class Site:
    """A move's folders, held open (see :mod:`core.curate.dirfd`): the scope root, the record's folder
    in it (None while missing), and in cold storage ``cold/<scope>``, ``<move_id>`` and its ``record``
    folder (None while missing). Every write, unlink and check of a move or restore goes through these,
    so a folder swapped for a symlink after it was opened is never followed."""

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


def _scope_root(scope: Scope, what: str) -> Folder:
    try:
        return Folder.open_root(scope.root, what)
    except FileNotFoundError:
        raise NotFound(f"scope {scope.name!r}: its folder {scope.root} does not exist; nothing was {what}") from None


def open_site(stack: contextlib.ExitStack, paths: HomePaths, scope: Scope, stone: Tombstone, what: str) -> Site:
    """Open ``stone``'s folders (those that exist) for the duration of ``stack``."""
    rel = PurePosixPath(stone.path)
    site = Site(stack.enter_context(_scope_root(scope, what)), rel.parent.parts, rel.name,
                PurePosixPath(stone.tombstone).name)
    with contextlib.suppress(FileNotFoundError):
        site.folder = stack.enter_context(site.root.walk(site.parts, what))
    _open_cold(stack, paths, site, stone, what, create=False)
    return site


def _open_cold(stack: contextlib.ExitStack, paths: HomePaths, site: Site, stone: Tombstone, what: str, *,
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


def _check_in_place(site: Site, paths: HomePaths, stone: Tombstone, what: str) -> None:
    """The folders written in are still where their paths lead (none renamed away or replaced)."""
    if site.folder is not None:
        still_at(site.root, site.parts, site.folder, what)
    if site.move is not None:
        with Folder.open_root(paths.root, what, follow=True) as home:
            still_at(home, ("cold", stone.scope, stone.move_id), site.move, what)


def _remove_own_tombstone(site: Site, move_id: str) -> None:
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


def _remove_cold(site: Site, move_id: str) -> None:
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



def record_id(scope: Scope, rel: str) -> str:
    """The ledger's record id: a vault memory's own id, else ``curate:<scope>:<path>``."""
    return _ledger_id(scope.kind.name, scope.name, rel)


def _ledger_id(kind: str, scope: str, rel: str) -> str:
    if kind == "vault" and rel.endswith(".json"):
        return rel[: -len(".json")]
    return f"curate:{scope}:{rel}"


def _ledger_data(stone: Tombstone) -> dict[str, Any]:
    """What every ledger entry about a move records besides the record's SHA-256: signed bytes (the
    entry's canonical JSON is hashed into the chain), so its keys are fixed here, not by a type."""
    return {"scope": stone.scope, "path": stone.path, "cold_path": stone.cold_path, "tombstone": stone.tombstone,
            "move_id": stone.move_id, "signals": list(stone.signals), "tier": stone.tier,
            "rubric_version": stone.rubric_version, "approved": stone.approved}


def tombstone_sha256(stone: Tombstone) -> str:
    """The SHA-256 of the tombstone's exact bytes, as written beside the record and as its mirror."""
    return hashlib.sha256(stone.to_bytes()).hexdigest()


def _archive_data(stone: Tombstone) -> dict[str, Any]:
    """An ``archive`` entry also records ``tombstone_sha256``, so the mirror's fields the entry does not
    repeat (mode, mtime, when and why it moved) are protected too, also once the tombstone beside the
    record has been tidied away. It is written only after both tombstones read back with that SHA-256.
    Entries written before it was recorded lack it; ``reverie verify`` then compares field by field."""
    return {**_ledger_data(stone), "tombstone_sha256": tombstone_sha256(stone)}


def _stones_as_written(stone: Tombstone, site: Site) -> bool:
    """Each of the tombstone and its mirror that exists holds exactly the bytes curation writes."""
    digest = tombstone_sha256(stone)
    found = ((site.folder, site.stone), (site.move, MIRROR_NAME))
    return all(folder.sha256(name) == digest for folder, name in found
               if folder is not None and folder.lstat(name) is not None)



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
    """Move one judged record to cold storage (see the module docstring for the steps). Every folder is
    held open from the scope root down, so one swapped for a symlink meanwhile is never followed."""
    if not SCOPE_NAME.match(scope.name):
        raise CurationError(f"scope name {scope.name!r} cannot name a cold storage folder; rename it in config.toml")
    rel = safe_rel(candidate.rel, f"candidate {candidate.id}: path")
    contained(scope.root, rel, f"candidate {candidate.id}: path")
    with contextlib.ExitStack() as stack:
        root = stack.enter_context(_scope_root(scope, "moved"))
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
    journal = _journal(paths, "move", stone)
    on_step("journal")
    try:
        _copy_and_tombstone(paths, stone, data, places, site, stack, on_step)
    except OSError as exc:  # a folder removed or replaced under the move, a full disk
        _roll_back_move(paths, stone, site, None, "a write failed")
        raise CurationError(f"{shown(places.target)}: {exc.strerror or exc} while it was being moved; "
                            "nothing was moved") from None
    ledger.append("archive", record_id(scope, stone.path), stone.sha256, _archive_data(stone))
    on_step("ledgered")
    _unlink_original(paths, stone, places, site, ledger)
    on_step("unlinked")
    _remove(journal)


def _copy_and_tombstone(paths: HomePaths, stone: Tombstone, data: bytes, places: Places, site: Site,
                        stack: contextlib.ExitStack, on_step: StepHook) -> None:
    """Steps ``copied``, ``verified`` and ``tombstoned``, each checked; on a failed check the move is
    rolled back and the error names it. Last, the folders written in must still be where they were."""
    assert site.folder is not None
    original, digest = places.target, stone.sha256
    _open_cold(stack, paths, site, stone, "moved", create=True)
    assert site.copy is not None and site.move is not None
    site.copy.write_new(site.record, data)
    on_step("copied")
    if site.copy_sha256() != digest:
        _roll_back_move(paths, stone, site, None, "the copy does not match")
        raise ChecksumMismatch(f"{places.cold}: the copy does not match {original}; nothing was moved")
    on_step("verified")
    stone_bytes = stone.to_bytes()
    site.move.write_new(MIRROR_NAME, stone_bytes)
    site.folder.write_new(site.stone, stone_bytes)
    on_step("tombstoned")
    if site.record_sha256() != digest:
        _roll_back_move(paths, stone, site, None, "the record changed while it was being moved")
        raise CurationError(f"{original}: changed while it was being moved; left in place")
    if not (site.stone_present() and site.mirror_present() and _stones_as_written(stone, site)):
        _roll_back_move(paths, stone, site, None, "its tombstone did not read back as written")
        raise ChecksumMismatch(f"{places.tombstone}: the tombstone or its copy in cold storage did not read back "
                               f"as written; {original} left in place")
    try:
        _check_in_place(site, paths, stone, "moved")
    except PathEscape:
        _roll_back_move(paths, stone, site, None, "a folder was replaced while it was being moved")
        raise


def _unlink_original(paths: HomePaths, stone: Tombstone, places: Places, site: Site, ledger: Ledger) -> None:
    """The one place an original is removed: only while its verified copy and tombstone exist. It is
    removed from the folder held open, never from wherever its path leads now."""
    if site.copy_sha256() != stone.sha256 or not site.stone_present():
        raise ChecksumMismatch(f"{places.cold}: no verified copy with its tombstone; {places.target} left in place")
    current = site.record_sha256()
    if current is None or site.folder is None:
        return
    if current != stone.sha256:
        _roll_back_move(paths, stone, site, ledger, "the record changed while it was being moved")
        raise CurationError(f"{places.target}: changed while it was being moved; left in place")
    site.folder.unlink(site.record)


def _roll_back_move(paths: HomePaths, stone: Tombstone, site: Site, ledger: Ledger | None, why: str) -> None:
    """Undo a move whose original is still in place: tombstone and cold copy go, the record stays."""
    _remove_own_tombstone(site, stone.move_id)
    _remove_cold(site, stone.move_id)
    if ledger is not None and _ledger_state(ledger).get(stone.move_id) == "archive":
        data = {**_ledger_data(stone), "rolled_back": why}
        ledger.append("restore", _ledger_id(stone.kind, stone.scope, stone.path), stone.sha256, data)
    _remove(pending_dir(paths) / f"{stone.move_id}.move.json")



def _ledger_state(ledger: Ledger) -> dict[str, str]:
    """move id → the kind of the latest ledger entry about it ("archive" or "restore")."""
    state: dict[str, str] = {}
    for entry in ledger.read(full=False).entries:
        move_id = entry.data.get("move_id") if isinstance(entry.data, dict) else None
        if isinstance(move_id, str) and entry.kind in ("archive", "restore"):
            state[move_id] = entry.kind
    return state


# ------------------------------------------------------------------------------------- restore


@dataclass(frozen=True)
class Restored:
    path: Path
    sha256: str
    scope: str
    rel: str
    move_id: str
    already: bool = False  # it was already back (an idempotent second restore)

    def form(self) -> RestoredForm:
        """``curate restore --json``: ``path`` as ``restored``, ``already`` as ``already_restored``."""
        return RestoredForm(str(self.path), self.sha256, self.scope, self.rel, self.move_id, self.already)


def _read_stone(path: Path) -> Tombstone:
    try:
        data, _ = read_file(path)
    except FileNotFoundError:
        raise NotFound(f"{path}: no such tombstone") from None
    except OSError as exc:
        raise RecordError(f"{path}: cannot be read: {exc}") from exc
    return Tombstone.from_bytes(data, str(path))


def _mirrors(paths: HomePaths) -> list[Path]:
    if not paths.cold.is_dir():
        return []
    return sorted(paths.cold.glob(f"*/m-*/{MIRROR_NAME}"))


def _find_mirror_by_move(paths: HomePaths, move_id: str) -> Path:
    for scope_dir in (paths.cold.iterdir() if paths.cold.is_dir() else []):
        candidate = scope_dir / move_id / MIRROR_NAME
        if candidate.is_file():
            return candidate
    raise NotFound(f"no move {move_id} in {paths.cold}")


def locate(paths: HomePaths, config: Config, spec: str) -> tuple[Tombstone, Scope, Places]:
    """The tombstone that ``spec`` names (a tombstone file, the record's original path, a cold path
    or a move id), its scope, and its validated places. The working tombstone and its mirror must
    agree."""
    stone: Tombstone | None = None
    if MOVE_ID.match(spec):
        stone = _read_stone(_find_mirror_by_move(paths, spec))
    else:
        given = Path(spec).expanduser().absolute()
        cold_root = paths.cold.absolute()
        if given.name.endswith(TOMBSTONE_SUFFIX):
            stone = _read_stone(given)
        elif cold_root in given.parents:
            parts = given.relative_to(cold_root).parts
            if len(parts) < 2:
                raise NotFound(f"{given}: not a moved record in cold storage")
            stone = _read_stone(paths.cold / parts[0] / parts[1] / MIRROR_NAME)
        else:
            stone = _stone_for_original(paths, config, given)
    scope = get_scope(config, paths, stone.scope)
    if not scope.root.is_dir():
        raise NotFound(f"scope {scope.name!r}: its folder {scope.root} does not exist; nothing was restored")
    places = validate(stone, scope, paths)
    if MOVE_ID.match(spec) is None and Path(spec).name.endswith(TOMBSTONE_SUFFIX):
        given = Path(spec).expanduser().absolute()
        if given.resolve() != places.tombstone.resolve():
            raise PathEscape(f"{given}: the tombstone says it belongs at {places.tombstone}; nothing was restored")
    _check_agreement(stone, places)
    return stone, scope, places


def _scope_lookup(config: Config, paths: HomePaths) -> Callable[[str], Scope]:
    """``get_scope`` for one listing: each scope is built once (building one resolves its folder and
    the home's, which over thousands of moved records of the same few scopes took seconds)."""
    known: dict[str, Scope] = {}

    def scope_named(name: str) -> Scope:
        if name not in known:
            known[name] = get_scope(config, paths, name)
        return known[name]

    return scope_named


def _stone_for_original(paths: HomePaths, config: Config, original: Path) -> Tombstone:
    beside = original.with_name(original.name + TOMBSTONE_SUFFIX)
    if beside.is_file():
        return _read_stone(beside)
    if original.parent.is_dir():
        for path in sorted(original.parent.glob(f"{original.name}.*{TOMBSTONE_SUFFIX}"), reverse=True):
            return _read_stone(path)
    scope_named = _scope_lookup(config, paths)
    for mirror in reversed(_mirrors(paths)):
        stone = _read_stone(mirror)
        try:
            scope = scope_named(stone.scope)
        except NotFound:
            continue
        if scope.root.joinpath(*PurePosixPath(stone.path).parts) == original:
            return stone
    raise NotFound(f"{original}: no tombstone and nothing in cold storage for this path")


def _check_agreement(stone: Tombstone, places: Places) -> None:
    def key(s: Tombstone) -> tuple[str, str, str, str]:
        return (s.path, s.cold_path, s.sha256, s.scope)

    for path in (places.tombstone, places.mirror):
        if not path.is_file():
            continue
        other = _read_stone(path)
        if other.move_id == stone.move_id and key(other) != key(stone):
            raise RecordError(f"{path}: disagrees with the other copy of tombstone {stone.move_id}; "
                              "nothing was restored")


def _already_restored(paths: HomePaths, config: Config, spec: str) -> Restored | None:
    """A second restore of the same thing: the record is back, its restore recorded."""
    target = Path(spec).expanduser().absolute()
    name = target.name
    if name.endswith(TOMBSTONE_SUFFIX):
        name = name[: -len(TOMBSTONE_SUFFIX)]
        stem, dot, tail = name.rpartition(".")
        if dot and len(tail) == 12 and all(c in "0123456789abcdef" for c in tail):
            name = stem
        target = target.with_name(name)
    for item in reversed(learning.read_restores(paths)):
        if MOVE_ID.match(spec) and item["move_id"] != spec:
            continue
        try:
            scope = get_scope(config, paths, str(item["scope"]))
        except NotFound:
            continue
        path = scope.root.joinpath(*PurePosixPath(str(item["path"])).parts)
        if (MOVE_ID.match(spec) or path == target) and sha256_of(path) == item.get("sha256"):
            return Restored(path, str(item["sha256"]), scope.name, str(item["path"]), item["move_id"], already=True)
    return None


def restore_record(paths: HomePaths, config: Config, spec: str, ledger: Ledger,
                   now: datetime | None = None, on_step: StepHook = no_steps) -> Restored:
    """Put a moved record back exactly (see the module docstring). Restoring twice is a no-op."""
    try:
        stone, scope, places = locate(paths, config, spec)
    except NotFound:
        done = _already_restored(paths, config, spec)
        if done:
            return done
        raise
    return _restore(paths, config, stone, scope, places, ledger, now or clock.utc_now(), on_step)


def _move_entries(ledger: Ledger, move_id: str) -> list[LedgerEntry]:
    """The ``archive`` and ``restore`` ledger entries about ``move_id``, oldest first."""
    return [entry for entry in ledger.read(full=False).entries
            if entry.kind in ("archive", "restore") and entry.data.get("move_id") == move_id]


def check_against_ledger(stone: Tombstone, scope: Scope, ledger: Ledger, *, resumed: bool = False) -> bool:
    """Refuse a restore the signed ledger does not vouch for: the move's latest entry must be an ``archive``
    of the same record (id, SHA-256) to the same places (scope, path, tombstone, cold path), and, when the
    entry recorded it, of a tombstone with the same SHA-256 (which covers its mode and mtime). The tombstone
    is plaintext and unsigned: without this, consistent edits of the cold copy and both tombstones would
    restore an attacker's bytes, to another path, with another mode. ``ChecksumMismatch`` names the field.
    ``resumed``: finishing this restore after a crash, so its own ``restore`` entry may follow the archive.
    Returns whether the tombstone's own fields (mode, mtime) are vouched for by ``tombstone_sha256``."""
    where = f"tombstone {stone.move_id}"
    entries = _move_entries(ledger, stone.move_id)
    archives = [entry for entry in entries if entry.kind == "archive"]
    if not archives:
        raise ChecksumMismatch(f"{where}: field 'move_id': the ledger records no move {stone.move_id}; "
                               "nothing was restored")
    entry, latest = archives[-1], entries[-1]
    if latest is not entry and not (resumed and latest.record_sha256 == stone.sha256
                                    and "rolled_back" not in latest.data):
        raise ChecksumMismatch(f"{where}: field 'move_id': the ledger's latest entry for this move is a "
                               f"{latest.kind} (seq {latest.seq}), not an archive; nothing was restored")
    recorded = entry.data
    for name in ("scope", "path", "tombstone", "cold_path"):
        if recorded.get(name) != getattr(stone, name):
            raise ChecksumMismatch(f"{where}: field {name!r} is {getattr(stone, name)!r}, the ledger's archive "
                                   f"entry (seq {entry.seq}) says {recorded.get(name)!r}; nothing was restored")
    if entry.record_id != record_id(scope, stone.path):
        raise ChecksumMismatch(f"{where}: field 'path': the ledger archived {entry.record_id} (seq {entry.seq}); "
                               "nothing was restored")
    if entry.record_sha256 != stone.sha256:
        raise ChecksumMismatch(f"{where}: field 'sha256' differs from the ledger's archive entry (seq {entry.seq}); "
                               "nothing was restored")
    signed_stone = recorded.get("tombstone_sha256")
    if isinstance(signed_stone, str) and signed_stone != tombstone_sha256(stone):
        raise ChecksumMismatch(f"{where}: field 'tombstone_sha256': the tombstone (its mode, size, mtime or "
                               f"reasons) differs from the one the ledger recorded (seq {entry.seq}); "
                               "nothing was restored")
    return isinstance(signed_stone, str)


def restored_mode(stone: Tombstone, vouched: bool) -> int:
    """The mode a restored file gets: the recorded one's permission bits (never set-id or sticky), and,
    when the ledger does not vouch for the tombstone's mode, never group- or other-writable."""
    mode = stone.mode & 0o777
    return mode if vouched else mode & 0o755


def _restore(paths: HomePaths, config: Config, stone: Tombstone, scope: Scope, places: Places, ledger: Ledger,
             now: datetime, on_step: StepHook) -> Restored:
    vouched = check_against_ledger(stone, scope, ledger)
    with contextlib.ExitStack() as stack:
        site = open_site(stack, paths, scope, stone, "restored")
        missing = NotFound(f"{shown(places.cold)}: the cold copy is missing; nothing was restored")
        if site.copy is None:
            raise missing
        try:
            data, _ = site.copy.read(site.record)
        except FileNotFoundError:
            raise missing from None
        except OSError as exc:  # a symlink or a folder where the copy was
            raise CurationError(f"{shown(places.cold)}: cannot be read ({exc.strerror or exc}); "
                                "nothing was restored") from None
        if hashlib.sha256(data).hexdigest() != stone.sha256:
            raise ChecksumMismatch(f"{places.cold}: does not match its recorded SHA-256; nothing was restored")
        found = site.folder.lstat(site.record) if site.folder else None
        if found is not None and (stat.S_ISLNK(found.st_mode) or site.record_sha256() != stone.sha256):
            raise WouldOverwrite(f"{places.target}: a different file now stands where the record was; nothing was "
                                 "changed (move it away, then restore again)")
        journal = _journal(paths, "restore", stone)
        on_step("journal")
        if found is None:
            _put_back(stack, site, stone, data, restored_mode(stone, vouched), journal, places)
        _finish_restore(paths, config, stone, scope, places, site, ledger, now, journal, on_step,
                        resumed=found is not None)
    return Restored(places.target, stone.sha256, scope.name, stone.path, stone.move_id)


def _put_back(stack: contextlib.ExitStack, site: Site, stone: Tombstone, data: bytes, mode: int, journal: Path,
              places: Places) -> None:
    """Write the record back into its folder (made again, with the default mode, if it went), never
    replacing anything; on failure the journal goes (nothing was restored)."""
    try:
        if site.folder is None:
            site.folder = stack.enter_context(site.root.walk(site.parts, "restored", create=0o777))
        site.folder.write_new(site.record, data, mode=mode, mtime_ns=stone.mtime_ns)
    except FileExistsError:
        _remove(journal)
        raise WouldOverwrite(f"{places.target}: a file appeared where the record was; nothing was changed") from None
    except OSError as exc:  # its folder removed or replaced meanwhile, a full disk
        _remove(journal)
        raise CurationError(f"{shown(places.target)}: {exc.strerror or exc}; nothing was restored") from None
    except BaseException:
        _remove(journal)
        raise


def _finish_restore(paths: HomePaths, config: Config, stone: Tombstone, scope: Scope, places: Places, site: Site,
                    ledger: Ledger, now: datetime, journal: Path, on_step: StepHook = no_steps, *,
                    resumed: bool = True) -> None:
    """Every step after the bytes are back at the path; each one is skipped if already done (when
    ``resumed``, the ledger is searched for an entry this restore may have written before a crash)."""
    vouched = check_against_ledger(stone, scope, ledger, resumed=resumed)
    assert site.folder is not None
    with contextlib.suppress(OSError):
        site.folder.set_mode_and_mtime(site.record, restored_mode(stone, vouched), stone.mtime_ns)
    on_step("copied")
    if site.record_sha256() != stone.sha256:
        raise ChecksumMismatch(f"{places.target}: restored bytes do not match the recorded SHA-256")
    try:
        _check_in_place(site, paths, stone, "restored")
    except PathEscape:
        if not resumed:  # the copy written into a folder that was moved away goes; cold storage keeps it
            site.folder.unlink(site.record)
        _remove(journal)
        raise
    on_step("verified")
    if not resumed or _ledger_state(ledger).get(stone.move_id) != "restore":
        ledger.append("restore", record_id(scope, stone.path), stone.sha256, _ledger_data(stone))
    on_step("ledgered")
    learning.record_restore(paths, {
        "ts": now.isoformat(timespec="seconds"), "move_id": stone.move_id, "scope": stone.scope,
        "path": stone.path, "signals": list(stone.signals), "tier": stone.tier, "approved": stone.approved,
        "rubric_version": stone.rubric_version, "moved_at": stone.moved_at, "sha256": stone.sha256,
    })
    learning.learn(paths, config)
    on_step("logged")
    _remove_own_tombstone(site, stone.move_id)
    _remove_cold(site, stone.move_id)
    on_step("cleaned")
    _remove(journal)



# ------------------------------------------------------------------------------------ recovery


@dataclass(frozen=True)
class Recovery:
    move_id: str
    op: str  # "move" / "restore"
    outcome: str  # "finished" / "rolled back" / "left for a person"
    detail: str


def pending_operations(paths: HomePaths) -> list[Path]:
    folder = pending_dir(paths)
    return sorted(folder.glob("m-*.json")) if folder.is_dir() else []


def recover(paths: HomePaths, config: Config, ledger: Ledger, now: datetime | None = None,
            on_step: StepHook = no_steps) -> list[Recovery]:
    """Finish or roll back every interrupted move and restore (idempotent)."""
    results = []
    for journal in pending_operations(paths):
        try:
            obj = json.loads(journal.read_text(encoding="utf-8"))
            op = obj["op"]
            stone = Tombstone.from_bytes(json.dumps(obj["tombstone"]).encode("utf-8"), str(journal))
        except (OSError, ValueError, KeyError, TypeError, RecordError) as exc:
            results.append(Recovery(journal.stem, "?", "left for a person", f"{journal}: unreadable: {exc}"))
            continue
        try:
            scope = get_scope(config, paths, stone.scope)
            places = validate(stone, scope, paths)
            with contextlib.ExitStack() as stack:
                site = open_site(stack, paths, scope, stone, "recovered")
                if op == "move":
                    results.append(_recover_move(paths, stone, scope, places, site, ledger, journal))
                else:
                    results.append(_recover_restore(paths, config, stone, scope, places, site, ledger, journal,
                                                    now, on_step))
        except (CurationError, NotFound, RecordError, OSError) as exc:
            results.append(Recovery(stone.move_id, op, "left for a person", str(exc)))
    return results


def _clean_temp(site: Site) -> None:
    """Temp files that a killed write left beside the record: ours by their exact form
    (``.<record or tombstone name>.<8 characters>.tmp``, see :meth:`Folder.write_new`), never a person's file."""
    if site.folder is not None:
        for leftover in site.folder.names():
            if any(is_temp_of(leftover, name) for name in (site.record, site.stone)):
                site.folder.unlink(leftover)


def _recover_move(paths: HomePaths, stone: Tombstone, scope: Scope, places: Places, site: Site, ledger: Ledger,
                  journal: Path) -> Recovery:
    """Finish when the copy is verified and its tombstone written; roll back only while the record
    itself still stands, unchanged, at its path. A verified copy of a record that is not in place as
    it was is never removed: whatever happened, the copy may be the only one left."""
    _clean_temp(site)
    original = site.record_sha256()
    copy_ok = site.copy_sha256() == stone.sha256
    stone_ok = site.stone_present() or site.mirror_present()
    if original == stone.sha256:
        if copy_ok and stone_ok and _stones_as_written(stone, site):
            _ensure_tombstones(stone, site)
            if _ledger_state(ledger).get(stone.move_id) is None:
                ledger.append("archive", record_id(scope, stone.path), stone.sha256, _archive_data(stone))
            _unlink_original(paths, stone, places, site, ledger)
            _remove(journal)
            return Recovery(stone.move_id, "move", "finished", f"{stone.path} moved after a verified copy")
        why = ("no verified copy with a tombstone yet" if not (copy_ok and stone_ok)
               else "its tombstone is not as it was written")
        _roll_back_move(paths, stone, site, ledger, why)
        return Recovery(stone.move_id, "move", "rolled back", f"{stone.path} left in place ({why})")
    if copy_ok:
        _ensure_tombstones(stone, site)
        if _ledger_state(ledger).get(stone.move_id) is None:
            ledger.append("archive", record_id(scope, stone.path), stone.sha256, _archive_data(stone))
        _remove(journal)
        there = site.folder is not None and site.folder.lstat(site.record) is not None
        other = "; a different file now stands at its path" if there else ""
        return Recovery(stone.move_id, "move", "finished", f"{stone.path} is in cold storage with its tombstone{other}")
    return Recovery(stone.move_id, "move", "left for a person",
                    f"{places.target} is not as it was and no verified copy exists; "
                    f"nothing was touched (see {journal})")


def _ensure_tombstones(stone: Tombstone, site: Site) -> None:
    for folder, name in ((site.move, MIRROR_NAME), (site.folder, site.stone)):
        if folder is not None and folder.lstat(name) is None:
            with contextlib.suppress(FileExistsError):
                folder.write_new(name, stone.to_bytes())


def _recover_restore(paths: HomePaths, config: Config, stone: Tombstone, scope: Scope, places: Places, site: Site,
                     ledger: Ledger, journal: Path, now: datetime | None, on_step: StepHook) -> Recovery:
    _clean_temp(site)
    if site.record_sha256() == stone.sha256:
        _finish_restore(paths, config, stone, scope, places, site, ledger, now or clock.utc_now(), journal, on_step)
        return Recovery(stone.move_id, "restore", "finished", f"{stone.path} is back, verified")
    _remove(journal)
    if site.folder is not None and site.folder.lstat(site.record) is not None:
        return Recovery(stone.move_id, "restore", "rolled back",
                        f"{places.target}: another file stands there; the record stays in cold storage")
    return Recovery(stone.move_id, "restore", "rolled back",
                    f"{stone.path} stays in cold storage (restore it again to finish)")



# ------------------------------------------------------------------------------------- listing


@dataclass(frozen=True)
class ColdItem:
    stone: Tombstone
    places: Places | None  # None when its scope is no longer configured or its paths are invalid
    tombstone_present: bool
    intact: bool | None  # checksum of the cold copy, when asked for

    def form(self) -> ColdItemForm:
        """``curate cold --json``: the tombstone's facts, the places' paths when its scope still
        validates (else the tombstone's own)."""
        s = self.stone
        return ColdItemForm(
            s.move_id, s.scope, s.path, str(self.places.target) if self.places else None,
            str(self.places.cold) if self.places else s.cold_path,
            str(self.places.tombstone) if self.places else s.tombstone,
            s.sha256, s.size, s.moved_at, s.rubric_version, s.tier, s.approved, list(s.signals), dict(s.details),
            self.tombstone_present, self.intact,
        )


def list_cold(paths: HomePaths, config: Config, scope: str | None = None, verify: bool = False) -> list[ColdItem]:
    """Everything in cold storage (newest first), from the mirrors; ``verify`` re-hashes each copy."""
    items = []
    scope_named = _scope_lookup(config, paths)
    for mirror in _mirrors(paths):
        try:
            stone = _read_stone(mirror)
        except (NotFound, RecordError):
            continue
        if scope and stone.scope != scope:
            continue
        try:
            places: Places | None = validate(stone, scope_named(stone.scope), paths)
        except (NotFound, CurationError):
            places = None
        intact = (sha256_of(places.cold) == stone.sha256) if (verify and places) else None
        present = bool(places and places.tombstone.is_file())
        items.append(ColdItem(stone, places, present, intact))
    items.sort(key=lambda item: item.stone.moved_at, reverse=True)
    return items
