"""A running REST API over a test home, and a small HTTP client (this module holds no tests)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from core.config import load_config
from core.paths import HomePaths
from tests.helpers.vault import PASSPHRASE
from tui_app.api.serve import make_server
from tui_app.api.token import ensure_token


@dataclass
class Api:
    url: str
    token: str

    def call(self, method: str, path: str, body: Any = None, *, token: str | None = None,
             headers: dict[str, str] | None = None, raw: bytes | None = None) -> tuple[int, dict[str, str], Any]:
        sent = {"Authorization": f"Bearer {self.token if token is None else token}"} if token != "" else {}
        data = raw
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            sent["Content-Type"] = "application/json"
        sent.update(headers or {})
        request = urllib.request.Request(self.url + path, data=data, method=method, headers=sent)
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        try:
            with opener.open(request, timeout=30) as response:
                status, head, payload = response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as exc:
            status, head, payload = exc.code, dict(exc.headers), exc.read()
        return status, {k.lower(): v for k, v in head.items()}, json.loads(payload) if payload else None


@contextmanager
def running_api(paths: HomePaths, monkeypatch: pytest.MonkeyPatch, profile: str = "claude") -> Iterator[Api]:
    """The API on 127.0.0.1 (a free port) in a thread; stopped and joined on exit."""
    monkeypatch.setenv("REVERIE_PASSPHRASE", PASSPHRASE)
    token, _ = ensure_token(paths)
    server = make_server(paths, load_config(paths.config), profile=profile, port=0)
    thread = threading.Thread(target=server.run, name="reverie-api-test", daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            server.stop()
            raise RuntimeError("the API did not start")
        time.sleep(0.02)
    try:
        yield Api(server.url, token)
    finally:
        server.stop()
        thread.join(timeout=20)
        assert not thread.is_alive(), "the API server did not stop"


ROOT = Path(__file__).resolve().parents[2]


def reverie(*args: str, passphrase: str | None = PASSPHRASE) -> subprocess.CompletedProcess:
    """`reverie ARGS` as a real process from the repository, with the test vault's passphrase in its
    environment (none at all when ``passphrase`` is None) and an empty stdin."""
    env = {k: v for k, v in os.environ.items() if k != "REVERIE_PASSPHRASE"}
    if passphrase is not None:
        env["REVERIE_PASSPHRASE"] = passphrase
    return subprocess.run([sys.executable, "-m", "tui_app.cli.main", *args], capture_output=True, text=True,
                          env=env, input="", timeout=60, cwd=ROOT)
