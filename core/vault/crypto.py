"""Keys and primitives: a 32-byte data master key, HKDF-SHA256 → separate encryption and signing
keys, AES-256-GCM with random 96-bit nonces, HMAC-SHA256 signatures.

The vault header (``vault.json``, version 2) holds the master key *wrapped* (AES-256-GCM) under a key
derived from the passphrase (Argon2id with the header's parameters and salt, then HKDF), and
optionally wrapped again under a recovery key (32 random bytes, shown once as 13 groups of base32).

- A wrong passphrase fails the GCM tag and is refused before anything is read or written.
- Changing the passphrase rewrites only this header (new salt, new wrap), atomically: a crash leaves
  the old header or the new one, so one of the two passphrases always opens the vault; the old wrap
  is gone, so the old passphrase stops working.
- A key check (an HMAC of a fixed message under a third HKDF key) confirms the unwrapped key is the
  vault's; it reveals nothing that could forge a record.
- Version 1 headers (the master key is the Argon2id output itself, no wrap) are migrated on first
  unlock, keeping the same master key: a verified copy of the old header stays as
  ``vault.json.v1-backup`` until the new header has been read back and unwrapped to the same keys; an
  unlock that finds the backup beside an unreadable header falls back to it and migrates again.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from hashlib import sha256
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.argon2 import Argon2id
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from core.errors import HomeError, RecordError, WrongPassphrase
from core.fsutil import atomic_write_bytes, file_lock, fsync_dir

HEADER_FORMAT = "reverie.vault-header"
HEADER_VERSION = 2
LEGACY_VERSION = 1
BACKUP_SUFFIX = ".v1-backup"
_CHECK_MESSAGE = b"reverie key check v1"
_INFO_ENCRYPT = b"reverie/v1/encrypt"
_INFO_SIGN = b"reverie/v1/sign"
_INFO_CHECK = b"reverie/v1/check"
_INFO_WRAP_PASSPHRASE = b"reverie/v2/wrap-passphrase"
_INFO_WRAP_RECOVERY = b"reverie/v2/wrap-recovery"
_AAD_PASSPHRASE = b"reverie vault data key v2|passphrase"
_AAD_RECOVERY = b"reverie vault data key v2|recovery"
RECOVERY_PREFIX = "RVK1"
_B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
MAX_KDF_ITERATIONS = 16
MAX_KDF_LANES = 16
MAX_KDF_MEMORY_KIB = 2 * 1024 * 1024  # 2 GiB
MIN_SALT_BYTES, MAX_SALT_BYTES = 8, 1024  # Argon2id refuses a salt under 8 bytes


def b64e(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def b64d(text: str, what: str) -> bytes:
    """Strict base64 (what ``base64.b64decode(..., validate=True)`` does, without its wrapper)."""
    try:
        return binascii.a2b_base64(text, strict_mode=True)
    except (ValueError, TypeError) as exc:
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
        """The parameters as the vault header and a ``.dvmem`` store them: a fixed layout that names the
        algorithm, which is no field here, so written out."""
        return {
            "algorithm": "argon2id",
            "iterations": self.iterations,
            "lanes": self.lanes,
            "memory_cost_kib": self.memory_cost_kib,
        }


@dataclass(frozen=True)
class VaultKeys:
    """The derived keys of an unlocked vault. Never printed: ``repr`` hides them.

    The AES-GCM object is built once per keys object (not once per record: a scan of 10,000 records
    decrypts 20,000 times) and never pickled: a worker process builds its own."""

    encryption_key: bytes = field(repr=False)
    signing_key: bytes = field(repr=False)

    @cached_property
    def _aead(self) -> Any:
        return AESGCM(self.encryption_key)

    def __getstate__(self) -> dict[str, bytes]:
        return {"encryption_key": self.encryption_key, "signing_key": self.signing_key}

    def encrypt(self, plaintext: bytes, associated_data: bytes) -> tuple[bytes, bytes]:
        nonce = os.urandom(12)
        return nonce, self._aead.encrypt(nonce, plaintext, associated_data)

    def decrypt(self, nonce: bytes, ciphertext: bytes, associated_data: bytes, what: str) -> bytes:
        try:
            return self._aead.decrypt(nonce, ciphertext, associated_data)
        except (InvalidTag, ValueError) as exc:
            raise RecordError(f"{what}: ciphertext does not authenticate (modified or moved)") from exc

    def sign(self, message: bytes) -> str:
        return hmac.digest(self.signing_key, message, "sha256").hex()

    def signature_ok(self, message: bytes, signature: object) -> bool:
        return isinstance(signature, str) and signature.isascii() and hmac.compare_digest(self.sign(message), signature)


def _master_key(passphrase: str, salt: bytes, params: KdfParams) -> bytes:
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
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(master)


def _keys_of(master: bytes) -> tuple[VaultKeys, str]:
    """The record keys of a data master key, and its key check."""
    keys = VaultKeys(encryption_key=_expand(master, _INFO_ENCRYPT), signing_key=_expand(master, _INFO_SIGN))
    check = hmac.new(_expand(master, _INFO_CHECK), _CHECK_MESSAGE, sha256).hexdigest()
    return keys, check


def _derive(passphrase: str, salt: bytes, params: KdfParams) -> tuple[VaultKeys, str]:
    return _keys_of(_master_key(passphrase, salt, params))


def derive_keys(passphrase: str, salt: bytes, params: KdfParams) -> VaultKeys:
    """Keys for a container with its own salt (a portable ``.dvmem`` file)."""
    return _derive(passphrase, salt, params)[0]


# --- the header ------------------------------------------------------------------------------------

def _wrap(kek: bytes, master: bytes, aad: bytes) -> dict[str, str]:
    nonce = os.urandom(12)
    return {"nonce": b64e(nonce), "ciphertext": b64e(AESGCM(kek).encrypt(nonce, master, aad))}


def _unwrap(kek: bytes, wrapped: dict[str, str], aad: bytes, where: str, refusal: str) -> bytes:
    nonce = b64d(wrapped["nonce"], f"{where}.nonce")
    ciphertext = b64d(wrapped["ciphertext"], f"{where}.ciphertext")
    if len(nonce) != 12 or len(ciphertext) != 48:
        raise RecordError(f"{where}: not a wrapped 32-byte key")
    try:
        return AESGCM(kek).decrypt(nonce, ciphertext, aad)
    except InvalidTag:
        raise WrongPassphrase(refusal) from None


def _passphrase_kek(passphrase: str, salt: bytes, params: KdfParams) -> bytes:
    return _expand(_master_key(passphrase, salt, params), _INFO_WRAP_PASSPHRASE)


def _recovery_kek(recovery: bytes) -> bytes:
    return _expand(recovery, _INFO_WRAP_RECOVERY)


@dataclass(frozen=True)
class VaultHeader:
    """A parsed vault header (version 2, or a legacy version 1 one with ``wrapped`` empty)."""

    version: int
    params: KdfParams
    salt: bytes
    key_check: str
    wrapped: dict[str, str] = field(default_factory=dict)  # the master key under the passphrase
    recovery: dict[str, str] | None = None  # the master key under the recovery key
    recovery_created_at: str | None = None


def _header_json(params: KdfParams, salt: bytes, check: str, wrapped: dict[str, str],
                 recovery: dict[str, str] | None, recovery_created_at: str | None) -> bytes:
    header: dict[str, object] = {
        "format": HEADER_FORMAT,
        "version": HEADER_VERSION,
        "kdf": {**params.to_dict(), "salt": b64e(salt)},
        "key_derivation": "data master key wrapped with AES-256-GCM under HKDF-SHA256(Argon2id(passphrase)) "
                          "(info reverie/v2/wrap-passphrase); record keys HKDF-SHA256 of the master key "
                          "(info reverie/v1/encrypt, reverie/v1/sign, reverie/v1/check)",
        "cipher": "AES-256-GCM",
        "signature": "HMAC-SHA256",
        "data_key": wrapped,
        "key_check": check,
    }
    if recovery is not None:
        header["recovery"] = {**recovery, "created_at": recovery_created_at or ""}
    return (json.dumps(header, indent=2) + "\n").encode("utf-8")


def _new_header(master: bytes, passphrase: str, params: KdfParams, recovery: dict[str, str] | None = None,
                recovery_created_at: str | None = None) -> bytes:
    if not passphrase:
        raise WrongPassphrase("the passphrase must not be empty; nothing was changed")
    params = params.check("new vault header")
    salt = os.urandom(16)
    wrapped = _wrap(_passphrase_kek(passphrase, salt, params), master, _AAD_PASSPHRASE)
    return _header_json(params, salt, _keys_of(master)[1], wrapped, recovery, recovery_created_at)


def create_header(path: Path, passphrase: str, params: KdfParams | None = None) -> VaultKeys:
    """Write a new vault header at ``path`` (refusing to replace one) and return the keys."""
    if not passphrase:
        raise WrongPassphrase("the passphrase must not be empty")
    master = os.urandom(32)
    data = _new_header(master, passphrase, params or KdfParams())
    try:
        atomic_write_bytes(path, data, exclusive=True)
    except FileExistsError as exc:
        raise HomeError(f"{path}: a vault already exists here") from exc
    return _keys_of(master)[0]


def _wrapped_field(value: object, where: str) -> dict[str, str]:
    if not isinstance(value, dict) or not isinstance(value.get("nonce"), str) \
            or not isinstance(value.get("ciphertext"), str):
        raise HomeError(f"{where}: missing or malformed (nonce and ciphertext, base64)")
    return {"nonce": value["nonce"], "ciphertext": value["ciphertext"]}


def parse_header(path: Path, text: str) -> VaultHeader:
    """The header in ``text`` (read from ``path``); ``HomeError`` naming the field otherwise."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise HomeError(f"{path}: vault header unreadable: {exc}") from exc
    if not isinstance(data, dict) or data.get("format") != HEADER_FORMAT:
        raise HomeError(f"{path}: not a Reverie vault header (field 'format')")
    version = data.get("version")
    if version not in (LEGACY_VERSION, HEADER_VERSION):
        raise HomeError(f"{path}: unsupported vault header version {version!r}")
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
    params.check(str(path))
    if version == LEGACY_VERSION:
        return VaultHeader(LEGACY_VERSION, params, salt, check)
    wrapped = _wrapped_field(data.get("data_key"), f"{path}: data_key")
    recovery = data.get("recovery")
    created = recovery.get("created_at") if isinstance(recovery, dict) else None
    return VaultHeader(HEADER_VERSION, params, salt, check, wrapped,
                  _wrapped_field(recovery, f"{path}: recovery") if recovery is not None else None,
                  created if isinstance(created, str) else None)


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise HomeError(f"{path}: no vault here; run `reverie init` first") from exc
    except (OSError, ValueError) as exc:  # UnicodeDecodeError included
        raise HomeError(f"{path}: vault header unreadable: {exc}") from exc


