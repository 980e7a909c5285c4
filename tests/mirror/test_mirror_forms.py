"""What ``reverie mirror --json`` and ``mirror search --json`` print: the keys and values the earlier,
hand-written forms gave (no database needed)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import msgspec

from core.mirror.search import MirrorAnswer, MirrorHit
from core.mirror.sync import DayStep, MirrorReport
from core.recall.query import QueryPlan
from core.timeparse import TimeRange

SEOUL = timezone(timedelta(hours=9))


def test_the_mirror_report_form() -> None:
    report = MirrorReport("postgresql://me@db:5432/m", "claude", "hash-64", 64, days_seen=3,
                          steps=[DayStep("2026-11-03", "new", 4, 1), DayStep("2026-11-04", "appended", 2, 0)],
                          memories_written=2, vectors_reused=5, vectors_embedded=1, bad_lines=["x.jsonl:3: bad"])
    data = msgspec.to_builtins(report.form())
    assert data == {
        "database": "postgresql://me@db:5432/m", "profile": "claude", "embedding_model": "hash-64",
        "embedding_dim": 64, "rebuilt": False, "days_seen": 3,
        "days_changed": [{"day": "2026-11-03", "action": "new", "written": 4, "withheld": 1},
                         {"day": "2026-11-04", "action": "appended", "written": 2, "withheld": 0}],
        "turns_written": 6, "turns_withheld": 1, "memories_written": 2, "memories_removed": 0,
        "memories_withheld": 0, "vectors_reused": 5, "vectors_embedded": 1, "bad_lines": ["x.jsonl:3: bad"]}
    assert list(data) == ["database", "profile", "embedding_model", "embedding_dim", "rebuilt", "days_seen",
                          "days_changed", "turns_written", "turns_withheld", "memories_written", "memories_removed",
                          "memories_withheld", "vectors_reused", "vectors_embedded", "bad_lines"]


def test_the_mirror_answer_form() -> None:
    day = TimeRange(datetime(2026, 11, 3, tzinfo=UTC), datetime(2026, 11, 4, tzinfo=UTC), "day")
    plan = QueryPlan("Niseko yesterday", day, "yesterday", "Niseko", ("niseko",), ("niseko",))
    hit = MirrorHit("turn", "t1", datetime(2026, 11, 3, 21, 5, tzinfo=SEOUL), "kate", "s1", "Niseko ✓", 0.123456789)
    data = msgspec.to_builtins(MirrorAnswer(plan, "hybrid", [hit], note=None).form())
    assert data == {
        "range": {"start": "2026-11-03T00:00:00+00:00", "end": "2026-11-04T00:00:00+00:00", "grain": "day"},
        "expression": "yesterday", "mode": "hybrid", "note": None,
        "results": [{"kind": "turn", "id": "t1", "ts": "2026-11-03T21:05:00+09:00", "actor": "kate",
                     "session": "s1", "text": "Niseko ✓", "score": 0.123457}]}
    assert list(data) == ["range", "expression", "mode", "note", "results"]
    assert list(data["results"][0]) == ["kind", "id", "ts", "actor", "session", "text", "score"]
    timeless = QueryPlan("x", None, None, "x", (), ())
    assert msgspec.to_builtins(MirrorAnswer(timeless, "latest", []).form())["range"] is None
