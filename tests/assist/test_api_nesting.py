"""A REST body nested 100,000 deep (issue 11, F7): a 400 with a one-line reason, never a 500 with a
traceback in the server's log; a body nested just a little too deep for any tool is refused the same way."""

from __future__ import annotations

import logging

import pytest

from core.paths import HomePaths
from tests.helpers.api import running_api
from tests.helpers.vault import make_vault


@pytest.mark.parametrize(("raw", "why"), [
    (b"[" * 100_000 + b"]" * 100_000, "the JSON parser's own recursion limit"),
    (b'{"query": "x", "limit": ' + b"[" * 40 + b"]" * 40 + b"}", "parsed, but deeper than any tool's arguments"),
], ids=["100k-deep", "40-deep"])
def test_a_deeply_nested_body_gets_a_one_line_400(paths: HomePaths, monkeypatch: pytest.MonkeyPatch,
                                                   caplog: pytest.LogCaptureFixture, raw: bytes, why: str) -> None:
    make_vault(paths)
    with caplog.at_level(logging.DEBUG), running_api(paths, monkeypatch, profile="default") as api:
        status, headers, answer = api.call("POST", "/v1/recall", raw=raw,
                                           headers={"Content-Type": "application/json"})
        assert (status, answer["error"]) == (400, "body: nested deeper than 32 levels"), why
        assert headers["content-type"] == "application/json"
        status, _, _ = api.call("POST", "/v1/recall", {"query": "still answering"})
        assert status == 200
    assert "Traceback" not in caplog.text and "RecursionError" not in caplog.text
