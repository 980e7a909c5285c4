"""The JSON forms of the duplicate check keep their keys and order (the CLI, MCP and the TUI show them)."""

from __future__ import annotations

from core.duplicates import CHOICES, DuplicateCheck, DuplicateDecision, DuplicateMatch
from core.typed import to_builtins

NEAR = DuplicateMatch("m-1", "Kate skis in Niseko", 0.9712345, True, "2026-11-03T10:00:00Z")
FAR = DuplicateMatch("m-2", "The report is due Friday", 0.41, False, "2026-11-01T09:00:00Z")


def test_a_match_rounds_its_similarity_and_keeps_its_order() -> None:
    data = NEAR.to_dict()
    assert data == {"memory_id": "m-1", "text": "Kate skis in Niseko", "similarity": 0.9712, "reviewed": True,
                    "ts": "2026-11-03T10:00:00Z"}
    assert list(data) == ["memory_id", "text", "similarity", "reviewed", "ts"]


def test_a_check_names_the_nearest_duplicate() -> None:
    assert DuplicateCheck(0.95, [NEAR, FAR]).duplicate == NEAR
    assert DuplicateCheck(0.99, [NEAR]).duplicate is None
    assert CHOICES == ("replace", "keep_both", "cancel")


def test_a_decision_keeps_its_keys() -> None:
    assert to_builtins(DuplicateDecision("replace", True, "m-1")) == {"choice": "replace", "keep_new": True,
                                                                       "supersedes": "m-1"}
    assert list(to_builtins(DuplicateDecision("cancel", False, None))) == ["choice", "keep_new", "supersedes"]
