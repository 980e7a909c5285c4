"""Helpers shared by the index tests (this module holds no tests): write day files, reindex, compare."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

from core.embed.hashing import HashingEmbedder
from core.index import HomeDayLogs, Reindexer, ReindexReport, SearchIndex
from core.index.logsource import DayChunk, DayEntry
from core.paths import HomePaths
from core.turns import Turn, day_file


def turn(
    ts: str,
    text: str,
    *,
    id: str | None = None,
    session: str = "s1",
    role: str = "user",
    actor: str | None = None,
    type: str = "text",
    source: str = "test",
) -> Turn:
    if len(ts) == 19:
        ts += ".000000Z"
    turn_id = id or "t-" + hashlib.sha256(f"{ts}|{text}|{session}".encode()).hexdigest()[:12]
    return Turn(
        id=turn_id,
        ts=ts,
        actor=actor or role,
        role=role,
        type=type,
        text=text,
        model=None,
        session=session,
        source=source,
    )


def append(paths: HomePaths, *turns: Turn) -> list[Turn]:
    """Append turns to their day files, as the log store does (append order, not time order)."""
    for t in turns:
        path = day_file(paths.logs, t.day)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as handle:
            handle.write(t.to_json() + "\n")
    return list(turns)


class RecordingSource(HomeDayLogs):
    """The real log source, remembering which (file, offset) reads were made."""

    def __init__(self, paths: HomePaths) -> None:
        super().__init__(paths)
        self.reads: list[tuple[str, int]] = []

    def read(self, path: Path, offset: int) -> DayChunk:
        self.reads.append((path.name, offset))
        return super().read(path, offset)

    def days(self) -> list[DayEntry]:
        return super().days()


def reindex(
    index: SearchIndex,
    paths: HomePaths,
    embedder: HashingEmbedder | None = None,
    source: HomeDayLogs | None = None,
    **kwargs: object,
) -> ReindexReport:
    factory = (lambda: embedder) if embedder is not None else None
    with Reindexer(index, source or HomeDayLogs(paths), embedder=factory, batch_size=8) as reindexer:
        return reindexer.run(embed=embedder is not None, **kwargs)  # type: ignore[arg-type]


def answers(
    index: SearchIndex,
    embedder: HashingEmbedder,
    queries: Iterable[str],
    ranges: Iterable[tuple[str | None, str | None]] = ((None, None),),
) -> list[object]:
    """Ids and rounded scores of exact and vector search for every query and range."""
    out: list[object] = []
    for start, end in ranges:
        for q in queries:
            exact = [(h.id, round(h.score, 6)) for h in index.exact_search(q, start, end, limit=20)]
            near = [(h.id, round(h.score, 4)) for h in index.vector_search(embedder.embed([q])[0], start, end, k=20)]
            out.append((q, start, end, exact, near))
    return out


def docs_in_time_order(index: SearchIndex) -> bool:
    rows = index.conn.execute("SELECT doc, ts FROM turns ORDER BY doc").fetchall()
    return [ts for _, ts in rows] == sorted(ts for _, ts in rows)
