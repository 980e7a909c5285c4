"""``reverie serve``: loopback only unless --public, and what the server refuses or never does.

The server tests run the real command on a free 127.0.0.1 port and talk to it with aiohttp (no
browser: the browser test is ``tests/e2e/test_browser.py``)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import pytest

from core.demo.build import DemoHome
from tui_app import serve

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")


@pytest.mark.parametrize("host", ["127.0.0.1", "127.8.9.1", "::1", "[::1]", "localhost", "LOCALHOST"])
def test_loopback_hosts_are_served(host: str) -> None:
    assert serve.is_loopback(host)
    assert serve.check_host(host, public=False) in ("127.0.0.1", "127.8.9.1", "::1")


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20", "10.0.0.1", "example.org", "localhost.evil.org"])
def test_other_hosts_need_public(host: str) -> None:
    assert not serve.is_loopback(host)
    with pytest.raises(serve.ServeError, match="not a loopback address"):
        serve.check_host(host, public=False)
    assert serve.check_host(host, public=True) == host


def test_cli_refuses_a_public_address_in_one_line(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tui_app.cli.main", "--home", str(tmp_path / "home"), "serve", "--host", "0.0.0.0"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("reverie: --host: '0.0.0.0' is not a loopback address")
    assert result.stderr.count("\n") == 1


def test_public_warns_that_there_is_no_authentication(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """--public on another address says so loudly before serving (the server itself is replaced here:
    the tests listen on loopback only)."""
    built: list[tuple[str, int, bool]] = []

    class Recorder:
        def serve(self) -> None:
            built.append(("served", 0, True))

    def make_server(home: Path, host: str, port: int, *, public: bool, templates: Path, say: object,
                    max_sessions: int) -> Recorder:
        assert (templates / "app_index.html").is_file()
        built.append((host, port, public))
        return Recorder()

    monkeypatch.setattr(serve, "check_port_free", lambda host, port: None)
    monkeypatch.setattr(serve, "make_server", make_server)
    monkeypatch.setenv("REVERIE_PASSPHRASE", "not for the tabs")
    said: list[str] = []
    serve.serve(tmp_path, "192.0.2.10", 8000, public=True, say=said.append)
    assert built == [("192.0.2.10", 8000, True), ("served", 0, True)]
    assert len(said) == 1 and said[0].startswith("WARNING: textual-serve has no authentication")
    assert "ssh -L 8000:127.0.0.1:8000" in said[0]
    assert "REVERIE_PASSPHRASE" not in os.environ  # the tabs inherit the environment: they must ask


def test_a_busy_port_is_one_clear_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        with pytest.raises(serve.ServeError, match=f"--port: cannot listen on 127.0.0.1:{port}"):
            serve.check_port_free("127.0.0.1", port)


def test_the_page_template_loads_nothing_from_other_sites(tmp_path: Path) -> None:
    page = (serve.local_templates(tmp_path) / "app_index.html").read_text()
    assert "googleapis" not in page
    assert not re.search(r"""(src|href)=["']https?://""", page)
    assert "app_websocket_url" in page


def test_requests_are_checked_for_host_and_origin() -> None:
    local, public = serve.RequestCheck(public=False), serve.RequestCheck(public=True)
    assert local.refusal("127.0.0.1:8000", None) is None
    assert local.refusal("localhost:9000", "http://localhost:9000") is None  # a tunnel's own port
    assert local.refusal("[::1]:8000", None) is None
    assert "not a loopback name" in (local.refusal("rebound.example:8000", None) or "")
    assert "Origin" in (local.refusal("127.0.0.1:8000", "http://evil.example") or "")
    assert public.refusal("home.lan:8000", "http://home.lan:8000") is None
    assert "Origin" in (public.refusal("home.lan:8000", "http://evil.example") or "")


# --- the real server ----------------------------------------------------------------------------------


async def test_the_server_refuses_foreign_hosts_and_origins(served: tuple[DemoHome, int]) -> None:
    _, port = served
    base = f"http://127.0.0.1:{port}"
    async with aiohttp.ClientSession() as http:
        async with http.get(base + "/", headers={"Host": "localhost:9000"}) as page:
            assert page.status == 200
            body = await page.text()
        assert 'data-session-websocket-url="ws://localhost:9000/ws"' in body  # follows the tunnel's port
        assert "googleapis" not in body
        async with http.get(base + "/", headers={"Host": "rebound.example"}) as page:
            assert page.status == 403
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(base + "/ws", origin="http://evil.example")
        assert refused.value.status == 403


async def test_each_tab_starts_locked_whatever_the_environment(served: tuple[DemoHome, int]) -> None:
    """The server was started with REVERIE_PASSPHRASE set: a tab still shows the unlock screen."""
    _, port = served
    received = ""
    async with aiohttp.ClientSession() as http:
        socket_url = f"http://127.0.0.1:{port}/ws?width=100&height=30"
        async with http.ws_connect(socket_url, origin=f"http://127.0.0.1:{port}") as ws:
            deadline = time.monotonic() + 30
            while "Reverie is locked" not in ANSI.sub("", received):
                left = deadline - time.monotonic()
                assert left > 0, f"no unlock screen; the tab showed: {ANSI.sub('', received)[-400:]!r}"
                try:
                    message = await ws.receive(timeout=left)
                except TimeoutError:
                    continue
                if message.type == aiohttp.WSMsgType.BINARY:
                    received += message.data.decode("utf-8", "replace")
                elif message.type == aiohttp.WSMsgType.TEXT:
                    received += message.data
                else:
                    break
    text = ANSI.sub("", received)
    assert "Reverie is locked" in text
    assert "approved draft" not in text  # the home screen never showed
