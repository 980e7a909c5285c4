"""Two processes write the index (a reindex loop and `watch`) while this one searches it."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from core.embed.hashing import HashingEmbedder
from core.index import SearchIndex
from core.paths import HomePaths
from tests.helpers.index import append, reindex, turn

WRITER = textwrap.dedent(
    """
    import sys
    from core.embed.hashing import HashingEmbedder
    from core.index import HomeDayLogs, Reindexer, SearchIndex
    from core.paths import HomePaths
    from tests.helpers.index import append, turn

    paths = HomePaths.at(None)
    embedder = HashingEmbedder()
    with SearchIndex.open(paths) as index, Reindexer(index, HomeDayLogs(paths), embedder=lambda: embedder) as reindexer:
        for n in range(int(sys.argv[1])):
            day, hour = 3 + n % 3, n % 24
            stamps = [f"2026-11-{day:02d}T{hour:02d}:{k:02d}:00" for k in range(5)]
            append(paths, *(turn(ts, f"writer {n} {k} river", id=f"w{n}-{k}") for k, ts in enumerate(stamps)))
            reindexer.run()
    """
)

WATCHER = textwrap.dedent(
    """
    import sys, threading
    from core.embed.hashing import HashingEmbedder
    from core.index import HomeDayLogs, Reindexer, SearchIndex, Watcher
    from core.paths import HomePaths

    paths = HomePaths.at(None)
    embedder = HashingEmbedder()
    with SearchIndex.open(paths) as index, Reindexer(index, HomeDayLogs(paths), embedder=lambda: embedder) as reindexer:
        Watcher(reindexer, interval=0.05).run(max_passes=int(sys.argv[1]))
    """
)


def spawn(code: str, arg: int) -> subprocess.Popen[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).parent), env.get("PYTHONPATH", "")])
    return subprocess.Popen(
        [sys.executable, "-c", code, str(arg)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def test_two_writers_and_a_reader_at_once(paths: HomePaths) -> None:
    embedder = HashingEmbedder()
    append(paths, turn("2026-11-02T09:00:00", "the first river turn", id="seed"))
    with SearchIndex.open(paths) as index:
        reindex(index, paths, embedder)
        writer = spawn(WRITER, 30)
        watcher = spawn(WATCHER, 60)
        searches = 0
        deadline = time.monotonic() + 120
        while (writer.poll() is None or watcher.poll() is None) and time.monotonic() < deadline:
            hits = index.exact_search("river", limit=500)
            assert all(h.kind == "turn" for h in hits)
            index.vector_search(embedder.embed(["river"])[0], "2026-11-03T00:00:00Z", "2026-11-06T00:00:00Z", k=5)
            searches += 1
        _, writer_err = writer.communicate(timeout=60)
        _, watcher_err = watcher.communicate(timeout=60)
        assert writer.returncode == 0, writer_err
        assert watcher.returncode == 0, watcher_err
        assert searches > 0
        reindex(index, paths, embedder)
        status = index.status()
        assert status.turns == 1 + 30 * 5
        assert status.vectors == status.turns and status.pending_vectors == 0
        assert len(index.exact_search("river", limit=500)) == 151
        assert index.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert index.conn.execute("INSERT INTO fts(fts, rank) VALUES ('integrity-check', 0)") is not None
