"""`reverie mcp` answers every line it cannot serve with a JSON-RPC error and keeps serving: a line
that is not JSON, JSON that is not JSON-RPC, and arguments nested 200 or 50,000 levels deep, over a
real stdio subprocess."""

from __future__ import annotations

import json
import select
import subprocess
import sys
import time
from typing import Any

import pytest

from core.paths import HomePaths
from tests.assist.test_mcp import ROOT, server_env
from tests.helpers.sharing_world import build_world
from tui_app.mcp.wire import INVALID_PARAMS, INVALID_REQUEST, MAX_DEPTH, PARSE_ERROR, scan, screen


def _call(ident: int, arguments: str) -> str:
    head = json.dumps({"jsonrpc": "2.0", "id": ident, "method": "tools/call"})[:-1]
    return head + ', "params": {"name": "recall", "arguments": ' + arguments + "}}"


class Wire:
    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode("utf-8") + b"\n")
        self.process.stdin.flush()

    def receive(self, timeout: float = 30) -> dict[str, Any]:
        assert self.process.stdout is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.process.stdout], [], [], 0.5)
            if ready:
                return json.loads(self.process.stdout.readline())
            assert self.process.poll() is None, "the server exited"
        raise AssertionError("no reply")


def test_every_unreadable_line_gets_its_error_and_the_session_goes_on(paths: HomePaths) -> None:
    build_world(paths)
    process = subprocess.Popen([sys.executable, "-m", "tui_app.cli.main", "mcp", "--profile", "claude"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=server_env(paths), cwd=str(ROOT))
    wire = Wire(process)
    try:
        wire.send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}))
        assert wire.receive()["id"] == 1
        wire.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        cases = [
            ("this is not json {", None, PARSE_ERROR),
            ('{"jsonrpc":"2.0","id":2}', 2, INVALID_REQUEST),
            ("[1, 2", None, PARSE_ERROR),
            (_call(3, '{"query":"x","limit":' + "[" * 200 + "]" * 200 + "}"), 3, INVALID_PARAMS),
            (_call(4, '{"query":' + "[" * 50_000 + "]" * 50_000 + "}"), 4, INVALID_PARAMS),
            ('{"jsonrpc":"2.0","method":"x","params":' + "{\"a\":" * 50_000 + "1" + "}" * 50_001,
             None, INVALID_REQUEST),
        ]
        for line, ident, code in cases:
            wire.send(line)
            reply = wire.receive()
            assert reply["jsonrpc"] == "2.0" and reply["id"] == ident and reply["error"]["code"] == code, reply
            assert "\n" not in reply["error"]["message"]
        wire.send(_call(9, '{"query":"Niseko"}'))
        served = wire.receive()
        assert served["id"] == 9 and not served["result"].get("isError") and served["result"]["structuredContent"]
    finally:
        assert process.stdin is not None
        process.stdin.close()
        process.wait(timeout=30)
    assert process.returncode == 0


@pytest.mark.parametrize(("line", "depth", "ident"), [
    ('{"id": 7, "params": {"a": [1, {"b": 2}]}}', 4, 7),
    ('{"params": {"id": 9}, "id": "x"}', 2, "x"),  # a nested "id" is not the message's
    ('{"a": "[[[[{{{{", "id": true}', 1, None),  # brackets in strings do not count; a boolean is no id
    ('{"a": "\\"[[[", "id": 1}', 1, 1),
])
def test_scan_reads_depth_and_the_top_level_id(line: str, depth: int, ident: object) -> None:
    assert scan(line) == (depth, ident)


def test_screen_passes_what_the_sdk_reads() -> None:
    assert screen(_call(1, '{"query":"x"}')) is None
    assert screen(_call(1, '{"query":' + "[" * (MAX_DEPTH - 6) + "]" * (MAX_DEPTH - 6) + "}")) is None
    assert screen(_call(1, '{"query":' + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "}")).code == INVALID_PARAMS


def test_scan_takes_each_string_whole_whatever_it_holds() -> None:
    """An unterminated string of escaped quotes: a scan that restarted at each quote would go quadratic."""
    assert scan('"\\"' * 100_000) == (0, None)
    assert scan('{"id": 5, "q": "' + 'a\\"b' * 100_000 + '"}') == (1, 5)
    assert scan("[" * 100_000) == (100_000, None)
