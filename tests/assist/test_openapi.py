"""``openapi.json`` is generated from the assistant surface's schemas: the committed file is what the code
writes, every schema in it is valid JSON Schema, and the schemas the REST API documents are the very
objects the MCP tools publish and :func:`core.assist.schemas.check` validates with."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema_rs
import pytest

from core.assist import schemas
from core.assist.schemas import ArgumentError, check
from core.assist.surface import INPUTS, OUTPUTS
from tui_app.api.openapi import ROUTES, openapi_document, openapi_json

ROOT = Path(__file__).resolve().parents[2]


def test_the_committed_document_is_what_the_code_generates() -> None:
    kept = (ROOT / "openapi.json").read_text(encoding="utf-8")
    assert kept == openapi_json(), "openapi.json is stale: python -m tui_app.api.openapi > openapi.json"
    assert json.loads(kept)["openapi"] == "3.1.0"


def test_every_schema_is_valid_json_schema() -> None:
    components = openapi_document()["components"]["schemas"]
    assert components
    for name, schema in components.items():
        assert jsonschema_rs.meta.is_valid(schema), name


def test_the_document_uses_the_surface_schemas_themselves() -> None:
    document = openapi_document()
    components = document["components"]["schemas"]
    for path, method, tool, _, status in ROUTES:
        operation = document["paths"][path][method]
        assert components[f"{tool}_in"] is INPUTS[tool] and components[f"{tool}_out"] is OUTPUTS[tool]
        answer = operation["responses"][str(status)]["content"]["application/json"]["schema"]
        assert answer == {"$ref": f"#/components/schemas/{tool}_out"}
    assert components["Error"] is schemas.ERROR_OUTPUT and set(INPUTS) == {r[2] for r in ROUTES}


@pytest.mark.parametrize(("tool", "arguments"), [
    ("recall", {"query": "Niseko", "limit": 5.0}),
    ("where_are_we", {}),
    ("context", {"query": "ski", "budget": 500}),
    ("propose_memory", {"content": "Skiing in Niseko", "tags": ["ski"],
                        "suggestions": [{"field": "people", "value": ["Kate"], "confidence": 0.5}]}),
    ("suggest", {"draft_id": "draft_0123", "field": "title", "value": "Niseko"}),
])
def test_what_the_document_allows_the_validator_accepts(tool: str, arguments: dict) -> None:
    assert jsonschema_rs.validator_for(INPUTS[tool]).is_valid(arguments)
    checked = check(INPUTS[tool], arguments)
    assert checked == arguments and all(type(v) is int for k, v in checked.items() if k in ("limit", "budget"))
    with pytest.raises(ArgumentError, match=r"^surprise: unknown field \(known: "):
        check(INPUTS[tool], {**arguments, "surprise": 1})


@pytest.mark.parametrize(("tool", "arguments", "message"), [
    ("recall", {"limit": 3}, "query: required"),
    ("recall", {"query": "x", "limit": True}, "limit: must be an integer, got true"),
    ("recall", {"query": "x", "limit": 101}, "limit: must be an integer from 1 to 100, got 101"),
    ("propose_memory", {"content": "x", "suggestions": [{"field": "Title", "value": 1}]},
     "suggestions[0].field: \"Title\" is not in the expected form"),
    ("propose_memory", {"content": "x", "suggestions": [{"field": "title"}]}, "suggestions[0].value: required"),
    ("propose_memory", {"content": "x", "suggestions": [{"field": "title", "value": 1, "confidence": 2}]},
     "suggestions[0].confidence: must be a number from 0 to 1, got 2"),
    ("propose_memory", {"content": "x", "tags": ["t"] * 33}, "tags: must hold at most 32 items, got 33"),
    ("propose_memory", {"content": "a\ud800"}, "content: contains a lone surrogate"),
    ("context", {"budget": float("nan")}, "budget: must be a finite number"),
])
def test_bad_arguments_are_one_line_naming_the_field(tool: str, arguments: dict, message: str) -> None:
    with pytest.raises(ArgumentError) as caught:
        check(INPUTS[tool], arguments)
    assert str(caught.value).startswith(message) and "\n" not in str(caught.value)


def test_the_first_problem_in_the_arguments_order_is_named() -> None:
    """Several problems: the one a walk of the arguments meets first (an unknown field before a missing one)."""
    with pytest.raises(ArgumentError, match=r"^bogus: unknown field"):
        check(INPUTS["recall"], {"bogus": 1})
    with pytest.raises(ArgumentError, match=r"^tags\[0\]: must not be empty"):
        check(INPUTS["propose_memory"], {"content": "x", "tags": ["", 5]})
