"""Schemathesis against the running REST API, from the OpenAPI document kept in the repository:
generated valid and invalid requests for every operation (a bounded number, so it stays fast), each
response checked against the document (status codes, content types, bodies) and for server errors,
ignored authentication and unsupported methods; invalid data must be rejected with a 4xx."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from core.config import load_config
from core.paths import HomePaths
from core.vault.crypto import unlock
from tests.helpers.api import Api
from tests.helpers.sharing_world import build_world
from tests.helpers.vault import PASSPHRASE
from tui_app.api.serve import make_server
from tui_app.api.token import ensure_token

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = schemathesis.openapi.from_path(ROOT / "openapi.json")
EXAMPLES = 25  # per operation and generation mode


@pytest.fixture(scope="module")
def live_api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    root = tmp_path_factory.mktemp("api-schemathesis")
    paths = HomePaths(root=root / "home", cache=root / "cache")
    build_world(paths)
    token, _ = ensure_token(paths)
    keys = unlock(paths.vault_header, PASSPHRASE)
    server = make_server(paths, load_config(paths.config), keys=lambda: keys, profile="claude", port=0)
    thread = threading.Thread(target=server.run, name="reverie-api-schemathesis", daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.server.started and time.monotonic() < deadline and thread.is_alive():
        time.sleep(0.02)
    try:
        yield Api(server.url, token)
    finally:
        server.stop()
        thread.join(timeout=20)
        assert not thread.is_alive(), "the API server did not stop"


@SCHEMA.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.filter_too_much])
def test_the_api_keeps_to_its_openapi_document(case: schemathesis.Case, live_api: Api) -> None:
    # Every check but positive_data_acceptance: a suggested value is checked against its field's rules
    # (occurred_at must be a time, tags a list of text), which the document states in words and as a
    # documented 400, not in JSON Schema; so a schema-valid body may rightly be refused.
    case.call_and_validate(base_url=live_api.url, headers={"Authorization": f"Bearer {live_api.token}"},
                           excluded_checks=[positive_data_acceptance])
