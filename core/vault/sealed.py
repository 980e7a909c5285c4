"""Sealed envelopes: the one on-disk form for every encrypted record (memories and drafts).

::

    {"format": "<kind>", "format_version": 1, "id": "<record id>", "record_version": N,
     "nonce": "<b64>", "ciphertext": "<b64>", "hmac": "<hex>"}

AES-256-GCM over the canonical JSON of the payload, with associated data (format, id, version): a
ciphertext moved under another id or version does not decrypt. ``hmac`` is HMAC-SHA256 over the
canonical JSON of every other field, so a change to any byte of any field shows. A file must also
be exactly the bytes :func:`seal` writes: a change that leaves every field's value alone (whitespace
between fields, an escaped character, a repeated key) is a change to the file all the same, and
reading a record file of the home refuses it (``exact_bytes``).
"""

from __future__ import annotations

import binascii
import json
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar

import msgspec

from core.errors import RecordError, ReverieError
from core.vault.canonical import canonical_json, is_plain_json
from core.vault.crypto import VaultKeys, b64d, b64e

FORMAT_VERSION = 1
_KEYS = {"format", "format_version", "id", "record_version", "nonce", "ciphertext", "hmac"}


def one_line(message: str) -> str:
    """A library's message about a record as one line: a field name from the file may hold line breaks or
    other control characters, shown escaped (and a very long one cut)."""
    shown = message if message.isprintable() else "".join(
        c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in message)
    return shown if len(shown) <= 300 else shown[:297] + "..."


class SwappedRecord(RecordError):
    """A valid record that sits under another record's name."""


class SignatureMismatch(RecordError):
    """A record whose HMAC does not match: modified, or signed with another key."""


class Unsealed(NamedTuple):
    """A verified record: its id and version, the decrypted payload's bytes, and the sealed parts the
    file holds (nonce, ciphertext, HMAC)."""

    record_id: str
    record_version: int
    plaintext: bytes
    nonce: bytes
    ciphertext: bytes
    hmac: str


@dataclass(frozen=True)
class Envelope:
    record_id: str
    record_version: int
    payload: dict[str, Any]


def associated_data(fmt: str, record_id: str, version: int, plain: bool = False) -> bytes:
    """What binds a record's ciphertext to its format, id and version (the AES-GCM associated data).
    ``plain``: ``fmt`` and ``record_id`` were decoded from a record file for which ``is_plain_json``
    holds, so msgspec writes them exactly as ``canonical_json`` does (strings without escapes, an int)."""
    value = {"format": fmt, "id": record_id, "record_version": version}
    return msgspec.json.encode(value, order="sorted") if plain else canonical_json(value)


def seal(fmt: str, record_id: str, version: int, payload: dict[str, Any], keys: VaultKeys) -> bytes:
    nonce, ciphertext = keys.encrypt(canonical_json(payload), associated_data(fmt, record_id, version))
    record = _unsigned(fmt, record_id, version, nonce, ciphertext)
    record["hmac"] = keys.sign(canonical_json(record))
    return _file_bytes(record)


def _unsigned(fmt: str, record_id: str, version: int, nonce: bytes, ciphertext: bytes) -> dict[str, Any]:
    """Every field of a record file but ``hmac``, which signs them: the envelope's fixed layout."""
    return {"format": fmt, "format_version": FORMAT_VERSION, "id": record_id, "record_version": version,
            "nonce": b64e(nonce), "ciphertext": b64e(ciphertext)}


def envelope_bytes(fmt: str, record_id: str, version: int, nonce: bytes, ciphertext: bytes, hmac: str) -> bytes:
    """The record file these sealed parts make, exactly as :func:`seal` writes one (for parts shown apart,
    e.g. by a DiaryVault view: its ciphertext, nonce and signature)."""
    return _file_bytes({**_unsigned(fmt, record_id, version, nonce, ciphertext), "hmac": hmac})


def _file_bytes(record: dict[str, Any]) -> bytes:
    """The one byte form of a sealed record's file."""
    return (json.dumps(record, indent=1, sort_keys=True) + "\n").encode("utf-8")


def is_file_bytes(data: bytes, record: dict[str, Any], simple: bool | None = None) -> bool:
    """Whether ``data`` is exactly :func:`_file_bytes` of ``record`` (decoded from ``data``), without the
    pure-Python indenting encoder in the common case: msgspec writes the same bytes (sorted keys, one-space
    indent) for values that need no escaping, and Python's ``json`` escapes every non-ASCII character and
    DEL, so when ``data`` is plain (:func:`core.vault.canonical.is_plain_json`: ASCII, no backslash, no
    DEL) and every value is a str or an int (``simple``, when the caller already knows both), the two
    agree. Anything else is compared with the slow form, so the answer is always that of ``_file_bytes``."""
    if simple is None:
        simple = is_plain_json(data) and all(type(v) is str or type(v) is int for v in record.values())
    if simple:
        return data == msgspec.json.format(msgspec.json.encode(record, order="sorted"), indent=1) + b"\n"
    return data == _file_bytes(record)


def _simple_values(record: dict[str, Any]) -> bool:
    """Whether every value of an envelope (its seven keys checked) is a str or an int, as :func:`seal`
    writes them (``all(...)`` over the values, spelt out: this runs for every record of a scan)."""
    return (type(record["format_version"]) is int and type(record["record_version"]) is int
            and type(record["id"]) is str and type(record["nonce"]) is str and type(record["ciphertext"]) is str
            and type(record["hmac"]) is str and type(record["format"]) is str)


