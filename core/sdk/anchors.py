"""Anchor backends: where a memory's hash is recorded to prove it existed at a time.

``LocalAnchor`` keeps anchor records as JSON files in a folder (the upstream SDK's only working
backend). ``ArweaveAnchor`` and ``EthereumAnchor`` are placeholders that raise ``NotImplementedError``,
exactly as upstream states; they are not supported backends.

``VaultAnchor`` is the local anchor a Reverie-backed ``MemoryVault`` uses by default: it lives inside
the data home (``<home>/sdk/anchors``) instead of ``~/.diaryvault/anchors``, and it records a keyed
commitment (HMAC under the vault's signing key) of the content hash rather than the bare hash, so the
anchor folder is no guessing oracle for short diary sentences. Its API is ``LocalAnchor``'s.
"""

from __future__ import annotations

import hmac
import json
import os
from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from core import clock
from core.fsutil import atomic_write_text
from core.sdk.models import MemoryAnchor

_ISSUES = "https://github.com/diaryvault/memory-layer/issues"


class AnchorBackend(ABC):
    """A permanence layer for memory hashes."""

    @property
    @abstractmethod
    def name(self) -> str:
        """The backend's short name (``local``, ``arweave``, ``ethereum``)."""

    @abstractmethod
    def anchor(self, memory_id: str, content_hash: str, signature: str) -> MemoryAnchor:
        """Record ``content_hash`` for ``memory_id``; returns where it was recorded."""

    @abstractmethod
    def verify(self, memory_id: str, content_hash: str) -> bool:
        """Whether the recorded hash for ``memory_id`` is ``content_hash``."""

    @abstractmethod
    def retrieve(self, memory_id: str) -> dict[str, Any] | None:
        """The anchor record of ``memory_id``, or None."""


def _safe_name(memory_id: str) -> str:
    if not isinstance(memory_id, str) or not memory_id or "/" in memory_id or "\\" in memory_id \
            or memory_id.startswith("."):
        raise ValueError(f"memory_id: {memory_id!r} cannot name an anchor file")
    return memory_id


