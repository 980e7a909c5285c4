"""The assistant surface's JSON Schemas, written once: MCP tool input and output schemas, and the
REST API's request and response bodies in its OpenAPI document (``tui_app/api/openapi.py``, which
builds ``openapi.json`` from them), are these dicts.

:func:`check` validates arguments against an input schema with ``jsonschema_rs`` (a JSON Schema
2020-12 validator in Rust, far cheaper to import than ``jsonschema``: tests/bench/README.md) and turns
the first error into :class:`ArgumentError` with one line that names the field (``limit: must be an
integer from 1 to 100, got 0``). JSON Schema cannot say two things checked here by hand: strings may
not hold lone surrogates (they cannot be stored as UTF-8) and numbers must be finite.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from core.errors import ReverieError
from core.timeparse import GRAINS

MAX_QUERY = 2000
MAX_CONTENT = 20000
MAX_VALUE_JSON = 20000
MAX_TAGS = 32
MAX_SUGGESTIONS = 32
MAX_LIMIT = 100
MAX_BUDGET = 100_000
FIELD_PATTERN = "^[a-z][a-z0-9_]{0,63}$"
ID_PATTERN = "^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$"
TIME_PATTERN = (
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}([.][0-9]{1,9})?)?)?(Z|[+-][0-9]{2}:?[0-9]{2})?$"
)


class ArgumentError(ReverieError):
    """An argument does not fit its schema; the message names the field."""


_TAG = {"type": "string", "minLength": 1, "maxLength": 64, "description": "A tag."}
_CONFIDENCE = {"type": "number", "minimum": 0, "maximum": 1, "description": "How sure the assistant is, 0 to 1."}
_NAME = {"type": "string", "minLength": 1, "maxLength": 200}

RECALL_INPUT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "minLength": 1, "maxLength": MAX_QUERY,
                  "description": "What to find. A time expression in it (\"last Tuesday night\", \"지난주 화요일\", "
                                 "\"先週\", \"2026-11-03\") bounds the search to that range; the rest is ranked."},
        "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT,
                  "description": "At most this many results (the sharing profile may allow fewer)."},
        "now": {"type": "string", "pattern": TIME_PATTERN,
                "description": "Search as if it were this ISO-8601 time (default: now; without an offset, the "
                               "person's timezone)."},
    },
    "required": ["query"],
    "additionalProperties": False,
}

NO_INPUT: dict[str, Any] = {"type": "object", "properties": {}, "additionalProperties": False}

CONTEXT_INPUT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "maxLength": MAX_QUERY,
                  "description": "What the block should be about (default: the latest of everything)."},
        "budget": {"type": "integer", "minimum": 1, "maximum": MAX_BUDGET,
                   "description": "Token budget (default: context.budget; never more than the profile's max_tokens)."},
    },
    "additionalProperties": False,
}

SUGGESTION_ITEM: dict[str, Any] = {
    "type": "object",
    "properties": {
        "field": {"type": "string", "pattern": FIELD_PATTERN,
                  "description": "occurred_at (ISO-8601 time), tags or people (lists of strings), title, location, "
                                 "mood, content (text), or another lowercase field name."},
        "value": {"description": "The suggested value (any JSON, checked against the field)."},
        "confidence": _CONFIDENCE,
        "model": {**_NAME, "description": "The model that produced the suggestion."},
        "process_version": {**_NAME, "description": "The version of the prompt or process behind it."},
    },
    "required": ["field", "value"],
    "additionalProperties": False,
}

PROPOSE_INPUT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "content": {"type": "string", "minLength": 1, "maxLength": MAX_CONTENT,
                    "description": "The memory, in the person's words where possible."},
        "tags": {"type": "array", "items": _TAG, "maxItems": MAX_TAGS,
                 "description": "Tags to suggest (attached as one suggestion the person accepts or rejects)."},
        "suggestions": {"type": "array", "items": SUGGESTION_ITEM, "maxItems": MAX_SUGGESTIONS,
                        "description": "Field values to suggest, each with its provenance."},
    },
    "required": ["content"],
    "additionalProperties": False,
}

SUGGEST_INPUT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "draft_id": {"type": "string", "pattern": ID_PATTERN, "description": "An open draft (from propose_memory)."},
        "field": SUGGESTION_ITEM["properties"]["field"],
        "value": SUGGESTION_ITEM["properties"]["value"],
        "confidence": _CONFIDENCE,
    },
    "required": ["draft_id", "field", "value"],
    "additionalProperties": False,
}

_NULLABLE_STRING = {"type": ["string", "null"]}
RANGE: dict[str, Any] = {
    "type": ["object", "null"],
    "properties": {"start": {"type": "string"}, "end": {"type": "string"},
                   "grain": {"type": "string", "enum": list(GRAINS)}},
    "required": ["start", "end", "grain"],
}
ITEM: dict[str, Any] = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "ts": {"type": "string"},
        "text": {"type": "string"},
        "kind": {"type": "string", "enum": ["turn", "memory"]},
        "reviewed": {"type": "boolean", "description": "Approved by the person (turns never are)."},
        "session": _NULLABLE_STRING,
        "actor": _NULLABLE_STRING,
        "role": _NULLABLE_STRING,
        "score": {"type": "number"},
    },
    "required": ["id", "ts", "text", "kind", "reviewed", "score"],
}
MARKER: dict[str, Any] = {
    "type": "object",
    "properties": {"ts": {"type": "string"}, "text": {"type": "string"}, "id": {"type": "string"}},
    "required": ["ts", "text", "id"],
}

RECALL_OUTPUT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "profile": {"type": "string"},
        "range": RANGE,
        "expression": _NULLABLE_STRING,
        "mode": {"type": "string", "enum": ["exact", "semantic", "hybrid"]},
        "note": _NULLABLE_STRING,
        "results": {"type": "array", "items": ITEM},
    },
    "required": ["profile", "range", "expression", "mode", "note", "results"],
}
MARKERS_OUTPUT: dict[str, Any] = {
    "type": "object",
    "properties": {"markers": {"type": "array", "items": MARKER}},
    "required": ["markers"],
}
CONTEXT_OUTPUT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "profile": {"type": "string"},
        "text": {"type": "string"},
        "tokens": {"type": "integer"},
        "budget": {"type": "integer"},
        "markers": {"type": "array", "items": MARKER},
        "memories": {"type": "array", "items": ITEM},
        "turns": {"type": "array", "items": ITEM},
        "mode": {"type": ["string", "null"]},
    },
    "required": ["profile", "text", "tokens", "budget", "markers", "memories", "turns", "mode"],
}
PROPOSE_OUTPUT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "draft_id": {"type": "string"},
        "state": {"type": "string", "enum": ["open"]},
        "created_by": {"type": "string"},
        "suggestions": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["draft_id", "state", "created_by", "suggestions"],
}
SUGGEST_OUTPUT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "draft_id": {"type": "string"},
        "suggestion_id": {"type": "string"},
        "field": {"type": "string"},
        "value": {},
        "source": {"type": "string"},
        "model": _NULLABLE_STRING,
        "process_version": _NULLABLE_STRING,
        "confidence": {"type": ["number", "null"]},
    },
    "required": ["draft_id", "suggestion_id", "field", "value", "source", "model", "process_version", "confidence"],
}
ERROR_OUTPUT: dict[str, Any] = {
    "type": "object",
    "properties": {"error": {"type": "string", "description": "One line naming the field or the problem."}},
    "required": ["error"],
}
LIMIT_ERROR_OUTPUT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "error": {"type": "string", "description": "One line: which limit, the current count, when it frees up."},
        "limit": {"type": "string", "enum": ["proposals_per_hour", "open_proposals", "suggestions_per_draft"],
                  "description": "The setting of [assistants] in config.toml that was reached."},
        "count": {"type": "integer", "description": "How many there are now."},
        "max": {"type": "integer", "description": "The limit (0: the person turned this off)."},
        "resets_at": {"type": ["string", "null"],
                      "description": "When the next one fits (UTC), for proposals_per_hour; null otherwise."},
        "retry_after": {"type": ["integer", "null"],
                        "description": "Seconds to wait (as in the Retry-After header); null: waiting does not "
                                       "help."},
    },
    "required": ["error", "limit", "count", "max", "resets_at", "retry_after"],
}

_ARTICLE = {"integer": "an integer", "array": "a list", "object": "an object", "null": "null"}
_SURROGATE = re.compile(r"[\ud800-\udfff]")
# When several things are wrong at one place, the first named is the one a person fixes first.
_PRIORITY = {"type": 0, "additionalProperties": 2, "required": 3}


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=True, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


def _where(path: str) -> str:
    return path or "arguments"


def _check_strings(value: Any, path: str) -> None:
    """No lone surrogates anywhere (they cannot be stored as UTF-8); no NaN or infinity."""
    if isinstance(value, str):
        if _SURROGATE.search(value):
            raise ArgumentError(f"{_where(path)}: contains a lone surrogate (not valid Unicode text)")
    elif isinstance(value, float) and not math.isfinite(value):
        raise ArgumentError(f"{_where(path)}: must be a finite number")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_strings(item, f"{path}[{i}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_strings(key, path)
            _check_strings(item, f"{path}.{key}" if path else str(key))


def _validator(schema: dict[str, Any]) -> Any:
    import jsonschema_rs  # lazy: 15-60 ms with the stdlib modules it loads; `reverie mcp` starts before any call

    key = id(schema)
    found = _VALIDATORS.get(key)
    if found is None or found[0] is not schema:
        found = _VALIDATORS[key] = (schema, jsonschema_rs.validator_for(schema))
    return found[1]


_VALIDATORS: dict[int, tuple[dict[str, Any], Any]] = {}


def _at(schema: dict[str, Any], steps: list[Any]) -> dict[str, Any]:
    """The part of a JSON Schema (a JSON document, published as it is) at ``steps``."""
    for step in steps:
        schema = schema[step]
    return schema


def _path(steps: list[Any]) -> str:
    path = ""
    for step in steps:
        path += f"[{step}]" if isinstance(step, int) else (f".{step}" if path else str(step))
    return path


def _value_at(value: Any, steps: list[Any]) -> Any:
    for step in steps:
        value = value[step]
    return value


def _order(arguments: Any, error: Any) -> tuple[Any, ...]:
    """Where an error sits in a walk of the arguments in their own order, then what kind it is."""
    positions, value = [], arguments
    for step in error.instance_path:
        positions.append(step if isinstance(step, int) else list(value).index(step))
        value = value[step]
    keyword = error.schema_path[-1] if error.schema_path else ""
    return (*positions, -1, _PRIORITY.get(keyword, 1))


def _message(schema: dict[str, Any], arguments: Any, error: Any) -> str:
    """The one line for a ``jsonschema_rs`` error, from the keyword that failed and its schema."""
    steps, keyword = list(error.schema_path[:-1]), error.schema_path[-1]
    rule, where = _at(schema, steps), _where(_path(list(error.instance_path)))
    value = _value_at(arguments, list(error.instance_path))
    if keyword == "type":
        names = rule["type"] if isinstance(rule["type"], list) else [rule["type"]]
        described = " or ".join(_ARTICLE.get(n, f"a {n}") for n in names)
        return f"{where}: must be {described}, got {_show(value)}"
    if keyword == "minLength":
        low = rule["minLength"]
        return f"{where}: must not be empty" if low == 1 else f"{where}: must be at least {low} characters"
    if keyword == "maxLength":
        return f"{where}: must be at most {rule['maxLength']:,} characters, got {len(value):,}"
    if keyword == "pattern":
        return f"{where}: {_show(value)} is not in the expected form ({rule['pattern']})"
    if keyword in ("minimum", "maximum"):
        kind = "an integer" if rule.get("type") == "integer" else "a number"
        return f"{where}: must be {kind} from {rule.get('minimum')} to {rule.get('maximum')}, got {_show(value)}"
    if keyword == "minItems":
        return f"{where}: must hold at least {rule['minItems']} items"
    if keyword == "maxItems":
        return f"{where}: must hold at most {rule['maxItems']} items, got {len(value)}"
    if keyword == "enum":
        return f"{where}: must be one of {', '.join(map(str, rule['enum']))}"
    if keyword == "additionalProperties":
        props = rule.get("properties", {})
        unknown = sorted(set(value) - set(props))[0]
        field = f"{where}.{unknown}" if error.instance_path else unknown
        return f"{field}: unknown field (known: {', '.join(props) or 'none'})"
    if keyword == "required":
        name = next(n for n in rule["required"] if n not in value)
        return f"{where}.{name}: required" if error.instance_path else f"{name}: required"
    return f"{where}: {' '.join(str(error.message).split())}"


def _integers(schema: dict[str, Any], value: Any) -> Any:
    """Integers given as 5.0 become 5 (JSON Schema counts 5.0 as an integer; Python code should not
    have to)."""
    if isinstance(value, float) and schema.get("type") == "integer":
        return int(value)
    if isinstance(value, list) and "items" in schema:
        return [_integers(schema["items"], item) for item in value]
    if isinstance(value, dict) and "properties" in schema:
        props = schema["properties"]
        return {k: _integers(props[k], v) if k in props else v for k, v in value.items()}
    return value


def check(schema: dict[str, Any], arguments: Any) -> dict[str, Any]:
    """``arguments`` checked against ``schema`` (integers given as 5.0 become 5); one-line
    :class:`ArgumentError` otherwise. The arguments stay a JSON object: each tool reads its own."""
    if not isinstance(arguments, dict):
        raise ArgumentError(f"arguments: must be a JSON object, got {_show(arguments)}")
    _check_strings(arguments, "")
    errors = list(_validator(schema).iter_errors(arguments))
    if errors:
        first = min(errors, key=lambda e: _order(arguments, e))
        raise ArgumentError(_message(schema, arguments, first))
    return _integers(schema, arguments)


def value_size_ok(value: Any, path: str) -> None:
    """A suggested value of any JSON shape, but not a huge one."""
    size = len(json.dumps(value, ensure_ascii=False))
    if size > MAX_VALUE_JSON:
        raise ArgumentError(f"{path}: at most {MAX_VALUE_JSON:,} characters of JSON, got {size:,}")