def read_header(path: Path) -> tuple[KdfParams, bytes, str]:
    """The Argon2id parameters, salt and key check of the header at ``path``."""
    header = parse_header(path, _read_text(path))
    return header.params, header.salt, header.key_check


def _wrong(path: Path) -> str:
    return f"{path}: wrong passphrase for this vault; nothing was changed"


def _master_from_passphrase(path: Path, header: VaultHeader, passphrase: str) -> bytes:
    """The data master key the header holds for ``passphrase``; ``WrongPassphrase`` otherwise."""
    if header.version == LEGACY_VERSION:
        master = _master_key(passphrase, header.salt, header.params)
    else:
        kek = _passphrase_kek(passphrase, header.salt, header.params)
        try:
            master = _unwrap(kek, header.wrapped, _AAD_PASSPHRASE, f"{path}: data_key", _wrong(path))
        except RecordError as exc:
            raise HomeError(str(exc)) from exc
    if not header.key_check.isascii() or not hmac.compare_digest(_keys_of(master)[1], header.key_check):
        raise WrongPassphrase(_wrong(path))
    return master


def _backup(path: Path) -> Path:
    return path.with_name(path.name + BACKUP_SUFFIX)


def _lock(path: Path) -> Path:
    return path.parent / ".locks" / "vault-header.lock"


