"""The prompt block: markers first and never cut, then memories (reviewed marked), then turns, all
within the budget; an honest token estimate for CJK."""

from __future__ import annotations

from datetime import UTC, timedelta

import pytest

from core.config import ContextConfig, SharingProfile
from core.context import build_context, cut_to_tokens, estimate_tokens
from core.recall import sync_vault
from core.topics import Marker
from tests.helpers.recall import NOW, indexed, recaller, turn
from tests.helpers.vault import finalize_reviewed, make_vault

LONG = "the harbour " + "and the boats kept coming back to the harbour every single evening " * 40


def marker(text: str, hours_ago: int) -> Marker:
    return Marker(ts=(NOW - timedelta(hours=hours_ago)).strftime("%Y-%m-%dT%H:%M:%S.000000Z"), text=text,
                  id=f"m{hours_ago}")


@pytest.fixture
def world(paths, monkeypatch):
    # memories are finalized "before" the test's fixed now, whatever the wall clock says
    before_now = (NOW - timedelta(hours=3)).isoformat(timespec="microseconds")
    monkeypatch.setattr("core.clock.utc_now_iso", lambda: before_now)
    vault = make_vault(paths)
    finalize_reviewed(vault, "Grandpa sailed out of this harbour every summer")
    vault.add_memory("The harbour cafe closes on Mondays", ["places"])
    vault.add_memory("Private: the harbour argument", ["private"])
    turns = [turn(NOW - timedelta(days=1, minutes=i), f"harbour note {i}: boats, gulls and ropes", session="h")
             for i in range(12)]
    turns.append(turn(NOW - timedelta(days=2), LONG, session="long", source="claude"))
    index = indexed(paths, turns)
    sync_vault(index, vault, UTC)
    yield recaller(index)
    index.close()


MARKERS = [marker("planning the harbour photo book " * 6, 1), marker("chapter two: the storms", 5)]


def block(world, query: str | None = "harbour", **kw):
    kw.setdefault("markers", MARKERS)
    return build_context(world, query, now=NOW, zone=UTC, **kw)


def test_order_markers_memories_turns_and_badges(world):
    b = block(world, budget=4000)
    text = b.text
    heads = ["## Where we are", "## Confirmed memories", "## From past conversations"]
    assert [text.index(h) for h in heads] == sorted(text.index(h) for h in heads)
    assert "[reviewed]" in text and "[unreviewed]" in text
    assert b.markers == MARKERS and len(b.memories) == 3 and b.turns
    assert b.tokens <= 4000 and b.mode == "exact"


@pytest.mark.parametrize("budget", [40, 80, 150, 300, 700, 2000])
def test_budget_is_respected_and_markers_are_never_cut(world, budget):
    b = block(world, budget=budget)
    assert b.tokens <= budget
    assert estimate_tokens(b.text) <= budget
    for m in MARKERS:
        line = " ".join(m.text.split())
        assert (line in b.text) == (m in b.markers)  # whole or absent, never cut
    assert "…" not in "".join(line for line in b.text.splitlines() if "planning the harbour" in line)


def test_long_items_are_cut_to_the_item_limit(world):
    b = block(world, budget=5000, config=ContextConfig(budget=5000, item_max_tokens=40))
    long_line = next(line for line in b.text.splitlines() if "boats kept coming" in line)
    assert long_line.endswith("…") and estimate_tokens(long_line) <= 40 + 20
    assert b.cut >= 1


def test_profile_denies_tags_and_caps_tokens(world):
    profile = SharingProfile(deny_tags=["private"], reviewed_only=False, max_tokens=300, max_items=3)
    b = block(world, budget=5000, profile=profile)
    assert "Private" not in b.text and b.budget == 300 and b.tokens <= 300
    assert len(b.memories) <= 3 and len(b.turns) <= 3
    reviewed_only = block(world, budget=5000, profile=SharingProfile(reviewed_only=True, include_turns=False))
    assert all(m.reviewed for m in reviewed_only.memories) and reviewed_only.turns == []
    only_claude = block(world, budget=5000, profile=SharingProfile(sources=["claude"], reviewed_only=False))
    assert only_claude.turns and all(t.source == "claude" for t in only_claude.turns)


def test_without_a_query_the_latest_are_shown(world):
    b = block(world, None, budget=3000)
    assert b.memories and b.turns and b.mode is None
    assert [t.ts for t in b.turns] == sorted(t.ts for t in b.turns)


def test_nothing_at_all(paths):
    index = indexed(paths, [])
    b = build_context(recaller(index), None, markers=[], now=NOW, zone=UTC)
    assert b.text == "" and b.tokens == 0
    index.close()


@pytest.mark.parametrize(("text", "low", "high"), [
    ("hello world", 2, 4),
    ("서울숲에서 산책했어", 9, 12),  # 9 Hangul syllables
    ("会議で予算を決めた", 9, 10),
    ("東京タワー", 5, 5),
    ("supercalifragilistic", 4, 6),
    ("", 0, 0),
])
def test_token_estimate_is_honest_for_cjk(text, low, high):
    assert low <= estimate_tokens(text) <= high


def test_cjk_is_not_estimated_like_english():
    korean = "오늘은 서울숲에서 친구들과 오래 산책을 했다" * 10
    assert estimate_tokens(korean) >= len(korean.replace(" ", "")) * 0.9
    assert estimate_tokens(korean) > len(korean) / 4 * 3


@pytest.mark.parametrize("limit", [3, 5, 10, 50])
def test_cut_to_tokens_fits(limit):
    for text in (LONG, "서울숲에서 산책했어 " * 30, "x" * 500):
        cut = cut_to_tokens(text, limit)
        assert estimate_tokens(cut) <= limit and cut.endswith("…")
    assert cut_to_tokens("short", 10) == "short"
