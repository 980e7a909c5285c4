"""Reaching the mirror's database: the DSN (never shown with its password), the connection, pgvector.

psycopg is imported here only, inside the functions that use it: it is the optional ``mirror`` extra.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from core.errors import ReverieError

if TYPE_CHECKING:
    import psycopg

DSN_ENV = "REVERIE_MIRROR_DSN"
CONNECT_TIMEOUT = 10  # seconds


class MirrorError(ReverieError):
    """The mirror's database cannot be used as asked; the message names the database, table or setting."""


def resolve_dsn(given: str | None, configured: str) -> str:
    """``--dsn``, else ``REVERIE_MIRROR_DSN``, else ``mirror.dsn`` in config.toml."""
    dsn = given or os.environ.get(DSN_ENV, "") or configured
    if not dsn.strip():
        raise MirrorError(f"mirror: no database given (--dsn, {DSN_ENV} or mirror.dsn in config.toml)")
    return dsn.strip()


def _parts(dsn: str) -> dict[str, Any]:
    """The DSN's fields as psycopg's ``conninfo_to_dict`` gives them."""
    from psycopg.conninfo import conninfo_to_dict  # lazy: psycopg is the optional mirror extra

    try:
        return conninfo_to_dict(dsn)
    except Exception as exc:  # psycopg.ProgrammingError: a DSN it cannot read
        raise MirrorError(f"mirror: the DSN is not a PostgreSQL connection string ({_scrub(str(exc), dsn)})") from exc


def describe_dsn(dsn: str) -> str:
    """``user@host:port/dbname`` of ``dsn``, without its password (what messages and ``--json`` show)."""
    try:
        parts = _parts(dsn)
    except MirrorError:
        return "(unreadable DSN)"
    user = f"{parts['user']}@" if parts.get("user") else ""
    host = parts.get("host") or "localhost"
    port = f":{parts['port']}" if parts.get("port") else ""
    return f"postgresql://{user}{host}{port}/{parts.get('dbname') or ''}"


def _scrub(message: str, dsn: str) -> str:
    """``message`` on one line, without the DSN's password (and without the DSN itself)."""
    line = " ".join(message.split())
    secrets = [dsn]
    try:
        from psycopg.conninfo import conninfo_to_dict  # lazy: psycopg is the optional mirror extra

        password = conninfo_to_dict(dsn).get("password")
        if password:
            secrets.append(str(password))
    except Exception:  # an unreadable DSN: hide it whole
        pass
    for secret in secrets:
        if secret:
            line = line.replace(secret, "***")
    return line[:300]


def load_driver() -> Any:
    try:
        import psycopg  # lazy: psycopg is the optional mirror extra
    except ImportError as exc:
        raise MirrorError("mirror: psycopg is not installed (pip install 'reverie[mirror]')") from exc
    return psycopg


def connect(dsn: str) -> psycopg.Connection[Any]:
    """An open connection to ``dsn`` (autocommit: each write is a ``conn.transaction()`` block) with the
    ``vector`` extension created; a one-line ``MirrorError`` naming the database (never its password)
    when it cannot be reached or has no pgvector."""
    psycopg = load_driver()
    parts = _parts(dsn)
    where = describe_dsn(dsn)
    try:
        conn = psycopg.connect(dsn, autocommit=True,
                               connect_timeout=int(parts.get("connect_timeout") or CONNECT_TIMEOUT))
    except psycopg.Error as exc:
        raise MirrorError(f"mirror: cannot connect to {where}: {_scrub(str(exc), dsn)}") from exc
    try:
        ensure_vector(conn, where)
    except BaseException:
        conn.close()
        raise
    return conn


def ensure_vector(conn: psycopg.Connection[Any], where: str) -> None:
    """Create the ``vector`` extension if the server has it; a ``MirrorError`` naming the server if not."""
    import psycopg  # lazy: psycopg is the optional mirror extra

    row = conn.execute("SELECT default_version FROM pg_available_extensions WHERE name = 'vector'").fetchone()
    if row is None:
        raise MirrorError(f"mirror: the server at {where} has no pgvector extension ('vector' is not available; "
                          "install pgvector on the server)")
    try:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    except psycopg.Error as exc:  # no right to create it: fine if it is there already
        if conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'").fetchone() is None:
            raise MirrorError(f"mirror: cannot create the vector extension in {where}: "
                              f"{' '.join(str(exc).split())[:200]}") from exc


@contextmanager
def reported(where: str, dsn: str) -> Iterator[None]:
    """A database error during a run or a search as a one-line ``MirrorError`` naming the database
    (the server went away, a disk filled up): what was committed before it stays, whole days only."""
    import psycopg  # lazy: psycopg is the optional mirror extra

    try:
        yield
    except psycopg.Error as exc:
        raise MirrorError(f"mirror: {where}: {_scrub(str(exc), dsn)}") from exc


def pg_text(text: str) -> str:
    """``text`` as PostgreSQL can store it: a NUL character (which ``text`` columns refuse) and a lone
    surrogate (not UTF-8) become U+FFFD; anything else is kept as it is."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = "".join("\ufffd" if "\ud800" <= ch <= "\udfff" else ch for ch in text)
    return text.replace("\x00", "\ufffd") if "\x00" in text else text


def vector_literal(values: Any) -> str:
    """A pgvector text literal of a vector (``[0.1,0.2,…]``), short floats kept exact enough."""
    return "[" + ",".join(f"{float(v):.7g}" for v in values) + "]"
