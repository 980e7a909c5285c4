"""Fixtures of the end-to-end tests: a real sshd and a private tmux server, started once per module.

Every test module here sets ``pytestmark = pytest.mark.e2e``: select them with ``-m e2e``, leave
them out with ``-m "not e2e"``. Where sshd, tmux or Chromium is not installed the tests skip and
say which one is missing; ``.ci/install-e2e-tools`` installs them where apt-get works.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.e2e.remote import SshServer, Tmux, ToolMissing, missing_tools


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "e2e: end to end through a real sshd, tmux or Chromium (skips without them)")


@pytest.fixture(scope="module")
def sshd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SshServer]:
    """sshd on a free 127.0.0.1 port with a throwaway config and keys; stopped by its PID after."""
    missing = missing_tools()
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)} (.ci/install-e2e-tools installs them)")
    try:
        server = SshServer.start(tmp_path_factory.mktemp("sshd"))
    except ToolMissing as exc:
        pytest.skip(str(exc))
    try:
        yield server
    finally:
        server.stop()
        assert server.process.poll() is not None, f"sshd (pid {server.pid}) is still running"


@pytest.fixture(scope="module")
def tmux(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tmux]:
    """A tmux server on a private socket; killed (with every session in it) after the module."""
    try:
        server = Tmux(tmp_path_factory.mktemp("tmux"))
    except ToolMissing as exc:
        pytest.skip(str(exc))
    try:
        yield server
    finally:
        server.kill()
