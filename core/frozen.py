"""Deep immutability for JSON-shaped values.

``freeze`` turns dicts into :class:`FrozenDict` and lists into tuples, all the way down, so a frozen
review object cannot be changed through a nested value; ``thaw`` gives back plain dicts and lists.
:func:`adopt_decoded` freezes what msgspec has just decoded without walking it: each nested value is
converted the first time it is read, and every way in (``[]``, ``get``, ``items``, ``==``, ``hash``)
sees frozen values only, so ``reverie verify`` does not walk review provenance it never reads.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any


class FrozenDict(Mapping[str, Any]):
    """An immutable, hashable mapping of str keys to frozen JSON values."""

    __slots__ = ("_data", "_hash", "_lazy")

    def __init__(self, data: Mapping[str, Any] | None = None) -> None:
        self._data: dict[str, Any] = dict(data or {})
        self._hash: int | None = None
        self._lazy = False

    def __getitem__(self, key: str) -> Any:
        value = self._data[key]
        if self._lazy and (type(value) is dict or type(value) is list):
            value = self._data[key] = _adopt(value)
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return dict(self.items()) == dict(other.items())
        return NotImplemented

    def __repr__(self) -> str:
        return f"FrozenDict({dict(self.items())!r})"


def adopt_decoded(value: Any) -> Any:
    """``freeze`` for a value a JSON decoder just returned and nobody else holds (see the module's
    docstring): dicts become lazily converting :class:`FrozenDict` s, lists tuples."""
    return _adopt(value)


def _adopt(value: Any) -> Any:
    if type(value) is dict:
        frozen = FrozenDict.__new__(FrozenDict)
        frozen._data, frozen._hash, frozen._lazy = value, None, True
        return frozen
    if type(value) is list:
        return tuple([_adopt(item) if type(item) is dict or type(item) is list else item for item in value])
    return value


JSONValue = None | bool | int | float | str | tuple[Any, ...] | FrozenDict


class _NotJSON(Exception):
    """Raised deep inside :func:`_freeze`; the path to the value is added while it unwinds, so the
    common case (everything is JSON) builds no path strings at all."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why
        self.path = ""


def freeze(value: Any, where: str = "value") -> Any:
    """A deeply frozen copy of a JSON value; ``ValueError`` naming ``where`` (and the path below it)
    for anything else."""
    try:
        return _freeze(value)
    except _NotJSON as exc:
        raise ValueError(f"{where}{exc.path}: {exc.why}") from None


def _freeze(value: Any) -> Any:
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is float:
        if not math.isfinite(value):
            raise _NotJSON(f"{value!r} is not a JSON number")
        return value
    if kind is dict or kind is FrozenDict or isinstance(value, Mapping):
        items = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise _NotJSON(f"key {key!r} is not a string")
            try:
                items[key] = _freeze(item)
            except _NotJSON as exc:
                exc.path = f".{key}{exc.path}"
                raise
        frozen = FrozenDict.__new__(FrozenDict)
        frozen._data, frozen._hash, frozen._lazy = items, None, False
        return frozen
    if kind is list or kind is tuple or isinstance(value, list | tuple):
        out = []
        for i, item in enumerate(value):
            try:
                out.append(_freeze(item))
            except _NotJSON as exc:
                exc.path = f"[{i}]{exc.path}"
                raise
        return tuple(out)
    if isinstance(value, float):
        return _freeze(float(value))
    if isinstance(value, bool | int | str):
        return value
    raise _NotJSON(f"{type(value).__name__} is not a JSON value")


def thaw(value: Any) -> Any:
    """Plain dicts and lists again, for JSON."""
    if isinstance(value, Mapping):
        return {key: thaw(item) for key, item in value.items()}
    if isinstance(value, tuple | list):
        return [thaw(item) for item in value]
    return value


def freeze_view(value: Any) -> Any:
    """A deeply read-only copy in the DiaryVault API's form: mappings become ``MappingProxyType`` views
    of frozen values, lists and tuples become tuples, anything else is kept. Unlike :func:`freeze` it
    does not check that the value is JSON: a suggestion is checked against its field where it is
    stored (``core.vault.review``)."""
    if isinstance(value, Mapping):
        return MappingProxyType({key: freeze_view(item) for key, item in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze_view(item) for item in value)
    return value