def _write_proven(path: Path, data: bytes, master: bytes, unlock_again: Callable[[VaultHeader], bytes],
                  previous: bytes) -> None:
    """Replace the header at ``path`` by ``data`` atomically, then read it back and unwrap it
    (``unlock_again``) to the same master key; if it does not prove itself, ``previous`` is put back
    and ``HomeError`` raised."""
    atomic_write_bytes(path, data)
    try:
        proof = unlock_again(parse_header(path, _read_text(path)))
    except (HomeError, WrongPassphrase):
        proof = b""
    if not hmac.compare_digest(proof, master):
        atomic_write_bytes(path, previous)
        raise HomeError(f"{path}: the header just written did not open the vault; the previous one was put back")


def _migrate(path: Path, old_bytes: bytes, master: bytes, passphrase: str, params: KdfParams) -> None:
    """Version 1 → 2 with the same master key; a verified backup of the old bytes until proven."""
    backup = _backup(path)
    atomic_write_bytes(backup, old_bytes)
    if backup.read_bytes() != old_bytes:
        raise HomeError(f"{backup}: the backup of the old vault header did not read back; nothing was changed")
    _write_proven(path, _new_header(master, passphrase, params), master,
                  lambda header: _master_from_passphrase(path, header, passphrase), old_bytes)
    backup.unlink()
    fsync_dir(path.parent)


