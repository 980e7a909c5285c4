"""Small pieces the SDK's modules share: error translation, times, the reserved metadata keys, and
the published JSON form of its plain dataclasses."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, ClassVar, Self

from core.errors import NotFound, ReverieError
from core.turns import TurnError, parse_ts
from core.typed import convert_as_python, to_builtins

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


class Published:
    """A dataclass in upstream's published JSON form (DiaryVault Memory Layer v0.4): its fields by
    msgspec, in declared order."""

    def to_dict(self) -> dict[str, Any]:
        return to_builtins(self)


class PublishedDocument(Published):
    """A :class:`Published` dataclass that is also read back, from that form or its JSON text: an
    unknown field or a wrong type is a ``TypeError`` naming the field and ``_what``."""

    _what: ClassVar[str]

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        return convert_as_python(data, cls, cls._what)

    @classmethod
    def from_json(cls, json_str: str) -> Self:
        return cls.from_dict(json.loads(json_str))
