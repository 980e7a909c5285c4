"""Finishing or rolling back the moves and restores a crash interrupted.

Each journal left in ``curation/pending`` names an operation that did not finish. A move is finished
when its verified copy and tombstone exist, and rolled back only while the record itself still stands,
unchanged, at its path; a restore is finished when the record's bytes are back, else it stays in cold
storage. Anything else is left for a person, untouched. Running it again changes nothing.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from core import clock
from core.config import Config
from core.curate.cold.journal import StepHook, no_steps, pending_operations, remove_durably
from core.curate.cold.ledger_entries import append_archive, ledger_state
from core.curate.cold.move import roll_back_move, unlink_original
from core.curate.cold.restore import finish_restore
from core.curate.cold.site import Site, clean_temp, ensure_tombstones, open_site, stones_as_written
from core.curate.errors import CurationError
from core.curate.scopes import Scope, get_scope
from core.curate.tombstone import Places, Tombstone, validate
from core.errors import NotFound, RecordError
from core.paths import HomePaths
from core.vault.ledger import Ledger


@dataclass(frozen=True)
class Recovery:
    move_id: str
    op: str  # "move" / "restore"
    outcome: str  # "finished" / "rolled back" / "left for a person"
    detail: str


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


def _recover_move(paths: HomePaths, stone: Tombstone, scope: Scope, places: Places, site: Site, ledger: Ledger,
                  journal: Path) -> Recovery:
    """Finish when the copy is verified and its tombstone written; roll back only while the record
    itself still stands, unchanged, at its path. A verified copy of a record that is not in place as
    it was is never removed: whatever happened, the copy may be the only one left."""
    clean_temp(site)
    original = site.record_sha256()
    copy_ok = site.copy_sha256() == stone.sha256
    stone_ok = site.stone_present() or site.mirror_present()
    if original == stone.sha256:
        if copy_ok and stone_ok and stones_as_written(stone, site):
            _tombstone_and_archive(stone, scope, site, ledger)
            unlink_original(paths, stone, places, site, ledger)
            remove_durably(journal)
            return Recovery(stone.move_id, "move", "finished", f"{stone.path} moved after a verified copy")
        why = ("no verified copy with a tombstone yet" if not (copy_ok and stone_ok)
               else "its tombstone is not as it was written")
        roll_back_move(paths, stone, site, ledger, why)
        return Recovery(stone.move_id, "move", "rolled back", f"{stone.path} left in place ({why})")
    if copy_ok:
        _tombstone_and_archive(stone, scope, site, ledger)
        remove_durably(journal)
        there = site.folder is not None and site.folder.lstat(site.record) is not None
        other = "; a different file now stands at its path" if there else ""
        return Recovery(stone.move_id, "move", "finished", f"{stone.path} is in cold storage with its tombstone{other}")
    return Recovery(stone.move_id, "move", "left for a person",
                    f"{places.target} is not as it was and no verified copy exists; "
                    f"nothing was touched (see {journal})")


def _tombstone_and_archive(stone: Tombstone, scope: Scope, site: Site, ledger: Ledger) -> None:
    """Both tombstones in place, and the move's ``archive`` entry unless the ledger has one already."""
    ensure_tombstones(stone, site)
    if ledger_state(ledger).get(stone.move_id) is None:
        append_archive(ledger, scope, stone)


def _recover_restore(paths: HomePaths, config: Config, stone: Tombstone, scope: Scope, places: Places, site: Site,
                     ledger: Ledger, journal: Path, now: datetime | None, on_step: StepHook) -> Recovery:
    clean_temp(site)
    if site.record_sha256() == stone.sha256:
        finish_restore(paths, config, stone, scope, places, site, ledger, now or clock.utc_now(), journal, on_step)
        return Recovery(stone.move_id, "restore", "finished", f"{stone.path} is back, verified")
    remove_durably(journal)
    if site.folder is not None and site.folder.lstat(site.record) is not None:
        return Recovery(stone.move_id, "restore", "rolled back",
                        f"{places.target}: another file stands there; the record stays in cold storage")
    return Recovery(stone.move_id, "restore", "rolled back",
                    f"{stone.path} stays in cold storage (restore it again to finish)")
