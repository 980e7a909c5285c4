"""Keys and primitives: Argon2id → master key, HKDF-SHA256 → separate encryption and signing keys,
AES-256-GCM with random 96-bit nonces, HMAC-SHA256 signatures.

The vault header (``vault.json``) holds the Argon2id parameters, the salt, and a key check: an HMAC
under a third HKDF key. Unlocking recomputes the check, so a wrong passphrase is refused before
anything is read or written. The check key is separate from the signing key, so the check value
reveals nothing that could forge a record.
"""

from __future__ import annotations

import base64
import hmac
import json
import os
from dataclasses import dataclass, field
from hashlib import sha256
from pathlib import Path

from core.errors import HomeError, RecordError, WrongPassphrase
from core.fsutil import atomic_write_text

HEADER_FORMAT = "reverie.vault-header"
HEADER_VERSION = 1
_CHECK_MESSAGE = b"reverie key check v1"
_INFO_ENCRYPT = b"reverie/v1/encrypt"
_INFO_SIGN = b"reverie/v1/sign"
_INFO_CHECK = b"reverie/v1/check"
MAX_KDF_ITERATIONS = 16
MAX_KDF_LANES = 16
MAX_KDF_MEMORY_KIB = 2 * 1024 * 1024  # 2 GiB
MIN_SALT_BYTES, MAX_SALT_BYTES = 8, 1024  # Argon2id refuses a salt under 8 bytes


def b64e(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def b64d(text: str, what: str) -> bytes:
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError) as exc:
        raise RecordError(f"{what}: not valid base64") from exc


@dataclass(frozen=True)
class KdfParams:
    """Argon2id cost. The default follows RFC 9106's second recommendation (t=3, 64 MiB, p=4)."""

    iterations: int = 3
    lanes: int = 4
    memory_cost_kib: int = 64 * 1024

    def check(self, where: str) -> KdfParams:
        """Refuse parameters no vault of ours has (``HomeError`` naming ``where``), before any work: a
        tampered header must not make unlocking take hours or all the memory. Bounds: RFC 9106's first
        recommendation (t=1, 2 GiB) and second (t=3, 64 MiB) fit with room to spare."""
        if not (1 <= self.iterations <= MAX_KDF_ITERATIONS and 1 <= self.lanes <= MAX_KDF_LANES
                and 8 * self.lanes <= self.memory_cost_kib <= MAX_KDF_MEMORY_KIB):
            raise HomeError(f"{where}: Argon2id parameters out of range (iterations 1..{MAX_KDF_ITERATIONS}, "
                            f"lanes 1..{MAX_KDF_LANES}, memory 8×lanes..{MAX_KDF_MEMORY_KIB} KiB)")
        return self

    @classmethod
    def for_tests(cls) -> KdfParams:
        """Cheap parameters for test vaults only; they are stored in the header like any other."""
        return cls(iterations=1, lanes=1, memory_cost_kib=64)

    def to_dict(self) -> dict[str, int | str]:
        return {
            "algorithm": "argon2id",
            "iterations": self.iterations,
            "lanes": self.lanes,
            "memory_cost_kib": self.memory_cost_kib,
        }


@dataclass(frozen=True)
class VaultKeys:
    """The derived keys of an unlocked vault. Never printed: ``repr`` hides them."""

    encryption_key: bytes = field(repr=False)
    signing_key: bytes = field(repr=False)

    def encrypt(self, plaintext: bytes, associated_data: bytes) -> tuple[bytes, bytes]:
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        nonce = os.urandom(12)
        return nonce, AESGCM(self.encryption_key).encrypt(nonce, plaintext, associated_data)

    def decrypt(self, nonce: bytes, ciphertext: bytes, associated_data: bytes, what: str) -> bytes:
        from cryptography.exceptions import InvalidTag
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        try:
            return AESGCM(self.encryption_key).decrypt(nonce, ciphertext, associated_data)
        except (InvalidTag, ValueError) as exc:
            raise RecordError(f"{what}: ciphertext does not authenticate (modified or moved)") from exc

    def sign(self, message: bytes) -> str:
        return hmac.new(self.signing_key, message, sha256).hexdigest()

    def signature_ok(self, message: bytes, signature: object) -> bool:
        return isinstance(signature, str) and signature.isascii() and hmac.compare_digest(self.sign(message), signature)