def _unlock_locked(path: Path, passphrase: str) -> tuple[VaultHeader, bytes]:
    """The version 2 header (migrating a version 1 one) and the master key. Hold the header lock."""
    try:
        header: VaultHeader | None = parse_header(path, _read_text(path))
    except HomeError:
        if not _backup(path).is_file():
            raise
        header = None  # an unreadable header beside the old one's backup: a migration was cut short
    if header is not None and header.version == HEADER_VERSION:
        master = _master_from_passphrase(path, header, passphrase)
        if _backup(path).exists():  # a migration proven by this unlock: the backup has done its job
            _backup(path).unlink()
            fsync_dir(path.parent)
        return header, master
    source = path if header is not None else _backup(path)
    old_text = _read_text(source)
    legacy = parse_header(source, old_text)
    master = _master_from_passphrase(source, legacy, passphrase)
    _migrate(path, old_text.encode("utf-8"), master, passphrase, legacy.params)
    return parse_header(path, _read_text(path)), master


def unlock(path: Path, passphrase: str) -> VaultKeys:
    """Keys for the vault whose header is at ``path``; ``WrongPassphrase`` if the passphrase is not
    its passphrase. A version 1 header is migrated to version 2 (see the module notes)."""
    try:
        header = parse_header(path, _read_text(path))
    except HomeError:
        header = None
    if header is not None and header.version == HEADER_VERSION and not _backup(path).exists():
        return _keys_of(_master_from_passphrase(path, header, passphrase))[0]  # the common case: no write
    with file_lock(_lock(path)):
        return _keys_of(_unlock_locked(path, passphrase)[1])[0]


# --- passphrase change and recovery ------------------------------------------------------------------

