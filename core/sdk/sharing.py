"""What ``MemoryVault.share`` may disclose: the rule, apart from the vault.

Granted tags are the requested ones the owner allows (``allowed_tags``, or the whole request when
None) minus the denied ones. A memory is shared when it carries a granted tag and no denied tag:
denied wins, also over a memory's other tags, and tags compare for denial with whitespace collapsed
and case folded, as Reverie's sharing profiles compare them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


def fold(tag: str) -> str:
    return " ".join(str(tag).split()).casefold()


@dataclass(frozen=True)
class Grant:
    requested: list[str]
    granted: list[str]
    denied: frozenset[str]  # folded

    @classmethod
    def of(cls, scope: Iterable[str], allowed_tags: Iterable[str] | None,
           denied_tags: Iterable[str] | None) -> Grant:
        requested = list(dict.fromkeys(scope))
        permitted = set(allowed_tags) if allowed_tags else set(requested)
        denied = frozenset(fold(t) for t in denied_tags or [])
        return cls(requested, [t for t in requested if t in permitted and fold(t) not in denied], denied)

    @property
    def refused(self) -> list[str]:
        """Requested tags not granted, in the request's order."""
        return [t for t in self.requested if t not in self.granted]

    def allows(self, tags: Iterable[str]) -> bool:
        carried = list(tags)
        return bool(set(carried) & set(self.granted)) and not {fold(t) for t in carried} & self.denied
