"""Reverie in a browser: ``reverie serve`` runs textual-serve, which starts one app process per tab.

textual-serve has no authentication, so: it listens on 127.0.0.1 unless ``--public`` allows another
address (an SSH tunnel is the way in from elsewhere); without ``--public`` a request whose ``Host`` is
not a loopback name is refused (DNS rebinding), and a WebSocket from another origin or with no
``Origin`` is refused always; at most ``serve.max_sessions`` app processes run at once (one more gets
503); every tab starts locked and asks for the passphrase on its own screen (``REVERIE_PASSPHRASE`` is
removed from the tabs' environment); the page's Google Fonts link is dropped, so nothing leaves the
machine. The page's WebSocket URL follows the ``Host`` the browser used, so any tunnel port works.

``python -m tui_app.serve --home HOME`` is what each tab runs (:func:`main`).
"""

from __future__ import annotations

import argparse
import re
import shlex
import socket
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import textual_serve

from core.errors import ReverieError
from core.paths import HomePaths
from core.workbench import Workbench
from core.workbench.access import Access
from core.workbench.local import is_loopback_address

if TYPE_CHECKING:
    from textual_serve.server import Server

DEFAULT_PORT = 8000
LOOPBACK_NAMES = frozenset({"localhost", "localhost.", "ip6-localhost"})
NO_AUTH_WARNING = (
    "WARNING: textual-serve has no authentication. Anyone who can reach {url} gets Reverie's screens "
    "(each tab still asks for the passphrase). Prefer the default 127.0.0.1 and an SSH tunnel: "
    "ssh -L {port}:127.0.0.1:{port} HOST"
)
GOOGLE_FONTS = re.compile(r"\s*<link[^>]*fonts\.googleapis\.com[^>]*>", re.IGNORECASE | re.DOTALL)


class ServeError(ReverieError):
    """The app cannot be served as asked (a refused address, a busy port)."""


def is_loopback(host: str) -> bool:
    """``127.0.0.0/8``, ``::1`` and ``localhost``: names that never leave the machine."""
    name = host.strip().strip("[]").lower()
    return name in LOOPBACK_NAMES or is_loopback_address(name)


def check_host(host: str, public: bool) -> str:
    """The address to listen on. A non-loopback one needs ``public``; ``localhost`` listens on
    127.0.0.1 (one address, not whatever the resolver returns)."""
    if is_loopback(host):
        return "127.0.0.1" if host.strip().lower().rstrip(".") == "localhost" else host.strip().strip("[]")
    if not public:
        raise ServeError(
            f"--host: {host!r} is not a loopback address; textual-serve has no authentication, so Reverie is "
            "served on 127.0.0.1 only (use an SSH tunnel, or --public if you accept the risk)"
        )
    return host.strip().strip("[]")


def check_port_free(host: str, port: int) -> None:
    """A busy or forbidden port is one clear line now, not a traceback from the web server later."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        infos = socket.getaddrinfo(host, port, family, socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise ServeError(f"--host: cannot resolve {host!r}: {exc.strerror}") from exc
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(infos[0][4])
        except OSError as exc:
            raise ServeError(f"--port: cannot listen on {host}:{port}: {exc.strerror}") from exc


def url_for(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def tab_command(home: Path) -> str:
    """What textual-serve runs for each browser tab: this interpreter, this module, this home."""
    return shlex.join([sys.executable, "-m", "tui_app.serve", "--home", str(home)])


def local_templates(folder: Path) -> Path:
    """textual-serve's page template without its Google Fonts link, written into ``folder``."""
    original = Path(textual_serve.__file__).parent / "templates" / "app_index.html"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "app_index.html").write_text(GOOGLE_FONTS.sub("", original.read_text("utf-8")), "utf-8")
    return folder


@dataclass(frozen=True)
class RequestCheck:
    """Which requests the server answers: a refusal reason, or ``None`` to serve it."""

    public: bool

    def refusal(self, host_header: str, origin: str | None, *, websocket: bool = False) -> str | None:
        """Why a request is refused; a ``websocket`` (it starts an app) must carry this server's Origin."""
        if not host_header:
            return "no Host header"
        if not self.public and not is_loopback(urlsplit(f"//{host_header}").hostname or ""):
            return f"Host {host_header!r} is not a loopback name"
        if websocket and not origin:
            return "a WebSocket without an Origin header (a browser always sends one)"
        if origin is not None and urlsplit(origin).netloc.lower() != host_header.lower():
            return f"Origin {origin!r} is not this server"
        return None


