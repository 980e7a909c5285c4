"""Errors that reach the person. Each carries one line that names the file, line or field at fault."""

from __future__ import annotations


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


class DraftChanged(ReviewError):
    """A draft changed on disk after it was read (an assistant added a suggestion, another window decided
    one); saving would drop that change, so nothing was written: read the draft again."""


class NotFound(ReverieError):
    """A draft, memory, scope or file named by the person does not exist."""

    exit_code = 3
