"""``MemoryCrypto``: the DiaryVault Memory Layer's primitives, for code that calls them directly.

SHA-256 content hashes, AES-256-GCM, HMAC-SHA256 over a content hash, and Merkle roots and proofs,
with keys derived from the caller's secret by HKDF-SHA256 (no salt) exactly as the upstream SDK
derives them, so a signature made by a DiaryVault vault checks here with the same secret.

The SDK's ``MemoryVault`` does not store records with these keys: its records are Reverie's sealed
envelopes under Argon2id-derived keys (``core.vault.crypto``). This class is used for the Merkle root
of a context response and to check DiaryVault ``.dvmem`` files on import.
"""

from __future__ import annotations

import hashlib
import hmac
import os

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from core.vault.records import content_sha256

_INFO_ENCRYPT = b"diaryvault-encryption"
_INFO_SIGN = b"diaryvault-signing"


def _pad(level: list[str]) -> list[str]:
    """An odd level repeats its last hash so every node has a partner."""
    return [*level, level[-1]] if len(level) > 1 and len(level) % 2 else level


class MemoryCrypto:
    """Hashing, encryption, signing and Merkle trees with keys derived from ``encryption_key``."""

    def __init__(self, encryption_key: str) -> None:
        if not isinstance(encryption_key, str):
            raise TypeError("encryption_key: must be a string")
        secret = encryption_key.encode("utf-8")
        self._enc_key = self._derive(secret, _INFO_ENCRYPT)
        self._sign_key = self._derive(secret, _INFO_SIGN)

    def __repr__(self) -> str:
        return "MemoryCrypto(<keys hidden>)"

    @staticmethod
    def _derive(secret: bytes, info: bytes) -> bytes:
        return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(secret)

    # -- hashing ------------------------------------------------------------------------------------

    @staticmethod
    def hash_content(content: str) -> str:
        """Hex SHA-256 of the UTF-8 bytes of ``content``: the vault's content hash."""
        return content_sha256(content)

    @staticmethod
    def verify_hash(content: str, expected_hash: str) -> bool:
        """Whether ``content`` still hashes to ``expected_hash`` (constant-time compare)."""
        if not isinstance(content, str) or not isinstance(expected_hash, str):
            return False
        return hmac.compare_digest(content_sha256(content), expected_hash)

    # -- encryption ---------------------------------------------------------------------------------

    def encrypt(self, plaintext: str) -> tuple[bytes, bytes]:
        """AES-256-GCM with a fresh 96-bit nonce; returns ``(ciphertext, nonce)``."""
        nonce = os.urandom(12)
        return AESGCM(self._enc_key).encrypt(nonce, plaintext.encode("utf-8"), None), nonce

    def decrypt(self, ciphertext: bytes, nonce: bytes) -> str:
        """The plaintext; ``cryptography.exceptions.InvalidTag`` for a wrong key or changed bytes."""
        return AESGCM(self._enc_key).decrypt(nonce, ciphertext, None).decode("utf-8")

    # -- signing ------------------------------------------------------------------------------------

    def sign(self, content_hash: str) -> str:
        """Hex HMAC-SHA256 of ``content_hash`` under the signing key."""
        return hmac.new(self._sign_key, content_hash.encode("utf-8"), hashlib.sha256).hexdigest()

    def verify_signature(self, content_hash: str, signature: str) -> bool:
        if not isinstance(content_hash, str) or not isinstance(signature, str):
            return False
        return hmac.compare_digest(self.sign(content_hash), signature)

    # -- Merkle trees -------------------------------------------------------------------------------

    @staticmethod
    def compute_merkle_root(hashes: list[str]) -> str:
        """The root over ``hashes`` in the order given: each parent is SHA-256 of the two hex children
        concatenated; a lone hash is its own root. ``ValueError`` for an empty list."""
        if not hashes:
            raise ValueError("Cannot compute Merkle root of empty list")
        level = _pad(list(hashes))
        while len(level) > 1:
            level = _pad([content_sha256(level[i] + level[i + 1]) for i in range(0, len(level), 2)])
        return level[0]

    @staticmethod
    def compute_merkle_proof(hashes: list[str], target_index: int) -> list[dict[str, str]]:
        """The sibling path from ``hashes[target_index]`` to the root: ``[{"hash", "position"}]`` where
        position says on which side the sibling sits (``left``/``right``)."""
        if not hashes or not 0 <= target_index < len(hashes):
            raise ValueError("Invalid hashes or target index")
        proof: list[dict[str, str]] = []
        level, index = _pad(list(hashes)), target_index
        while len(level) > 1:
            if index % 2:
                proof.append({"hash": level[index - 1], "position": "left"})
            else:
                proof.append({"hash": level[index + 1], "position": "right"})
            level = _pad([content_sha256(level[i] + level[i + 1]) for i in range(0, len(level), 2)])
            index //= 2
        return proof

    @staticmethod
    def verify_merkle_proof(leaf: str, proof: list[dict[str, str]], root: str) -> bool:
        """Whether ``proof`` (from :meth:`compute_merkle_proof`) leads from ``leaf`` to ``root``."""
        current = leaf
        for step in proof:
            sibling = step.get("hash", "")
            pair = sibling + current if step.get("position") == "left" else current + sibling
            current = content_sha256(pair)
        return hmac.compare_digest(current, root)
