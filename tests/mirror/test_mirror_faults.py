"""reverie mirror killed mid-run, and bad input: a wrong DSN, a server without pgvector, an unknown
profile, each one line naming the thing (never the password), exit code 2."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest

from core.paths import HomePaths
from core.workbench import Workbench
from tests.helpers.cli import reverie
from tests.helpers.pgserver import DEBIAN_BIN, PgServer, ServerUnavailable, free_port, start_server
from tests.helpers.sharing_world import NOW, make_turn, write_log
from tests.helpers.vault import PASSPHRASE

ROOT = Path(__file__).resolve().parents[2]
DAYS, PER_DAY = 60, 25

# One mirror run in its own process, printing a line after each day is done.
RUN = """
import sys
import time
from pathlib import Path
from core.config import load_config
from core.embed.hashing import HashingEmbedder
from core.paths import HomePaths
from core.workbench import Workbench

paths = HomePaths(Path(sys.argv[1]), Path(sys.argv[2]))
bench = Workbench(paths, load_config(paths.config), embedder=lambda: HashingEmbedder(dim=64),
                  ask_passphrase=lambda: sys.argv[4])


def done(phase, n, total):
    print(n, flush=True)
    time.sleep(0.02)  # the parent reads each line before many more days pass, however loaded the machine


bench.mirror.run("open", dsn=sys.argv[3], progress=done)
print("finished", flush=True)
"""


def dump(dsn: str) -> dict[str, list[tuple[Any, ...]]]:
    """The mirror's content, without the times the rows were written."""
    with psycopg.connect(dsn) as conn:
        return {
            "turns": conn.execute("SELECT id, day::text, ts, actor, role, type, text, model, session, source, "
                                  "machine, embedding::text FROM reverie.turns ORDER BY id").fetchall(),
            "days": conn.execute("SELECT day::text, file, size, hmac, turns FROM reverie.days "
                                 "ORDER BY day").fetchall(),
            "memories": conn.execute("SELECT id, record_sha256, content, tags, reviewed, review::text, "
                                     "embedding::text FROM reverie.memories ORDER BY id").fetchall(),
            "info": conn.execute("SELECT key, value FROM reverie.mirror_info ORDER BY key").fetchall(),
        }


def kill_after(paths: HomePaths, dsn: str, days_done: int) -> None:
    """Run the mirror in a process and SIGKILL it once ``days_done`` days are reported done."""
    process = subprocess.Popen([sys.executable, "-c", RUN, str(paths.root), str(paths.cache), dsn, PASSPHRASE],
                               stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert process.stdout is not None
    for seen, line in enumerate(process.stdout, 1):
        assert line.strip() != "finished", "the run ended before it could be killed"
        if seen >= days_done:
            time.sleep(random.uniform(0, 0.03))  # during the sleep after a day, or inside the next day's transaction
            os.kill(process.pid, signal.SIGKILL)
            break
    process.wait(timeout=30)
    assert process.returncode == -signal.SIGKILL


def wait_unlocked(dsn: str) -> None:
    """The killed client's server process ends (and frees the writer's lock) when it sees the socket close."""
    deadline = time.monotonic() + 15
    with psycopg.connect(dsn, autocommit=True) as conn:
        while conn.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'").fetchone() != (0,):
            assert time.monotonic() < deadline, "the killed mirror's lock was never released"
            time.sleep(0.05)


def test_kills_during_a_mirror_leave_whole_days_and_the_next_run_equals_a_rebuild(
        world: Workbench, pg: PgServer, pg_dsn: str) -> None:
    start = NOW - timedelta(days=DAYS + 10)
    write_log(world.paths, [make_turn(start + timedelta(days=d, minutes=m), f"day {d} line {m} about Niseko",
                                      session=f"s{d}", source="claude-code:/p/x.jsonl")
                            for d in range(DAYS) for m in range(PER_DAY)])

    kill_after(world.paths, pg_dsn, 10)
    wait_unlocked(pg_dsn)
    partial = dump(pg_dsn)
    assert 10 <= len(partial["days"]) < DAYS + 2
    counted = {day: n for day, _, _, _, n in partial["days"]}
    by_day: dict[str, int] = {}
    for row in partial["turns"]:
        by_day[row[1]] = by_day.get(row[1], 0) + 1
    assert by_day == {day: n for day, n in counted.items() if n}  # whole days only
    kill_after(world.paths, pg_dsn, 30)
    wait_unlocked(pg_dsn)
    world.mirror.run("open", dsn=pg_dsn)

    fresh = pg.create_database("rebuilt_" + pg_dsn.rsplit("/", 1)[1])
    world.mirror.run("open", dsn=fresh, rebuild=True)
    mirrored, rebuilt = dump(pg_dsn), dump(fresh)
    assert len(rebuilt["turns"]) == DAYS * PER_DAY + 3 and len(rebuilt["days"]) == DAYS + 2
    assert mirrored == rebuilt


@pytest.fixture
def plain_home(paths: HomePaths) -> HomePaths:
    paths.config.write_text('[sharing.profiles.laptop]\nreviewed_only = false\n', encoding="utf-8")
    return paths


def one_line_error(*args: str) -> str:
    result = reverie("mirror", *args)
    assert result.returncode == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_an_unreachable_database_is_named_without_its_password(plain_home: HomePaths) -> None:
    port = free_port()
    line = one_line_error("--profile", "laptop", "--dsn", f"postgresql://me:hunter2secret@127.0.0.1:{port}/memory")
    assert f"cannot connect to postgresql://me@127.0.0.1:{port}/memory" in line
    assert "hunter2secret" not in line


def test_a_dsn_that_is_not_one_and_no_dsn_at_all(plain_home: HomePaths) -> None:
    assert "the DSN is not a PostgreSQL connection string" in one_line_error("--profile", "laptop", "--dsn",
                                                                              "host=x password=pw=oops junk")
    assert "no database given" in one_line_error("--profile", "laptop")


def test_an_unknown_profile_is_named(plain_home: HomePaths) -> None:
    line = one_line_error("--profile", "nope", "--dsn", "postgresql://me:pw@127.0.0.1:1/memory")
    assert "no sharing profile 'nope'" in line and "laptop" in line


def test_a_server_without_pgvector_is_named(plain_home: HomePaths) -> None:
    if not (DEBIAN_BIN / "postgres").is_file():
        pytest.skip(f"no PostgreSQL without pgvector here to test against ({DEBIAN_BIN})")
    try:
        server = start_server(DEBIAN_BIN)
    except ServerUnavailable as exc:
        pytest.skip(f"the system's PostgreSQL cannot run here: {exc}")
    try:
        line = one_line_error("--profile", "laptop", "--dsn", server.dsn())
    finally:
        server.stop()
    assert f"the server at postgresql://postgres@127.0.0.1:{server.port}/postgres has no pgvector extension" in line
