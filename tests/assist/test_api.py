"""`reverie api`: loopback only, a bearer token on every request, the same read-and-propose surface
as MCP through the sharing profile, JSON errors of one line, and the OpenAPI document kept in the
repository equal to what the server serves."""

from __future__ import annotations

import json
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.config import load_config
from core.paths import HomePaths
from tests.helpers.api import Api, reverie, running_api
from tests.helpers.sharing_world import PRIVATE_SECRETS, World, build_world
from tests.helpers.vault import PASSPHRASE
from tui_app.api.openapi import openapi_json
from tui_app.api.serve import ApiError, check_host, make_server
from tui_app.api.token import ensure_token, read_token, token_matches, token_path

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def world(paths: HomePaths) -> World:
    return build_world(paths)


@pytest.fixture
def api(world: World, monkeypatch: pytest.MonkeyPatch) -> Iterator[Api]:
    with running_api(world.paths, monkeypatch) as running:
        yield running


def test_the_token_is_created_once_stored_0600_and_rotated(paths: HomePaths) -> None:
    first = reverie("api", "token")
    assert first.returncode == 0 and "new API token stored in" in first.stderr
    token = first.stdout.strip()
    path = token_path(paths)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and read_token(paths) == token and len(token) >= 40
    again = reverie("api", "token", "--json")
    assert json.loads(again.stdout) == {"token": token, "path": str(path), "created": False}
    rotated = reverie("api", "token", "--rotate").stdout.strip()
    assert rotated != token and read_token(paths) == rotated


def test_token_comparison() -> None:
    assert token_matches("abc", "Bearer abc") and token_matches("abc", "bearer  abc ")
    assert not token_matches("abc", "Bearer abd") and not token_matches("abc", "Basic abc")
    assert not token_matches("abc", None) and not token_matches("abc", "Bearer \udcff")


def test_every_request_needs_the_token(api: Api) -> None:
    for method, path, body in (("POST", "/v1/recall", {"query": "Niseko"}), ("GET", "/v1/where-are-we", None),
                               ("GET", "/v1/openapi.json", None), ("GET", "/nowhere", None)):
        for token in ("", "wrong-token-" + "x" * 30):
            status, headers, answer = api.call(method, path, body, token=token)
            assert status == 401 and headers["www-authenticate"] == "Bearer"
            assert answer == {"error": "Authorization: missing or wrong bearer token (see `reverie api token`)"}


def test_a_foreign_host_header_is_refused(api: Api) -> None:
    status, _, answer = api.call("GET", "/v1/where-are-we", headers={"Host": "evil.example:8765"})
    assert status == 400 and answer["error"].startswith("Host: 'evil.example:8765' is not a loopback name")
    assert api.call("GET", "/v1/where-are-we", headers={"Host": "localhost:1"})[0] == 200


def test_reads_go_through_the_profile(api: Api) -> None:
    status, _, answer = api.call("POST", "/v1/recall", {"query": "Niseko last Tuesday",
                                                        "now": "2026-11-29T15:00:00Z"})
    assert status == 200 and answer["profile"] == "claude" and answer["range"]["grain"] == "day"
    assert answer["mode"] == "exact" and all(r["reviewed"] is False for r in answer["results"])
    for query in ("Niseko", "surprise party SECRETPARTY", "diary DIARYSECRET"):
        _, _, found = api.call("POST", "/v1/recall", {"query": query, "limit": 50})
        _, _, block = api.call("POST", "/v1/context", {"query": query})
        dumped = json.dumps([found, block])
        assert not any(secret in dumped for secret in PRIVATE_SECRETS) and "9000 yen" not in dumped
    status, _, where = api.call("GET", "/v1/where-are-we")
    assert status == 200 and where["markers"][0]["text"] == "planning the Niseko ski trip"


