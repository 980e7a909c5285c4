"""Restoring a moved record byte for byte, verified against its checksum and the signed ledger.

A restore checks the cold copy and the ledger's ``archive`` entry, refuses if anything stands at the
record's path, writes the bytes back with their mode and mtime, records the restore in the ledger and
``restores.jsonl`` (a misjudgment the rubric learns from), and only then removes tombstone, mirror and
copy (:data:`RESTORE_STEPS`). Restoring twice is a no-op. Callers hold the curation lock.
"""

from __future__ import annotations

import contextlib
import hashlib
import stat
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path, PurePosixPath

from core import clock
from core.config import Config
from core.curate import learning
from core.curate.cold.journal import StepHook, no_steps, remove_durably, write_journal
from core.curate.cold.ledger_entries import check_against_ledger, ledger_data, ledger_state, record_id
from core.curate.cold.locate import locate, sha256_of
from core.curate.cold.site import Site, check_in_place, open_site, remove_cold, remove_own_tombstone
from core.curate.dirfd import shown
from core.curate.errors import ChecksumMismatch, CurationError, PathEscape, WouldOverwrite
from core.curate.kinds import TOMBSTONE_SUFFIX
from core.curate.results import RestoredForm
from core.curate.scopes import Scope, get_scope
from core.curate.tombstone import MOVE_ID, Places, Tombstone
from core.errors import NotFound
from core.paths import HomePaths
from core.vault.ledger import Ledger

RESTORE_STEPS = ("journal", "copied", "verified", "ledgered", "logged", "cleaned")


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
        journal = write_journal(paths, "restore", stone)
        on_step("journal")
        if found is None:
            _put_back(stack, site, stone, data, restored_mode(stone, vouched), journal, places)
        finish_restore(paths, config, stone, scope, places, site, ledger, now, journal, on_step,
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
        remove_durably(journal)
        raise WouldOverwrite(f"{places.target}: a file appeared where the record was; nothing was changed") from None
    except OSError as exc:  # its folder removed or replaced meanwhile, a full disk
        remove_durably(journal)
        raise CurationError(f"{shown(places.target)}: {exc.strerror or exc}; nothing was restored") from None
    except BaseException:
        remove_durably(journal)
        raise


def finish_restore(paths: HomePaths, config: Config, stone: Tombstone, scope: Scope, places: Places, site: Site,
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
        check_in_place(site, paths, stone, "restored")
    except PathEscape:
        if not resumed:  # the copy written into a folder that was moved away goes; cold storage keeps it
            site.folder.unlink(site.record)
        remove_durably(journal)
        raise
    on_step("verified")
    if not resumed or ledger_state(ledger).get(stone.move_id) != "restore":
        ledger.append("restore", record_id(scope, stone.path), stone.sha256, ledger_data(stone))
    on_step("ledgered")
    learning.record_restore(paths, {
        "ts": now.isoformat(timespec="seconds"), "move_id": stone.move_id, "scope": stone.scope,
        "path": stone.path, "signals": list(stone.signals), "tier": stone.tier, "approved": stone.approved,
        "rubric_version": stone.rubric_version, "moved_at": stone.moved_at, "sha256": stone.sha256,
    })
    learning.learn(paths, config)
    on_step("logged")
    remove_own_tombstone(site, stone.move_id)
    remove_cold(site, stone.move_id)
    on_step("cleaned")
    remove_durably(journal)
