"""The ``meta`` table: small named values of the index (embedding model, vector generation...)."""

from __future__ import annotations

import apsw


def get(conn: apsw.Connection, key: str) -> str | None:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else row[0]


def get_int(conn: apsw.Connection, key: str, default: int = 0) -> int:
    value = get(conn, key)
    return default if value is None else int(value)


def put(conn: apsw.Connection, key: str, value: str | int) -> None:
    conn.execute(
        "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        (key, str(value)),
    )


def delete(conn: apsw.Connection, key: str) -> None:
    conn.execute("DELETE FROM meta WHERE key = ?", (key,))
