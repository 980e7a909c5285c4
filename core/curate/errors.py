"""Errors curation reports to a person; each message is one line naming the file or field."""

from __future__ import annotations

from core.errors import ReverieError


class CurationError(ReverieError):
    """A curation request that cannot be carried out as asked; nothing was changed."""


class PathEscape(CurationError):
    """A tombstone or cold path that would reach outside its scope or the cold store."""


class WouldOverwrite(CurationError):
    """A restore found a different file standing where the record was; nothing was changed."""


class ChecksumMismatch(CurationError):
    """Bytes that do not match the checksum recorded for them."""

    exit_code = 1
