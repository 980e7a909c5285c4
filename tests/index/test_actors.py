"""Who speaks in the index (core.index.migrations.m007_actors): kept as turns are added, read by
recall to tell whether a question's named people say anything in its time range."""

from __future__ import annotations

from core.index import HomeDayLogs, Reindexer, SearchIndex
from core.paths import HomePaths
from tests.helpers.index import append, turn


def _log(paths: HomePaths) -> None:
    append(
        paths,
        turn("2026-05-01T09:00:00", "the ferry leaves at dawn", actor="Kate Smith", session="a"),
        turn("2026-05-01T09:01:00", "bring a jacket", role="assistant", session="a"),
        turn("2026-05-03T20:00:00", "the printer jammed", actor="Tom", session="b"),
    )


def _reindex(index: SearchIndex, paths: HomePaths) -> None:
    with Reindexer(index, HomeDayLogs(paths)) as reindexer:
        reindexer.run(embed=False)


def test_everyone_who_speaks_is_known_and_where_they_speak(paths: HomePaths) -> None:
    _log(paths)
    with SearchIndex.open(paths) as index:
        _reindex(index, paths)
        assert index.actors() == ["Kate Smith", "Tom", "assistant"]
        assert index.speaks_between(["Kate Smith"], "2026-05-01T00:00:00Z", "2026-05-02T00:00:00Z")
        assert not index.speaks_between(["Tom"], "2026-05-01T00:00:00Z", "2026-05-02T00:00:00Z")
        assert index.speaks_between(["Tom", "Kate Smith"], "2026-05-03T00:00:00Z", None)
        assert not index.speaks_between(["Kate Smith"], "2026-06-01T00:00:00Z", "2026-07-01T00:00:00Z")  # no turns
        assert not index.speaks_between([], None, None)
        # a name added later, and one whose only day file is gone, which stays known
        append(paths, turn("2026-05-04T08:00:00", "new here", actor="Mina", session="c"))
        (paths.logs / "2026" / "05" / "2026-05-03.jsonl").unlink()
        _reindex(index, paths)
        assert index.actors() == ["Kate Smith", "Mina", "Tom", "assistant"]
        assert not index.speaks_between(["Tom"], None, None)


def test_an_index_made_before_the_actors_table_learns_them_on_upgrade(paths: HomePaths) -> None:
    _log(paths)
    with SearchIndex.open(paths) as index:
        _reindex(index, paths)
        conn = index.conn
        conn.execute("DROP TABLE actors")
        conn.execute("DELETE FROM _migrations WHERE name = 'm007_actors'")
    with SearchIndex.open(paths) as index:
        assert index.actors() == ["Kate Smith", "Tom", "assistant"]
