"""Private, atomic file writes and an inter-process lock.

Every file Reverie writes in the data home goes through :func:`atomic_write_bytes`: a temporary
file in the same folder, fsync, rename, fsync of the folder. A crash leaves either the old file
or the new one, never half of either, and at most a temporary file ``.<name>.<random>.tmp``. The
writer holds an ``flock`` on that temporary file while it exists, so :func:`stale_temps` can tell one
a killed writer left (no lock, and older than ``STALE_AFTER`` seconds) from one being written now; the
next writer removes those (:func:`remove_stale_temps`) and ``reverie verify`` counts them.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import tempfile
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

PRIVATE_DIR_MODE = 0o700
PRIVATE_FILE_MODE = 0o600
STALE_AFTER = 5.0  # seconds: no write of ours keeps its temporary file unlocked this long


def ensure_private_dir(path: Path) -> Path:
    """Create ``path`` and every missing parent as 0700, and tighten ``path`` if it exists looser.

    (``Path.mkdir(parents=True, mode=...)`` gives the mode to the last folder only: the parents it
    creates get the umask's default, 0755 with the usual umask, e.g. ``logs/2026``.)"""
    missing: list[Path] = []
    probe = path
    while not probe.exists():
        missing.append(probe)
        if probe.parent == probe:
            break
        probe = probe.parent
    for folder in reversed(missing):
        with contextlib.suppress(FileExistsError):
            folder.mkdir(mode=PRIVATE_DIR_MODE)
            os.chmod(folder, PRIVATE_DIR_MODE)  # the umask may have taken bits away; never adds any
    if path.stat().st_mode & 0o777 != PRIVATE_DIR_MODE:
        os.chmod(path, PRIVATE_DIR_MODE)
    return path


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write_bytes(path: Path, data: bytes, *, exclusive: bool = False) -> None:
    """Write ``data`` to ``path`` atomically with mode 0600.

    With ``exclusive`` the rename refuses to replace an existing file (``FileExistsError``), so
    two writers cannot both believe they created the same record.
    """
    ensure_private_dir(path.parent)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    tmp = Path(tmp_name)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # released when the file is closed, or when the process dies
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, PRIVATE_FILE_MODE)
        if exclusive:
            os.link(tmp, path)  # fails with FileExistsError if path exists
            tmp.unlink()
        else:
            os.replace(tmp, path)
        fsync_dir(path.parent)
    except OSError as exc:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise _naming(exc, path) from exc
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise


def _naming(error: OSError, path: Path) -> OSError:
    """``error`` naming ``path`` (the file being written) when it names no file (a failed write or
    fsync of a temporary file): a full disk is then reported as the file that could not be written."""
    if error.errno is None or (error.filename is not None and not str(error.filename).endswith(".tmp")):
        return error
    return type(error)(error.errno, error.strerror, str(path))


def _is_temp_name(name: str) -> bool:
    return name.startswith(".") and name.endswith(".tmp") and name.count(".") >= 3


def stale_temps(folder: Path, *, min_age: float = STALE_AFTER) -> list[Path]:
    """Temporary files of :func:`atomic_write_bytes` in ``folder`` that a killed writer left: named as
    it names them, regular files, older than ``min_age`` seconds and locked by no process."""
    found: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return found
    now = time.time()
    for entry in entries:
        if not _is_temp_name(entry.name):
            continue
        try:
            if not entry.is_file(follow_symlinks=False) or now - entry.stat(follow_symlinks=False).st_mtime < min_age:
                continue
            fd = os.open(entry.path, os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            continue  # a writer holds it: being written now
        finally:
            os.close(fd)
        found.append(Path(entry.path))
    return sorted(found)


def remove_stale_temps(folders: Iterable[Path], *, min_age: float = STALE_AFTER) -> int:
    """Remove what :func:`stale_temps` finds in each of ``folders``; returns how many went."""
    removed = 0
    for folder in folders:
        for path in stale_temps(folder, min_age=min_age):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
                removed += 1
    return removed


def atomic_write_text(path: Path, text: str, *, exclusive: bool = False) -> None:
    atomic_write_bytes(path, text.encode("utf-8"), exclusive=exclusive)


def append_line_durably(path: Path, line: str) -> None:
    """Append one line (newline added) and fsync; the file is created 0600 if absent.

    If the file ends in a torn line (a crash in the middle of an earlier append), the new line starts
    on a line of its own: glued to the fragment, it would be lost with it."""
    ensure_private_dir(path.parent)
    data = (line.rstrip("\n") + "\n").encode("utf-8")
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, PRIVATE_FILE_MODE)
    try:
        size = os.fstat(fd).st_size
        if size and os.pread(fd, 1, size - 1) != b"\n":
            data = b"\n" + data
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    except OSError as exc:
        raise _naming(exc, path) from exc
    finally:
        os.close(fd)


def read_object_lines(path: Path) -> list[dict[str, Any]]:
    """The JSON objects of a file written by :func:`append_line_durably`, one a line, in order; a
    line that is not JSON (a torn last line from a crash) or not an object is skipped, and a missing
    file has none."""
    try:
        raw = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return []
    found = []
    for line in raw.splitlines():
        try:
            item = json.loads(line)
        except ValueError:
            continue
        if isinstance(item, dict):
            found.append(item)
    return found


@contextlib.contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """Hold an exclusive advisory lock on ``path`` (created 0600) for the duration of the block.

    POSIX ``flock``: serialises writers across processes (the TUI, ``reverie watch``, the CLI).
    """
    ensure_private_dir(path.parent)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, PRIVATE_FILE_MODE)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
