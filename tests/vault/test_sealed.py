"""The sealed envelope's exact-bytes check: the fast path (msgspec) answers exactly as the byte form
``seal`` writes (Python's ``json``), for any record, including ones that need escaping."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import RecordError
from core.vault.crypto import VaultKeys, b64d
from core.vault.sealed import _file_bytes, associated_data, envelope_bytes, is_file_bytes, seal

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


def test_a_sealed_record_put_back_together_from_its_parts_is_its_file() -> None:
    """``envelope_bytes`` (a DiaryVault view's ciphertext, nonce and signature made a record file again)
    writes exactly what ``seal`` wrote, and the associated data binds the parts to the id and version."""
    keys = VaultKeys(b"\x01" * 32, b"\x02" * 32)
    data = seal("reverie.memory", "mem_0123456789abcdef", 1, {"content": "x"}, keys)
    record = json.loads(data)
    nonce, ciphertext = b64d(record["nonce"], "nonce"), b64d(record["ciphertext"], "ciphertext")
    assert envelope_bytes("reverie.memory", "mem_0123456789abcdef", 1, nonce, ciphertext, record["hmac"]) == data
    aad = associated_data("reverie.memory", "mem_0123456789abcdef", 1)
    assert json.loads(keys.decrypt(nonce, ciphertext, aad, "here")) == {"content": "x"}
    with pytest.raises(RecordError):
        keys.decrypt(nonce, ciphertext, associated_data("reverie.memory", "mem_0123456789abcdef", 2), "here")
