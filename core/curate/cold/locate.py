"""Finding a tombstone: from a tombstone file, the record's original path, a cold path or a move id.

The mirrors in ``cold/<scope>/<move_id>/tombstone.json`` are what cold storage holds; the tombstone
beside the record may have been tidied away. :func:`locate` returns the tombstone with its scope and
validated places, and refuses when the tombstone and its mirror disagree.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from core.config import Config
from core.curate.errors import PathEscape
from core.curate.kinds import TOMBSTONE_SUFFIX, read_file
from core.curate.scopes import Scope, get_scope
from core.curate.tombstone import MIRROR_NAME, MOVE_ID, Places, Tombstone, validate
from core.errors import NotFound, RecordError
from core.paths import HomePaths


def sha256_of(path: Path) -> str | None:
    """SHA-256 of the regular file at ``path`` (not following a symlink), or None if there is none."""
    try:
        data, _ = read_file(path)
    except (FileNotFoundError, OSError):
        return None
    return hashlib.sha256(data).hexdigest()


def read_stone(path: Path) -> Tombstone:
    """The tombstone at ``path``; ``NotFound`` when there is none, ``RecordError`` when it cannot be read."""
    try:
        data, _ = read_file(path)
    except FileNotFoundError:
        raise NotFound(f"{path}: no such tombstone") from None
    except OSError as exc:
        raise RecordError(f"{path}: cannot be read: {exc}") from exc
    return Tombstone.from_bytes(data, str(path))


def mirrors(paths: HomePaths) -> list[Path]:
    """Every tombstone mirror in cold storage, by scope and move id."""
    if not paths.cold.is_dir():
        return []
    return sorted(paths.cold.glob(f"*/m-*/{MIRROR_NAME}"))


def scope_lookup(config: Config, paths: HomePaths) -> Callable[[str], Scope]:
    """``get_scope`` for one listing: each scope is built once (building one resolves its folder and
    the home's, which over thousands of moved records of the same few scopes took seconds)."""
    known: dict[str, Scope] = {}

    def scope_named(name: str) -> Scope:
        if name not in known:
            known[name] = get_scope(config, paths, name)
        return known[name]

    return scope_named


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
        stone = read_stone(_find_mirror_by_move(paths, spec))
    else:
        given = Path(spec).expanduser().absolute()
        cold_root = paths.cold.absolute()
        if given.name.endswith(TOMBSTONE_SUFFIX):
            stone = read_stone(given)
        elif cold_root in given.parents:
            parts = given.relative_to(cold_root).parts
            if len(parts) < 2:
                raise NotFound(f"{given}: not a moved record in cold storage")
            stone = read_stone(paths.cold / parts[0] / parts[1] / MIRROR_NAME)
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


def _stone_for_original(paths: HomePaths, config: Config, original: Path) -> Tombstone:
    beside = original.with_name(original.name + TOMBSTONE_SUFFIX)
    if beside.is_file():
        return read_stone(beside)
    if original.parent.is_dir():
        for path in sorted(original.parent.glob(f"{original.name}.*{TOMBSTONE_SUFFIX}"), reverse=True):
            return read_stone(path)
    scope_named = scope_lookup(config, paths)
    for mirror in reversed(mirrors(paths)):
        stone = read_stone(mirror)
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
        other = read_stone(path)
        if other.move_id == stone.move_id and key(other) != key(stone):
            raise RecordError(f"{path}: disagrees with the other copy of tombstone {stone.move_id}; "
                              "nothing was restored")

