"""The backup repository on disk (``docs/backup.md`` is the specification; restic is the model).

``DEST/config.json`` holds the format, the KDF parameters and salt and the master key wrapped with
AES-256-GCM under the vault's passphrase KDF (a wrong passphrase fails the wrap's tag, told apart from
a damaged config by its checksum); ``DEST/blobs/ab/<id>`` one encrypted chunk each, the id an
HMAC-SHA256 of the plaintext (deduplicated without revealing its hash), the associated data binding
the id; ``DEST/snapshots/<name>`` one encrypted manifest, written last, bound to its name; ``DEST/lock``
is held by a writer. The data and id keys come from the master key by HKDF-SHA256.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from core import clock
from core.backup.entries import is_temporary
from core.backup.manifest import BLOB_ID, SNAPSHOT_NAME, BackupDamaged, Manifest
from core.errors import HomeError, NotFound, RecordError, WrongPassphrase
from core.fsutil import PRIVATE_FILE_MODE, atomic_write_bytes, ensure_private_dir, file_lock
from core.vault.crypto import KdfParams, b64d, b64e, derive_keys

REPO_FORMAT = "reverie.backup-repository"
REPO_VERSION = 1
CHUNK_SIZE = 1 << 20
NONCE_BYTES, TAG_BYTES = 12, 16
OVERHEAD = NONCE_BYTES + TAG_BYTES  # bytes a sealed blob has beyond its plaintext
_WRAP_AAD = b"reverie backup master key v1|"
_BLOB_AAD = b"reverie backup blob v1|"
_SNAPSHOT_AAD = b"reverie backup snapshot v1|"
_INFO_DATA = b"reverie-backup/v1/data"
_INFO_ID = b"reverie-backup/v1/id"


def _expand(master: bytes, info: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(master)


@dataclass(frozen=True)
class RepoKeys:
    """The keys of an opened repository; ``repr`` hides them."""

    data_key: bytes = field(repr=False)
    id_key: bytes = field(repr=False)

    @classmethod
    def of(cls, master: bytes) -> RepoKeys:
        return cls(_expand(master, _INFO_DATA), _expand(master, _INFO_ID))

    @cached_property
    def _aead(self) -> AESGCM:
        return AESGCM(self.data_key)

    def blob_id(self, plaintext: bytes) -> str:
        return hmac.new(self.id_key, plaintext, hashlib.sha256).hexdigest()

    def seal(self, plaintext: bytes, aad: bytes) -> bytes:
        nonce = os.urandom(NONCE_BYTES)
        return nonce + self._aead.encrypt(nonce, plaintext, aad)

    def open(self, sealed: bytes, aad: bytes, what: str) -> bytes:
        if len(sealed) < OVERHEAD:
            raise BackupDamaged(f"{what}: truncated ({len(sealed)} bytes)")
        try:
            return self._aead.decrypt(sealed[:NONCE_BYTES], sealed[NONCE_BYTES:], aad)
        except (InvalidTag, ValueError):
            raise BackupDamaged(f"{what}: does not authenticate (modified, truncated or moved)") from None


def _checksum(body: dict[str, Any]) -> str:
    fields = {key: value for key, value in body.items() if key != "checksum"}
    return hashlib.sha256(json.dumps(fields, sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()


class Repository:
    """An opened backup repository at ``root`` (see the module notes)."""

    def __init__(self, root: Path, keys: RepoKeys, repo_id: str) -> None:
        self.root = root
        self.keys = keys
        self.repo_id = repo_id
        self._touched: set[Path] = set()

    # --- opening --------------------------------------------------------------------------------------

    @staticmethod
    def config_path(root: Path) -> Path:
        return root / "config.json"

    @classmethod
    def exists(cls, root: Path) -> bool:
        return cls.config_path(root).is_file()

    @classmethod
    def create(cls, root: Path, passphrase: str, params: KdfParams | None = None) -> Repository:
        """A new repository at ``root`` (a missing or empty folder); refuses anything else."""
        if not passphrase:
            raise WrongPassphrase("the backup passphrase must not be empty; nothing was written")
        if root.exists() and (not root.is_dir() or any(root.iterdir())):
            raise HomeError(f"{root}: not an empty folder and not a backup repository; nothing was written")
        params = (params or KdfParams()).check("new backup repository")
        master, salt, repo_id = os.urandom(32), os.urandom(16), secrets.token_hex(16)
        kek = derive_keys(passphrase, salt, params).encryption_key
        nonce = os.urandom(NONCE_BYTES)
        wrapped = AESGCM(kek).encrypt(nonce, master, _WRAP_AAD + repo_id.encode("ascii"))
        body: dict[str, Any] = {
            "format": REPO_FORMAT, "version": REPO_VERSION, "id": repo_id,
            "created_at": clock.utc_now().isoformat(timespec="seconds"), "chunk_size": CHUNK_SIZE,
            "kdf": {**params.to_dict(), "salt": b64e(salt)},
            "master_key": {"nonce": b64e(nonce), "ciphertext": b64e(wrapped)},
            "cipher": "AES-256-GCM", "blob_ids": "HMAC-SHA256",
        }
        body["checksum"] = _checksum(body)
        for folder in (root, root / "blobs", root / "snapshots"):
            ensure_private_dir(folder)
        atomic_write_bytes(cls.config_path(root), (json.dumps(body, indent=2) + "\n").encode("utf-8"), exclusive=True)
        return cls(root, RepoKeys.of(master), repo_id)

    @classmethod
    def open(cls, root: Path, passphrase: str) -> Repository:
        """The repository at ``root``: :class:`NotFound` when there is none, :class:`BackupDamaged` for
        a damaged config, :class:`WrongPassphrase` when the passphrase does not unwrap its key."""
        path = cls.config_path(root)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise NotFound(f"{root}: no backup repository here (no config.json)") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise BackupDamaged(f"{path}: cannot be read ({exc})") from None
        try:
            body = json.loads(text)
        except (ValueError, RecursionError):
            raise BackupDamaged(f"{path}: not JSON: the repository's config is damaged") from None
        if not isinstance(body, dict) or body.get("format") != REPO_FORMAT:
            raise BackupDamaged(f"{path}: not a Reverie backup repository (field 'format')")
        if body.get("version") != REPO_VERSION:
            raise BackupDamaged(f"{path}: unsupported repository version {body.get('version')!r}")
        if body.get("checksum") != _checksum(body):
            raise BackupDamaged(f"{path}: checksum does not match: the repository's config is damaged")
        params, salt, nonce, wrapped, repo_id = _config_fields(body, path)
        kek = derive_keys(passphrase, salt, params).encryption_key
        try:
            master = AESGCM(kek).decrypt(nonce, wrapped, _WRAP_AAD + repo_id.encode("ascii"))
        except InvalidTag:
            raise WrongPassphrase(f"{root}: wrong passphrase for this backup repository; nothing was read") from None
        return cls(root, RepoKeys.of(master), repo_id)

    # --- blobs ----------------------------------------------------------------------------------------

    @property
    def blobs(self) -> Path:
        return self.root / "blobs"

    @property
    def snapshots(self) -> Path:
        return self.root / "snapshots"

    def blob_path(self, blob_id: str) -> Path:
        return self.blobs / blob_id[:2] / blob_id

    def has_blob(self, blob_id: str, size: int) -> bool:
        """Whether the blob of a ``size``-byte chunk is stored whole (its sealed size is checked, so a
        blob cut short by a crash before :meth:`sync` is written again)."""
        try:
            return self.blob_path(blob_id).stat().st_size == size + OVERHEAD
        except FileNotFoundError:
            return False

    def put_blob(self, blob_id: str, plaintext: bytes) -> None:
        """Write one blob: a temporary file renamed to its name. Not yet durable: :meth:`sync` makes
        every blob written so far durable, before a manifest names them (one sync of the filesystem
        instead of one fsync per blob: a home holds thousands of small files)."""
        path = self.blob_path(blob_id)
        folder = path.parent
        if folder not in self._touched:
            ensure_private_dir(folder)
            self._touched.add(folder)
        sealed = self.keys.seal(plaintext, _BLOB_AAD + blob_id.encode("ascii"))
        fd, tmp = tempfile.mkstemp(prefix=f".{blob_id}.", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(sealed)
            os.chmod(tmp, PRIVATE_FILE_MODE)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            raise

    def sync(self) -> None:
        """Make every blob written so far durable, contents and names (``sync(2)``: it returns once the
        data is on disk)."""
        if self._touched:
            os.sync()
        self._touched.clear()

    def get_blob(self, blob_id: str) -> bytes:
        """The plaintext of a blob, authenticated and checked against its id."""
        what = f"blob {blob_id}"
        try:
            sealed = self.blob_path(blob_id).read_bytes()
        except FileNotFoundError:
            raise BackupDamaged(f"{what}: missing") from None
        plaintext = self.keys.open(sealed, _BLOB_AAD + blob_id.encode("ascii"), what)
        if not hmac.compare_digest(self.keys.blob_id(plaintext), blob_id):
            raise BackupDamaged(f"{what}: content does not hash to its id")
        return plaintext

    def blob_sizes(self) -> tuple[dict[str, int], list[Path]]:
        """Every blob on disk with its size, and what else lies among them (temporary files left by
        an interrupted backup, stray files)."""
        found: dict[str, int] = {}
        other: list[Path] = []
        with contextlib.suppress(FileNotFoundError):
            for folder in sorted(self.blobs.iterdir()):
                if not folder.is_dir():
                    other.append(folder)
                    continue
                for entry in sorted(os.scandir(folder), key=lambda e: e.name):
                    if BLOB_ID.match(entry.name) and entry.name[:2] == folder.name and entry.is_file():
                        found[entry.name] = entry.stat().st_size
                    else:
                        other.append(Path(entry.path))
        return found, other

    # --- snapshots ------------------------------------------------------------------------------------

    def snapshot_names(self) -> tuple[list[str], list[Path]]:
        """The snapshots' names (oldest first: names begin with their UTC time), and other files there."""
        names: list[str] = []
        other: list[Path] = []
        with contextlib.suppress(FileNotFoundError):
            for entry in sorted(os.scandir(self.snapshots), key=lambda e: e.name):
                if SNAPSHOT_NAME.match(entry.name) and entry.is_file():
                    names.append(entry.name)
                else:
                    other.append(Path(entry.path))
        return names, other

    def write_snapshot(self, manifest: Manifest) -> None:
        """The manifest, sealed, written atomically: the snapshot exists once this returns."""
        sealed = self.keys.seal(manifest.to_bytes(), _SNAPSHOT_AAD + manifest.name.encode("ascii"))
        atomic_write_bytes(self.snapshots / manifest.name, sealed, exclusive=True)

    def read_snapshot(self, name: str) -> Manifest:
        if not SNAPSHOT_NAME.match(name):
            raise NotFound(f"{self.root}: no snapshot {name!r}")
        try:
            sealed = (self.snapshots / name).read_bytes()
        except FileNotFoundError:
            raise NotFound(f"{self.root}: no snapshot {name!r}") from None
        plaintext = self.keys.open(sealed, _SNAPSHOT_AAD + name.encode("ascii"), f"snapshot {name}: manifest")
        return Manifest.from_bytes(plaintext, name)

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        """Hold the repository's lock: one backup writes at a time."""
        with file_lock(self.root / "lock"):
            yield