class LocalAnchor(AnchorBackend):
    """File-based anchoring: one JSON record per memory plus an ``index.json``, in ``storage_dir``."""

    def __init__(self, storage_dir: str = "~/.diaryvault/anchors") -> None:
        self._storage_dir = Path(os.path.expanduser(str(storage_dir)))
        self._storage_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        self._index_path = self._storage_dir / "index.json"
        self._index = self._load_index()

    @property
    def name(self) -> str:
        return "local"

    def _load_index(self) -> dict[str, Any]:
        """The anchor folder's ``index.json`` in upstream's file layout (a plain JSON document)."""
        if not self._index_path.exists():
            return {"version": "1.0", "anchors": {}}
        try:
            index = json.loads(self._index_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ValueError(f"{self._index_path}: unreadable anchor index: {exc}") from exc
        if not isinstance(index, dict) or not isinstance(index.get("anchors"), dict):
            raise ValueError(f"{self._index_path}: field 'anchors' must be an object")
        return index

    def _recorded_hash(self, content_hash: str) -> str:
        """What the record stores for ``content_hash`` (the hash itself here)."""
        return content_hash

    def anchor(self, memory_id: str, content_hash: str, signature: str) -> MemoryAnchor:
        now = clock.utc_now_iso()
        path = self._storage_dir / f"{_safe_name(memory_id)}.json"
        record = {
            "memory_id": memory_id,
            "content_hash": self._recorded_hash(content_hash),
            "signature": signature,
            "anchored_at": now,
            "backend": self.name,
        }
        atomic_write_text(path, json.dumps(record, indent=2) + "\n")
        self._index["anchors"][memory_id] = {"hash": record["content_hash"], "anchored_at": now, "file": str(path)}
        atomic_write_text(self._index_path, json.dumps(self._index, indent=2) + "\n")
        return MemoryAnchor(backend=self.name, transaction_id=memory_id, anchored_at=now, url=f"file://{path}")

    def verify(self, memory_id: str, content_hash: str) -> bool:
        record = self.retrieve(memory_id)
        if record is None or not isinstance(content_hash, str):
            return False
        stored = record.get("content_hash")
        return isinstance(stored, str) and hmac.compare_digest(stored, self._recorded_hash(content_hash))

    def retrieve(self, memory_id: str) -> dict[str, Any] | None:
        path = self._storage_dir / f"{_safe_name(memory_id)}.json"
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            raise ValueError(f"{path}: unreadable anchor record: {exc}") from exc
        return record if isinstance(record, dict) else None

    def list_anchors(self) -> list[dict[str, Any]]:
        return [{"memory_id": k, **v} for k, v in self._index.get("anchors", {}).items()]


class VaultAnchor(LocalAnchor):
    """The data home's local anchor: stores ``HMAC(signing key, content hash)``, never the bare hash."""

    def __init__(self, storage_dir: str | os.PathLike[str], commit: Callable[[str], str]) -> None:
        self._commit = commit
        super().__init__(str(storage_dir))

    def _recorded_hash(self, content_hash: str) -> str:
        return self._commit(content_hash)


class _Planned(AnchorBackend):
    """A backend upstream plans for v0.3 and has not implemented: every call raises
    ``NotImplementedError`` in upstream's words."""

    _network: ClassVar[str]  # as upstream's verification and retrieval messages name it
    _anchoring: ClassVar[str]  # as its anchoring message names it

    @property
    def name(self) -> str:
        return self._network.lower()

    def anchor(self, memory_id: str, content_hash: str, signature: str) -> MemoryAnchor:
        raise NotImplementedError(f"{self._anchoring} anchoring coming in v0.3. Track progress: {_ISSUES}")

    def verify(self, memory_id: str, content_hash: str) -> bool:
        raise NotImplementedError(f"{self._network} verification coming in v0.3")

    def retrieve(self, memory_id: str) -> dict[str, Any] | None:
        raise NotImplementedError(f"{self._network} retrieval coming in v0.3")


class ArweaveAnchor(_Planned):
    """Placeholder: Arweave anchoring is not implemented (as upstream states)."""

    _network = _anchoring = "Arweave"


class EthereumAnchor(_Planned):
    """Placeholder: Ethereum L2 anchoring is not implemented (as upstream states)."""

    _network, _anchoring = "Ethereum", "Ethereum L2"


class AnchorBook:
    """The anchors of one home's memories: the home's own :class:`VaultAnchor`, the vault's default
    backend, and each memory's list of anchor records (``<home>/sdk/memory-anchors/<id>.json``)."""

    def __init__(self, root: Path, commit: Callable[[str], str], default: AnchorBackend | None = None) -> None:
        self.home = VaultAnchor(root / "sdk" / "anchors", commit)
        self.default = default or self.home
        self._lists = root / "sdk" / "memory-anchors"

    def named(self, name: str) -> AnchorBackend | None:
        """``local`` → the vault's local anchor; the default backend by its name; the placeholders."""
        if name == "local":
            return self.default if self.default.name == "local" else self.home
        if self.default.name == name:
            return self.default
        placeholder = {"arweave": ArweaveAnchor, "ethereum": EthereumAnchor}.get(name)
        return placeholder() if placeholder else None

    def for_record(self, record: MemoryAnchor) -> AnchorBackend | None:
        """The backend that can check ``record``: a local anchor's own folder when its URL names one
        that exists; otherwise (the home was moved) the vault's backend of that name."""
        if record.backend == "local" and record.url and record.url.startswith("file://"):
            folder = Path(record.url[len("file://"):]).parent
            for known in (self.home, self.default):
                if isinstance(known, LocalAnchor) and folder == known._storage_dir:
                    return known
            if folder.is_dir():
                return LocalAnchor(str(folder))
        return self.named(record.backend)

    def hold(self, memory_id: str, content_hash: str, anchors: list[MemoryAnchor]) -> bool:
        """Whether every anchor of the memory still records ``content_hash``."""
        for record in anchors:
            backend = self.for_record(record)
            if backend is not None and not backend.verify(memory_id, content_hash):
                return False
        return True

    def _path(self, memory_id: str) -> Path:
        return self._lists / f"{_safe_name(memory_id)}.json"

    def load(self, memory_id: str) -> list[MemoryAnchor]:
        path = self._path(memory_id)
        try:
            items = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return []
        except (OSError, ValueError) as exc:
            raise ValueError(f"{path}: unreadable anchor list: {exc}") from exc
        if not isinstance(items, list):
            raise ValueError(f"{path}: must hold a list of anchors")
        try:
            return [MemoryAnchor(**item) for item in items]
        except TypeError as exc:
            raise ValueError(f"{path}: anchor malformed: {exc}") from exc

    def save(self, memory_id: str, anchors: list[MemoryAnchor]) -> None:
        atomic_write_text(self._path(memory_id), json.dumps([vars(a) for a in anchors], indent=2) + "\n")
