"""Small pieces the SDK's modules share: error translation, times, and new Reverie records."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from core.errors import NotFound, ReverieError
from core.turns import TurnError, parse_ts
from core.vault.records import MemoryRecord, content_sha256, memory_from_payload

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


def new_record(memory_id: str, content: str, tags: list[str], custom: dict[str, Any], created_at: str,
               where: str, *, location: str | None = None) -> MemoryRecord:
    """A Reverie memory built from its payload, the records' on-disk contract (checked like a loaded one)."""
    metadata = {"tags": tags, "occurred_at": None, "location": location, "title": None, "people": [],
                "confirmed_fields": {}, "custom": custom}
    payload = {"memory_id": memory_id, "content": content, "content_sha256": content_sha256(content),
               "created_at": created_at, "metadata": metadata}
    return memory_from_payload(payload, where, memory_id, 1)
