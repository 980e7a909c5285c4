"""The REST API's OpenAPI 3.1 document, generated from the same schemas as the MCP tools.

Request and response bodies are the very schema objects of :mod:`core.assist.schemas` (the ones
``check`` validates arguments with and the MCP tools publish) and the paths are :data:`ROUTES`, from
which the REST app builds its routes, so the document cannot say something the code does not do.
``openapi.json`` at the repository root is this document: ``tests/assist/test_openapi.py`` fails when the
committed file differs from what this module generates (regenerate it with
``python -m tui_app.api.openapi > openapi.json``), and ``tests/assist/test_api.py`` checks that the server
serves it.
"""

from __future__ import annotations

import json
from typing import Any

from core.assist import schemas
from core.assist.surface import INPUTS, OUTPUTS

API_VERSION = "1.0.0"
CLIENT_HEADER = "X-Reverie-Client"
CLIENT_PATTERN = "^[A-Za-z0-9._ /-]{1,64}$"

# path, method, tool, summary, success status
ROUTES: tuple[tuple[str, str, str, str, int], ...] = (
    ("/v1/recall", "post", "recall", "Search conversations and memories (through the sharing profile)", 200),
    ("/v1/where-are-we", "get", "where_are_we", "The latest topic markers, latest first", 200),
    ("/v1/context", "post", "context", "A context block for a model's prompt (through the sharing profile)", 200),
    ("/v1/drafts", "post", "propose_memory", "Propose a memory: a new draft in the person's review queue", 201),
    ("/v1/suggestions", "post", "suggest", "Add a suggestion to an open draft", 201),
)
ERRORS = {
    "400": "A bad argument or body (the message names the field)",
    "401": "Missing or wrong bearer token",
    "403": "The person turned proposals or suggestions from assistants off ([assistants] in config.toml)",
    "404": "No such draft",
    "409": "The draft is not open, or would hold more suggestions from assistants than suggestions_per_draft",
    "413": "The body is too large",
    "415": "The body is not JSON",
    "429": "Too many proposals: proposals_per_hour (per assistant) or open_proposals (all assistants) was reached "
           "and nothing was written; Retry-After says when to try again",
}
LIMITED = frozenset({"403", "429"})  # answered with a LimitError body


def _error(description: str, code: str = "") -> dict[str, Any]:
    """A response object of the OpenAPI document (a JSON document, kept byte for byte in the repository)."""
    schema = "LimitError" if code in LIMITED else "Error"
    answer: dict[str, Any] = {"description": description,
                              "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}}}
    if code == "429":
        answer["headers"] = {"Retry-After": {
            "description": "Seconds until the next proposal may fit.", "required": True,
            "schema": {"type": "integer", "minimum": 1}}}
    return answer


def _operation(tool: str, summary: str, status: int, method: str) -> dict[str, Any]:
    """An operation object of the OpenAPI document (a JSON document, kept byte for byte in the repository)."""
    codes = ["400", "401"] if method == "get" else ["400", "401", "413", "415"]
    if tool == "suggest":
        codes += ["403", "404", "409"]
    if tool == "propose_memory":
        codes += ["403", "409", "429"]
    op: dict[str, Any] = {
        "operationId": tool,
        "summary": summary,
        "parameters": [{
            "name": CLIENT_HEADER, "in": "header", "required": False,
            "description": "The calling tool's name and version (recorded as provenance on drafts and suggestions).",
            "schema": {"type": "string", "pattern": CLIENT_PATTERN},
        }],
        "responses": {
            str(status): {"description": "OK",
                          "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{tool}_out"}}}},
            **{code: _error(ERRORS[code], code) for code in sorted(codes)},
        },
    }
    if method == "post":
        op["requestBody"] = {"required": True,
                             "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{tool}_in"}}}}
    return op


def openapi_document() -> dict[str, Any]:
    """The OpenAPI document: a JSON document served and kept byte for byte in the repository."""
    paths: dict[str, Any] = {}
    for path, method, tool, summary, status in ROUTES:
        paths.setdefault(path, {})[method] = _operation(tool, summary, status, method)
    components: dict[str, Any] = {"Error": schemas.ERROR_OUTPUT, "LimitError": schemas.LIMIT_ERROR_OUTPUT}
    for tool in INPUTS:
        components[f"{tool}_in"] = INPUTS[tool]
        components[f"{tool}_out"] = OUTPUTS[tool]
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Reverie local API",
            "version": API_VERSION,
            "description": "The read-and-propose surface of Reverie for tools that do not speak MCP. Served on "
                           "127.0.0.1 only; every request carries the bearer token from `reverie api token`. "
                           "Reads pass the sharing profile the server was started with; writes only create "
                           "drafts and suggestions, which the person reviews. Proposals are limited (by "
                           "default 20 new drafts an hour per client, 50 drafts from assistants awaiting review, "
                           "50 suggestions from assistants per draft; see [assistants] in config.toml): over a "
                           "limit the answer is 429 with Retry-After and nothing is written.",
        },
        "servers": [{"url": "http://127.0.0.1:8765"}],
        "security": [{"bearer": []}],
        "paths": paths,
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": components,
        },
    }


def openapi_json() -> str:
    """The document as kept in the repository: sorted keys, two-space indent, trailing newline."""
    return json.dumps(openapi_document(), ensure_ascii=False, indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":
    print(openapi_json(), end="")