def test_proposals_carry_the_clients_name(api: Api, world: World) -> None:
    status, _, made = api.call("POST", "/v1/drafts", {"content": "Powder day in Niseko", "tags": ["travel"]},
                               headers={"X-Reverie-Client": "raycast/1.2"})
    assert status == 201 and made["created_by"] == "api:raycast" and made["state"] == "open"
    status, _, added = api.call("POST", "/v1/suggestions", {"draft_id": made["draft_id"], "field": "occurred_at",
                                                            "value": "2026-11-24T10:00:00+09:00", "confidence": 0.8})
    assert status == 201 and added["source"] == "api:assistant" and added["confidence"] == 0.8
    stored = world.vault.get_draft(made["draft_id"])
    assert stored.created_by == "api:raycast" and stored.suggestions[0].process_version == "raycast 1.2"
    assert stored.state == "open" and not stored.decisions


@pytest.mark.parametrize(("method", "path", "kwargs", "status", "message"), [
    ("POST", "/v1/recall", {"raw": b"{not json", "headers": {"Content-Type": "application/json"}}, 400,
     "body: not valid JSON"),
    ("POST", "/v1/recall", {"raw": b"query=x", "headers": {"Content-Type": "text/plain"}}, 415,
     "Content-Type: must be application/json"),
    ("POST", "/v1/recall", {"body": ["Niseko"]}, 400, "arguments: must be a JSON object"),
    ("POST", "/v1/recall", {"body": {"query": "x", "limit": "5"}}, 400, "limit: must be an integer"),
    ("POST", "/v1/recall", {"body": {"query": "x" * 2001}}, 400, "query: must be at most 2,000 characters"),
    ("POST", "/v1/context", {"body": {"budget": 0}}, 400, "budget: must be an integer from 1 to 100000"),
    ("POST", "/v1/drafts", {"body": {"content": "   "}}, 400, "content: must not be blank"),
    ("POST", "/v1/drafts", {"body": {"content": "x", "suggestions": [{"field": "review", "value": 1}]}}, 400,
     "suggestions[0].field: 'review' is reserved"),
    ("POST", "/v1/drafts", {"body": {"content": "x", "tags": ["ok", ""]}}, 400, "tags[1]: must not be empty"),
    ("POST", "/v1/suggestions", {"body": {"draft_id": "draft_nope", "field": "title", "value": "x"}}, 404,
     "draft_id: no draft 'draft_nope'"),
    ("POST", "/v1/drafts", {"body": {"content": "x"}, "headers": {"X-Reverie-Client": "bad\tname"}}, 400,
     "X-Reverie-Client: must be a name and version"),
    ("POST", "/v1/recall", {"raw": b"{" + b" " * (1024 * 1024) + b"}",
                            "headers": {"Content-Type": "application/json"}}, 413, "body: larger than 1,048,576 bytes"),
    ("GET", "/v1/recall", {}, 405, "method not allowed"),
    ("GET", "/v2/anything", {}, 404, "no such endpoint"),
])
def test_bad_requests_get_one_line_json_errors(api: Api, method: str, path: str, kwargs: dict, status: int,
                                               message: str) -> None:
    got, headers, answer = api.call(method, path, **kwargs)
    assert got == status and answer["error"].startswith(message) and "\n" not in answer["error"]
    assert headers["content-type"] == "application/json"


