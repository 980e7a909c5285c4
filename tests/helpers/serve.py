"""The real ``reverie serve`` in a subprocess, for the tests of what the server refuses (this module holds
no tests; ``tests/assist/conftest.py`` makes it the ``served`` fixture)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from core.config import Config, load_config, save_config
from core.demo.build import DemoHome, build_demo_home


@contextmanager
def running_serve(folder: Path, configure: Callable[[Config], None] | None = None) -> Iterator[tuple[DemoHome, int]]:
    """``reverie serve`` over a demo home built in ``folder`` (its settings changed by ``configure``),
    on a free loopback port, started with REVERIE_PASSPHRASE in its environment; stopped on leaving."""
    home = build_demo_home(folder / "demo")
    if configure is not None:
        config = load_config(home.paths.config)
        configure(config)
        save_config(home.paths.config, config)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-m", "tui_app.cli.main", "--home", str(home.paths.root), "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "REVERIE_PASSPHRASE": home.passphrase},
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield home, port
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        assert process.stderr is not None
        process.stderr.close()
