"""The workbench's searches say, through its notice, that another process is upgrading the index and
that they wait for it (the CLI prints the line on stderr; the TUI's search screen on its status line)."""

from __future__ import annotations

import threading

from core.config import Config
from core.index import SearchIndex
from core.index.connection import connect, write
from core.index.migrations import MIGRATIONS, upgrading
from core.paths import HomePaths
from core.workbench import Workbench


def test_a_search_beside_an_upgrade_says_it_waits_through_the_workbench_notice(paths: HomePaths) -> None:
    paths.ensure_cache()
    SearchIndex(paths.index_db).close()
    conn = connect(paths.index_db)
    with write(conn):  # one migration behind: the search's own open applies it once the lock is free
        conn.execute("DELETE FROM _migrations WHERE name = ?", (MIGRATIONS[-1][0],))
    conn.close()
    notes: list[str] = []
    noted = threading.Event()
    workbench = Workbench(paths, Config())

    def note(line: str) -> None:  # set after the workbench was made, as the TUI's search screen does
        notes.append(line)
        noted.set()

    workbench.notice = note
    answers: list[object] = []
    searcher = threading.Thread(target=lambda: answers.append(workbench.search("anything", mode="exact")))
    holder = connect(paths.index_db)
    with upgrading(holder):
        searcher.start()
        assert noted.wait(timeout=60), "the search did not say it waits"
    searcher.join(timeout=60)
    holder.close()
    assert answers, "the search did not finish once the upgrade was done"
    assert len(notes) == 1 and "being upgraded by another Reverie process" in notes[0]
