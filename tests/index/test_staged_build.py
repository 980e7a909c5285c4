"""A build from empty with a staging worker (core.index.bulkstage) gives the index a build in one
process gives: the same catalog, files, FTS5 postings and report, whatever the day files hold (a
faulty line, a repeated id, a turn of another day, lines out of time order, CJK text); a worker that
dies or fails part way leaves the rest to the writer; a stopped build is finished by the next run."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from core.index import HomeDayLogs, Reindexer, SearchIndex, bulkstage
from core.index.logsource import DayEntry
from core.paths import HomePaths
from tests.helpers.index import append, turn

TEXTS = (
    "we picked the blue tent for the trip",
    "서울숲에서 산책하고 커피를 마셨다",
    "会議で予算を決めた。来週また話す",
    "Ünïcödé café notes, then the budget",
    "escape \x1b[31mred\x1b[0m and a NUL \x00 inside 東京",
    "short",
)


def _log(paths: HomePaths, days: int = 24) -> None:
    """``days`` day files of 12 turns each (out of time order in the file), then the awkward ones."""
    for day in range(1, days + 1):
        stamp = f"2026-04-{day:02d}"
        turns = [
            turn(
                f"{stamp}T{(k * 7) % 12 + 8:02d}:{k:02d}:00",
                f"{TEXTS[(day + k) % len(TEXTS)]} {day}-{k}",
                id=f"d{day}-{k}",
                session=f"s{day}-{k // 6}",
                role="user" if k % 2 == 0 else "assistant",
                actor=("kate", "tom", None)[day % 3] if k % 2 == 0 else None,
            )
            for k in range(12)
        ]
        append(paths, *turns)
    folder = paths.logs / "2026" / "04"
    # a faulty line in the middle of a day (read by the store's general path, reported)
    faulty = folder / "2026-04-05.jsonl"
    lines = faulty.read_text(encoding="utf-8").splitlines(keepends=True)
    faulty.write_text("".join([*lines[:4], "{not json\n", *lines[4:]]), encoding="utf-8")
    # an id an earlier day already holds (skipped as a duplicate)
    append(paths, turn("2026-04-09T23:00:00", "a repeated id", id="d3-1"))
    # a turn of 10 April stored in the file of 12 April (lands in its own day, which it renumbers)
    with (folder / "2026-04-12.jsonl").open("a", encoding="utf-8") as handle:
        handle.write(turn("2026-04-10T00:30:00", "stored two days late", id="late").to_json() + "\n")
    # a day file without its last newline (its unterminated line waits)
    unfinished = folder / "2026-04-17.jsonl"
    unfinished.write_bytes(unfinished.read_bytes() + turn("2026-04-17T23:59:00", "half", id="half").to_json().encode())


def _state(index: SearchIndex) -> dict[str, list[tuple]]:
    conn = index.conn
    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.v USING fts5vocab(main, fts, 'instance')")
    return {
        "turns": conn.execute("SELECT * FROM turns ORDER BY doc").fetchall(),
        "files": conn.execute(
            "SELECT id, day, path, size, mtime_ns, read_offset, sha256, turns, bad_lines FROM files ORDER BY id"
        ).fetchall(),
        "postings": conn.execute("SELECT term, doc, col, offset FROM temp.v ORDER BY term, doc, offset").fetchall(),
        "docsize": conn.execute("SELECT id, sz FROM fts_docsize ORDER BY id").fetchall(),
        "actors": conn.execute("SELECT name FROM actors ORDER BY name").fetchall(),
        "indexes": conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'turns' ORDER BY name"
        ).fetchall(),
    }


def _report(report) -> dict:  # type: ignore[no-untyped-def]
    keep = ("files", "read", "turns_added", "duplicates", "renumbered_days", "bad_line_count", "bad_lines")
    return {key: getattr(report, key) for key in keep}


def _build(paths: HomePaths, **kwargs: object) -> tuple[dict, dict]:
    with SearchIndex.open(paths) as index, Reindexer(index, HomeDayLogs(paths)) as reindexer:
        report = reindexer.run(embed=False, **kwargs)  # type: ignore[arg-type]
        return _report(report), _state(index)


@pytest.fixture
def staged(monkeypatch: pytest.MonkeyPatch) -> list[bulkstage.Staged]:
    """Every build stages, in stages of a few turns; the stages copied are recorded."""
    copied: list[bulkstage.Staged] = []
    real_copy = bulkstage.copy_stage

    def copy(conn, item):  # type: ignore[no-untyped-def]
        copied.append(item)
        real_copy(conn, item)

    monkeypatch.setattr(bulkstage, "worth_staging", lambda entries: True)
    monkeypatch.setattr(bulkstage, "copy_stage", copy)
    monkeypatch.setattr(bulkstage, "STAGE_TURNS", 30)
    monkeypatch.setattr(bulkstage, "FIRST_STAGE_TURNS", 10)
    return copied


def _one_process(paths: HomePaths, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[dict, dict]:
    """The same log built in one process, in a home of its own."""
    other = HomePaths(root=tmp_path / "one", cache=tmp_path / "one-cache").ensure()
    shutil.copytree(paths.logs, other.logs, dirs_exist_ok=True)
    with monkeypatch.context() as m:
        m.setattr(bulkstage, "worth_staging", lambda entries: False)
        report, state = _build(other)
    # the files rows name their own home's paths
    state["files"] = [(*row[:2], row[2].replace(str(other.logs), str(paths.logs)), *row[3:]) for row in state["files"]]
    report["bad_lines"] = [line.replace(str(other.logs), str(paths.logs)) for line in report["bad_lines"]]
    return report, state


def test_a_staged_build_equals_a_build_in_one_process(
    paths: HomePaths, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, staged: list[bulkstage.Staged]
) -> None:
    _log(paths)
    report, state = _build(paths)
    assert len(staged) >= 3, "the worker staged the clean files"
    expected_report, expected_state = _one_process(paths, tmp_path, monkeypatch)
    assert report == expected_report
    assert report["duplicates"] == 1 and report["renumbered_days"] == 1 and report["bad_line_count"] == 1
    assert report["turns_added"] == 24 * 12 + 1  # the late turn; not the repeated id, the faulty or the half line
    for key in expected_state:
        assert state[key] == expected_state[key], key
    assert state["actors"] == [("assistant",), ("kate",), ("tom",), ("user",)]
    staged_days = {day for item in staged for day in item.days}
    # the awkward files were read by the writer, not staged
    assert {"2026-04-05", "2026-04-09", "2026-04-12", "2026-04-17"}.isdisjoint(staged_days)
    assert "2026-04-10" in staged_days  # staged; the late turn from the file of 12 April renumbers it


def test_a_worker_that_dies_part_way_leaves_the_rest_to_the_writer(
    paths: HomePaths, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, staged: list[bulkstage.Staged]
) -> None:
    _log(paths)
    workers: list[subprocess.Popen[bytes]] = []
    real_start = bulkstage._start

    def start(entries):  # type: ignore[no-untyped-def]
        workers.append(real_start(entries))
        return workers[-1]

    read_here: list[str] = []
    real_read = Reindexer._read_file

    def read_file(self, entry, *args, **kwargs):  # type: ignore[no-untyped-def]
        read_here.append(entry.day)
        return real_read(self, entry, *args, **kwargs)

    monkeypatch.setattr(bulkstage, "_start", start)
    monkeypatch.setattr(Reindexer, "_read_file", read_file)

    def kill_after_first(phase: str, done: int, total: int) -> None:
        if staged and workers[0].poll() is None:
            workers[0].kill()
            workers[0].wait()

    report, state = _build(paths, progress=kill_after_first)
    assert workers and workers[0].returncode is not None
    assert staged, "a stage came before the worker died"
    awkward = {"2026-04-05", "2026-04-09", "2026-04-12", "2026-04-17"}
    assert set(read_here) - awkward, "the writer read clean files itself once the worker was gone"
    monkeypatch.setattr(Reindexer, "_read_file", real_read)
    expected_report, expected_state = _one_process(paths, tmp_path, monkeypatch)
    assert report == expected_report
    assert state == expected_state


def test_a_stopped_staged_build_is_finished_by_the_next_run(
    paths: HomePaths, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, staged: list[bulkstage.Staged]
) -> None:
    _log(paths)
    calls = iter(range(100))
    first, _ = _build(paths, should_stop=lambda: next(calls) >= 2)
    assert 0 < first["read"] < 24
    with SearchIndex.open(paths) as index, Reindexer(index, HomeDayLogs(paths)) as reindexer:
        rest = reindexer.run(embed=False)
        state = _state(index)
    _, expected_state = _one_process(paths, tmp_path, monkeypatch)
    assert first["turns_added"] + rest.turns_added == 24 * 12 + 1
    assert state["turns"] == expected_state["turns"]
    assert state["postings"] == expected_state["postings"]
    assert state["indexes"] == expected_state["indexes"]


def _frame(header: dict, blob: bytes = b"") -> bytes:
    encoded = json.dumps(header).encode()
    return bulkstage._FRAME.pack(len(encoded), len(blob)) + encoded + blob


def test_the_frames_end_at_a_failure_or_a_cut(tmp_path: Path) -> None:
    here, failed = _frame({"kind": "here", "entry": 0}), _frame({"kind": "failed", "why": "OSError: disk"})
    assert list(bulkstage._frames(io.BytesIO(here + failed + here))) == [bulkstage.ReadHere(0), None]
    cut = _frame({"kind": "stage", "entries": [1], "turns": 1, "days": ["2026-04-01"]}, b"x" * 100)[:-10]
    assert list(bulkstage._frames(io.BytesIO(here + cut))) == [bulkstage.ReadHere(0), None]
    assert list(bulkstage._frames(io.BytesIO(here + _frame({"kind": "done"})))) == [bulkstage.ReadHere(0)]


def test_a_worker_that_cannot_start_leaves_every_file_to_the_writer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def cannot(entries):  # type: ignore[no-untyped-def]
        raise OSError("no such interpreter")

    monkeypatch.setattr(bulkstage, "_start", cannot)
    entries = [DayEntry(f"2026-04-0{d}", tmp_path / f"2026-04-0{d}.jsonl", 1, 1) for d in (1, 2, 3)]
    assert list(bulkstage.staged_reads(entries)) == [bulkstage.ReadHere(i) for i in range(3)]


def test_staging_needs_enough_bytes(tmp_path: Path) -> None:
    small = [DayEntry("2026-04-01", tmp_path / "a.jsonl", 1000, 1)]
    big = [DayEntry("2026-04-01", tmp_path / "a.jsonl", bulkstage.STAGE_MIN_BYTES, 1)]
    assert not bulkstage.worth_staging(small)
    try:
        import os

        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        pytest.skip("no sched_getaffinity here")
    assert bulkstage.worth_staging(big) == (cores >= 2)
