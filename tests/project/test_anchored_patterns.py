"""Identifiers checked by a pattern are refused when they end in a newline. Python's ``$`` also
matches just before a final newline, so ``^…$`` took "name\\n"; the patterns end in ``\\Z``."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.curate import scopes, tombstone
from core.errors import ReverieError
from core.paths import HomePaths
from core.recall import text
from core.vault import ledger, ledger_prefix, review
from core.workbench import verify

HEX = "a" * 64


@pytest.mark.parametrize(
    ("pattern", "good"),
    [
        (review.FIELD_NAME, "project"),
        (review._ID, "d_01J2X"),
        (ledger._HEX64, HEX),
        (ledger_prefix._HEX64, HEX),
        (tombstone.MOVE_ID, "m-20261203T120000-0123456789ab"),
        (tombstone.SHA256, HEX),
        (scopes.SCOPE_NAME, "agent-notes"),
        (verify._MEMORY_FILE, "mem_01J2X.json"),
        (text._HANGUL, "서울숲"),
    ],
)
def test_a_pattern_takes_the_value_and_refuses_it_with_a_newline(pattern: object, good: str) -> None:
    assert pattern.match(good)  # type: ignore[attr-defined]
    assert not pattern.match(good + "\n")  # type: ignore[attr-defined]


def test_a_field_name_or_id_ending_in_a_newline_is_refused_by_the_review_checks() -> None:
    assert not review._allowed_field_name("project\n")
    with pytest.raises(ReverieError):
        review._check_id("d_01J2X\n", "suggestion_id")


def test_a_scope_named_with_a_newline_is_refused_in_one_line(paths: HomePaths, tmp_path: Path) -> None:
    with pytest.raises(ReverieError, match="scope name"):
        scopes.add_scope(paths, "notes\n", "folder", str(tmp_path))
