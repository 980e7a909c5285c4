"""The times a turn speaks of (core.index.mentions): read with its vector, counted from when it was
said in the person's zone, kept across renumbering, read again when its text changes, read once for
an index made before them; a question's range admits the turns that speak of it, keywords do not."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from core.index import HomeDayLogs, Reindexer, SearchIndex
from core.index import mentions as mentions_module
from core.paths import HomePaths
from core.turns import day_file
from tests.helpers.recall import ConceptEmbedder, indexed, recaller, turn, write_log

FRIDAY = datetime(2026, 11, 27, tzinfo=UTC)
SATURDAY = FRIDAY + timedelta(days=1)
NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)  # the Wednesday after


def _log() -> list:
    return [
        turn(FRIDAY + timedelta(hours=9), "finished the laundry and the groceries", session="fri"),
        turn(FRIDAY + timedelta(days=2, hours=10), "I finally finished the screenplay last Friday", session="sun",
             turn_id="told"),
        turn(FRIDAY - timedelta(days=1), "next month I am having an art show with my paintings", session="thu",
             turn_id="plan"),
        turn(FRIDAY + timedelta(days=3), "until yesterday I was busy with the screenplay", session="mon",
             turn_id="open"),
        turn(FRIDAY + timedelta(days=4), "we talked about the music of the 1990s", session="tue", turn_id="decade"),
        # a tool's output is full of dates that are not when anything was done: not read (it has no vector)
        replace(turn(FRIDAY + timedelta(days=2, hours=11), '{"modified": "last Friday", "log": "2026-11-27"}',
                     session="sun", turn_id="tool"), type="action"),
    ]


def _told(index: SearchIndex, start: datetime, end: datetime) -> list[str]:
    return [turn_id for _, turn_id in index.told_of(start, end)]


def test_a_turn_is_found_by_the_time_it_speaks_of(paths: HomePaths) -> None:
    embedder = ConceptEmbedder()
    with indexed(paths, _log(), embedder) as index:
        assert _told(index, FRIDAY, SATURDAY) == ["told"]  # not Friday's own turn: it is in the range
        december = datetime(2026, 12, 1, tzinfo=UTC)
        assert _told(index, december, datetime(2027, 1, 1, tzinfo=UTC)) == ["plan"]
        # "until yesterday" names no time in particular, and a decade is too long to tell of one
        assert _told(index, datetime(1995, 1, 1, tzinfo=UTC), datetime(1996, 1, 1, tzinfo=UTC)) == []
        assert index.conn.execute("SELECT count(*) FROM mention_turns").fetchone()[0] == 2
        answer = recaller(index, embedder).search("what did I finish on Friday?", now=NOW, zone=UTC)
        ids = [item.id for item in answer.results]
        assert "told" in ids
        assert answer.note is not None and "1 said at another time about Fri 27 Nov" in answer.note
        # keywords keep their range as a wall
        keywords = recaller(index, embedder).search("screenplay friday", now=NOW, zone=UTC, mode="exact")
        assert "told" not in [item.id for item in keywords.results]


def test_a_turn_told_of_a_range_that_holds_nothing_comes_first(paths: HomePaths) -> None:
    embedder = ConceptEmbedder()
    turns = [
        turn(FRIDAY + timedelta(days=2, hours=10), "I finally finished the screenplay last Friday", session="sun",
             turn_id="told"),
        turn(FRIDAY - timedelta(days=20), "I finished the screenplay, the whole screenplay, finished at last",
             session="old", turn_id="elsewhere"),
    ]
    with indexed(paths, turns, embedder) as index:
        answer = recaller(index, embedder).search("what screenplay did I finish on Friday?", now=NOW, zone=UTC)
        ranked = [item.id for item in sorted(answer.results, key=lambda item: -item.score)]
        assert ranked[0] == "told"
        assert "elsewhere" in ranked  # the rest of the other times still follow


def test_the_times_are_counted_in_the_persons_zone(paths: HomePaths) -> None:
    seoul = ZoneInfo("Asia/Seoul")
    # 23:30 UTC on Sunday is 08:30 on Monday in Seoul: "yesterday" is Sunday there, Saturday in UTC
    said = turn(datetime(2026, 11, 29, 23, 30, tzinfo=UTC), "yesterday we went bowling", turn_id="bowling")
    write_log(paths, [said])
    embedder = ConceptEmbedder()
    with SearchIndex.open(paths) as index:
        with Reindexer(index, HomeDayLogs(paths), embedder=lambda: embedder, zone=seoul) as reindexer:
            reindexer.run()
        sunday_seoul = datetime(2026, 11, 29, tzinfo=seoul)
        assert _told(index, sunday_seoul, sunday_seoul + timedelta(days=1)) == ["bowling"]
        # the morning of Saturday in UTC (what "yesterday" would be counted in UTC) is before it
        saturday_utc = datetime(2026, 11, 28, tzinfo=UTC)
        assert _told(index, saturday_utc, saturday_utc + timedelta(hours=12)) == []


def test_a_turn_read_again_with_another_text_is_read_for_times_again(paths: HomePaths) -> None:
    embedder = ConceptEmbedder()
    original = turn(FRIDAY + timedelta(days=2, hours=10), "I finished the screenplay last Friday", turn_id="told")
    with indexed(paths, [original], embedder) as index:
        assert _told(index, FRIDAY, SATURDAY) == ["told"]
        changed = turn(FRIDAY + timedelta(days=2, hours=10), "I finished the screenplay last Tuesday", turn_id="told")
        day_file(paths.logs, changed.day).write_text(changed.to_json() + "\n", encoding="utf-8")
        with Reindexer(index, HomeDayLogs(paths), embedder=lambda: embedder) as reindexer:
            reindexer.run()
        tuesday = FRIDAY - timedelta(days=3)
        assert _told(index, FRIDAY, SATURDAY) == []
        assert _told(index, tuesday, tuesday + timedelta(days=1)) == ["told"]
        assert index.conn.execute("SELECT count(*) FROM mention_spans").fetchone()[0] == 1


def test_an_index_made_before_mentions_reads_them_once(paths: HomePaths) -> None:
    embedder = ConceptEmbedder()
    with indexed(paths, _log(), embedder) as index:
        # as an index whose vectors were stored before core.index.mentions: nothing kept, not complete
        conn = index.conn
        conn.execute("DELETE FROM mention_spans")
        conn.execute("DELETE FROM mention_turns")
        conn.execute("UPDATE meta SET value = '0' WHERE key = ?", (mentions_module.COMPLETE,))
        assert _told(index, FRIDAY, SATURDAY) == []
        with Reindexer(index, HomeDayLogs(paths), embedder=lambda: embedder) as reindexer:
            assert reindexer.embedding_due()
            report = reindexer.run()
        assert report.embedded == 0  # nothing was embedded again: only read for times
        assert _told(index, FRIDAY, SATURDAY) == ["told"]
        assert index.get_meta(mentions_module.COMPLETE) == "1"


def test_a_renumbered_day_keeps_what_its_turns_speak_of(paths: HomePaths) -> None:
    embedder = ConceptEmbedder()
    with indexed(paths, _log(), embedder) as index:
        # a turn that lands before Sunday's turn renumbers Sunday's block
        early = turn(FRIDAY + timedelta(days=2, hours=1), "an early note", session="sun")
        write_log(paths, [early])
        with Reindexer(index, HomeDayLogs(paths), embedder=lambda: embedder) as reindexer:
            assert reindexer.run().renumbered_days == 1
        assert _told(index, FRIDAY, SATURDAY) == ["told"]
        doc = index.conn.execute("SELECT doc FROM turns WHERE id = 'told'").fetchone()[0]
        assert index.told_of(FRIDAY, SATURDAY) == [(doc, "told")]