@pytest.mark.parametrize("size", [3 * 1024 * 1024, 12 * 1024 * 1024])
def test_an_oversized_body_sent_in_chunks_gets_its_413(api: Api, size: int) -> None:
    """Without a Content-Length the refusal comes mid-body; the rest is read and dropped, so the client
    still sending gets the answer rather than a reset connection."""
    import http.client
    from urllib.parse import urlsplit

    where = urlsplit(api.url)
    connection = http.client.HTTPConnection(where.hostname, where.port, timeout=30)
    chunks = (b"x" * 65536 for _ in range(size // 65536))
    connection.request("POST", "/v1/recall", body=chunks, encode_chunked=True,
                       headers={"Authorization": f"Bearer {api.token}", "Content-Type": "application/json"})
    response = connection.getresponse()
    assert response.status == 413
    assert json.loads(response.read())["error"] == "body: larger than 1,048,576 bytes"
    connection.close()


def test_a_draft_that_is_not_open_takes_no_suggestion(api: Api, world: World) -> None:
    _, _, made = api.call("POST", "/v1/drafts", {"content": "A memory to approve"})
    world.vault.save_draft(world.vault.get_draft(made["draft_id"]).approve(reviewer="me"))
    status, _, answer = api.call("POST", "/v1/suggestions", {"draft_id": made["draft_id"], "field": "title",
                                                             "value": "x"})
    assert status == 409 and "is approved; only open drafts take suggestions" in answer["error"]


def test_the_openapi_document_in_the_repository_is_what_is_served(api: Api) -> None:
    status, _, served = api.call("GET", "/v1/openapi.json")
    kept = (ROOT / "openapi.json").read_text(encoding="utf-8")
    assert status == 200 and json.loads(kept) == served
    assert kept == openapi_json(), "openapi.json is stale: python -m tui_app.api.openapi > openapi.json"


def test_only_loopback_is_served(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    for host in ("0.0.0.0", "192.168.1.20", "example.com", "::"):
        with pytest.raises(ApiError, match="is not a loopback address"):
            check_host(host)
    assert check_host("localhost") == "127.0.0.1" and check_host("::1") == "::1"
    monkeypatch.setenv("REVERIE_PASSPHRASE", PASSPHRASE)
    ensure_token(world.paths)
    with pytest.raises(ApiError, match=r"--host: '0\.0\.0\.0' is not a loopback address"):
        make_server(world.paths, load_config(world.paths.config), host="0.0.0.0")
    refused = reverie("api", "--host", "0.0.0.0")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "loopback" in refused.stderr


def test_without_a_token_the_api_does_not_start(world: World) -> None:
    result = reverie("api", "--port", "0")
    assert result.returncode == 2 and "run `reverie api token` first" in result.stderr


def test_over_a_limit_the_answer_is_429_with_retry_after(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    with world.paths.config.open("a", encoding="utf-8") as handle:
        handle.write("\n[assistants]\nproposals_per_hour = 2\nsuggestions_per_draft = 1\n")
    client = {"X-Reverie-Client": "raycast/1.2"}
    with running_api(world.paths, monkeypatch) as api:
        made = [api.call("POST", "/v1/drafts", {"content": f"note {i}"}, headers=client) for i in range(2)]
        assert [status for status, _, _ in made] == [201, 201]
        before = sorted(p.name for p in world.paths.drafts.iterdir())
        status, headers, answer = api.call("POST", "/v1/drafts", {"content": "one too many"}, headers=client)
        assert status == 429 and 3500 <= int(headers["retry-after"]) <= 3600
        assert answer["error"].startswith("proposals_per_hour limit: api:raycast proposed 2 drafts in the last "
                                          "hour (at most 2); the next fits at ")
        assert {k: answer[k] for k in ("limit", "count", "max")} == {"limit": "proposals_per_hour", "count": 2,
                                                                     "max": 2}
        assert answer["retry_after"] == int(headers["retry-after"]) and answer["resets_at"].endswith("Z")
        assert list(answer) == ["error", "limit", "count", "max", "resets_at", "retry_after"]
        assert sorted(p.name for p in world.paths.drafts.iterdir()) == before  # nothing written
        assert api.call("POST", "/v1/drafts", {"content": "another client"})[0] == 201  # per assistant

        draft_id = made[0][2]["draft_id"]
        assert api.call("POST", "/v1/suggestions", {"draft_id": draft_id, "field": "title", "value": "x"})[0] == 201
        status, headers, answer = api.call("POST", "/v1/suggestions", {"draft_id": draft_id, "field": "mood",
                                                                       "value": "calm"})
        assert status == 409 and "retry-after" not in headers and answer["limit"] == "suggestions_per_draft"