def _master_key(passphrase: str, salt: bytes, params: KdfParams) -> bytes:
    from cryptography.hazmat.primitives.kdf.argon2 import Argon2id

    try:
        secret = passphrase.encode("utf-8")
    except UnicodeEncodeError as exc:  # e.g. undecodable bytes in REVERIE_PASSPHRASE (surrogate escapes)
        raise WrongPassphrase(f"the passphrase is not valid UTF-8 text (character {exc.start + 1}); "
                              "nothing was changed") from None
    return Argon2id(
        salt=salt,
        length=32,
        iterations=params.iterations,
        lanes=params.lanes,
        memory_cost=params.memory_cost_kib,
    ).derive(secret)


def _expand(master: bytes, info: bytes) -> bytes:
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(master)


def _derive(passphrase: str, salt: bytes, params: KdfParams) -> tuple[VaultKeys, str]:
    master = _master_key(passphrase, salt, params)
    keys = VaultKeys(encryption_key=_expand(master, _INFO_ENCRYPT), signing_key=_expand(master, _INFO_SIGN))
    check = hmac.new(_expand(master, _INFO_CHECK), _CHECK_MESSAGE, sha256).hexdigest()
    return keys, check


def derive_keys(passphrase: str, salt: bytes, params: KdfParams) -> VaultKeys:
    """Keys for a container with its own salt (a portable ``.dvmem`` file)."""
    return _derive(passphrase, salt, params)[0]


def create_header(path: Path, passphrase: str, params: KdfParams | None = None) -> VaultKeys:
    """Write a new vault header at ``path`` (refusing to replace one) and return the keys."""
    if not passphrase:
        raise WrongPassphrase("the passphrase must not be empty")
    params = (params or KdfParams()).check("new vault header")
    salt = os.urandom(16)
    keys, check = _derive(passphrase, salt, params)
    header = {
        "format": HEADER_FORMAT,
        "version": HEADER_VERSION,
        "kdf": {**params.to_dict(), "salt": b64e(salt)},
        "key_derivation": "HKDF-SHA256 (info reverie/v1/encrypt, reverie/v1/sign, reverie/v1/check)",
        "cipher": "AES-256-GCM",
        "signature": "HMAC-SHA256",
        "key_check": check,
    }
    try:
        atomic_write_text(path, json.dumps(header, indent=2) + "\n", exclusive=True)
    except FileExistsError as exc:
        raise HomeError(f"{path}: a vault already exists here") from exc
    return keys


def read_header(path: Path) -> tuple[KdfParams, bytes, str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise HomeError(f"{path}: no vault here; run `reverie init` first") from exc
    except (OSError, ValueError, RecursionError) as exc:  # UnicodeDecodeError and JSONDecodeError included
        raise HomeError(f"{path}: vault header unreadable: {exc}") from exc
    if not isinstance(data, dict) or data.get("format") != HEADER_FORMAT:
        raise HomeError(f"{path}: not a Reverie vault header (field 'format')")
    if data.get("version") != HEADER_VERSION:
        raise HomeError(f"{path}: unsupported vault header version {data.get('version')!r}")
    kdf = data.get("kdf")
    try:
        if not isinstance(kdf, dict) or kdf.get("algorithm") != "argon2id":
            raise KeyError("algorithm")
        params = KdfParams(
            iterations=int(kdf["iterations"]), lanes=int(kdf["lanes"]), memory_cost_kib=int(kdf["memory_cost_kib"])
        )
        salt = b64d(str(kdf["salt"]), f"{path}: kdf.salt")
        check = str(data["key_check"])
        if not MIN_SALT_BYTES <= len(salt) <= MAX_SALT_BYTES:
            raise HomeError(f"{path}: kdf.salt is {len(salt)} bytes, not {MIN_SALT_BYTES} to {MAX_SALT_BYTES}")
    except RecordError as exc:
        raise HomeError(str(exc)) from exc
    except (KeyError, TypeError, ValueError, OverflowError) as exc:
        raise HomeError(f"{path}: vault header field {exc} missing or malformed") from exc
    return params.check(str(path)), salt, check


def unlock(path: Path, passphrase: str) -> VaultKeys:
    """Keys for the vault whose header is at ``path``; ``WrongPassphrase`` if the check fails."""
    params, salt, expected = read_header(path)
    keys, check = _derive(passphrase, salt, params)
    if not hmac.compare_digest(check, expected):
        raise WrongPassphrase(f"{path}: wrong passphrase for this vault; nothing was changed")
    return keys