def format_recovery_key(raw: bytes) -> str:
    """``RVK1-XXXX-…``: 32 bytes as base32 in groups of four (no padding)."""
    text = base64.b32encode(raw).decode("ascii").rstrip("=")
    return "-".join([RECOVERY_PREFIX, *(text[i:i + 4] for i in range(0, len(text), 4))])


def parse_recovery_key(text: str) -> bytes:
    """The 32 bytes of a recovery key as :func:`format_recovery_key` wrote it (case, spaces and dashes
    do not matter); ``WrongPassphrase`` for anything else (its text is never repeated)."""
    cleaned = "".join(text.split()).replace("-", "").upper()
    if cleaned.startswith(RECOVERY_PREFIX):
        cleaned = cleaned[len(RECOVERY_PREFIX):]
    if len(cleaned) != 52 or any(c not in _B32 for c in cleaned):
        raise WrongPassphrase("not a recovery key (RVK1- and 52 letters and digits 2-7); nothing was changed")
    return base64.b32decode(cleaned + "====")


def _master_from_recovery(path: Path, header: VaultHeader, recovery_key: str) -> bytes:
    if header.recovery is None:
        raise WrongPassphrase(f"{path}: this vault has no recovery key; nothing was changed")
    refusal = f"{path}: wrong recovery key for this vault; nothing was changed"
    try:
        master = _unwrap(_recovery_kek(parse_recovery_key(recovery_key)), header.recovery, _AAD_RECOVERY,
                         f"{path}: recovery", refusal)
    except RecordError as exc:
        raise HomeError(str(exc)) from exc
    if not header.key_check.isascii() or not hmac.compare_digest(_keys_of(master)[1], header.key_check):
        raise WrongPassphrase(refusal)
    return master


def change_passphrase(path: Path, new_passphrase: str, *, passphrase: str | None = None,
                      recovery_key: str | None = None, params: KdfParams | None = None) -> VaultKeys:
    """Set ``new_passphrase``, proving the right to with the current ``passphrase`` or the
    ``recovery_key``. One header is rewritten (atomically, then read back and proven): the old
    passphrase stops working, the recovery key (if any) keeps working. Returns the (unchanged) keys."""
    if (passphrase is None) == (recovery_key is None):
        raise ValueError("change_passphrase: give the current passphrase or the recovery key")
    if not new_passphrase:
        raise WrongPassphrase("the new passphrase must not be empty; nothing was changed")
    with file_lock(_lock(path)):
        if passphrase is not None:
            header, master = _unlock_locked(path, passphrase)
        else:
            header = parse_header(path, _read_text(path))
            if header.version == LEGACY_VERSION:
                raise WrongPassphrase(f"{path}: this vault has no recovery key; nothing was changed")
            master = _master_from_recovery(path, header, recovery_key or "")
        previous = path.read_bytes()
        data = _new_header(master, new_passphrase, params or header.params, header.recovery,
                           header.recovery_created_at)
        _write_proven(path, data, master, lambda fresh: _master_from_passphrase(path, fresh, new_passphrase),
                      previous)
    return _keys_of(master)[0]


def create_recovery_key(path: Path, passphrase: str, *, now: str) -> str:
    """A new recovery key for the vault (replacing any earlier one, which stops working), to be shown
    to the person once: only its wrap of the master key is stored."""
    with file_lock(_lock(path)):
        header, master = _unlock_locked(path, passphrase)
        previous = path.read_bytes()
        raw = os.urandom(32)
        recovery = _wrap(_recovery_kek(raw), master, _AAD_RECOVERY)
        data = _header_json(header.params, header.salt, header.key_check, header.wrapped, recovery, now)
        _write_proven(path, data, master, lambda fresh: _master_from_passphrase(path, fresh, passphrase), previous)
    return format_recovery_key(raw)


def has_recovery_key(path: Path) -> bool:
    return parse_header(path, _read_text(path)).recovery is not None
