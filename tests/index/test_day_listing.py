"""The index lists day files (``HomeDayLogs.days``/``stamps``, one ``os.scandir`` pass) exactly as the
store does (``core.conversation.list_day_files``): the same names kept and refused, the same sizes
and the same recorded mtime (``round(st_mtime * 1e9)``, so an index built before reads as unchanged)."""

from __future__ import annotations

import os

from core.conversation import list_day_files
from core.index import HomeDayLogs
from core.index.logsource import DayEntry
from core.paths import HomePaths


def test_the_listing_keeps_and_refuses_what_the_store_does(paths: HomePaths) -> None:
    logs = paths.logs
    for rel, body in [
        ("2026/03/2026-03-01.jsonl", "a\n"),
        ("2026/03/2026-03-02.jsonl", "bb\n"),
        ("2025/12/2025-12-31.jsonl", "ccc\n"),
        ("2026/03/2026-04-01.jsonl", "wrong month folder\n"),
        ("2026/04/2025-04-01.jsonl", "wrong year folder\n"),
        ("2026/03/2026-03-03.json", "not jsonl\n"),
        ("2026/03/2026-3-04.jsonl", "short month\n"),
        ("2026/03/notes.txt", "x\n"),
        ("2026/3/2026-03-05.jsonl", "one-digit month folder\n"),
        ("abcd/03/abcd-03-06.jsonl", "not a year\n"),
        ("2026-03-07.jsonl", "at the root\n"),
    ]:
        path = logs / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body)
    (logs / "2026" / "03" / "2026-03-08.jsonl").mkdir()  # a folder named like a day file
    os.symlink(logs / "2026" / "03" / "2026-03-01.jsonl", logs / "2026" / "03" / "2026-03-09.jsonl")
    os.symlink(logs / "nowhere", logs / "2026" / "03" / "2026-03-10.jsonl")  # broken: skipped
    (logs / "2027").write_text("a file where a year folder would be")

    expected = [DayEntry(f.day, f.path, f.size, round(f.mtime * 1e9)) for f in list_day_files(paths)]
    source = HomeDayLogs(paths)
    assert [e.day for e in expected] == ["2025-12-31", "2026-03-01", "2026-03-02", "2026-03-09"]
    assert source.days() == expected
    assert source.stamps() == {e.day: (e.size, e.mtime_ns) for e in expected}


def test_a_home_without_logs_lists_nothing(paths: HomePaths) -> None:
    assert not paths.logs.exists() or not any(paths.logs.iterdir())
    assert HomeDayLogs(paths).days() == [] and HomeDayLogs(paths).stamps() == {}
