"""The turn catalog: every turn of the log with its time-ordered ``doc``, kept in step with FTS5.

Writes run inside the caller's ``BEGIN IMMEDIATE`` transaction; see core.index.rowids for how docs are
allocated and why a day is renumbered when a turn lands before turns it already holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from operator import attrgetter
from typing import Protocol

import apsw

from core.index import vectors
from core.index.connection import IndexDbError
from core.index.rowids import DAY_SLOTS, block_range
from core.index.tokenize import index_text, index_texts
from core.turns import Turn


class TurnRecord(Protocol):
    """What the catalog reads of a turn: a :class:`~core.turns.Turn`, or the lean record a day file
    decodes into for a build (``core.conversation.logline.LogLine``), which needs no Turn per line."""

    @property
    def id(self) -> str: ...
    @property
    def ts(self) -> str: ...
    @property
    def actor(self) -> str: ...
    @property
    def role(self) -> str: ...
    @property
    def type(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def model(self) -> str | None: ...
    @property
    def session(self) -> str: ...
    @property
    def source(self) -> str: ...


TURN_COLUMNS = "doc, id, ts, actor, role, type, text, model, session, source, file_id, seq"
TURN_FIELDS = "id, ts, actor, role, type, text, model, session, source"
# Sort key inside a day: time, then the day file it came from, then its place in that file.
SortKey = tuple[str, str, int]


@dataclass
class Incoming:
    """A turn read from a day file, with the file's day and the turn's position in the file."""

    turn: TurnRecord
    file_day: str
    seq: int

    @property
    def key(self) -> SortKey:
        return (self.turn.ts, self.file_day, self.seq)


@dataclass
class InsertResult:
    added: int = 0
    duplicates: int = 0
    renumbered_days: int = 0
    days: set[str] = field(default_factory=set)  # the days of the turns read (duplicates too)


def fts_body(text: str) -> str:
    """``index_text(text)``; ASCII text (most of a log) is its own body: NFKC leaves ASCII unchanged
    and it holds no CJK run, so the normalisation and the bigram scan are skipped."""
    return text if text.isascii() else index_text(text)


def _fts_insert(conn: apsw.Connection, rows: Iterable[tuple[int, str]]) -> None:
    """FTS5 rows for ``(doc, text)``, each body ``fts_body(text)`` (computed for the batch at once)."""
    rows = list(rows)
    _fts_insert_columns(conn, [doc for doc, _ in rows], [text for _, text in rows])


def _fts_insert_columns(conn: apsw.Connection, docs: Sequence[int], texts: Sequence[str]) -> None:
    conn.executemany("INSERT INTO fts(rowid, body) VALUES (?, ?)", zip(docs, index_texts(texts), strict=True))


def _fts_delete(conn: apsw.Connection, docs: Iterable[int]) -> None:
    conn.executemany("DELETE FROM fts WHERE rowid = ?", ((doc,) for doc in docs))


class FtsRows:
    """FTS5 rows to write in one executemany at the end of a write batch (:meth:`flush`).

    FTS5 writes the terms it holds in memory to disk at every statement savepoint, which SQLite
    opens for any later write with a constraint to check (the next day file's ``files`` row, the
    next catalog insert). Inserting each file's FTS rows between catalog writes therefore made one
    small segment per day file, and merging them was a third of a first build's FTS5 work; written
    together they make segments as large as FTS5's own buffer. Whatever else touches FTS rows
    (renumbering a day, deleting a file's turns) flushes first, so the table is never out of step.
    """

    def __init__(self) -> None:
        self.docs: list[int] = []
        self.texts: list[str] = []

    def add(self, docs: Iterable[int], texts: Iterable[str]) -> None:
        self.docs += docs
        self.texts += texts

    def flush(self, conn: apsw.Connection) -> None:
        if self.docs:
            _fts_insert_columns(conn, self.docs, self.texts)
            self.docs, self.texts = [], []


def _insert_rows(
    conn: apsw.Connection,
    docs: Sequence[int],
    turns: Sequence[TurnRecord],
    seqs: Sequence[int],
    file_id: int,
    fts: FtsRows | None = None,
) -> None:
    """Catalog and FTS5 rows for turn ``turns[i]`` at ``docs[i]``, its file position ``seqs[i]`` (one
    executemany each, the rows zipped from columns in C: no Python per row); the FTS5 rows go to
    ``fts`` when given, to be written with the rest of the batch."""
    columns = [list(map(attrgetter(name), turns)) for name in TURN_FIELDS.split(", ")]
    conn.executemany(f"INSERT INTO turns({TURN_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     zip(docs, *columns, repeat(file_id, len(docs)), seqs, strict=True))
    actors, texts = columns[2], columns[5]
    conn.executemany("INSERT OR IGNORE INTO actors(name) VALUES (?)", ((name,) for name in set(actors)))
    if fts is None:
        _fts_insert_columns(conn, docs, texts)
    else:
        fts.add(docs, texts)


def _existing_keys(conn: apsw.Connection, lo: int, hi: int) -> list[tuple[int, SortKey]]:
    rows = conn.execute(
        "SELECT t.doc, t.ts, f.day, t.seq FROM turns t JOIN files f ON f.id = t.file_id "
        "WHERE t.doc BETWEEN ? AND ? ORDER BY t.doc",
        (lo, hi),
    )
    return [(doc, (ts, day, seq)) for doc, ts, day, seq in rows]


def _renumber(conn: apsw.Connection, lo: int, hi: int, fresh: list[Incoming]) -> list[tuple[int, Incoming]]:
    """Give the block [lo, hi] dense docs in key order, moving existing rows; returns the new rows' docs."""
    existing = _existing_keys(conn, lo, hi)
    merged: list[tuple[SortKey, int | None, Incoming | None]] = [(key, doc, None) for doc, key in existing]
    merged += [(item.key, None, item) for item in fresh]
    merged.sort(key=lambda entry: entry[0])
    if len(merged) > DAY_SLOTS:
        raise IndexDbError(f"index.db: day {fresh[0].turn.ts[:10]} holds more than {DAY_SLOTS} turns")
    moves: list[tuple[int, int]] = []
    placed: list[tuple[int, Incoming]] = []
    for rank, (_, old, item) in enumerate(merged):
        new = lo + rank
        if item is not None:
            placed.append((new, item))
        elif old != new:
            assert old is not None
            moves.append((old, new))
    if moves:
        texts = dict(conn.execute("SELECT doc, text FROM turns WHERE doc BETWEEN ? AND ?", (lo, hi)).fetchall())
        _fts_delete(conn, (old for old, _ in moves))
        conn.executemany("UPDATE turns SET doc = ? WHERE doc = ?", ((-new - 1, old) for old, new in moves))
        conn.executemany("UPDATE turns SET doc = ? WHERE doc = ?", ((new, -new - 1) for _, new in moves))
        _fts_insert(conn, ((new, texts[old]) for old, new in moves))
        vectors.move(conn, moves)
    return placed


def _known_ids(conn: apsw.Connection, ids: Sequence[str]) -> set[str]:
    known: set[str] = set()
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        known.update(
            row[0] for row in conn.execute(f"SELECT id FROM turns WHERE id IN ({','.join('?' * len(chunk))})", chunk)
        )
    return known


def insert_turns(
    conn: apsw.Connection,
    file_id: int,
    file_day: str,
    first_seq: int,
    turns: Sequence[TurnRecord],
    *,
    known: set[str] | None = None,
    fts: FtsRows | None = None,
) -> InsertResult:
    """Add turns read from one day file: ``turns[i]`` is the file's turn number ``first_seq + i``.

    Ids already in the catalog (or repeated in ``turns``) are skipped. ``known``: every id of the
    catalog, held by a caller that builds it from empty (it saves a lookup per id); it is updated.
    ``fts``: where the FTS5 rows wait for the end of the caller's batch (see :class:`FtsRows`).
    """
    result = InsertResult()
    if not turns:
        return result
    ids = [t.id for t in turns]
    stamps = [t.ts for t in turns]
    if known is None:
        known = _known_ids(conn, ids)
    by_day: dict[str, list[int]] = {}
    fresh = set(ids)
    first_day, last_day = min(stamps)[:10], max(stamps)[:10]
    if len(fresh) == len(ids) and known.isdisjoint(fresh) and first_day == last_day:
        # the common case, checked in C: no id seen before, every turn of one day (the file's own)
        known.update(fresh)
        by_day[first_day] = list(range(len(turns)))
    else:
        for i, turn_id in enumerate(ids):
            day = stamps[i][:10]  # Turn.day
            if turn_id in known:
                result.duplicates += 1
                result.days.add(day)
                continue
            known.add(turn_id)
            group = by_day.get(day)
            if group is None:
                by_day[day] = [i]
            else:
                group.append(i)
    for day, positions in by_day.items():
        # SortKey order (ts, file_day, seq): file_day is the same for all, and a stable sort by ts keeps
        # file order (seq) among equal times
        positions.sort(key=stamps.__getitem__)
        lo, hi = block_range(day)
        last = _existing_keys_last(conn, lo, hi)
        if last is None or last[1] < (stamps[positions[0]], file_day, first_seq + positions[0]):
            start = lo if last is None else last[0] + 1
            if start + len(positions) - 1 > hi:
                raise IndexDbError(f"index.db: day {day} holds more than {DAY_SLOTS} turns")
            docs: Sequence[int] = range(start, start + len(positions))
            if positions == list(range(positions[0], positions[0] + len(positions))):  # file order is time order
                chosen = turns[positions[0] : positions[0] + len(positions)]
                seqs: Sequence[int] = range(first_seq + positions[0], first_seq + positions[0] + len(positions))
            else:
                chosen = [turns[i] for i in positions]
                seqs = [first_seq + i for i in positions]
        else:
            if fts is not None:
                fts.flush(conn)  # the day's rows move: FTS5 must hold them first
            incoming = [Incoming(turns[i], file_day, first_seq + i) for i in positions]
            placed = _renumber(conn, lo, hi, incoming)
            docs = [doc for doc, _ in placed]
            chosen = [item.turn for _, item in placed]
            seqs = [item.seq for _, item in placed]
            result.renumbered_days += 1
        _insert_rows(conn, docs, chosen, seqs, file_id, fts)
        result.added += len(docs)
        result.days.add(day)
    return result


def _existing_keys_last(conn: apsw.Connection, lo: int, hi: int) -> tuple[int, SortKey] | None:
    row = conn.execute(
        "SELECT t.doc, t.ts, f.day, t.seq FROM turns t JOIN files f ON f.id = t.file_id "
        "WHERE t.doc BETWEEN ? AND ? ORDER BY t.doc DESC LIMIT 1",
        (lo, hi),
    ).fetchone()
    return None if row is None else (row[0], (row[1], row[2], row[3]))


Kept = dict[tuple[str, str], tuple[bytes | None, bytes | None]]  # (id, text) → (vector, shadow vector)


def delete_file_turns(conn: apsw.Connection, file_id: int, fts: FtsRows | None = None) -> Kept:
    """Remove every turn read from ``file_id``, closing the gaps left in their days (``fts``: rows
    waiting for FTS5 are written first).

    Returns the vectors they had (and their vectors of a model being re-embedded: the shadow set),
    keyed by (id, text), so turns read again unchanged keep theirs.
    """
    if fts is not None:
        fts.flush(conn)
    rows = conn.execute("SELECT doc, id, text FROM turns WHERE file_id = ?", (file_id,)).fetchall()
    if not rows:
        return {}
    docs = [doc for doc, _, _ in rows]
    blobs, shadow = vectors.take(conn, docs), vectors.take(conn, docs, vectors.SHADOW)
    kept = {(turn_id, text): (blobs.get(doc), shadow.get(doc)) for doc, turn_id, text in rows
            if doc in blobs or doc in shadow}
    _fts_delete(conn, docs)
    vectors.remove(conn, docs)
    conn.execute("DELETE FROM turns WHERE file_id = ?", (file_id,))
    for day_start in sorted({doc - doc % DAY_SLOTS for doc in docs}):
        _renumber(conn, day_start, day_start + DAY_SLOTS - 1, [])
    return kept


def restore_vectors(conn: apsw.Connection, file_id: int, kept: Kept) -> int:
    """Give turns of ``file_id`` back the vectors :func:`delete_file_turns` returned for them; returns
    how many got their (searched) vector back."""
    if not kept:
        return 0
    found = {
        doc: kept[(turn_id, text)]
        for doc, turn_id, text in conn.execute("SELECT doc, id, text FROM turns WHERE file_id = ?", (file_id,))
        if (turn_id, text) in kept
    }
    blobs = {doc: main for doc, (main, _) in found.items() if main is not None}
    vectors.put_blobs(conn, blobs)
    vectors.put_blobs(conn, {doc: shadow for doc, (_, shadow) in found.items() if shadow is not None},
                      vectors.SHADOW)
    return len(blobs)


# -- reading -------------------------------------------------------------------------------------


def turn_from_row(row: Sequence[object]) -> Turn:
    turn_id, ts, actor, role, type_, text, model, session, source = row
    return Turn(
        id=str(turn_id),
        ts=str(ts),
        actor=str(actor),
        role=str(role),
        type=str(type_),
        text=str(text),
        model=None if model is None else str(model),
        session=str(session),
        source=str(source),
    )


def get_turns(conn: apsw.Connection, ids: Sequence[str]) -> list[Turn]:
    """The turns with these ids, in the order asked (unknown ids are left out)."""
    found: dict[str, Turn] = {}
    for start in range(0, len(ids), 500):
        chunk = list(ids[start : start + 500])
        sql = f"SELECT {TURN_FIELDS} FROM turns WHERE id IN ({','.join('?' * len(chunk))})"
        for row in conn.execute(sql, chunk):
            found[row[0]] = turn_from_row(row)
    return [found[turn_id] for turn_id in ids if turn_id in found]


def turns_by_docs(conn: apsw.Connection, docs: Sequence[int]) -> dict[int, tuple[str, str]]:
    """doc → (id, ts) for turn docs."""
    out: dict[int, tuple[str, str]] = {}
    for start in range(0, len(docs), 500):
        chunk = [int(doc) for doc in docs[start : start + 500]]
        sql = f"SELECT doc, id, ts FROM turns WHERE doc IN ({','.join('?' * len(chunk))})"
        out.update({doc: (turn_id, ts) for doc, turn_id, ts in conn.execute(sql, chunk)})
    return out


def session_context(conn: apsw.Connection, turn_id: str, before: int, after: int) -> list[Turn]:
    """The turn and up to ``before``/``after`` turns of its session around it, in time order."""
    row = conn.execute("SELECT doc, session FROM turns WHERE id = ?", (turn_id,)).fetchone()
    if row is None:
        return []
    doc, session = row
    earlier = conn.execute(
        f"SELECT {TURN_FIELDS} FROM turns WHERE session = ? AND doc < ? ORDER BY doc DESC LIMIT ?",
        (session, doc, max(before, 0)),
    ).fetchall()
    this_and_later = conn.execute(
        f"SELECT {TURN_FIELDS} FROM turns WHERE session = ? AND doc >= ? ORDER BY doc LIMIT ?",
        (session, doc, max(after, 0) + 1),
    ).fetchall()
    return [turn_from_row(r) for r in reversed(earlier)] + [turn_from_row(r) for r in this_and_later]


def turn_at(conn: apsw.Connection, ts: str) -> Turn | None:
    """The conversation at time ``ts``: the latest text turn said at or before it, else the first one
    after it (``None`` when the index holds no text turn)."""
    for sql in (
        f"SELECT {TURN_FIELDS} FROM turns WHERE ts <= ? AND type = 'text' ORDER BY ts DESC, doc DESC LIMIT 1",
        f"SELECT {TURN_FIELDS} FROM turns WHERE ts > ? AND type = 'text' ORDER BY ts, doc LIMIT 1",
    ):
        row = conn.execute(sql, (ts,)).fetchone()
        if row is not None:
            return turn_from_row(row)
    return None


def doc_range(conn: apsw.Connection, start: str | None, end: str | None) -> tuple[int, int] | None:
    """The [first, last] turn docs with ``start <= ts < end`` (``None`` if no turn is in the range).

    Two lookups in the ``turns(ts)`` index (one statement): docs are in time order, so every turn
    between the first and the last is in the range, and nothing outside it is.
    """
    first = (
        "(SELECT doc FROM turns ORDER BY doc LIMIT 1)"
        if start is None
        else "(SELECT doc FROM turns WHERE ts >= :start ORDER BY ts, doc LIMIT 1)"
    )
    last = (
        "(SELECT doc FROM turns ORDER BY doc DESC LIMIT 1)"
        if end is None
        else "(SELECT doc FROM turns WHERE ts < :end ORDER BY ts DESC, doc DESC LIMIT 1)"
    )
    params = {key: value for key, value in (("start", start), ("end", end)) if value is not None}
    lo, hi = conn.execute(f"SELECT {first}, {last}", params).fetchone()
    if lo is None or hi is None or lo > hi:
        return None
    return lo, hi


def actors(conn: apsw.Connection) -> list[str]:
    """Everyone who speaks in the index (see core.index.migrations.m007_actors)."""
    return [name for (name,) in conn.execute("SELECT name FROM actors ORDER BY name")]


def speaks_between(conn: apsw.Connection, names: Sequence[str], start: str | None, end: str | None) -> bool:
    """Whether one of ``names`` says anything with ``start <= ts < end``: the range's rows are read
    (by doc, in time order) until one of theirs is found."""
    span = doc_range(conn, start, end)
    if span is None or not names:
        return False
    marks = ",".join("?" * len(names))
    sql = f"SELECT 1 FROM turns WHERE doc BETWEEN ? AND ? AND actor IN ({marks}) LIMIT 1"
    return conn.execute(sql, [*span, *names]).fetchone() is not None


def speakers_in(conn: apsw.Connection, sessions: Sequence[str], names: Sequence[str]) -> dict[str, set[str]]:
    """Session → which of ``names`` speak in it (sessions where none does are left out)."""
    out: dict[str, set[str]] = {}
    if not sessions or not names:
        return out
    actor_marks = ",".join("?" * len(names))
    for start in range(0, len(sessions), 500):
        chunk = list(sessions[start : start + 500])
        sql = (f"SELECT DISTINCT session, actor FROM turns WHERE session IN ({','.join('?' * len(chunk))}) "
               f"AND actor IN ({actor_marks})")
        for session, actor in conn.execute(sql, [*chunk, *names]):
            out.setdefault(session, set()).add(actor)
    return out


def count_between(conn: apsw.Connection, start: str, end: str) -> int:
    return conn.execute("SELECT count(*) FROM turns WHERE ts >= ? AND ts < ?", (start, end)).fetchone()[0]


@dataclass(frozen=True)
class SessionSummary:
    """How a session is shown beside its id: the header an importer stored (for Claude Code,
    "Claude Code session in <project> (<cwd>), branch …"; see core.conversation.claude_code) and the
    person's first words in it (the first ``text`` turn of actor ``user``, whole)."""

    session: str
    header: str | None
    first_prompt: str | None


def session_summaries(conn: apsw.Connection, sessions: Sequence[str]) -> dict[str, SessionSummary]:
    """session → its :class:`SessionSummary`, for sessions in the catalog (two index lookups each)."""
    out: dict[str, SessionSummary] = {}
    for session in dict.fromkeys(sessions):
        header = conn.execute("SELECT text FROM turns WHERE id = ? AND session = ?",
                              (f"{session}:session", session)).fetchone()
        first = conn.execute(
            "SELECT text FROM turns WHERE session = ? AND role = 'user' AND type = 'text' AND actor = 'user' "
            "ORDER BY doc LIMIT 1",
            (session,),
        ).fetchone()
        if header is None and first is None:
            continue
        out[session] = SessionSummary(session, header[0] if header else None, first[0] if first else None)
    return out


@dataclass(frozen=True)
class SessionInfo:
    """A session as a listing shows it: when it ran, how many turns, and its :class:`SessionSummary`."""

    session: str
    first_ts: str
    last_ts: str
    turns: int
    header: str | None
    first_prompt: str | None


def recent_sessions(conn: apsw.Connection, limit: int, source: str | None = None) -> list[SessionInfo]:
    """The ``limit`` sessions with the latest turns, newest first (``source``: only that importer's).

    Walks the catalog from its last doc down and stops once ``limit`` sessions are seen (a few pages
    on a large log), then two ``turns(session, doc)`` lookups per session for its span and count.
    """
    if limit < 1:
        return []
    where, params = ("WHERE source = ?", (source,)) if source is not None else ("", ())
    seen: dict[str, None] = {}
    for (session,) in conn.execute(f"SELECT session FROM turns {where} ORDER BY doc DESC", params):
        if session not in seen:
            seen[session] = None
            if len(seen) == limit:
                break
    summaries = session_summaries(conn, list(seen))
    out = []
    for session in seen:
        count, first_ts, last_ts = conn.execute(
            "SELECT count(*), "
            "(SELECT ts FROM turns WHERE session = :s ORDER BY doc LIMIT 1), "
            "(SELECT ts FROM turns WHERE session = :s ORDER BY doc DESC LIMIT 1) "
            "FROM turns WHERE session = :s",
            {"s": session},
        ).fetchone()
        summary = summaries.get(session)
        out.append(SessionInfo(session, first_ts, last_ts, count, summary.header if summary else None,
                               summary.first_prompt if summary else None))
    return out
