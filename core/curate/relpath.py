"""Paths relative to a folder, checked before they are joined to it: no way out by ``..``, an absolute
path or a symlink. Apart from the scopes, so reading a tombstone does not import the record kinds (yaml)."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from core.curate.errors import PathEscape
from core.textsafe import one_line


def safe_rel(value: object, what: str) -> PurePosixPath:
    """A relative POSIX path with no way out of the folder it is joined to, or ``PathEscape``."""
    if not isinstance(value, str) or not value:
        raise PathEscape(f"{what}: missing or not text")
    if "\\" in value or "\0" in value:
        raise PathEscape(f"{what}: {value!r} contains a backslash or NUL")
    pure = PurePosixPath(value)
    if pure.is_absolute() or value.startswith("~"):
        raise PathEscape(f"{what}: {value!r} is absolute; only paths relative to the scope are accepted")
    parts = value.split("/")
    if any(part in ("", ".", "..") for part in parts):
        raise PathEscape(f"{what}: {value!r} contains '..', '.' or an empty segment")
    return pure


def _nearest_existing(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def contained(root: Path, rel: PurePosixPath, what: str) -> Path:
    """``root / rel``, after checking that its folder resolves inside ``root`` (no symlink escape).

    The final component itself is not resolved: a restore refuses anything standing there, link or not.
    """
    real_root = root.resolve()
    target = root.joinpath(*rel.parts)
    folder = _nearest_existing(target.parent).resolve()
    if folder != real_root and real_root not in folder.parents:
        raise PathEscape(f"{what}: {one_line(str(rel))} leads outside {one_line(str(root))} "
                         f"(through a symlink to {one_line(str(folder))})")
    return target
