"""Errors that reach the person. Each carries one line that names the file, line or field at fault."""

from __future__ import annotations

import errno


class ReverieError(Exception):
    """Base of every error Reverie reports to a person; ``str(err)`` is a complete one-line message."""

    exit_code = 2


class ConfigError(ReverieError):
    """``config.toml`` holds an unknown key, a wrong type or an impossible value."""


class HomeError(ReverieError):
    """The data home is missing, unreadable or not a Reverie home."""


class VaultLocked(ReverieError):
    """An operation needs the passphrase and none was given."""


class WrongPassphrase(ReverieError):
    """The passphrase does not open this vault; nothing was written."""


class RecordError(ReverieError):
    """A stored record is malformed, tampered with, or fails verification."""


class ReviewError(ReverieError):
    """A review object would break one of its invariants (construction, load or transition)."""


class InvalidReview(ReviewError, ValueError):
    """A review object's value breaks an invariant. Also a ``ValueError``: the DiaryVault Memory Layer
    API (``core.sdk``), which shares these objects, promises one."""


class ReviewTypeError(ReviewError, TypeError):
    """A review object got a value of the wrong type. Also a ``TypeError``, as the DiaryVault Memory
    Layer API (``core.sdk``) promises."""


class DraftChanged(ReviewError):
    """A draft changed on disk after it was read (an assistant added a suggestion, another window decided
    one); saving would drop that change, so nothing was written: read the draft again."""


class WeakPassphrase(ReverieError):
    """A new passphrase is shorter than the minimum, or only whitespace; nothing was written."""


class NotFound(ReverieError):
    """A draft, memory, scope or file named by the person does not exist."""

    exit_code = 3


def _is_full(error: BaseException) -> bool:
    """ENOSPC, EDQUOT, or SQLite's FULL (``apsw.FullError``, known by name: this module never imports apsw)."""
    if isinstance(error, OSError):
        return error.errno in {errno.ENOSPC, getattr(errno, "EDQUOT", 122)}
    kind = type(error)
    return kind.__name__ == "FullError" and kind.__module__.split(".")[0] == "apsw"


def disk_full(error: BaseException) -> str | None:
    """One line naming what could not be written when ``error`` (or an error it was raised from or
    during) is a full disk or quota, else None. Every write Reverie makes leaves the previous state
    (temporary file, fsync, rename; SQLite's journal), so the line says what was stored is kept."""
    seen: set[int] = set()
    current: BaseException | None = error if isinstance(error, BaseException) else None
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if _is_full(current):
            if isinstance(current, OSError):
                where = current.filename
                what = f"{where}: could not be written" if where else "could not write"
                reason = "no space left on device" if current.errno == errno.ENOSPC else "disk quota exceeded"
            else:
                what, reason = "the search index (index.db) could not be written", "database or disk is full"
            return f"{what}: {reason}; what was stored before is kept: free some space and run the command again"
        current = current.__cause__ or current.__context__
    return None
