"""The times a turn speaks of: "I finished the screenplay last Friday", said on Sunday, speaks of Friday.

What people say (``vectors.EMBED_TYPES``) is read by the time grammar from the turn's own time, with
its vector and in the same transaction, and every range it names is kept by turn id in an R*Tree of
whole minutes (``mention_spans``, ``mention_turns``), so a question's range also admits turns said at
other times that speak of a time inside it (:func:`told_of`, used by core.recall). Open-ended ranges
and ranges longer than :data:`MAX_SPAN_DAYS` are not kept; indexes made before this table are read
once (:data:`COMPLETE`). Figures: tests/bench/README.md, ``bench_locomo_dev.py``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta, tzinfo

import apsw

from core.turns import format_ts, parse_ts

COMPLETE = "mentions_complete"  # meta: 1 once every turn with a vector has had its times read
MAX_SPAN_DAYS = 400  # longer ranges ("the 1990s", "in the past few years") are kept out
MAX_TOLD = 256  # turns admitted by their mentions per question range (the most specific first)
MAX_TEXT = 4_000  # characters of a turn read for times (a long answer's first part; an essay is not read whole)


def _minutes(moment: datetime, up: bool) -> int:
    seconds = moment.timestamp()
    return math.ceil(seconds / 60) if up else math.floor(seconds / 60)


def spans_of(text: str, said: datetime, zone: tzinfo, languages: Sequence[str] | None = None) -> list[tuple[int, int]]:
    """The ranges ``text`` speaks of, counted from ``said``, as [start, end) in whole minutes
    (``languages``: the time grammar's, all of them by default)."""
    # lazy: the grammar compiles its rules at import (~80 ms); opening the index loads none of it
    from core.timeparse import LANGUAGES, TimeParseError, find_time_expressions

    try:
        # the rules only: dateparser's fallback costs a second on its first call and reads little of
        # what people say about when things happened ("last Friday", "two weeks ago", 작년 여름)
        found = find_time_expressions(text, said.astimezone(zone), zone, languages or LANGUAGES, fallback=False)
    except (TimeParseError, ValueError, OverflowError):  # a text the grammar cannot count from
        return []
    spans: list[tuple[int, int]] = []
    for match in found:
        rng = match.range
        if rng.open_start or rng.end - rng.start > timedelta(days=MAX_SPAN_DAYS):
            continue
        span = (_minutes(rng.start, False), _minutes(rng.end, True))
        if span not in spans and -(2**31) < span[0] < span[1] < 2**31:
            spans.append(span)
    return spans


def forget(conn: apsw.Connection, turn_ids: Iterable[str]) -> None:
    """Remove what is kept of these turns' mentions (inside the caller's transaction)."""
    ids = list(turn_ids)
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        marks = ",".join("?" * len(chunk))
        conn.execute(
            f"DELETE FROM mention_spans WHERE rid IN (SELECT rid FROM mention_turns WHERE turn IN ({marks}))", chunk
        )
        conn.execute(f"DELETE FROM mention_turns WHERE turn IN ({marks})", chunk)


Spans = dict[str, list[tuple[int, int]]]  # turn id → the ranges its text speaks of


def read(rows: Iterable[tuple[str, str, str]], zone: tzinfo, languages: Sequence[str] | None = None) -> Spans:
    """The ranges each (turn id, ts, text) speaks of (no database: a reindex reads a window's texts
    in a thread while the model embeds them)."""
    return {turn_id: spans_of(text[:MAX_TEXT], parse_ts(ts), zone, languages) for turn_id, ts, text in rows}


def keep(conn: apsw.Connection, spans: Spans) -> int:
    """Keep what :func:`read` found, replacing what was kept of those turns before (inside the
    caller's transaction). Returns the spans kept."""
    forget(conn, spans)
    kept = 0
    for turn_id, found in spans.items():
        for lo, hi in found:
            rid = conn.execute("INSERT INTO mention_turns(turn) VALUES (?) RETURNING rid", (turn_id,)).fetchone()[0]
            conn.execute("INSERT INTO mention_spans(rid, lo, hi) VALUES (?, ?, ?)", (rid, lo, hi))
            kept += 1
    return kept


def record(conn: apsw.Connection, rows: Iterable[tuple[str, str, str]], zone: tzinfo,
           languages: Sequence[str] | None = None) -> int:
    """:func:`read` and :func:`keep` in one go."""
    return keep(conn, read(rows, zone, languages))


def told_of(conn: apsw.Connection, start: datetime, end: datetime, limit: int = MAX_TOLD) -> list[tuple[int, str]]:
    """(doc, id) of up to ``limit`` turns said outside [start, end) that speak of a time inside it,
    the most specific first (the shortest range spoken of)."""
    lo, hi = _minutes(start, False), _minutes(end, True)
    rows = conn.execute(
        "SELECT t.doc, t.id, min(s.hi - s.lo) AS width FROM mention_spans s "
        "JOIN mention_turns m ON m.rid = s.rid JOIN turns t ON t.id = m.turn "
        "WHERE s.lo < ? AND s.hi > ? AND (t.ts < ? OR t.ts >= ?) "
        "GROUP BY t.doc ORDER BY width, t.doc DESC LIMIT ?",
        (hi, lo, format_ts(start), format_ts(end), limit),
    )
    return [(doc, turn_id) for doc, turn_id, _ in rows]