def make_server(
    home: Path, host: str, port: int, *, public: bool, templates: Path, say: Callable[[str], None],
    max_sessions: int = 4,
) -> Server:
    """The textual-serve server (its class is made here: a browser tab imports this module too, and
    needs neither aiohttp nor textual-serve). At most ``max_sessions`` app processes run at once."""
    from aiohttp import web  # heavy: aiohttp, ~0.2 s; a browser tab imports this module and needs neither
    from textual_serve.server import Server  # heavy: it imports aiohttp

    check = RequestCheck(public)
    open_sessions = [0]

    class ReverieServer(Server):
        async def on_startup(self, app: web.Application) -> None:
            say(f"reverie serve: Reverie for {home} on {url_for(host, port)} · Ctrl-C stops")

        def refuse(self, request: web.Request, origin: bool) -> None:
            reason = check.refusal(request.host, request.headers.get("Origin") if origin else None, websocket=origin)
            if reason is not None:
                raise web.HTTPForbidden(text=f"reverie serve refused this request: {reason}\n")

        async def handle_index(self, request: web.Request) -> web.StreamResponse:
            self.refuse(request, origin=False)
            # The page's WebSocket URL follows the address the browser used (a tunnel's local port,
            # or the name a --public server was reached by), not the address the server listens on.
            self.public_url = f"http://{request.host}"
            response: web.StreamResponse = await super().handle_index(request)
            return response

        async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
            self.refuse(request, origin=True)
            if open_sessions[0] >= max_sessions:  # counted before the app process starts, released after it ends
                raise web.HTTPServiceUnavailable(
                    text=f"reverie serve refused this request: {max_sessions} sessions are open (serve.max_sessions "
                         "in config.toml); close a tab first\n")
            open_sessions[0] += 1
            try:
                return await super().handle_websocket(request)
            finally:
                open_sessions[0] -= 1

        async def handle_download(self, request: web.Request) -> web.StreamResponse:
            self.refuse(request, origin=False)
            return await super().handle_download(request)

        async def _make_app(self) -> web.Application:
            # Every route, the static files too (textual-serve adds them as an aiohttp static route, past
            # the handlers above): the Host check runs first, as a middleware, before any route answers.
            app = await super()._make_app()

            @web.middleware
            async def host_check(request: web.Request, handler: Any) -> web.StreamResponse:
                self.refuse(request, origin=False)
                response: web.StreamResponse = await handler(request)
                return response

            app.middlewares.append(host_check)
            return app

    return ReverieServer(tab_command(home), host=host, port=port, title="Reverie", templates_path=str(templates))


def serve(home: Path, host: str, port: int, *, public: bool, say: Callable[[str], None],
          max_sessions: int = 4) -> None:
    """Serve the app for ``home`` until Ctrl-C (or SIGTERM), at most ``max_sessions`` tabs at once."""
    host = check_host(host, public)
    check_port_free(host, port)
    if public and not is_loopback(host):
        say(NO_AUTH_WARNING.format(url=url_for(host, port), port=port))
    Access.forget_environment_passphrase()  # the tabs inherit this environment: each one asks instead
    with tempfile.TemporaryDirectory(prefix="reverie-serve-") as folder:
        server = make_server(home, host, port, public=public, templates=local_templates(Path(folder)), say=say,
                             max_sessions=max_sessions)
        server.serve()


def main(argv: list[str] | None = None) -> None:
    """One browser tab: the app on ``--home``, always starting at the unlock screen."""
    parser = argparse.ArgumentParser(prog="python -m tui_app.serve", description=main.__doc__)
    parser.add_argument("--home", required=True)
    args = parser.parse_args(argv)

    from tui_app.app import ReverieApp  # heavy: textual, ~0.17 s; the `reverie serve` process never shows it

    paths = HomePaths.at(args.home)
    try:
        config = Workbench(paths).config
    except ReverieError as exc:
        print(f"reverie: {exc}", file=sys.stderr)
        raise SystemExit(exc.exit_code) from exc
    ReverieApp(paths, config, None, label="web").run()


if __name__ == "__main__":
    main()
