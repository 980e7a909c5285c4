"""Serving the REST API with uvicorn on 127.0.0.1 only.

The socket is bound here (so a busy port is one clear error and port 0 picks a free one), then handed
to uvicorn. Access logs are off: request paths and bodies hold the person's queries.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import uvicorn

from core.assist.surface import AssistantSurface
from core.errors import ReverieError
from core.workbench import Workbench
from core.workbench.local import is_loopback_address
from tui_app.api.app import create_app
from tui_app.api.token import read_token, token_path
from tui_app.notices import on_stderr

if TYPE_CHECKING:
    from core.config import Config
    from core.paths import HomePaths
    from core.vault.crypto import VaultKeys

DEFAULT_PORT = 8765


class ApiError(ReverieError):
    """The API cannot be served as asked (a non-loopback host, a busy port, no token)."""


def check_host(host: str) -> str:
    """Only loopback: ``127.0.0.1`` (default), ``::1`` or ``localhost`` (served as 127.0.0.1)."""
    if host == "localhost":
        return "127.0.0.1"
    if not is_loopback_address(host):
        raise ApiError(f"--host: {host!r} is not a loopback address; the API is served on 127.0.0.1 only")
    return host


def bind(host: str, port: int) -> socket.socket:
    host = check_host(host)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto=IPPROTO_TCP: asyncio then sets TCP_NODELAY on each accepted connection (it checks the proto);
    # without it, a kept-alive client waits ~40 ms per answer for Nagle and delayed ACKs.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise ApiError(f"--port: cannot listen on {host}:{port}: {exc.strerror}") from exc
    sock.listen(64)
    sock.setblocking(False)
    return sock


@dataclass
class ApiServer:
    """A bound, not yet running server: ``url`` is known before ``run``; ``stop`` ends ``run``."""

    server: uvicorn.Server
    sock: socket.socket
    surface: AssistantSurface

    @property
    def url(self) -> str:
        host, port = self.sock.getsockname()[:2]
        return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"

    def run(self) -> None:
        try:
            self.server.run(sockets=[self.sock])
        finally:
            self.sock.close()
            self.surface.close()

    def stop(self) -> None:
        self.server.should_exit = True


def make_server(paths: HomePaths, config: Config, *, keys: Callable[[], VaultKeys] | None = None,
                profile: str = "default", host: str = "127.0.0.1", port: int = DEFAULT_PORT) -> ApiServer:
    """Everything checked (host, profile, token, keys, port) before a request can arrive. ``keys``
    gives the vault's keys (the CLI may prompt in a terminal); by default they come from
    ``REVERIE_PASSPHRASE`` or the keyring, never from a prompt."""
    check_host(host)
    workbench = Workbench(paths, config, notice=on_stderr("reverie api"))
    surface = AssistantSurface.open(workbench, profile)
    token = read_token(paths)
    if token is None:
        raise ApiError(f"no API token in {token_path(paths)}: run `reverie api token` first")
    if not workbench.has_vault:
        raise ApiError(f"no vault in {paths.root}: run `reverie init` first")
    if keys is not None:
        workbench.adopt_keys(keys())
    else:
        workbench.unlock(workbench.access.server_passphrase())
    sock = bind(host, port)
    settings = uvicorn.Config(create_app(surface, token), log_level="warning", access_log=False, lifespan="off",
                              server_header=False, proxy_headers=False)
    return ApiServer(uvicorn.Server(settings), sock, surface)
