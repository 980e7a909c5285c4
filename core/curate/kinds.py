"""Scope kinds: where each kind keeps its records and how a record's text, frontmatter, links and
references are read.

``markdown`` (any folder of notes; a root ``index.md``/``README.md``/``MEMORY.md`` is the index),
``claude-code`` (a project memory folder with its ``MEMORY.md`` index, and ``CLAUDE.md`` files whose
``@path`` imports count as index entries), ``codex`` (``AGENTS.md`` and a ``memories/`` folder;
``raw_memories.md`` is generated, never a candidate) and ``vault`` (the home's finalized memories,
decrypted). Readers never follow symlinks, skip hidden entries, never take a tombstone for a record,
and open files with ``O_NOATIME`` where allowed, so a scan never counts as a use.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import Any

from core.curate import frontmatter, mdtext
from core.curate.dirfd import read_regular
from core.curate.model import Record
from core.curate.tombstone import TOMBSTONE_SUFFIX
from core.errors import RecordError, VaultLocked
from core.vault.crypto import VaultKeys
from core.vault.records import open_memory

SKIP_DIRS = frozenset({"node_modules", "__pycache__"})
USE_FIELDS = ("updated", "updated_at", "last_updated", "last_used", "last_accessed", "last_verified",
              "last_reviewed")


def read_file(path: Path) -> tuple[bytes, os.stat_result]:
    """The bytes and stat of a regular file, without following a symlink or touching its atime."""
    found = read_regular(path)
    if found is None:
        raise OSError(f"{path}: not a regular file")
    return found


def walk_files(root: Path) -> Iterator[tuple[str, Path]]:
    """Every regular, non-hidden file under ``root`` as (POSIX path relative to root, path).

    Symlinks (to files or folders) are not followed; tombstones are skipped.
    """
    stack = [(root, "")]
    while stack:
        folder, prefix = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except (FileNotFoundError, NotADirectoryError, PermissionError):
            continue
        for entry in entries:
            name = entry.name
            if name.startswith(".") or entry.is_symlink():
                continue
            rel = f"{prefix}{name}"
            if entry.is_dir(follow_symlinks=False):
                if name not in SKIP_DIRS:
                    stack.append((Path(entry.path), rel + "/"))
            elif entry.is_file(follow_symlinks=False) and not name.endswith(TOMBSTONE_SUFFIX):
                yield rel, Path(entry.path)


def read_files(root: Path, wanted: Callable[[str], bool]) -> Iterator[tuple[str, Path, bytes, os.stat_result]]:
    """Each file of :func:`walk_files` whose relative path ``wanted`` accepts, with its bytes and stat;
    one that vanished or was replaced while scanning is skipped (not a record this time)."""
    for rel, path in walk_files(root):
        if not wanted(rel):
            continue
        try:
            data, info = read_file(path)
        except OSError:
            continue
        yield rel, path, data, info


def _stem_names(rel: str) -> list[str]:
    pure = PurePosixPath(rel)
    return [pure.stem.lower(), rel.lower(), str(pure.with_suffix("")).lower()]


def _last_use(mtime: float, front: dict[str, Any], problems: list[str]) -> float:
    latest = mtime
    for key in USE_FIELDS:
        if key not in front:
            continue
        try:
            when = frontmatter.parse_when(front[key])
        except ValueError as exc:
            problems.append(f"frontmatter field '{key}': {exc}")
            continue
        if when is not None:
            latest = max(latest, when.timestamp())
    return latest


@dataclass(frozen=True)
class Kind:
    """How one kind of scope lays out its records. Subclasses set the class attributes."""

    name: str = ""
    suffixes: tuple[str, ...] = (".md", ".markdown")
    index_names: frozenset[str] = frozenset()  # lower-case basenames whose references guard
    anchor_names: frozenset[str] = frozenset()  # never candidates; their links are plain links
    root_only_index: bool = False  # index names count only at the scope root
    imports: bool = False  # ``@path`` imports are references (CLAUDE.md)
    supports_orphan: bool = True
    needs_keys: bool = False

    def root_for(self, configured: str, home_vault: Path) -> Path:
        return Path(configured).expanduser()

    def in_scope(self, rel: str) -> bool:
        return rel.lower().endswith(self.suffixes) or self._is_special(rel)

    def _is_special(self, rel: str) -> bool:
        name = PurePosixPath(rel).name.lower()
        if self.root_only_index and "/" in rel:
            return False
        return name in self.index_names or name in self.anchor_names

    def is_index(self, rel: str) -> bool:
        name = PurePosixPath(rel).name.lower()
        return name in self.index_names and not (self.root_only_index and "/" in rel)

    def is_anchor(self, rel: str) -> bool:
        return self.is_index(rel) or (PurePosixPath(rel).name.lower() in self.anchor_names)

    def records(self, scope: str, root: Path, keys: VaultKeys | None = None) -> Iterator[Record]:
        for rel, path, data, info in read_files(root, self.in_scope):
            yield self.read(scope, rel, path, data, info)

    def read(self, scope: str, rel: str, path: Path, data: bytes, info: os.stat_result) -> Record:
        problems: list[str] = []
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            text = data.decode("utf-8", errors="replace")
            problems.append(f"not UTF-8 at byte {exc.start}")
        front = frontmatter.parse(text)
        problems.extend(front.problems)
        refs = mdtext.references(front.body, imports=self.imports)
        data_fm = front.data
        names = _stem_names(rel)
        if isinstance(data_fm.get("name"), str) and data_fm["name"].strip():
            names.append(data_fm["name"].strip().lower())
        supersedes = [*frontmatter.as_list(data_fm.get("supersedes")),
                      *frontmatter.as_list(data_fm.get("replaces")), *refs.supersedes]
        superseded_by = [*frontmatter.as_list(data_fm.get("superseded_by")),
                         *frontmatter.as_list(data_fm.get("replaced_by")), *refs.superseded_by]
        mentions = [*refs.mentions, *frontmatter.as_list(data_fm.get("related")),
                    *frontmatter.as_list(data_fm.get("links"))]
        return Record(
            scope=scope,
            rel=rel,
            path=path,
            text=front.body,
            frontmatter=data_fm,
            names=tuple(dict.fromkeys(names)),
            links=refs.links,
            mentions=tuple(dict.fromkeys(mentions)),
            supersedes=tuple(dict.fromkeys(supersedes)),
            superseded_by=tuple(dict.fromkeys(superseded_by)),
            tags=tuple(t.lower() for t in frontmatter.as_list(data_fm.get("tags"))),
            size=len(data),
            mtime=info.st_mtime,
            last_used=_last_use(info.st_mtime, data_fm, problems),
            sha256=hashlib.sha256(data).hexdigest(),
            is_index=self.is_anchor(rel),
            problems=tuple(problems),
        )


@dataclass(frozen=True)
class MarkdownKind(Kind):
    name: str = "markdown"
    index_names: frozenset[str] = frozenset({"index.md", "readme.md", "memory.md"})
    root_only_index: bool = True


@dataclass(frozen=True)
class ClaudeCodeKind(Kind):
    name: str = "claude-code"
    index_names: frozenset[str] = frozenset({"memory.md", "claude.md", "claude.local.md"})
    imports: bool = True


@dataclass(frozen=True)
class CodexKind(Kind):
    name: str = "codex"
    suffixes: tuple[str, ...] = (".md", ".markdown", ".txt")
    index_names: frozenset[str] = frozenset({"agents.md", "agents.override.md", "memory.md", "memory_summary.md"})
    anchor_names: frozenset[str] = frozenset({"raw_memories.md"})
    imports: bool = True

    def in_scope(self, rel: str) -> bool:
        name = PurePosixPath(rel).name.lower()
        if name in ("agents.md", "agents.override.md"):
            return True
        parts = PurePosixPath(rel).parts[:-1]
        return "memories" in parts and rel.lower().endswith(self.suffixes)

    def records(self, scope: str, root: Path, keys: VaultKeys | None = None) -> Iterator[Record]:
        if root.name == "memories":
            yield from self._inside(scope, root)
        else:
            yield from super().records(scope, root, keys)

    def _inside(self, scope: str, root: Path) -> Iterator[Record]:
        """The scope is the ``memories`` folder itself: every text file in it is a record."""
        for rel, path, data, info in read_files(root, lambda rel: rel.lower().endswith(self.suffixes)):
            yield self.read(scope, rel, path, data, info)


@dataclass(frozen=True)
class VaultKind(Kind):
    """The home's finalized memories. Reading them needs the vault's keys."""

    name: str = "vault"
    suffixes: tuple[str, ...] = (".json",)
    supports_orphan: bool = False  # memories do not link to each other by file
    needs_keys: bool = True

    def root_for(self, configured: str, home_vault: Path) -> Path:
        return home_vault

    def in_scope(self, rel: str) -> bool:
        return "/" not in rel and rel.startswith("mem_") and rel.endswith(".json")

    def records(self, scope: str, root: Path, keys: VaultKeys | None = None) -> Iterator[Record]:
        if keys is None:
            raise VaultLocked(f"scope {scope!r}: reading the vault's memories needs the passphrase")
        for rel, path, data, info in read_files(root, self.in_scope):
            yield self.read_memory(scope, rel, path, data, info, keys)

    def read_memory(self, scope: str, rel: str, path: Path, data: bytes, info: os.stat_result,
                    keys: VaultKeys) -> Record:
        memory_id = rel[: -len(".json")]
        problems: list[str] = []
        try:
            memory = open_memory(data, keys, f"vault/{rel}", expected_id=memory_id)
        except RecordError as exc:
            # Damaged or foreign: never judged confidently; `reverie verify` names what is wrong.
            return Record(scope=scope, rel=rel, path=path, text="", frontmatter={}, names=(memory_id.lower(),),
                          size=len(data), mtime=info.st_mtime, last_used=info.st_mtime,
                          sha256=hashlib.sha256(data).hexdigest(), problems=(str(exc),))
        meta = memory.metadata
        front: dict[str, Any] = {}
        for source in (meta.confirmed_fields, meta.custom):
            for key, value in source.items():
                if key != "review" and isinstance(value, str | int | float | bool | list | tuple):
                    front[key] = list(value) if isinstance(value, tuple) else value
        front["tags"] = list(meta.tags)
        if meta.title:
            front["title"] = meta.title
        refs = mdtext.references(memory.content, bare_files=False)
        try:
            created = datetime.fromisoformat(memory.created_at).timestamp()
        except ValueError:
            created = info.st_mtime
            problems.append(f"field 'created_at' is not a date: {memory.created_at!r}")
        names = [memory_id.lower()] + ([meta.title.lower()] if meta.title else [])
        return Record(
            scope=scope,
            rel=rel,
            path=path,
            text=memory.content,
            frontmatter=front,
            names=tuple(names),
            links=refs.links,
            mentions=refs.mentions,
            supersedes=(*frontmatter.as_list(front.get("supersedes")), *refs.supersedes),
            superseded_by=(*frontmatter.as_list(front.get("superseded_by")), *refs.superseded_by),
            tags=tuple(t.lower() for t in meta.tags),
            size=len(data),
            mtime=info.st_mtime,
            last_used=_last_use(created, front, problems),
            sha256=hashlib.sha256(data).hexdigest(),
            problems=tuple(problems),
        )


KINDS: dict[str, Kind] = {
    kind.name: kind for kind in (MarkdownKind(), ClaudeCodeKind(), CodexKind(), VaultKind())
}


def kind_named(name: str) -> Kind:
    try:
        return KINDS[name]
    except KeyError:
        raise ValueError(f"unknown scope kind {name!r} (known: {', '.join(KINDS)})") from None
