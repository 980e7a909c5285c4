"""Small pieces the SDK's modules share: error translation, times, the reserved metadata keys."""

from __future__ import annotations

from datetime import datetime

from core.errors import NotFound, ReverieError
from core.turns import TurnError, parse_ts

# Keys of ``metadata.custom`` that Reverie gives a meaning: a caller of ``create`` cannot set them,
# or a memory stored without review could claim review provenance or replace another memory.
RESERVED_CUSTOM = frozenset({"review", "supersedes", "imported_from", "confirmed_fields"})


def reverie_error(exc: ReverieError) -> Exception:
    """The upstream SDK's exception type for a Reverie error (same one-line message)."""
    if isinstance(exc, NotFound):
        return KeyError(str(exc))
    return ValueError(str(exc))


def moment(value: str, where: str) -> datetime:
    """An ISO-8601 time with a timezone; ``ValueError`` naming ``where`` otherwise."""
    try:
        return parse_ts(value)
    except (TurnError, TypeError, ValueError) as exc:
        raise ValueError(f"{where}: {value!r} is not an ISO-8601 time") from exc
