"""The REST API as a Starlette application (served by uvicorn, see :mod:`tui_app.api.serve`).

Every request passes three checks before it reaches a route, each answered with a JSON error:
the ``Host`` header names a loopback host (a web page cannot reach the API through DNS rebinding),
the peer address is loopback, and ``Authorization: Bearer <token>`` matches the home's token (in
constant time). Bodies are JSON objects of at most 1 MiB. Errors are ``{"error": "<one line>"}``; a
limit on proposals (``[assistants]``) adds ``limit``, ``count``, ``max``, ``resets_at`` and
``retry_after``, and a 429 carries ``Retry-After``.
"""

from __future__ import annotations

import contextlib
import json
import re
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from core.assist.surface import AssistantSurface, Caller, SurfaceError
from core.workbench.local import is_loopback_address
from tui_app.api.openapi import CLIENT_HEADER, CLIENT_PATTERN, ROUTES, openapi_document
from tui_app.api.token import token_matches

MAX_BODY = 1024 * 1024
MAX_DISCARD = 16 * MAX_BODY  # a larger refused body is not read: the connection is closed on it
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
_CLIENT = re.compile(CLIENT_PATTERN)


def error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def _host_name(value: str) -> str:
    """``[::1]:8765`` → ``::1``; ``localhost:8765`` → ``localhost``."""
    if value.startswith("["):
        return value[1:].partition("]")[0]
    return value.rpartition(":")[0] if value.count(":") == 1 else value


class Guard:
    """Loopback host and peer, and the bearer token, before anything else runs."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.token = token

    def _refusal(self, scope: Scope) -> Response | None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get("host", "")
        if _host_name(host.strip().lower()) not in LOOPBACK_NAMES:
            return error(400, f"Host: {host!r} is not a loopback name (use 127.0.0.1)")
        client = scope.get("client")
        if not client or not is_loopback_address(str(client[0])):
            return error(403, "only loopback clients are served")
        if not token_matches(self.token, headers.get("authorization")):
            return error(401, "Authorization: missing or wrong bearer token (see `reverie api token`)",
                         {"WWW-Authenticate": "Bearer"})
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refusal = self._refusal(scope)
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def _discard(request: Request, size: int) -> None:
    """Read and drop a refused body that is not absurdly large, so the client, still sending it, gets
    the 413 rather than a reset connection (closing a socket with unread data resets it)."""
    if size > MAX_DISCARD:
        return
    with contextlib.suppress(RuntimeError, ClientDisconnect):  # already read to the end; the client left
        drained = 0
        async for chunk in request.stream():
            drained += len(chunk)
            if drained > MAX_DISCARD:  # a body without a length that goes on and on
                return


async def _body(request: Request) -> Any:
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise SurfaceError("Content-Type: must be application/json", 415)
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY:
        await _discard(request, int(declared))
        raise SurfaceError(f"body: larger than {MAX_BODY:,} bytes", 413)
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            await _discard(request, len(data) + 1)
            raise SurfaceError(f"body: larger than {MAX_BODY:,} bytes", 413)
    try:
        value = json.loads(bytes(data).decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise SurfaceError("body: not UTF-8 text", 400) from exc
    except ValueError as exc:
        raise SurfaceError(f"body: not valid JSON ({exc.args[0].split(':')[0]})", 400) from exc
    except RecursionError:
        raise SurfaceError(f"body: nested deeper than {MAX_DEPTH} levels", 400) from None
    if _too_deep(value, MAX_DEPTH):
        raise SurfaceError(f"body: nested deeper than {MAX_DEPTH} levels", 400)
    return value


MAX_DEPTH = 32  # no tool's arguments nest beyond a few levels; deeper only exhausts the stack later


def _too_deep(value: Any, limit: int) -> bool:
    """Whether ``value`` nests lists and objects more than ``limit`` deep (checked without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return True
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return False


def _caller(request: Request) -> Caller:
    given = request.headers.get(CLIENT_HEADER)
    if given is None:
        return Caller.named("api", None)
    if not _CLIENT.match(given):
        raise SurfaceError(f"{CLIENT_HEADER}: must be a name and version such as 'raycast/1.2' (letters, digits, "
                           "space . _ / -)", 400)
    name, _, version = given.partition("/")
    return Caller.named("api", name, version or None)


def _endpoint(surface: AssistantSurface, tool: str, method: str,
              status: int) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        try:
            caller = _caller(request)
            arguments = await _body(request) if method == "post" else {}
            result = await run_in_threadpool(surface.call, tool, arguments, caller)
        except SurfaceError as exc:
            if exc.detail is None:
                return error(exc.status, str(exc))
            headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after is not None else None
            return JSONResponse({**exc.detail, "error": str(exc)}, status_code=exc.status, headers=headers)
        return JSONResponse(result, status_code=status)

    return endpoint


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    detail = {404: "no such endpoint (see /v1/openapi.json)", 405: "method not allowed"}.get(exc.status_code,
                                                                                              str(exc.detail))
    return error(exc.status_code, detail, dict(exc.headers or {}))


async def _crash(request: Request, exc: Exception) -> Response:
    print(f"reverie api: {request.url.path} failed: {type(exc).__name__}: {exc}", file=sys.stderr)
    return error(500, "internal error (see the server log)")


def create_app(surface: AssistantSurface, token: str) -> Starlette:
    document = openapi_document()

    async def openapi(request: Request) -> Response:
        return JSONResponse(document)

    routes = [Route(path, _endpoint(surface, tool, method, status), methods=[method.upper()])
              for path, method, tool, _, status in ROUTES]
    routes.append(Route("/v1/openapi.json", openapi, methods=["GET"]))
    app = Starlette(routes=routes, exception_handlers={HTTPException: _http_error, Exception: _crash})
    app.add_middleware(Guard, token=token)
    return app
