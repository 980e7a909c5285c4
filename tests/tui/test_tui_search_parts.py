"""The pieces behind the search and topics screens, without an app: how results are worded and
highlighted, the activity chart, the filters, the demo's conversations (and the revision history's
spacing, fixed with the same rule as the search screen's text)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from itertools import pairwise
from zoneinfo import ZoneInfo

import pytest
from textual.content import Content

from core.demo.conversations import (
    DECISION_LANGUAGES,
    DECISION_NIGHT,
    HEADLINES,
    MARKERS,
    SEOUL,
    decision_nights,
    records,
    schedule,
)
from core.timeparse import parse_time
from core.vault.review import Approval, ReviewDecision, StoredDraft, Suggestion
from core.workbench.search import term_pattern
from tui_app.screens.search_filters import parse_tags
from tui_app.screens.search_view import assemble, exact_time, highlighted
from tui_app.views.search_backend import SearchFilters
from tui_app.widgets.activity import bar_rows, caption, chart, levels, month_row
from tui_app.widgets.history import history_text

TEST_NOW = datetime(2026, 11, 10, 12, 0, tzinfo=UTC)  # a Tuesday (the TUI tests' clock)
SHOTS_NOW = datetime(2026, 11, 10, 21, 30, tzinfo=UTC)  # Wednesday morning in Seoul (the screenshots' clock)


def no_span_starts_with_a_space(content: Content) -> bool:
    """Where the style changes, the text that follows does not start with a space and then go on
    (SVG renderers drop such spaces; a run of spaces alone is harmless)."""
    cuts = sorted({0, len(content.plain), *(i for span in content.spans for i in (span.start, span.end))})
    runs = [content.plain[a:b] for a, b in pairwise(cuts)]
    return not any(run.startswith(" ") and run.strip() for run in runs)


def test_assemble_moves_leading_spaces_out_of_styled_spans() -> None:
    content = assemble(("me", "bold"), (" (user)", "dim"), " · ", ("6d", "dim"))
    assert content.plain == "me (user) · 6d"
    assert no_span_starts_with_a_space(content)


def test_revision_history_keeps_a_space_between_actor_and_detail() -> None:
    mood = Suggestion("mood", "relieved", "local", suggestion_id="s1", model="llama3.1:8b",
                      created_at="2026-11-09T15:30:00+00:00")
    draft = StoredDraft(draft_id="d1", content="x", created_at="2026-11-09T15:00:00+00:00", suggestions=(mood,),
                        decisions=(ReviewDecision("s1", "rejected", "me", decided_at="2026-11-10T10:30:00+00:00"),),
                        state="approved", approval=Approval("me", "2026-11-10T11:00:00+00:00"))
    content = history_text(draft, UTC)
    lines = content.plain.splitlines()  # newest first
    assert lines[0].endswith("approved  me") and lines[1].endswith("rejected  me mood")
    assert lines[2].endswith("suggested llama3.1:8b mood = 'relieved'") and lines[3].endswith("captured  me")
    assert all(no_span_starts_with_a_space(line) for line in content.split("\n")[:3])  # the steps with a detail


@pytest.mark.parametrize(
    ("query", "text", "marked"),
    [
        ("what did we decide", "OK. Decided: FTS5 with rowids.", ["Decided"]),
        ("Kate skiing", "Kate said the ski trip is off.", ["Kate", "ski"]),
        ("뭐 결정했지", "좋다. 그럼 결정했어: 일요일 저녁.", ["결정"]),  # the query's verb searched without its ending
        ("会議", "会議で決めた", ["会議"]),
    ],
)
def test_query_terms_are_highlighted_as_the_index_matched_them(query: str, text: str, marked: list[str]) -> None:
    content = highlighted(text, term_pattern(query))
    assert [content.plain[s.start : s.end].rstrip() for s in content.spans] == marked
    assert no_span_starts_with_a_space(content)


def test_exact_time_shows_the_year_only_when_it_differs() -> None:
    zone = ZoneInfo("Asia/Seoul")
    assert exact_time("2026-11-03T18:05:00Z", zone, TEST_NOW) == "Wed 4 Nov 03:05"
    assert exact_time("2025-12-31T15:30:00Z", zone, TEST_NOW) == "Thu 1 Jan 00:30"
    assert exact_time("2025-12-31T15:30:00Z", UTC, TEST_NOW) == "Wed 31 Dec 2025 15:30"


def test_filters_and_tags() -> None:
    assert parse_tags(" travel, friends ,travel,, ") == ("travel", "friends")
    core = SearchFilters(tags=("travel",), role="user", session="s1").to_core()
    assert core.tags == ("travel",) and core.roles == ("user",) and core.sessions == ("s1",)
    assert not SearchFilters().active and SearchFilters().to_core().roles == ()


def test_bars_use_eighth_blocks_and_any_turn_shows() -> None:
    heights = levels([0, 1, 50, 100], rows=2)
    assert heights == [0, 1, 8, 16]
    assert bar_rows(heights, rows=2) == ["   █", " ▁██"]


def test_chart_fits_its_width_with_months_and_a_caption() -> None:
    start = date(2026, 8, 20)
    days = [(start + timedelta(days=i), i % 5) for i in range(80)]
    lines = chart(days, 40).plain.splitlines()
    assert len(lines) == 5 and all(len(text) == 40 for text in lines[:4])
    assert lines[3].startswith("Oct") or "Oct" in lines[3]
    assert lines[4].startswith(f"{sum(c for _, c in days[-40:])} turns since")
    assert month_row([date(2026, 9, 29) + timedelta(days=i) for i in range(6)]) == "  Oct "
    assert month_row([date(2026, 9, 20) + timedelta(days=i) for i in range(14)]) == "Sep" + " " * 8 + "Oct"
    assert "No conversation turns" in caption([(start, 0)]).plain


@pytest.mark.parametrize("zone", [UTC, SEOUL])
@pytest.mark.parametrize("now", [TEST_NOW, SHOTS_NOW, datetime(2026, 11, 10, 18, 30, tzinfo=UTC)])
def test_each_decision_chat_lies_early_in_the_night_its_language_names(zone: ZoneInfo, now: datetime) -> None:
    nights = decision_nights(now, zone)
    for language, words in HEADLINES.items():
        night = parse_time(words, now.astimezone(zone), zone).range
        assert night is not None and nights[language] == (night.start.astimezone(UTC), night.end.astimezone(UTC))
    planned = schedule(now, zone)
    language_of = dict(zip(DECISION_NIGHT, DECISION_LANGUAGES, strict=True))
    placed = [(when, language_of[item]) for when, item in planned if item in DECISION_NIGHT]
    assert len(placed) == 3
    for when, language in placed:
        start, end = nights[language]
        assert start <= when < min(end, now)
    others = [when for when, item in planned if item not in DECISION_NIGHT]
    assert not any(start <= when < end for start, end in nights.values() for when in others)


def test_from_wednesday_english_and_korean_name_different_tuesdays() -> None:
    wednesday = datetime(2026, 11, 11, 3, 0, tzinfo=UTC)  # noon in Seoul
    nights = decision_nights(wednesday, SEOUL)
    assert nights["ko"] == nights["ja"] and nights["en"][0] - nights["ko"][0] == timedelta(days=7)
    tuesday = decision_nights(TEST_NOW, UTC)
    assert tuesday["en"] == tuesday["ko"] == tuesday["ja"]


def test_demo_chats_speak_three_languages_and_end_before_now() -> None:
    planned = schedule(TEST_NOW, UTC)
    turns = [r for start, item in planned for r in records(start, item, TEST_NOW)]
    assert all(datetime.fromisoformat(r["ts"].replace("Z", "+00:00")) < TEST_NOW for r in turns)
    text = " ".join(r["text"] for r in turns)
    assert "decided" in text.lower() and "결정했어" in text and "決めた" in text
    assert {r["actor"] for r in turns} == {"me", "claude", "chatgpt", "llama"}
    assert {r["role"] for r in turns} == {"user", "assistant"} and any(r.get("type") == "action" for r in turns)
    recent = [start for start, _ in planned if TEST_NOW - start < timedelta(days=28)]
    assert len(recent) / 28 >= 2.5  # several chats a day in the last four weeks
    assert len(MARKERS) == 6
