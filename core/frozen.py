"""Deep immutability for JSON-shaped values.

``freeze`` turns dicts into :class:`FrozenDict` and lists into tuples, all the way down, so a frozen
review object cannot be changed through a nested value (``suggestion.value["people"].append(...)``
fails). ``thaw`` gives back plain, JSON-serialisable dicts and lists.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import Any


class FrozenDict(Mapping[str, Any]):
    """An immutable, hashable mapping of str keys to frozen JSON values."""

    __slots__ = ("_data", "_hash")

    def __init__(self, data: Mapping[str, Any] | None = None) -> None:
        self._data: dict[str, Any] = dict(data or {})
        self._hash: int | None = None

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._data.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return dict(self._data) == dict(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"FrozenDict({self._data!r})"


JSONValue = None | bool | int | float | str | tuple[Any, ...] | FrozenDict


def freeze(value: Any, where: str = "value") -> Any:
    """A deeply frozen copy of a JSON value; ``ValueError`` naming ``where`` for anything else."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{where}: {value!r} is not a JSON number")
        return value
    if isinstance(value, Mapping):
        items = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise ValueError(f"{where}: key {key!r} is not a string")
            items[key] = freeze(item, f"{where}.{key}")
        return FrozenDict(items)
    if isinstance(value, list | tuple):
        return tuple(freeze(item, f"{where}[{i}]") for i, item in enumerate(value))
    raise ValueError(f"{where}: {type(value).__name__} is not a JSON value")


def thaw(value: Any) -> Any:
    """Plain dicts and lists again, for JSON."""
    if isinstance(value, Mapping):
        return {key: thaw(item) for key, item in value.items()}
    if isinstance(value, tuple | list):
        return [thaw(item) for item in value]
    return value
