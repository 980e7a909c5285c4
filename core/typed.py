"""Typed data by msgspec: the project's dataclasses to JSON values and back, field lists written once.

:func:`to_builtins` gives the JSON values a dataclass is written as (fields in declared order, tuples as
lists, through msgspec's JSON encoder and decoder; a non-finite float becomes ``null``).
:func:`convert` builds a dataclass from a decoded document and :func:`field_error` turns msgspec's
message into one line naming the field (``field 'size': expected int, got str``);
:func:`convert_as_python` raises the errors a hand-written ``cls(**data)`` loader would, for APIs that
promise them (the SDK). :func:`document_problem` adds what msgspec does not do for dataclasses: refuse
unknown keys and, for stored documents, require a field whose default is made at construction. The
types stay dataclasses (``dataclasses.replace``, positional construction); msgspec cannot rename a
field or write a ``datetime`` as ``isoformat`` does, so the few forms that need either stay written out.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Mapping
from pathlib import PurePath
from typing import Any, TypeVar

import msgspec
import msgspec.inspect as mi

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


_EMPTY_FACTORIES = (list, dict, tuple, set, frozenset, str)


def _optional_in_documents(f: mi.Field) -> bool:
    """Whether a stored document may leave this field out: its default is empty (``None``, ``""``,
    ``()``, an empty collection). A default made at construction (a new id, the current time) or a
    meaningful one (a state) must be written, so loading never invents it."""
    if f.required:
        return False
    if f.default_factory is not msgspec.NODEFAULT:
        return f.default_factory in _EMPTY_FACTORIES
    return f.default is None or (isinstance(f.default, (str, tuple, list, dict, frozenset)) and not f.default)


def _record_fields(info: mi.Type) -> tuple[mi.Field, ...] | None:
    if isinstance(info, (mi.DataclassType, mi.StructType)):
        return info.fields
    return None


def document_problem(data: Any, kind: Any, *, complete: bool = False) -> tuple[str, str] | None:
    """The first problem msgspec's own conversion does not report, as ``(kind, dotted field)``:
    ``("unknown", name)`` for a key no dataclass field has (msgspec ignores those for dataclasses),
    and with ``complete`` ``("missing", name)`` for a field a stored document must hold although the
    constructor has a default for it (see :func:`_optional_in_documents`). Walked in document order
    against msgspec's type description (``msgspec.inspect``), so the field lists stay the types'."""
    return _problem(data, mi.type_info(kind), "", complete)


def _problem(data: Any, info: mi.Type, prefix: str, complete: bool) -> tuple[str, str] | None:
    while isinstance(info, mi.Metadata):
        info = info.type
    if isinstance(info, mi.UnionType):
        for member in info.types:
            if _record_fields(member) is not None and isinstance(data, dict):
                return _problem(data, member, prefix, complete)
        return None
    fields = _record_fields(info)
    if fields is not None:
        if not isinstance(data, dict):
            return None  # msgspec names the wrong type
        by_name = {f.encode_name: f for f in fields}
        for key, value in data.items():
            dotted = f"{prefix}.{key}" if prefix else str(key)
            if key not in by_name:
                if isinstance(info, mi.StructType) and not info.forbid_unknown_fields:
                    continue
                return ("unknown", dotted)
            if (found := _problem(value, by_name[key].type, dotted, complete)) is not None:
                return found
        if complete:
            for f in fields:
                if f.encode_name not in data and not _optional_in_documents(f):
                    return ("missing", f"{prefix}.{f.encode_name}" if prefix else f.encode_name)
        return None
    item = getattr(info, "item_type", None)
    if item is not None and isinstance(data, (list, tuple)):
        for i, value in enumerate(data):
            if (found := _problem(value, item, f"{prefix}[{i}]", complete)) is not None:
                return found
    return None


def convert_as_python(data: Any, kind: type[T], where: str, *, complete: bool = False) -> T:
    """``kind`` built from ``data`` by msgspec, failing with Python's own errors the way a hand-written
    loader does (an API that promises them keeps them): a missing field is a ``TypeError`` as from
    ``cls(**data)``, or with ``complete`` (a loader that reads ``data["key"]``) a ``KeyError``;
    ``TypeError`` for an unknown field or a wrong JSON type, ``ValueError`` for a value its type
    refuses (an enum); what a type's ``__post_init__`` raises is raised as it was. Each message names
    ``where`` and the field."""
    found = document_problem(data, kind, complete=complete)
    if found is not None:
        problem, name = found
        if problem == "missing":
            raise KeyError(f"{where}: field '{name}' missing")
        raise TypeError(f"{where}: unknown field '{name}'")
    try:
        return msgspec.convert(data, kind, dec_hook=_dec_hook)
    except msgspec.ValidationError as exc:
        cause = exc.__cause__
        if isinstance(cause, (ValueError, TypeError)) and not isinstance(cause, msgspec.ValidationError):
            raise cause from None  # the type's own check, e.g. an invariant in __post_init__
        message = f"{where}: {field_error(exc)}"
        if _MISSING.match(_AT.sub("", " ".join(str(exc).split()))):
            raise (KeyError if complete else TypeError)(message) from exc
        if "expected " in message:
            raise TypeError(message) from exc
        raise ValueError(message) from exc
