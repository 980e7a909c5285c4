"""Keeping the mirror in step with the home, through one sharing profile.

Day files are compared with what was mirrored by their length and an HMAC-SHA256 under ``mirror.key``
in the cache folder (a plain hash would digest withheld turns): a new day is inserted, a grown day gets
only its new turns, a rewritten or removed day is deleted and written again. Each day is one transaction
with its ``days`` row, so a killed run leaves whole days. Memories are synced by their record's SHA-256
in one transaction. Nothing the profile withholds is sent (not its text, vector or id); vectors are
read back from the local index when it holds the same model's vector for the same text.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from core.frozen import thaw
from core.fsutil import atomic_write_bytes
from core.index.logsource import scan_days
from core.mirror.connect import pg_text, vector_literal
from core.mirror.schema import SCHEMA, MirrorSettings, drop, prepare, profile_digest, take_lock
from core.turns import Turn, TurnError, parse_ts
from core.vault.store import MEMORY_KINDS

if TYPE_CHECKING:
    import psycopg

    from core.embed.protocol import Embedder
    from core.paths import HomePaths
    from core.sharing import SharePolicy
    from core.vault.records import MemoryRecord

StoredVectors = Callable[[Mapping[str, str]], Mapping[str, Any]]  # id → text to id → the index's vector
EMBED_TYPES = ("text",)  # as core.index.vectors: tool calls and meta lines get no vector
_TURN_COLUMNS = "id, day, ts, actor, role, type, text, model, session, source, machine, embedding"
_MEMORY_COLUMNS = ("id, record_sha256, content, tags, title, location, people, occurred_at, created_at, ts, "
                   "reviewed, approved_by, approved_at, review, embedding")


@dataclass(frozen=True)
class MirroredMemory:
    """A memory whose record verifies and is the version the ledger signed last, with that record's SHA-256."""

    memory: MemoryRecord
    record_sha256: str


@dataclass(frozen=True)
class DayStep:
    day: str
    action: str  # "new" | "appended" | "rewritten" | "removed"
    written: int  # turns inserted
    withheld: int  # turns the profile did not let out


@dataclass
class MirrorReport:
    database: str
    profile: str
    model: str
    dim: int
    rebuilt: bool = False
    days_seen: int = 0
    steps: list[DayStep] = field(default_factory=list)
    memories_written: int = 0
    memories_removed: int = 0
    memories_withheld: int = 0
    vectors_reused: int = 0  # read from the local index (same model, same text)
    vectors_embedded: int = 0
    bad_lines: list[str] = field(default_factory=list)

    @property
    def turns_written(self) -> int:
        return sum(step.written for step in self.steps)

    @property
    def turns_withheld(self) -> int:
        return sum(step.withheld for step in self.steps)

    def form(self) -> MirrorReportForm:
        """The published form (``reverie mirror --json``), with the turns written and withheld summed."""
        return MirrorReportForm(self.database, self.profile, self.model, self.dim, self.rebuilt, self.days_seen,
                                list(self.steps), self.turns_written, self.turns_withheld, self.memories_written,
                                self.memories_removed, self.memories_withheld, self.vectors_reused,
                                self.vectors_embedded, list(self.bad_lines))


class MirrorReportForm(msgspec.Struct, frozen=True):
    """A mirror run as ``reverie mirror --json`` prints it."""

    database: str
    profile: str
    embedding_model: str
    embedding_dim: int
    rebuilt: bool
    days_seen: int
    days_changed: list[DayStep]
    turns_written: int
    turns_withheld: int
    memories_written: int
    memories_removed: int
    memories_withheld: int
    vectors_reused: int
    vectors_embedded: int
    bad_lines: list[str]


def _state_key(paths: HomePaths) -> bytes:
    """The key of the days' digests: ``mirror.key`` in the cache folder (0600), made on first use."""
    path = paths.ensure_cache() / "mirror.key"
    try:
        key = path.read_bytes()
    except FileNotFoundError:
        key = b""
    if len(key) != 32:
        with contextlib.suppress(FileExistsError):  # another run made it first: use that one
            atomic_write_bytes(path, os.urandom(32), exclusive=not key)
        key = path.read_bytes()
    return key