def _decode_json(data: bytes, where: str, what: str) -> Any:
    """JSON by msgspec (C, several times faster than ``json.loads`` here); a repeated key keeps the last
    value as ``json`` does, and NaN or infinity is refused (no record can hold them)."""
    try:
        return msgspec.json.decode(data)
    except msgspec.DecodeError as exc:
        raise RecordError(f"{where}: {what}: {one_line(str(exc))}") from exc
    except RecursionError as exc:
        raise RecordError(f"{where}: {what}: nested too deeply") from exc


_Payload = TypeVar("_Payload")


def decode_payload(plaintext: bytes, kind: type[_Payload], where: str, error: type[ReverieError] = RecordError, *,
                   malformed: str = "payload malformed: ") -> _Payload:
    """A decrypted payload decoded by msgspec straight into ``kind``; ``error`` names ``where`` when it is
    not JSON, or (after ``malformed``) the field msgspec refused."""
    try:
        return msgspec.json.decode(plaintext, type=kind)
    except msgspec.ValidationError as exc:
        raise error(f"{where}: {malformed}{one_line(str(exc))}") from exc
    except (msgspec.DecodeError, RecursionError) as exc:
        raise error(f"{where}: the decrypted payload is not JSON") from exc


def unseal(data: bytes, fmt: str, keys: VaultKeys, where: str, expected_id: str | None = None, *,
           exact_bytes: bool = False) -> Envelope:
    """Check the signature, the name, then decrypt. Raises ``RecordError`` (or a subclass) naming
    ``where`` and what failed. With ``exact_bytes`` (a record file of the home), ``data`` must also
    be exactly what :func:`seal` wrote."""
    unsealed = unseal_plaintext(data, fmt, keys, where, expected_id, exact_bytes=exact_bytes)
    payload = _decode_json(unsealed.plaintext, where, "the decrypted payload is not JSON")
    if not isinstance(payload, dict):
        raise RecordError(f"{where}: payload is not an object")
    return Envelope(unsealed.record_id, unsealed.record_version, payload)


def unseal_plaintext(data: bytes, fmt: str, keys: VaultKeys, where: str, expected_id: str | None = None, *,
                     exact_bytes: bool = False) -> Unsealed:
    """:func:`unseal` up to the decrypted payload's bytes (record id, record version, plaintext), for a
    caller that decodes them straight into its own types.

    A record file as :func:`seal` writes it is plain JSON (``is_plain_json``: ASCII, no escapes) whose
    values are strings and ints: then the signed bytes, the exact file bytes and the associated data are
    written by msgspec, which gives exactly what ``json`` gives for such values (``canonical_json_decoded``,
    ``is_file_bytes``); anything else goes through ``json``. Either way every check runs."""
    record = _decode_json(data, where, "unreadable record")
    if not isinstance(record, dict) or record.get("format") != fmt:
        raise RecordError(f"{where}: not a {fmt} record (field 'format')")
    if record.keys() != _KEYS:
        missing, extra = sorted(_KEYS - set(record)), sorted(set(record) - _KEYS)
        raise RecordError(f"{where}: record fields differ: missing {missing}, unexpected {extra}")
    simple = is_plain_json(data) and _simple_values(record)
    unsigned = {k: v for k, v in record.items() if k != "hmac"}
    try:
        signed = msgspec.json.encode(unsigned, order="sorted") if simple else canonical_json(unsigned)
    except (UnicodeEncodeError, ValueError) as exc:
        raise SignatureMismatch(f"{where}: a field holds a value no record can (an unpaired surrogate, NaN or "
                                "infinity): modified") from exc
    if not keys.signature_ok(signed, record["hmac"]):
        raise SignatureMismatch(f"{where}: signature does not match (a field was modified, or another key signed it)")
    record_id, version = record["id"], record["record_version"]
    if not isinstance(record_id, str) or isinstance(version, bool) or not isinstance(version, int):
        raise RecordError(f"{where}: fields 'id' / 'record_version' malformed")
    if expected_id is not None and record_id != expected_id:
        raise SwappedRecord(f"{where}: holds the record of {record_id!r} (swapped)")
    if record["format_version"] != FORMAT_VERSION:
        raise RecordError(f"{where}: unsupported format_version {record['format_version']!r}")
    if exact_bytes and not is_file_bytes(data, record, simple):
        raise RecordError(f"{where}: the file's bytes differ from the record they hold (changed outside Reverie)")
    nonce, ciphertext = record["nonce"], record["ciphertext"]
    try:
        nonce_bytes, ciphertext_bytes = binascii.a2b_base64(nonce, strict_mode=True), \
            binascii.a2b_base64(ciphertext, strict_mode=True)
    except (ValueError, TypeError):  # which one, in the words of b64d
        nonce_bytes = b64d(str(nonce), f"{where}: nonce")
        ciphertext_bytes = b64d(str(ciphertext), f"{where}: ciphertext")
    plaintext = keys.decrypt(nonce_bytes, ciphertext_bytes, associated_data(fmt, record_id, version, simple), where)
    return Unsealed(record_id, version, plaintext, nonce_bytes, ciphertext_bytes, record["hmac"])
