"""The servers say on stderr what a request waits for: the MCP server (whose stdout is its protocol)
and the REST API (whose clients never see its terminal) give the workbench a notice that writes one
line, named by the process, so a recall held up by another process's index upgrade is not silent."""

from __future__ import annotations

import json
import selectors
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from core.index import SearchIndex
from core.index.connection import connect, write
from core.index.migrations import MIGRATIONS, upgrading
from core.paths import HomePaths
from tests.assist.test_mcp import server_env
from tests.helpers.api import running_api
from tests.helpers.sharing_world import build_world
from tui_app.notices import on_stderr

ROOT = Path(__file__).resolve().parents[2]
UPGRADE_NOTE = "index.db is being upgraded by another Reverie process"


def one_migration_behind(paths: HomePaths) -> None:
    """An index whose next open applies its last migration (and so waits for a held upgrade)."""
    paths.ensure_cache()
    SearchIndex(paths.index_db).close()
    conn = connect(paths.index_db)
    with write(conn):
        conn.execute("DELETE FROM _migrations WHERE name = ?", (MIGRATIONS[-1][0],))
    conn.close()


def test_a_notice_is_one_line_on_stderr_named_by_the_process(capsys: pytest.CaptureFixture[str]) -> None:
    on_stderr("reverie mcp")("waiting for \x1b[31mthe index\nstill")
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "reverie mcp: waiting for \\x1b[31mthe index\\x0astill\n"


def test_a_recall_over_mcp_beside_an_upgrade_says_on_stderr_that_it_waits(paths: HomePaths) -> None:
    build_world(paths)
    one_migration_behind(paths)
    holder = connect(paths.index_db)
    server = subprocess.Popen(
        [sys.executable, "-m", "tui_app.cli.main", "mcp", "--profile", "claude"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=server_env(paths),
        cwd=str(ROOT),
        text=True,
    )
    assert server.stdin is not None and server.stdout is not None and server.stderr is not None
    try:
        with upgrading(holder):
            for message in (
                {
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": "initialize",
                    "params": {
                        "protocolVersion": "2025-06-18",
                        "capabilities": {},
                        "clientInfo": {"name": "test", "version": "1"},
                    },
                },
                {"jsonrpc": "2.0", "method": "notifications/initialized"},
                {
                    "jsonrpc": "2.0",
                    "id": 2,
                    "method": "tools/call",
                    "params": {"name": "recall", "arguments": {"query": "Niseko"}},
                },
            ):
                server.stdin.write(json.dumps(message) + "\n")
            server.stdin.flush()
            said = read_until(server.stderr, UPGRADE_NOTE, seconds=90)
        assert said.startswith("reverie mcp: ") and said.count("\n") == 1
        answers = [json.loads(read_until(server.stdout, '"id":', seconds=90)) for _ in range(2)]
        recalled = next(a for a in answers if a.get("id") == 2)
        assert recalled["result"]["isError"] is False
        assert any("Niseko" in r["text"] for r in recalled["result"]["structuredContent"]["results"])
    finally:
        holder.close()
        server.kill()
        server.wait(timeout=30)
        for stream in (server.stdin, server.stdout, server.stderr):
            stream.close()


def read_until(stream, needle: str, *, seconds: float) -> str:  # type: ignore[no-untyped-def]
    """The first line of ``stream`` that holds ``needle`` (lines before it are skipped)."""
    selector = selectors.DefaultSelector()
    selector.register(stream, selectors.EVENT_READ)
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            if selector.select(timeout=1):
                line = stream.readline()
                if not line:
                    break
                if needle in line:
                    return line
        raise AssertionError(f"no line with {needle!r} within {seconds} s")
    finally:
        selector.unregister(stream)


def test_a_recall_over_rest_beside_an_upgrade_says_on_stderr_that_it_waits(
    paths: HomePaths, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    build_world(paths)
    with running_api(paths, monkeypatch) as api:
        one_migration_behind(paths)
        answers: list[tuple[int, object]] = []
        holder = connect(paths.index_db)

        def ask() -> None:
            status, _, answer = api.call("POST", "/v1/recall", {"query": "Niseko"})
            answers.append((status, answer))

        asked = threading.Thread(target=ask)
        said = ""
        with upgrading(holder):
            asked.start()
            deadline = time.monotonic() + 60
            while UPGRADE_NOTE not in said and time.monotonic() < deadline:
                time.sleep(0.2)
                said += capfd.readouterr().err
        asked.join(timeout=60)
        holder.close()
    assert f"reverie api: {UPGRADE_NOTE}" in said
    assert answers and answers[0][0] == 200
