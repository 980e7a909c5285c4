"""The mirror's tables in PostgreSQL (documented for people in docs/mirror.md): created on the first
run, dropped by ``--rebuild``, all in one schema (``reverie``) so a rebuild touches nothing else.

``mirror_info`` records what the rows were written under: the sharing profile (its name and its
settings), the embedding model and its dimension. A run under anything else refuses and asks for
``--rebuild``: rows shared under one profile are not silently kept under another.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from core.mirror.connect import MirrorError

if TYPE_CHECKING:
    import psycopg

SCHEMA = "reverie"
SCHEMA_VERSION = "2"
TEXT_CONFIG = "english"  # the text search configuration of the tsvector columns and the queries
LOCK_KEY = 0x7265766D  # pg_advisory_lock key: one mirror writes to a database at a time


@dataclass(frozen=True)
class MirrorSettings:
    """What the rows of a mirror were written under (``mirror_info``)."""

    profile: str
    profile_digest: str
    model: str
    dim: int

    def rows(self) -> dict[str, str]:
        return {"schema_version": SCHEMA_VERSION, "profile": self.profile, "profile_digest": self.profile_digest,
                "embedding_model": self.model, "embedding_dim": str(self.dim)}


def profile_digest(settings: Any) -> str:
    """SHA-256 of a sharing profile's settings (a dataclass), as canonical JSON."""
    text = json.dumps(asdict(settings), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _ddl(dim: int) -> list[str]:
    s, cfg = SCHEMA, TEXT_CONFIG
    return [
        f"CREATE SCHEMA IF NOT EXISTS {s}",
        f"CREATE TABLE IF NOT EXISTS {s}.mirror_info (key text PRIMARY KEY, value text NOT NULL)",
        f"""CREATE TABLE IF NOT EXISTS {s}.days (
            day date PRIMARY KEY, file text NOT NULL, size bigint NOT NULL, hmac text NOT NULL,
            turns integer NOT NULL, mirrored_at timestamptz NOT NULL DEFAULT now())""",
        f"""CREATE TABLE IF NOT EXISTS {s}.turns (
            id text PRIMARY KEY, day date NOT NULL, ts timestamptz NOT NULL, actor text NOT NULL,
            role text NOT NULL, type text NOT NULL, text text NOT NULL, model text, session text NOT NULL,
            source text NOT NULL, machine text, embedding vector({dim}),
            tsv tsvector GENERATED ALWAYS AS (to_tsvector('{cfg}', text)) STORED)""",
        f"CREATE INDEX IF NOT EXISTS turns_ts ON {s}.turns (ts)",
        f"CREATE INDEX IF NOT EXISTS turns_day ON {s}.turns (day)",
        f"CREATE INDEX IF NOT EXISTS turns_session ON {s}.turns (session, ts)",
        f"CREATE INDEX IF NOT EXISTS turns_tsv ON {s}.turns USING gin (tsv)",
        f"CREATE INDEX IF NOT EXISTS turns_embedding ON {s}.turns USING hnsw (embedding vector_cosine_ops)",
        f"""CREATE TABLE IF NOT EXISTS {s}.memories (
            id text PRIMARY KEY, record_sha256 text NOT NULL, content text NOT NULL, tags text[] NOT NULL,
            title text, location text, people text[] NOT NULL, occurred_at text, created_at timestamptz NOT NULL,
            ts timestamptz NOT NULL, reviewed boolean NOT NULL, approved_by text, approved_at text,
            review jsonb, embedding vector({dim}), mirrored_at timestamptz NOT NULL DEFAULT now(),
            tsv tsvector GENERATED ALWAYS AS (to_tsvector('{cfg}', content)) STORED)""",
        f"CREATE INDEX IF NOT EXISTS memories_ts ON {s}.memories (ts)",
        f"CREATE INDEX IF NOT EXISTS memories_tsv ON {s}.memories USING gin (tsv)",
    ]


def read_info(conn: psycopg.Connection[Any]) -> dict[str, str] | None:
    """``mirror_info`` as a dict, None when the database holds no mirror yet."""
    exists = conn.execute("SELECT to_regclass(%s)", (f"{SCHEMA}.mirror_info",)).fetchone()
    if exists is None or exists[0] is None:
        return None
    return dict(conn.execute(f"SELECT key, value FROM {SCHEMA}.mirror_info").fetchall())


def prepare(conn: psycopg.Connection[Any], settings: MirrorSettings, where: str) -> None:
    """Create the tables on first use (one transaction), or check that the mirror was written under
    ``settings``: another profile, profile settings, model or dimension is a ``MirrorError`` asking for
    ``--rebuild``."""
    info = read_info(conn)
    if info is None:
        with conn.transaction():
            for statement in _ddl(settings.dim):
                conn.execute(statement)
            conn.cursor().executemany(f"INSERT INTO {SCHEMA}.mirror_info (key, value) VALUES (%s, %s)",
                                      list(settings.rows().items()))
        return
    wanted = settings.rows()
    for key, label in (("schema_version", "schema version"), ("profile", "profile"),
                       ("profile_digest", "profile's settings"), ("embedding_model", "embedding model"),
                       ("embedding_dim", "embedding dimension")):
        if info.get(key) != wanted[key]:
            held = info.get(key, "none")
            if key == "profile_digest":
                raise MirrorError(f"mirror: {where} was written under other settings of profile "
                                  f"{settings.profile!r}: run `reverie mirror --rebuild`")
            raise MirrorError(f"mirror: {where} holds {label} {held!r}, not {wanted[key]!r}: "
                              "run `reverie mirror --rebuild` to rewrite it from the log")


def drop(conn: psycopg.Connection[Any]) -> None:
    """Remove every table of the mirror (the ``reverie`` schema) in one transaction."""
    with conn.transaction():
        conn.execute(f"DROP SCHEMA IF EXISTS {SCHEMA} CASCADE")


def take_lock(conn: psycopg.Connection[Any], where: str) -> None:
    """One writer per database: a second ``reverie mirror`` at the same time is refused, not interleaved."""
    got = conn.execute("SELECT pg_try_advisory_lock(%s)", (LOCK_KEY,)).fetchone()
    if not got or not got[0]:
        raise MirrorError(f"mirror: another reverie mirror is writing to {where}; try again when it ends")
