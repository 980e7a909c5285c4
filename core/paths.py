"""Where Reverie keeps things: the data home (chosen by ``--home``, ``REVERIE_HOME`` or platformdirs)
and the cache folder for derived indexes.

The cache is per home, so a demo home and the person's own home never share an index:

- ``REVERIE_CACHE`` set: ``$REVERIE_CACHE/home-<hash of the home's absolute path>``;
- a home chosen with ``--home`` or ``REVERIE_HOME``: ``<home>/.cache``, inside the home itself, so
  trying Reverie on a temporary home leaves no plaintext index elsewhere (deleting the home deletes
  its index);
- the platform's default home: the platform's user cache dir, ``…/reverie/home-<hash>``.

``reverie locate`` prints the one in use; ``reverie index purge`` removes what it holds.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from core.fsutil import ensure_private_dir

APP_NAME = "reverie"
HOME_ENV = "REVERIE_HOME"
CACHE_ENV = "REVERIE_CACHE"


HOME_CACHE_NAME = ".cache"  # the cache folder inside a home chosen with --home or REVERIE_HOME


def resolve_home(explicit: str | os.PathLike[str] | None = None) -> Path:
    """``--home`` first, then ``REVERIE_HOME``, then the platform's user data dir."""
    return _resolve_home(explicit)[0]


def _resolve_home(explicit: str | os.PathLike[str] | None) -> tuple[Path, bool]:
    """The home, and whether it was chosen (``--home``/``REVERIE_HOME``) rather than the default."""
    if explicit:
        return Path(explicit).expanduser().absolute(), True
    env = os.environ.get(HOME_ENV)
    if env:
        return Path(env).expanduser().absolute(), True
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)).absolute(), False


def resolve_cache_root() -> Path:
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env).expanduser().absolute()
    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False)).absolute()


@dataclass(frozen=True)
class HomePaths:
    """Every path inside one data home, and that home's cache folder."""

    root: Path
    cache: Path

    @classmethod
    def at(cls, home: str | os.PathLike[str] | None = None) -> HomePaths:
        """The paths of ``home`` (or of ``REVERIE_HOME``, or the default home); see the module notes
        for where its cache goes."""
        root, chosen = _resolve_home(home)
        if chosen and not os.environ.get(CACHE_ENV):
            return cls(root=root, cache=root / HOME_CACHE_NAME)
        digest = hashlib.sha256(str(root).encode("utf-8")).hexdigest()[:12]
        return cls(root=root, cache=resolve_cache_root() / f"home-{digest}")

    @property
    def config(self) -> Path:
        return self.root / "config.toml"

    @property
    def vault(self) -> Path:
        return self.root / "vault"

    @property
    def vault_header(self) -> Path:
        return self.root / "vault.json"

    @property
    def drafts(self) -> Path:
        return self.root / "drafts"

    @property
    def ledger(self) -> Path:
        return self.root / "ledger.jsonl"

    @property
    def ledger_head(self) -> Path:
        return self.root / "ledger.head.json"

    @property
    def logs(self) -> Path:
        return self.root / "logs"

    @property
    def quarantine(self) -> Path:
        return self.root / "quarantine"

    @property
    def topics(self) -> Path:
        return self.root / "topics.jsonl"

    @property
    def cold(self) -> Path:
        return self.root / "cold"

    @property
    def curation(self) -> Path:
        return self.root / "curation"

    @property
    def locks(self) -> Path:
        return self.root / ".locks"

    @property
    def exports(self) -> Path:
        """What the person saves out of the app (screenshots): plaintext, so 0700 and files 0600."""
        return self.root / "exports"

    @property
    def index_db(self) -> Path:
        return self.cache / "index.db"

    @property
    def ledger_prefix(self) -> Path:
        """The signed note of how much of the ledger was verified (``core.vault.ledger_prefix``): derived, deletable."""
        return self.cache / "ledger.prefix.json"

    def lock(self, name: str) -> Path:
        return self.locks / f"{name}.lock"

    def ensure(self) -> HomePaths:
        """Create the home's folders (0700). Idempotent."""
        for folder in (self.root, self.vault, self.drafts, self.logs, self.cold, self.curation, self.locks):
            ensure_private_dir(folder)
        return self

    def ensure_cache(self) -> Path:
        ensure_private_dir(self.cache.parent)
        return ensure_private_dir(self.cache)

    def describe(self) -> dict[str, str]:
        """Name → path for ``reverie locate``."""
        return {
            "home": str(self.root),
            "config": str(self.config),
            "vault_header": str(self.vault_header),
            "vault": str(self.vault),
            "drafts": str(self.drafts),
            "ledger": str(self.ledger),
            "ledger_head": str(self.ledger_head),
            "logs": str(self.logs),
            "quarantine": str(self.quarantine),
            "topics": str(self.topics),
            "cold": str(self.cold),
            "curation": str(self.curation),
            "cache": str(self.cache),
            "index": str(self.index_db),
        }
