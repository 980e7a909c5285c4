"""Canonical JSON: the one byte form that hashes, signatures and associated data are computed over."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import msgspec


def canonical_json(value: Any) -> bytes:
    """Sorted keys, no insignificant whitespace, UTF-8, no NaN: equal values give equal bytes."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")


def is_plain_json(data: bytes) -> bool:
    """Whether the JSON text ``data`` is ASCII with no backslash and no DEL. Every string decoded from such
    a text is printable ASCII without a quote or a backslash (a JSON string cannot hold a raw control
    character, and there is no escape), so ``json`` and msgspec both write it back as it is. Two C scans
    of the bytes: far cheaper than looking at each decoded string."""
    return data.isascii() and b"\\" not in data and b"\x7f" not in data


def no_floats(value: Any) -> bool:
    """Whether a decoded JSON value holds only strings, ints, booleans, nulls, dicts and lists (no float:
    ``json`` and msgspec write some floats differently, ``1e+16`` / ``1e16``). Flat containers, the
    common case, are checked without a call per item."""
    kind = type(value)
    if kind is dict:
        for key, item in value.items():
            if type(key) is not str:
                return False
            kind = type(item)
            if kind is not str and kind is not int and kind is not bool and item is not None \
                    and not ((kind is dict or kind is list) and no_floats(item)):
                return False
        return True
    if kind is list:
        for item in value:
            kind = type(item)
            if kind is not str and kind is not int and kind is not bool and item is not None \
                    and not ((kind is dict or kind is list) and no_floats(item)):
                return False
        return True
    return kind is str or kind is int or kind is bool or value is None


def canonical_json_decoded(value: Any, plain: bool) -> bytes:
    """:func:`canonical_json` of ``value``, a value (or a part of one) decoded from a JSON text for which
    :func:`is_plain_json` gave ``plain``. Such a value without floats is written by msgspec (in C, about
    ten times faster than ``json.dumps`` with its options), which then gives the same bytes: keys sorted,
    no whitespace, every string as it is, ints, ``true``/``false``/``null`` alike. Anything else goes
    through :func:`canonical_json`, so the bytes are always exactly its bytes
    (``tests/vault/test_canonical.py`` compares the two)."""
    if plain and no_floats(value):
        return msgspec.json.encode(value, order="sorted")
    return canonical_json(value)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
