"""Scopes: named folders (or the vault) that curation looks after, as configured in ``config.toml``,
and the path rules that keep every move and restore inside its scope.

A path taken from a tombstone is accepted only if it is relative, POSIX, free of ``..``, ``.``,
empty segments, backslashes and NUL, and if the folder it lands in resolves (symlinks followed)
inside the scope's resolved root. A scope root that is itself a symlink is refused; moves and
restores then open the root and each folder below it without following symlinks
(:mod:`core.curate.dirfd`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, fields
from pathlib import Path

import msgspec

from core.config import SCOPE_KINDS, Config, ScopeConfig, load_config, save_config
from core.curate.kinds import Kind, kind_named
from core.errors import ConfigError, NotFound
from core.fsutil import atomic_write_text, file_lock
from core.paths import HomePaths
from core.typed import convert, to_builtins

SCOPE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}\Z")


@dataclass(frozen=True)
class Scope:
    name: str
    kind: Kind
    root: Path  # absolute, as configured (not resolved)

    def resolved_root(self) -> Path:
        return self.root.resolve()

    def form(self) -> ScopeForm:
        """The scope as configured (the kind by its name, the root as a path string)."""
        return ScopeForm(self.name, self.kind.name, str(self.root))


class ScopeForm(msgspec.Struct, frozen=True):
    """A scope as ``reverie curate scope … --json`` prints it."""

    name: str
    kind: str
    path: str


def scope_from_config(item: ScopeConfig, paths: HomePaths) -> Scope:
    """The scope as configured. A folder scope may never reach into the home's own stores (cold storage,
    the vault, drafts, logs, curation's records), also when config.toml was written by hand: a cold
    copy must never be judged, and moved again, as an ordinary record."""
    kind = kind_named(item.kind)
    scope = Scope(item.name, kind, kind.root_for(item.path, paths.vault).absolute())
    if scope.root.is_symlink():
        raise ConfigError(f"{paths.config}: curation scope {item.name!r}: its folder {scope.root} is a symlink "
                          f"(to {scope.root.readlink()}); point the scope at the folder itself")
    if kind.name != "vault":
        root = scope.resolved_root()
        own = (paths.vault, paths.drafts, paths.cold, paths.curation, paths.logs, paths.locks, paths.quarantine)
        for folder in own:
            if _overlaps(root, folder.resolve()) or root == paths.root.resolve():
                raise ConfigError(
                    f"{paths.config}: curation scope {item.name!r} ({scope.root}) overlaps the home's own "
                    f"{folder.name}/ folder; point it at a folder of notes outside Reverie's stores"
                )
    return scope


def all_scopes(config: Config, paths: HomePaths) -> list[Scope]:
    return [scope_from_config(item, paths) for item in config.curation.scopes]


def get_scope(config: Config, paths: HomePaths, name: str, *, removed: bool = True) -> Scope:
    """The scope named ``name``: a configured one, else (with ``removed``) one removed by
    :func:`remove_scope`, so that what it moved to cold storage is still restored where it was."""
    for item in config.curation.scopes:
        if item.name == name:
            return scope_from_config(item, paths)
    if removed:
        for item in removed_scopes(paths):
            if item.name == name:
                return scope_from_config(item, paths)
    known = ", ".join(s.name for s in config.curation.scopes) or "none configured"
    raise NotFound(f"no curation scope {name!r} (known: {known}; add one with `reverie curate scope add`)")


def select_scopes(config: Config, paths: HomePaths, name: str | None) -> list[Scope]:
    """One named configured scope, or every configured scope (a removed scope is never scanned)."""
    return [get_scope(config, paths, name, removed=False)] if name else all_scopes(config, paths)


def removed_scopes_file(paths: HomePaths) -> Path:
    return paths.curation / "removed_scopes.json"


def removed_scopes(paths: HomePaths) -> list[ScopeConfig]:
    """Scopes removed from ``config.toml``, newest removal last; a damaged file is a one-line error."""
    file = removed_scopes_file(paths)
    if not file.exists():
        return []
    where = f"{file}: not a list of removed scopes"
    try:
        items = json.loads(file.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise ConfigError(f"{where} ({type(exc).__name__}: {exc})") from exc
    kept = convert(items, list[ScopeConfig], where, ConfigError)
    for number, item in enumerate(items):  # each was written whole: a missing field is damage, not a default
        if missing := [f.name for f in fields(ScopeConfig) if f.name not in item]:
            raise ConfigError(f"{where}: field '[{number}].{missing[0]}' missing")
    return kept


@dataclass(frozen=True)
class RemovedScope:
    scope: Scope
    cold_records: int  # records of this scope in cold storage: still restorable


def remove_scope(paths: HomePaths, name: str) -> RemovedScope:
    """Take scope ``name`` out of ``config.toml``: curation no longer scans or moves anything in it.
    Nothing in cold storage is touched; the scope is remembered in ``curation/removed_scopes.json``
    so its tombstones keep working (``curate restore`` puts a record back where it was). Adding a
    scope of the same name again later takes precedence over the remembered one."""
    with file_lock(paths.lock("config")):
        config = load_config(paths.config)
        found = [item for item in config.curation.scopes if item.name == name]
        if not found:
            known = ", ".join(s.name for s in config.curation.scopes) or "none configured"
            raise NotFound(f"no curation scope {name!r} to remove (known: {known})")
        item = found[0]
        scope = scope_from_config(item, paths)
        kept = [i for i in removed_scopes(paths) if i.name != name]
        kept.append(item)
        body = to_builtins(kept)
        paths.curation.mkdir(parents=True, exist_ok=True)
        atomic_write_text(removed_scopes_file(paths), json.dumps(body, ensure_ascii=False, indent=1) + "\n")
        config.curation.scopes = [i for i in config.curation.scopes if i.name != name]
        save_config(paths.config, config)
    cold = paths.cold / name
    records = sum(1 for move in cold.iterdir() if (move / "tombstone.json").exists()) if cold.is_dir() else 0
    return RemovedScope(scope, records)


def _overlaps(a: Path, b: Path) -> bool:
    return a == b or a in b.parents or b in a.parents


def add_scope(paths: HomePaths, name: str, kind: str, path: str | None) -> tuple[Scope, bool]:
    """Add a scope to ``config.toml``; (scope, True) if added, (scope, False) if it was already there
    exactly so. Re-using a name for something else is an error."""
    if not SCOPE_NAME.match(name):
        raise ConfigError(f"scope name {name!r}: use letters, digits, '.', '_' or '-' (at most 64)")
    if kind not in SCOPE_KINDS:
        raise ConfigError(f"scope {name!r}: kind must be one of {', '.join(SCOPE_KINDS)}, got {kind!r}")
    if kind == "vault":
        stored = ""
        if path and Path(path).expanduser().absolute() != paths.vault:
            raise ConfigError(f"scope {name!r}: a vault scope is the home's own vault ({paths.vault}); omit --path")
    else:
        if not path:
            raise ConfigError(f"scope {name!r}: --path is required for kind {kind}")
        root = Path(path).expanduser().absolute()
        if not root.is_dir():
            raise NotFound(f"scope {name!r}: {root} is not a folder")
        if root.is_symlink():
            raise ConfigError(f"scope {name!r}: {root} is a symlink (to {root.readlink()}); "
                              "give the folder it leads to")
        if _overlaps(root.resolve(), paths.root.resolve()):
            raise ConfigError(f"scope {name!r}: {root} overlaps the data home {paths.root}; choose a folder outside it")
        stored = str(root)
    with file_lock(paths.lock("config")):
        config = load_config(paths.config)
        for item in config.curation.scopes:
            if item.name == name:
                if item.kind == kind and item.path == stored:
                    return scope_from_config(item, paths), False
                raise ConfigError(f"scope {name!r} already exists (kind {item.kind}, path {item.path or paths.vault})")
        new_root = Path(stored).resolve() if stored else paths.vault.resolve()
        for item in config.curation.scopes:
            other = scope_from_config(item, paths).resolved_root()
            if _overlaps(new_root, other):
                raise ConfigError(f"scope {name!r}: {new_root} overlaps scope {item.name!r} ({other}); "
                                  "a record must belong to one scope")
        item = ScopeConfig(name=name, kind=kind, path=stored)
        config.curation.scopes.append(item)
        save_config(paths.config, config)
    return scope_from_config(item, paths), True
