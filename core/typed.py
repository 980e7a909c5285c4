"""Typed data by msgspec: the project's dataclasses to JSON values and back, field lists written once.

:func:`to_builtins` turns a dataclass (nested dataclasses, tuples, mappings, paths included) into the
JSON values it is written as: msgspec walks the type's own fields in their declared order, so a
stored form is the dataclass itself and a new field cannot be forgotten in a hand-written ``to_dict``.
It goes through msgspec's JSON encoder and decoder (both in C) rather than ``msgspec.to_builtins``,
because ``to_builtins`` keeps tuples as tuples and the stored forms are lists (``[...] == (...)`` is
false for a caller comparing with a loaded document). The one thing this changes: a non-finite float
becomes ``null`` (msgspec's JSON has no ``NaN``); no stored or printed form here holds one.

:func:`convert` builds a dataclass from a decoded document (``msgspec.convert``: each field's JSON
type, required fields, ``bool`` is not an ``int``), and :func:`field_error` rewrites msgspec's message
into the project's one line naming the field (``field 'size': expected int, got str``).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Mapping
from pathlib import PurePath
from typing import Any, TypeVar

import msgspec

T = TypeVar("T")

_ENCODER: msgspec.json.Encoder | None = None
_DECODER = msgspec.json.Decoder()


def _enc_hook(obj: Any) -> Any:
    if isinstance(obj, PurePath):
        return str(obj)
    if isinstance(obj, Mapping):  # MappingProxyType and the frozen mappings of core.frozen
        return dict(obj)
    if isinstance(obj, (frozenset, set)):
        return sorted(obj)
    raise NotImplementedError(f"{type(obj).__name__} has no JSON form")


def _dec_hook(kind: type, obj: Any) -> Any:
    if isinstance(kind, type) and issubclass(kind, PurePath) and isinstance(obj, str):
        return kind(obj)
    raise NotImplementedError(f"no conversion to {kind!r}")


def to_json_bytes(obj: Any) -> bytes:
    """``obj`` as compact JSON by msgspec (fields in declared order)."""
    global _ENCODER
    if _ENCODER is None:
        _ENCODER = msgspec.json.Encoder(enc_hook=_enc_hook)
    return _ENCODER.encode(obj)


def to_builtins(obj: Any, *, omit: Collection[str] = ()) -> Any:
    """The JSON values of ``obj`` (a dataclass gives a dict of its fields in declared order, tuples
    give lists, paths give strings); ``omit``: fields of a dataclass left out (never encoded)."""
    if omit:
        if not dataclasses.is_dataclass(obj) or isinstance(obj, type):
            raise TypeError(f"omit= needs a dataclass instance, got {type(obj).__name__}")
        obj = {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj) if f.name not in omit}
    return _DECODER.decode(to_json_bytes(obj))


_AT = re.compile(r"\s*-\s*at\s*`\$(?P<path>[^`]*)`$")
_MISSING = re.compile(r"^Object missing required field `(?P<name>[^`]+)`$")
_UNKNOWN = re.compile(r"^Object contains unknown field `(?P<name>[^`]+)`$")
_EXPECTED = re.compile(r"^Expected `(?P<want>[^`]+)`, got `(?P<got>[^`]+)`$")


def _dotted(path: str) -> str:
    return path.lstrip(".").replace("[...]", "[*]")


def field_error(exc: msgspec.ValidationError) -> str:
    """msgspec's message as one line naming the field: ``field 'a.b': expected int, got str``,
    ``field 'a.size' missing``, ``unknown field 'surprise'``; other messages are kept, with the field."""
    text = " ".join(str(exc).split())
    at = _AT.search(text)
    path = _dotted(at.group("path")) if at else ""
    message = text[: at.start()] if at else text
    prefix = f"{path}." if path else ""
    if found := _MISSING.match(message):
        return f"field '{prefix}{found.group('name')}' missing"
    if found := _UNKNOWN.match(message):
        return f"unknown field '{prefix}{found.group('name')}'"
    if found := _EXPECTED.match(message):
        expected = f"expected {found.group('want')}, got {found.group('got')}"
        return f"field '{path}': {expected}" if path else expected
    return f"field '{path}': {message[:1].lower()}{message[1:]}" if path else message


def convert(data: Any, kind: type[T], where: str, error: type[Exception] = ValueError) -> T:
    """``kind`` built from the decoded document ``data`` by msgspec (unknown keys of a dataclass are
    ignored, of a ``forbid_unknown_fields`` Struct refused); a wrong document raises ``error`` with
    ``"<where>: <field_error>"``."""
    try:
        return msgspec.convert(data, kind, dec_hook=_dec_hook)
    except msgspec.ValidationError as exc:
        raise error(f"{where}: {field_error(exc)}") from exc
