"""Two builds of an empty index at once (two processes, or two threads of one) both succeed, and the
index holds every turn once: the second waits for the reindex lock, then finds the first one's files
recorded (before, it could insert the same day file again and fail on ``files.day UNIQUE``, or fail
to open the fresh file: "database is locked")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

from core.index import HomeDayLogs, Reindexer, SearchIndex
from core.paths import HomePaths
from tests.helpers.index import append, turn

DAYS, PER_DAY = 30, 40

BUILDER = textwrap.dedent(
    """
    import json, sys, time
    from pathlib import Path
    from core.index import HomeDayLogs, Reindexer, SearchIndex
    from core.paths import HomePaths

    go = Path(sys.argv[1])
    while not go.exists():  # start together
        time.sleep(0.005)
    paths = HomePaths.at(None)
    with SearchIndex.open(paths) as index, Reindexer(index, HomeDayLogs(paths)) as reindexer:
        report = reindexer.run(embed=False)
    print(json.dumps({"added": report.turns_added, "read": report.read}))
    """
)


def _log(paths: HomePaths) -> None:
    for day in range(1, DAYS + 1):
        append(paths, *(turn(f"2026-10-{day:02d}T{k // 60:02d}:{k % 60:02d}:00", f"day {day} turn {k} river",
                             id=f"d{day}-{k}") for k in range(PER_DAY)))


def _complete_and_single(paths: HomePaths) -> None:
    with SearchIndex.open(paths) as index:
        status = index.status(cached=False)
        assert (status.files, status.turns) == (DAYS, DAYS * PER_DAY)
        conn = index.conn
        assert conn.execute("SELECT count(DISTINCT id), count(DISTINCT doc) FROM turns").fetchone() == (
            DAYS * PER_DAY, DAYS * PER_DAY)
        assert conn.execute("SELECT count(*) FROM fts WHERE fts MATCH 'river'").fetchone()[0] == DAYS * PER_DAY
        assert len(index.exact_search("river", limit=10_000)) == DAYS * PER_DAY
        indexes = {n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
        assert {"turns_ts", "turns_session", "turns_file"} <= indexes


def test_two_processes_build_an_empty_index_at_once(paths: HomePaths, tmp_path: Path) -> None:
    _log(paths)
    go = tmp_path / "go"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).resolve().parents[2]), env.get("PYTHONPATH", "")])
    builders = [
        subprocess.Popen([sys.executable, "-c", BUILDER, str(go)], env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    time.sleep(0.5)
    go.touch()
    reports = []
    for builder in builders:
        out, err = builder.communicate(timeout=120)
        assert builder.returncode == 0, err
        reports.append(json.loads(out))
    assert sorted(r["added"] for r in reports) == [0, DAYS * PER_DAY]  # one built it, the other found it done
    _complete_and_single(paths)


def test_two_threads_build_an_empty_index_at_once(paths: HomePaths) -> None:
    _log(paths)
    start = threading.Barrier(2)
    added: list[int] = []
    errors: list[BaseException] = []

    def build() -> None:
        try:
            with SearchIndex.open(paths) as index, Reindexer(index, HomeDayLogs(paths)) as reindexer:
                start.wait(timeout=30)
                added.append(reindexer.sync_files()[0].turns_added)  # sync_files alone takes the lock too
        except BaseException as exc:  # reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=build) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == [] and sorted(added) == [0, DAYS * PER_DAY]
    _complete_and_single(paths)
