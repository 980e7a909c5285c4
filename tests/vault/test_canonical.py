"""The fast writers of canonical JSON and of ledger lines give exactly the bytes of the ``json`` ones, for
every decoded value, plain or not (what a signature, a hash or a byte-exact check is computed over)."""

from __future__ import annotations

import json
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from core.vault.canonical import canonical_json, canonical_json_decoded, is_plain_json, no_floats
from core.vault.ledger import LedgerEntry, _decode_line, _line_bytes, entry_line

# Any JSON value, with the characters that need escaping (quotes, backslashes, control characters, DEL,
# non-ASCII, U+2028) and floats written differently by the two libraries (1e16, 1e-07).
_TEXT = st.text(st.sampled_from(list('ab "\\\n\t\x00\x1f\x7f~é한\u2028')), max_size=8)
_SCALARS = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | _TEXT \
    | st.floats(allow_nan=False, allow_infinity=False) | st.sampled_from([1e16, 1e-7, 0.1, -0.0, 2.0])
_VALUES = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=4)
                       | st.dictionaries(_TEXT, inner, max_size=4), max_leaves=12)


def _decoded(value: Any) -> tuple[Any, bytes]:
    """The value as a reader sees it: written by ``json`` (with the escapes it uses), decoded by msgspec."""
    text = json.dumps(value, sort_keys=True).encode("ascii")
    return msgspec.json.decode(text), text


@settings(max_examples=400, deadline=None)
@given(_VALUES)
def test_canonical_json_of_a_decoded_value_is_the_json_bytes(value: Any) -> None:
    decoded, text = _decoded(value)
    plain = is_plain_json(text)
    assert canonical_json_decoded(decoded, plain) == canonical_json(decoded)
    compact = msgspec.json.encode(decoded)  # the same value without json's escapes: plain more often
    again = msgspec.json.decode(compact)
    assert canonical_json_decoded(again, is_plain_json(compact)) == canonical_json(again)


def test_plain_means_no_escape_is_needed() -> None:
    assert is_plain_json(b'{"a": "b c", "n": 1}')
    for text in (b'{"a": "\\u0041"}', b'{"a": "\\""}', '{"a": "é"}'.encode(), b'{"a": "\x7f"}'):
        assert not is_plain_json(text)


def test_no_floats_looks_all_the_way_down() -> None:
    assert no_floats({"a": [1, "x", None, True, {"b": []}]})
    assert not no_floats({"a": [1, {"b": [0.5]}]})
    assert not no_floats([1.0]) and not no_floats(2.5) and not no_floats({"a": (1,)})


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(_TEXT, _VALUES, max_size=3), _TEXT, st.integers(1, 2**40))
def test_a_ledger_line_is_written_back_as_entry_line_writes_it(data: dict[str, Any], record_id: str, seq: int) -> None:
    entry = LedgerEntry(seq=seq, ts="2026-12-01T00:00:00.000000Z", kind="finalize", record_id=record_id,
                        record_sha256="a" * 64, data=data, prev="b" * 64, hash="c" * 64, sig="d" * 64)
    line = entry_line(entry).encode("utf-8")
    again = LedgerEntry(**_decode_line(line))
    assert again == entry
    assert _line_bytes(again, is_plain_json(line)) == entry_line(again).encode("utf-8")


def test_a_ledger_line_msgspec_refuses_is_read_by_json() -> None:
    assert _decode_line(b'{"a": NaN}')["a"] != 0  # json reads NaN; msgspec refuses it
    try:
        _decode_line(b'{"a": ')
    except json.JSONDecodeError as exc:
        assert "Expecting value" in str(exc)
    else:
        raise AssertionError("a broken line must not decode")


def _outcome(read: Any, line: bytes) -> Any:
    try:
        return read(line)
    except (ValueError, RecursionError) as exc:
        return (type(exc).__name__, str(exc))


def test_a_ledger_line_decoded_in_one_call_is_what_the_long_way_gives() -> None:
    from core.vault.ledger import _entry_from_json, _entry_from_line

    good = {"seq": 3, "ts": "2026-12-01T00:00:00Z", "kind": "finalize", "record_id": "mem_x",
            "record_sha256": "a" * 64, "data": {"draft_id": "d"}, "prev": "b" * 64, "hash": "c" * 64, "sig": "d" * 64}
    variants = [good, {**good, "seq": True}, {**good, "seq": 3.0}, {**good, "seq": 2**70}, {**good, "data": []},
                {k: v for k, v in good.items() if k != "data"}, {k: v for k, v in good.items() if k != "sig"},
                {**good, "prev": "B" * 64}, {**good, "sig": "d" * 63}, {**good, "kind": 7}, {**good, "extra": 1}]
    lines = [json.dumps(v).encode() for v in variants]
    lines += [b"[]", b"{", b'{"seq": NaN}', json.dumps(good).encode()[:-1] + b', "hash": "' + b"e" * 64 + b'"}',
              b"[" * 5000 + b"]" * 5000, "\ufeff".encode() + json.dumps(good).encode()]
    for line in lines:
        assert _outcome(_entry_from_line, line) == _outcome(lambda raw: _entry_from_json(_decode_line(raw)), line), line
