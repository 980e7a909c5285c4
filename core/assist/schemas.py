"""The assistant surface's JSON Schemas, written once: MCP tool input and output schemas, and the
REST API's request and response bodies in its OpenAPI document, are these dicts.

:func:`check` validates arguments against an input schema and raises :class:`ArgumentError` with one
line that names the field (``limit: must be an integer from 1 to 100, got 0``). It covers the
subset of JSON Schema used here: ``type`` (one or several), ``enum``, ``minLength``/``maxLength``,
``pattern``, ``minimum``/``maximum``, ``items``/``minItems``/``maxItems``, ``properties``/``required``/
``additionalProperties: false``. Strings may not hold lone surrogates; numbers must be finite.
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

def _is_integer(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and math.isfinite(value) and value.is_integer())


_JSON_TYPES = {
    "string": lambda v: isinstance(v, str),
    "integer": _is_integer,
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
    "null": lambda v: v is None,
}
_ARTICLE = {"integer": "an integer", "array": "a list", "object": "an object"}
_SURROGATE = re.compile(r"[\ud800-\udfff]")


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


def _type_ok(schema: dict[str, Any], value: Any, path: str) -> None:
    wanted = schema.get("type")
    if wanted is None:
        return
    names = wanted if isinstance(wanted, list) else [wanted]
    if not any(_JSON_TYPES[name](value) for name in names):
        described = " or ".join(_ARTICLE.get(n, f"a {n}" if n != "null" else "null") for n in names)
        raise ArgumentError(f"{_where(path)}: must be {described}, got {_show(value)}")


def _bounds(schema: dict[str, Any], value: Any, path: str) -> None:
    if isinstance(value, str):
        low, high = schema.get("minLength"), schema.get("maxLength")
        if low is not None and len(value) < low:
            raise ArgumentError(f"{_where(path)}: must not be empty" if low == 1
                                else f"{_where(path)}: must be at least {low} characters")
        if high is not None and len(value) > high:
            raise ArgumentError(f"{_where(path)}: must be at most {high:,} characters, got {len(value):,}")
        pattern = schema.get("pattern")
        if pattern is not None and not re.search(pattern, value):
            raise ArgumentError(f"{_where(path)}: {_show(value)} is not in the expected form ({pattern})")
    elif isinstance(value, int | float) and not isinstance(value, bool):
        low, high = schema.get("minimum"), schema.get("maximum")
        if (low is not None and value < low) or (high is not None and value > high):
            kind = "an integer" if schema.get("type") == "integer" else "a number"
            raise ArgumentError(f"{_where(path)}: must be {kind} from {low} to {high}, got {_show(value)}")
    elif isinstance(value, list):
        low, high = schema.get("minItems"), schema.get("maxItems")
        if low is not None and len(value) < low:
            raise ArgumentError(f"{_where(path)}: must hold at least {low} items")
        if high is not None and len(value) > high:
            raise ArgumentError(f"{_where(path)}: must hold at most {high} items, got {len(value)}")
    if "enum" in schema and value not in schema["enum"]:
        raise ArgumentError(f"{_where(path)}: must be one of {', '.join(map(str, schema['enum']))}")


def _walk(schema: dict[str, Any], value: Any, path: str) -> Any:
    _type_ok(schema, value, path)
    _bounds(schema, value, path)
    if isinstance(value, float) and schema.get("type") == "integer":
        return int(value)
    if isinstance(value, list) and "items" in schema:
        return [_walk(schema["items"], item, f"{path}[{i}]") for i, item in enumerate(value)]
    if isinstance(value, dict) and "properties" in schema:
        props = schema["properties"]
        if schema.get("additionalProperties") is False:
            unknown = sorted(set(value) - set(props))
            if unknown:
                field = f"{path}.{unknown[0]}" if path else unknown[0]
                raise ArgumentError(f"{field}: unknown field (known: {', '.join(props) or 'none'})")
        for name in schema.get("required", ()):
            if name not in value:
                raise ArgumentError(f"{f'{path}.{name}' if path else name}: required")
        return {k: _walk(props[k], v, f"{path}.{k}" if path else k) if k in props else v for k, v in value.items()}
    return value


def check(schema: dict[str, Any], arguments: Any) -> dict[str, Any]:
    """``arguments`` checked against ``schema`` (integers given as 5.0 become 5); one-line
    :class:`ArgumentError` otherwise."""
    if not isinstance(arguments, dict):
        raise ArgumentError(f"arguments: must be a JSON object, got {_show(arguments)}")
    _check_strings(arguments, "")
    return _walk(schema, arguments, "")


def value_size_ok(value: Any, path: str) -> None:
    """A suggested value of any JSON shape, but not a huge one."""
    size = len(json.dumps(value, ensure_ascii=False))
    if size > MAX_VALUE_JSON:
        raise ArgumentError(f"{path}: at most {MAX_VALUE_JSON:,} characters of JSON, got {size:,}")