def _config_fields(body: dict[str, Any], path: Path) -> tuple[KdfParams, bytes, bytes, bytes, str]:
    try:
        kdf, key = body["kdf"], body["master_key"]
        if kdf.get("algorithm") != "argon2id":
            raise KeyError("kdf.algorithm")
        params = KdfParams(iterations=int(kdf["iterations"]), lanes=int(kdf["lanes"]),
                           memory_cost_kib=int(kdf["memory_cost_kib"]))
        salt = b64d(str(kdf["salt"]), f"{path}: kdf.salt")
        nonce = b64d(str(key["nonce"]), f"{path}: master_key.nonce")
        wrapped = b64d(str(key["ciphertext"]), f"{path}: master_key.ciphertext")
        repo_id = str(body["id"])
    except RecordError as exc:
        raise BackupDamaged(str(exc)) from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise BackupDamaged(f"{path}: field {exc} missing or malformed") from None
    if len(nonce) != NONCE_BYTES or len(wrapped) != 32 + TAG_BYTES or not repo_id.isascii() or len(salt) < 8:
        raise BackupDamaged(f"{path}: master_key or kdf.salt has the wrong length")
    try:
        params.check(str(path))
    except HomeError as exc:
        raise BackupDamaged(str(exc)) from None
    return params, salt, nonce, wrapped, repo_id


def leftover_temporaries(paths: list[Path]) -> list[Path]:
    """Among ``paths``, the temporary files interrupted writes left."""
    return [p for p in paths if is_temporary(p.name)]
