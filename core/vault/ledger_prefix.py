"""The verified prefix of the ledger: a signed note that lets an append skip re-checking old entries.

``ledger.prefix.json`` (in the home's cache folder) says "the first ``length`` bytes of ``ledger.jsonl``,
whose SHA-256 is ``sha256``, are ``count`` whole lines that this vault verified as a clean chain (every
entry parsed, hashed, signed by this vault, written in its one byte form, and linked), ending at entry
``last_seq`` / ``last_hash``". It is HMAC-signed with the vault's signing key, so it cannot be made
without the passphrase; and it is only ever used after hashing those bytes again, so it vouches for
nothing but bytes that are still exactly the ones that were checked.

Why the cache folder and not the home: the note is derived data, like the index. Deleting it, or
finding it unsigned, stale or corrupt, only means one full verification (which writes it again), never
an error for the person; a backup or a copied home does not need it; and it holds nothing the
plaintext ledger does not already show (lengths, counts, hashes). ``reverie verify`` never uses it.
"""

from __future__ import annotations

import contextlib
import json
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from core.fsutil import atomic_write_text
from core.vault.canonical import canonical_json
from core.vault.crypto import VaultKeys

FORMAT = "reverie/v1/ledger-prefix"  # also in the signed message: nothing else the key signs looks like it
MAX_BYTES = 4096  # the note is ~300 bytes; anything larger is not one
_HEX64 = re.compile(r"^[0-9a-f]{64}\Z")


@dataclass(frozen=True)
class VerifiedPrefix:
    length: int  # bytes of ledger.jsonl, ending with a newline
    count: int  # whole lines (= entries) in those bytes
    sha256: str  # of those bytes
    last_seq: int
    last_hash: str

    def _message(self) -> bytes:
        return canonical_json({"format": FORMAT, **asdict(self)})

    def text(self, keys: VaultKeys) -> str:
        return json.dumps({"format": FORMAT, **asdict(self), "sig": keys.sign(self._message())}, sort_keys=True) + "\n"


def _parse(obj: Any) -> VerifiedPrefix:
    if not isinstance(obj, dict) or obj.get("format") != FORMAT:
        raise ValueError("not a ledger prefix note")
    length, count, digest, last_seq, last_hash = (
        obj.get(k) for k in ("length", "count", "sha256", "last_seq", "last_hash")
    )
    for number in (length, count, last_seq):
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            raise ValueError("a count is not a positive integer")
    if not (
        isinstance(digest, str) and _HEX64.match(digest) and isinstance(last_hash, str) and _HEX64.match(last_hash)
    ):
        raise ValueError("a hash is not 64 hex digits")
    # A clean chain numbers its entries 1, 2, 3...: the last of ``count`` lines is seq ``count``.
    if last_seq != count or length < count:
        raise ValueError("inconsistent counts")
    return VerifiedPrefix(length, count, digest, last_seq, last_hash)


def load(path: Path, keys: VaultKeys) -> VerifiedPrefix | None:
    """The note, if it is there, readable, and signed by this vault; otherwise None (never raises)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            return None
        obj = json.loads(data)
        prefix = _parse(obj)
    except (OSError, ValueError, RecursionError):  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        return None
    if not keys.signature_ok(prefix._message(), obj.get("sig")):
        return None
    return prefix


def save(path: Path, prefix: VerifiedPrefix, keys: VaultKeys) -> None:
    """Write the note atomically (0600). A cache that cannot be written only costs speed: ignored."""
    with contextlib.suppress(OSError):
        atomic_write_text(path, prefix.text(keys))
