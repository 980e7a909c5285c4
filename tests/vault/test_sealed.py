"""The sealed envelope's exact-bytes check: the fast path (msgspec) answers exactly as the byte form
``seal`` writes (Python's ``json``), for any record, including ones that need escaping."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from core.vault.sealed import _file_bytes, is_file_bytes

VALUE = st.one_of(st.text(max_size=12), st.integers(-5, 10**12), st.booleans(), st.floats(allow_nan=False),
                  st.none())
RECORD = st.fixed_dictionaries({k: VALUE for k in ("ciphertext", "format", "format_version", "hmac", "id",
                                                   "nonce", "record_version")})


@settings(max_examples=300, deadline=None)
@given(RECORD, st.sampled_from(["exact", "indent2", "unsorted", "ascii", "trailing"]))
def test_the_fast_check_agrees_with_the_byte_form(record: dict, variant: str) -> None:
    exact = _file_bytes(record)
    data = {
        "exact": exact,
        "indent2": (json.dumps(record, indent=2, sort_keys=True) + "\n").encode(),
        "unsorted": (json.dumps(dict(reversed(record.items())), indent=1) + "\n").encode(),
        "ascii": (json.dumps(record, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode(),
        "trailing": exact.rstrip(b"\n"),
    }[variant]
    assert is_file_bytes(data, record) == (data == exact)


def test_a_real_record_takes_the_fast_path_and_a_changed_one_fails() -> None:
    record = {"ciphertext": "q83v", "format": "reverie.memory", "format_version": 1, "hmac": "ab" * 32,
              "id": "mem_0123456789abcdef", "nonce": "AAAA", "record_version": 2}
    exact = _file_bytes(record)
    assert is_file_bytes(exact, record)
    assert not is_file_bytes(exact.replace(b'"id"', b'"id" '), record)
    assert not is_file_bytes(exact.replace(b"mem_0", b"mem_\\u0030"), record)  # same value, other bytes
