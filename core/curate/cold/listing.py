"""What cold storage holds: one :class:`ColdItem` a moved record, read from the tombstone mirrors.

``curate cold`` and the TUI's cold storage screen list these, newest first; asked to verify, each
cold copy is hashed again against its tombstone.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.config import Config
from core.curate.cold.locate import mirrors, read_stone, scope_lookup, sha256_of
from core.curate.errors import CurationError
from core.curate.results import ColdItemForm
from core.curate.tombstone import Places, Tombstone, validate
from core.errors import NotFound, RecordError
from core.paths import HomePaths


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
    scope_named = scope_lookup(config, paths)
    for mirror in mirrors(paths):
        try:
            stone = read_stone(mirror)
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
