"""`reverie serve` starts an app process per WebSocket: a socket without this server's Origin starts
none, and at most ``serve.max_sessions`` run at once (one more gets 503 until a tab closes)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import aiohttp
import pytest

from core.config import Config
from tests.helpers.serve import running_serve
from tui_app import serve


def test_a_websocket_needs_this_servers_origin() -> None:
    local = serve.RequestCheck(public=False)
    assert "without an Origin" in (local.refusal("127.0.0.1:8000", None, websocket=True) or "")
    assert "without an Origin" in (local.refusal("127.0.0.1:8000", "", websocket=True) or "")
    assert local.refusal("127.0.0.1:8000", "http://127.0.0.1:8000", websocket=True) is None
    assert "Origin" in (local.refusal("127.0.0.1:8000", "null", websocket=True) or "")
    assert local.refusal("127.0.0.1:8000", None) is None  # the page itself: a browser sends no Origin on GET


async def _first_bytes(ws: aiohttp.ClientWebSocketResponse) -> None:
    """Wait until the app process behind ``ws`` has said something (it runs)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        message = await ws.receive(timeout=deadline - time.monotonic())
        if message.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT):
            return
        raise AssertionError(f"the session ended: {message}")
    raise AssertionError("the app said nothing")


async def test_sessions_are_capped_and_a_socket_without_origin_starts_nothing(tmp_path: Path) -> None:
    def two(config: Config) -> None:
        config.serve.max_sessions = 2

    with running_serve(tmp_path, two) as (_, port):
        url = f"http://127.0.0.1:{port}/ws?width=80&height=24"
        origin = f"http://127.0.0.1:{port}"
        async with aiohttp.ClientSession() as http:
            for _ in range(3):  # no Origin: refused before any process starts, whatever the count
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await http.ws_connect(url)
                assert refused.value.status == 403
            first = await http.ws_connect(url, origin=origin)
            second = await http.ws_connect(url, origin=origin)
            await asyncio.gather(_first_bytes(first), _first_bytes(second))
            with pytest.raises(aiohttp.WSServerHandshakeError) as full:
                await http.ws_connect(url, origin=origin)
            assert full.value.status == 503
            await first.close()
            deadline = time.monotonic() + 30
            while True:  # the closed tab's process ends, and its place is free again
                try:
                    third = await http.ws_connect(url, origin=origin)
                    break
                except aiohttp.WSServerHandshakeError as exc:
                    assert exc.status == 503 and time.monotonic() < deadline
                    await asyncio.sleep(0.3)
            await _first_bytes(third)
            await third.close()
            await second.close()
