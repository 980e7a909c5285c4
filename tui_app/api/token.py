"""The REST API's bearer token: created by ``reverie api token``, kept in the home as ``api-token``
(0600, written atomically), compared in constant time."""

from __future__ import annotations

import hmac
import re
import secrets
from pathlib import Path

from core.errors import HomeError
from core.paths import HomePaths
from core.workbench.local import atomic_write_text

TOKEN_FILE = "api-token"
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{32,128}$")


def token_path(paths: HomePaths) -> Path:
    return paths.root / TOKEN_FILE


def read_token(paths: HomePaths) -> str | None:
    """The stored token, or None when there is none. A file that does not hold a token is an error."""
    path = token_path(paths)
    try:
        text = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise HomeError(f"{path}: cannot be read: {exc}") from exc
    if not _TOKEN.match(text):
        raise HomeError(f"{path}: does not hold an API token (run `reverie api token --rotate`)")
    return text


def ensure_token(paths: HomePaths, *, rotate: bool = False) -> tuple[str, bool]:
    """The token (a new one when there is none, or with ``rotate``) and whether it was just created."""
    if not rotate:
        existing = read_token(paths)
        if existing is not None:
            return existing, False
    token = secrets.token_urlsafe(32)
    paths.ensure()
    atomic_write_text(token_path(paths), token + "\n")
    return token, True


def token_matches(expected: str, header: str | None) -> bool:
    """``Authorization: Bearer <token>`` against ``expected``, in constant time."""
    if not header:
        return False
    scheme, _, given = header.partition(" ")
    if scheme.lower() != "bearer":
        return False
    return hmac.compare_digest(given.strip().encode("utf-8", "surrogatepass"), expected.encode("utf-8"))
