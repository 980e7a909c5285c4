"""The lines a client sends ``reverie mcp``, screened before the SDK reads them.

The SDK's stdio transport drops a line it cannot read (not JSON, not a JSON-RPC message, nested past
its parser's limit) without a word, and the client waits for an answer that never comes. Every such
line gets a JSON-RPC error here, with the request's id when one can be read, and the server goes on:

* not JSON: ``-32700`` (parse error), id null;
* JSON, but not a JSON-RPC message: ``-32600`` (invalid request);
* nested deeper than :data:`MAX_DEPTH` (a tool's arguments are a few levels deep): ``-32602``
  (invalid params) when the request's id can be read, else ``-32600``.

The depth is measured before anything parses the line, by one linear scan over its strings and
brackets (no recursion, no backtracking: 50,000 levels or megabytes of escapes cost milliseconds).
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

MAX_DEPTH = 64  # below the SDK parser's limit (200) and Python json's (about 1,000)
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602
_SKIP = re.compile(r'[^"\[\]{}]*')  # what is neither a string nor a bracket
_STRING = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+"')  # possessive: never backtracks
_OPENS = re.compile(r"[\[{]+")
_CLOSES = re.compile(r"[\]}]+")
_DECODER = json.JSONDecoder()


@dataclass(frozen=True)
class WireError:
    """The JSON-RPC error a line gets instead of an answer."""

    id: int | str | None
    code: int
    message: str


def _request_id(line: str, at: int) -> int | str | None:
    """The value after the ``"id"`` key ending at ``at``, if it is a JSON-RPC id (a string or an integer)."""
    rest = line[at:].lstrip()
    if not rest.startswith(":"):
        return None
    try:
        value, _ = _DECODER.raw_decode(rest[1:].lstrip())
    except (ValueError, RecursionError):
        return None
    if isinstance(value, bool) or not isinstance(value, int | str):
        return None
    return value


def scan(line: str) -> tuple[int, int | str | None]:
    """The deepest nesting of ``line`` and the id of the message at its top level (None if none).

    One pass from left to right, each string and each run of brackets taken whole, so the work is
    linear in the line whatever it holds (an unterminated string ends the scan: the line is no JSON)."""
    depth = deepest = pos = 0
    found: int | str | None = None
    end = len(line)
    while True:
        pos = _SKIP.match(line, pos).end()  # type: ignore[union-attr]  (it matches the empty string)
        if pos >= end:
            break
        if line[pos] == '"':
            string = _STRING.match(line, pos)
            if string is None:
                break
            if depth == 1 and found is None and string.end() - pos == 4 and line.startswith('"id"', pos):
                found = _request_id(line, string.end())
            pos = string.end()
        elif line[pos] in "[{":
            run = _OPENS.match(line, pos).end()  # type: ignore[union-attr]
            depth += run - pos
            deepest = max(deepest, depth)
            pos = run
        else:
            run = _CLOSES.match(line, pos).end()  # type: ignore[union-attr]
            depth -= run - pos
            pos = run
    return deepest, found


def screen(line: str) -> WireError | None:
    """None when the SDK can read ``line`` as a JSON-RPC message, else the error to answer it with."""
    import mcp_types  # heavy: the protocol types, ~0.3 s; loaded by the server by the time a line arrives

    deepest, found = scan(line)
    if deepest > MAX_DEPTH:
        code = INVALID_PARAMS if found is not None else INVALID_REQUEST
        return WireError(found, code, f"the message nests deeper than {MAX_DEPTH} levels")
    try:
        mcp_types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except Exception:  # the SDK's parser says no; which error is it?
        try:
            json.loads(line)
        except (ValueError, RecursionError):
            return WireError(None, PARSE_ERROR, "not JSON: each line must be one JSON-RPC message")
        return WireError(found, INVALID_REQUEST, "not a JSON-RPC 2.0 request, notification or response")
    return None


class ScreenedLines:
    """Lines of ``source`` (an async iterable of text lines, as the SDK's stdio transport reads them)
    that the SDK can read; each other line's :class:`WireError` goes to ``errors`` (closed at the end)."""

    def __init__(self, source: Any, errors: Any) -> None:
        self._source = source
        self._errors = errors

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        async with self._errors:
            async for line in self._source:
                if not line.strip():
                    continue
                refused = screen(line)
                if refused is None:
                    yield line
                else:
                    await self._errors.send(refused)