def sealed_memories(vault: Any) -> list[MirroredMemory]:
    """The vault's memories whose record verifies and matches the ledger's latest entry for it; none
    while the ledger chain is damaged (the rule of ``MemoryStore.verified_ids``)."""
    if [p for p in vault.ledger.read().problems if p.kind != "incomplete"]:
        return []
    scan = vault.scan_memories()
    placement = vault.ledger_placement()
    out = []
    for memory in scan.memories:
        digest = scan.file_sha256.get(memory.memory_id)
        entry = placement.get(memory.memory_id)
        if entry is not None and entry.kind in MEMORY_KINDS and entry.record_sha256 == digest:
            out.append(MirroredMemory(memory, digest))
    return out


class Mirroring:
    """One run of ``reverie mirror`` over an open connection (see the module's docstring)."""

    def __init__(self, conn: psycopg.Connection[Any], paths: HomePaths, policy: SharePolicy, embedder: Embedder,
                 where: str, memories: Callable[[], Sequence[MirroredMemory]] | None = None,
                 progress: Callable[[str, int, int], None] | None = None, stored: StoredVectors | None = None) -> None:
        self.conn = conn
        self.paths = paths
        self.policy = policy
        self.embedder = embedder
        self.memories = memories
        self.stored = stored
        self.progress = progress or (lambda phase, done, total: None)
        self.settings = MirrorSettings(policy.name, profile_digest(policy.profile), embedder.name, embedder.dim)
        self.report = MirrorReport(where, policy.name, embedder.name, embedder.dim)
        self.where = where
        self.key = b""  # the days' digest key, read when the run starts (:func:`_state_key`)

    def run(self, *, rebuild: bool = False) -> MirrorReport:
        take_lock(self.conn, self.where)
        if rebuild:
            drop(self.conn)
            self.report.rebuilt = True
        prepare(self.conn, self.settings, self.where)
        self._days()
        if self.memories is not None:
            self._memories(self.memories())
        return self.report

    # -- turns -------------------------------------------------------------------------------------

    def _days(self) -> None:
        files = scan_days(self.paths.logs)
        state = {day: (size, sha) for day, size, sha in
                 self.conn.execute(f"SELECT day::text, size, hmac FROM {SCHEMA}.days").fetchall()}
        self.key = _state_key(self.paths)
        self.report.days_seen = len(files)
        for done, (day, path, _, _) in enumerate(files, 1):
            self._day(day, Path(path), state.pop(day, None))
            self.progress("days", done, len(files))
        for day in sorted(state):
            with self.conn.transaction():
                self.conn.execute(f"DELETE FROM {SCHEMA}.turns WHERE day = %s", (day,))
                self.conn.execute(f"DELETE FROM {SCHEMA}.days WHERE day = %s", (day,))
            self.report.steps.append(DayStep(day, "removed", 0, 0))

    def _day(self, day: str, path: Path, mirrored: tuple[int, str] | None) -> None:
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return  # removed since it was listed: the next run deletes its rows
        data = data[: data.rfind(b"\n") + 1]  # an unterminated last line is picked up once complete
        digest = self._digest(data)
        if mirrored == (len(data), digest):
            return
        start, action = 0, "new" if mirrored is None else "rewritten"
        if mirrored is not None and len(data) > mirrored[0] and self._digest(data[: mirrored[0]]) == mirrored[1]:
            start, action = mirrored[0], "appended"
        turns = self._turns(path, data, start)
        shared = [t for t in turns if self.policy.turn_verdict(t.source) is None]
        rows = self._turn_rows(day, shared)
        with self.conn.transaction():
            if action == "rewritten":
                self.conn.execute(f"DELETE FROM {SCHEMA}.turns WHERE day = %s", (day,))
            values = ", ".join(["%s"] * 11 + ["%s::vector"])
            written = self._insert(f"INSERT INTO {SCHEMA}.turns ({_TURN_COLUMNS}) VALUES ({values}) "
                                   "ON CONFLICT (id) DO NOTHING", rows)
            self.conn.execute(
                f"INSERT INTO {SCHEMA}.days (day, file, size, hmac, turns) VALUES (%s, %s, %s, %s, %s) "
                "ON CONFLICT (day) DO UPDATE SET size = EXCLUDED.size, hmac = EXCLUDED.hmac, mirrored_at = now(), "
                f"turns = CASE WHEN %s THEN {SCHEMA}.days.turns ELSE 0 END + EXCLUDED.turns",
                (day, str(path.relative_to(self.paths.root)), len(data), digest, written, action == "appended"))
        self.report.steps.append(DayStep(day, action, written, len(turns) - len(shared)))

    def _digest(self, data: bytes) -> str:
        return hmac.new(self.key, data, hashlib.sha256).hexdigest()

    def _turns(self, path: Path, data: bytes, start: int) -> list[Turn]:
        turns = []
        first_line = data.count(b"\n", 0, start) + 1
        for number, line in enumerate(data[start:].splitlines(), first_line):
            if not line.strip():
                continue
            try:
                turns.append(Turn.from_json(line.decode("utf-8")))
            except (TurnError, UnicodeDecodeError) as exc:
                self.report.bad_lines.append(f"{path}:{number}: {' '.join(str(exc).split())[:200]}")
        return turns

    def _turn_rows(self, day: str, turns: list[Turn]) -> list[tuple[Any, ...]]:
        vectors = self._vectors({t.id: t.text for t in turns if t.type in EMBED_TYPES})
        return [(pg_text(t.id), day, parse_ts(t.ts), pg_text(t.actor), t.role, t.type, pg_text(t.text),
                 pg_text(t.model) if t.model is not None else None, pg_text(t.session), pg_text(t.source),
                 getattr(t, "machine", None), vector_literal(vectors[t.id]) if t.id in vectors else None)
                for t in turns]

    def _vectors(self, texts: dict[str, str]) -> dict[str, Any]:
        """id → vector: the local index's when it holds this model's for the same text, else embedded now."""
        found = dict(self.stored(texts)) if self.stored is not None and texts else {}
        missing = [key for key in texts if key not in found]
        if missing:
            found.update(zip(missing, self.embedder.embed([texts[key] for key in missing]), strict=True))
        self.report.vectors_reused += len(texts) - len(missing)
        self.report.vectors_embedded += len(missing)
        return found

    def _insert(self, sql: str, rows: list[tuple[Any, ...]]) -> int:
        if not rows:
            return 0
        with self.conn.cursor() as cur:
            cur.executemany(sql, rows)
            return max(cur.rowcount, 0)

    # -- memories ----------------------------------------------------------------------------------

    def _memories(self, sealed: Sequence[MirroredMemory]) -> None:
        shared = {s.memory.memory_id: s for s in sealed
                  if self.policy.memory_verdict(s.memory.metadata.tags, s.memory.reviewed) is None}
        self.report.memories_withheld = len(sealed) - len(shared)
        held = dict(self.conn.execute(f"SELECT id, record_sha256 FROM {SCHEMA}.memories").fetchall())
        gone = sorted(set(held) - set(shared))
        changed = [s for key, s in sorted(shared.items()) if held.get(key) != s.record_sha256]
        if not gone and not changed:
            return
        vectors = self._vectors({s.memory.memory_id: s.memory.content for s in changed})
        rows = [_memory_row(s, vector_literal(vectors[s.memory.memory_id])) for s in changed]
        updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in _MEMORY_COLUMNS.split(", ")[1:])
        with self.conn.transaction():
            if gone:
                self.conn.execute(f"DELETE FROM {SCHEMA}.memories WHERE id = ANY(%s)", (gone,))
            self._insert(f"INSERT INTO {SCHEMA}.memories ({_MEMORY_COLUMNS}) VALUES "
                         "(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s::jsonb, %s::vector) "
                         f"ON CONFLICT (id) DO UPDATE SET {updates}, mirrored_at = now()", rows)
        self.report.memories_written = len(rows)
        self.report.memories_removed = len(gone)


def _memory_row(sealed: MirroredMemory, vector: str) -> tuple[Any, ...]:
    memory = sealed.memory
    meta = memory.metadata
    review = thaw(memory.review) if memory.review else None
    created = parse_ts(memory.created_at)
    try:
        when = parse_ts(meta.occurred_at) if meta.occurred_at else created
    except TurnError:
        when = created  # a date the person wrote loosely stays in occurred_at as text
    optional = [pg_text(v) if v is not None else None for v in (meta.title, meta.location, meta.occurred_at)]
    return (memory.memory_id, sealed.record_sha256, pg_text(memory.content), [pg_text(t) for t in meta.tags],
            optional[0], optional[1], [pg_text(p) for p in meta.people], optional[2], created, when, memory.reviewed,
            review.get("approved_by") if review else None, review.get("approved_at") if review else None,
            json.dumps(_stored(review), ensure_ascii=False, default=str) if review else None, vector)


def _stored(value: Any) -> Any:
    """A JSON value with every string as PostgreSQL stores it (:func:`pg_text`; jsonb refuses ``\\u0000``)."""
    if isinstance(value, str):
        return pg_text(value)
    if isinstance(value, dict):
        return {pg_text(str(k)): _stored(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_stored(v) for v in value]
    return value
