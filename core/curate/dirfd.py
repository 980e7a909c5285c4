"""Folders held open by file descriptor, so a path checked once cannot be swapped before it is used.

Curation moves records out of folders other programs write in, where a folder checked by path could be
replaced by a symlink before it is written. Here every folder is opened once, each component
``O_NOFOLLOW | O_DIRECTORY`` relative to its parent (``openat``), and every read, write, rename,
unlink and fsync goes through the descriptor. Files are written through a temporary file created
``O_EXCL | O_NOFOLLOW`` beside the final name, fsynced and hard-linked into place (never replacing
anything); new folders get the mode asked for, existing ones keep theirs.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
import secrets
import stat
from pathlib import Path

from core.curate.errors import PathEscape
from core.textsafe import one_line

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
_NOATIME = getattr(os, "O_NOATIME", 0)
_LINK_ERRORS = (errno.ELOOP, errno.ENOTDIR, errno.EMLINK)


def shown(path: Path | str) -> str:
    """A path as one line of text for an error (a folder name may hold a newline or an escape)."""
    return one_line(str(path))


def _escape(where: Path, what: str) -> PathEscape:
    return PathEscape(f"{shown(where)}: a symlink or a file stands where a folder was expected; nothing was {what}")


_TEMP_TAIL = re.compile(r"\.[a-z0-9_]{8}\.tmp\Z")  # ours (8 hex), or tempfile.mkstemp's as fsutil made them


def is_temp_of(leftover: str, name: str) -> bool:
    """Whether ``leftover`` is a temporary file :meth:`Folder.write_new` makes for ``name``."""
    prefix = f".{name}"
    return leftover.startswith(prefix) and _TEMP_TAIL.fullmatch(leftover[len(prefix):]) is not None



def read_regular(name: str | Path, *, dir_fd: int | None = None) -> tuple[bytes, os.stat_result] | None:
    """Bytes and stat of the file ``name`` (relative to ``dir_fd`` when given), opened without following
    a symlink and without touching its atime where allowed; None when it is not a regular file."""
    try:
        fd = os.open(name, _FILE_FLAGS | _NOATIME, dir_fd=dir_fd)
    except PermissionError:
        fd = os.open(name, _FILE_FLAGS, dir_fd=dir_fd)  # O_NOATIME needs ownership of the file
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks), info
    finally:
        os.close(fd)

class Folder:
    """An open folder. ``where`` is its path as found, only for messages: nothing re-resolves it."""

    def __init__(self, fd: int, where: Path) -> None:
        self.fd = fd
        self.where = where

    def __enter__(self) -> Folder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    @classmethod
    def open_root(cls, path: Path, what: str, *, follow: bool = False) -> Folder:
        """Open ``path`` itself. Unless ``follow``, a symlink there is refused (``PathEscape``); the
        folders above it are the person's own setup and are followed as the system does."""
        flags = _DIR_FLAGS if not follow else _DIR_FLAGS & ~os.O_NOFOLLOW
        try:
            return cls(os.open(path, flags), path)
        except OSError as exc:
            if exc.errno in _LINK_ERRORS and path.is_symlink():
                raise PathEscape(f"{shown(path)}: is a symlink (to {shown(os.readlink(path))}); curation works "
                                 f"only in the folder itself; nothing was {what}") from None
            raise

    def identity(self) -> tuple[int, int]:
        info = os.fstat(self.fd)
        return info.st_dev, info.st_ino

    def child(self, name: str, what: str, *, create: int | None = None) -> Folder:
        """The subfolder ``name``, never through a symlink. With ``create`` (a mode) a missing one is
        made with that mode (the umask may take bits away) and this folder is fsynced; an existing one
        keeps its mode. ``FileNotFoundError`` when it is missing and not to be created."""
        where = self.where / name
        for _ in range(2):
            try:
                return Folder(os.open(name, _DIR_FLAGS, dir_fd=self.fd), where)
            except FileNotFoundError:
                if create is None:
                    raise
            except OSError as exc:
                if exc.errno in _LINK_ERRORS:
                    raise _escape(where, what) from None
                raise
            with contextlib.suppress(FileExistsError):
                os.mkdir(name, create, dir_fd=self.fd)
                os.fsync(self.fd)
        raise _escape(where, what)

    def walk(self, parts: tuple[str, ...], what: str, *, create: int | None = None) -> Folder:
        """The folder ``parts`` below this one (this one itself, duplicated, for no parts)."""
        current = Folder(os.dup(self.fd), self.where)
        for part in parts:
            try:
                nxt = current.child(part, what, create=create)
            finally:
                current.close()
            current = nxt
        return current

    def lstat(self, name: str) -> os.stat_result | None:
        try:
            return os.stat(name, dir_fd=self.fd, follow_symlinks=False)
        except FileNotFoundError:
            return None

    def names(self) -> list[str]:
        return os.listdir(self.fd)

    def read(self, name: str) -> tuple[bytes, os.stat_result]:
        """Bytes and stat of the regular file ``name`` (never a symlink's target); ``OSError`` otherwise."""
        found = read_regular(name, dir_fd=self.fd)
        if found is None:
            raise OSError(errno.EINVAL, f"{shown(self.where / name)}: not a regular file")
        return found

    def sha256(self, name: str) -> str | None:
        """SHA-256 of the regular file ``name``, or None if there is none (or a symlink stands there)."""
        try:
            data, _ = self.read(name)
        except OSError:
            return None
        return hashlib.sha256(data).hexdigest()

    def write_new(self, name: str, data: bytes, *, mode: int = 0o600, mtime_ns: int | None = None) -> None:
        """Create ``name`` holding ``data`` (``FileExistsError`` if anything stands there): a temporary
        file ``.<name>.<random>.tmp``, fsync, mode and mtime set by descriptor, hard link, fsync of
        the folder. The temporary file never outlives the call."""
        tmp = f".{name}.{secrets.token_hex(4)}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0),
                     0o600, dir_fd=self.fd)
        try:
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
                os.fchmod(fd, mode)
                if mtime_ns is not None:
                    os.utime(fd, ns=(mtime_ns, mtime_ns))
                os.fsync(fd)
            finally:
                os.close(fd)
            os.link(tmp, name, src_dir_fd=self.fd, dst_dir_fd=self.fd, follow_symlinks=False)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp, dir_fd=self.fd)
        os.fsync(self.fd)

    def set_mode_and_mtime(self, name: str, mode: int, mtime_ns: int) -> None:
        """Put back ``name``'s mode and mtime through its own descriptor (never a symlink's target)."""
        fd = os.open(name, _FILE_FLAGS, dir_fd=self.fd)
        try:
            if stat.S_ISREG(os.fstat(fd).st_mode):
                os.fchmod(fd, mode)
                os.utime(fd, ns=(mtime_ns, mtime_ns))
                os.fsync(fd)
        finally:
            os.close(fd)

    def unlink(self, name: str) -> bool:
        """Remove the entry ``name`` (a file or symlink, never followed); False if it was not there."""
        try:
            os.unlink(name, dir_fd=self.fd)
        except FileNotFoundError:
            return False
        os.fsync(self.fd)
        return True

    def rmdir(self, name: str) -> None:
        """Remove the empty subfolder ``name``; silently nothing if it is missing or not empty."""
        with contextlib.suppress(OSError):
            os.rmdir(name, dir_fd=self.fd)
            os.fsync(self.fd)


def still_at(root: Folder, parts: tuple[str, ...], folder: Folder, what: str) -> None:
    """Check that walking ``parts`` from ``root`` (no symlink followed) still reaches ``folder``: it was
    not renamed away or replaced since it was opened. ``PathEscape`` names it otherwise."""
    where = root.where.joinpath(*parts)
    try:
        with root.walk(parts, what) as again:
            if again.identity() == folder.identity():
                return
    except FileNotFoundError:
        pass
    raise PathEscape(f"{shown(where)}: the folder was replaced or moved while curation worked in it; "
                     f"nothing was {what}")
