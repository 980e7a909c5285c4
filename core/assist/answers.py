"""What each tool of the assistant surface answers, as typed results: the JSON objects MCP and the
REST API send are their msgspec forms, keys in declared order (:data:`core.assist.surface.OUTPUTS`
holds the JSON Schemas published for them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

if TYPE_CHECKING:
    from core.recall.model import ItemForm
    from core.topics import Marker


class RecallAnswer(msgspec.Struct, frozen=True):
    """``recall``: the profile the answer passed, then the shared recall answer."""

    profile: str
    range: dict[str, str] | None
    expression: str | None
    mode: str
    note: str | None
    results: list[ItemForm]


class Markers(msgspec.Struct, frozen=True):
    """``where_are_we``: the latest topic markers (``ts, text, id``)."""

    markers: list[Marker]


class ContextAnswer(msgspec.Struct, frozen=True):
    """``context``: the block's text and size, and what is in it through the profile."""

    profile: str
    text: str
    tokens: int
    budget: int
    markers: list[Marker]
    memories: list[ItemForm]
    turns: list[ItemForm]
    mode: str | None


class Proposed(msgspec.Struct, frozen=True):
    """``propose_memory``: the new draft and its suggestions' ids."""

    draft_id: str
    state: str
    created_by: str
    suggestions: list[str]


class Suggested(msgspec.Struct, frozen=True):
    """``suggest``: the suggestion added to an open draft, with its provenance."""

    draft_id: str
    suggestion_id: str
    field: str
    value: Any
    source: str
    model: str | None
    process_version: str | None
    confidence: float | None


class LimitError(msgspec.Struct, frozen=True):
    """The body of a refusal because a proposal limit was reached: the message, which limit, the
    count and the maximum, when it frees up (UTC) and the seconds to wait (None: waiting does not help)."""

    error: str
    limit: str
    count: int
    max: int
    resets_at: str | None
    retry_after: int | None
