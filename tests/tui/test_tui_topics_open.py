"""Enter on a topic marker opens the conversation at that time (issue 14): the session of the latest
text turn said at or before the marker, scrolled to that turn, under the session's project and
first prompt; Esc goes back to Topics."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from textual.widgets import DataTable, Static

from core.conversation import ingest, list_day_files, read_day
from core.demo.build import DemoHome
from core.index.searchindex import purge
from core.topics import add_marker
from tests.helpers.claude_code import SESSION, transcript
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    make_app,
    press,
    settle,
)
from tui_app.screens.session_view import MarkerSessionScreen
from tui_app.screens.topics import TopicsScreen


def text_of(screen: object, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())  # type: ignore[attr-defined]


def latest_text_turn_before(demo: DemoHome, ts: str) -> tuple[str, str]:
    """(id, session) of the latest ``text`` turn at or before ``ts``, read from the day logs themselves."""
    logged = [t for day in list_day_files(demo.paths) for t in read_day(day.path).turns]
    turns = [t for t in logged if t.type == "text" and t.ts <= ts]
    latest = max(turns, key=lambda t: t.ts)
    return latest.id, latest.session


async def test_enter_on_the_newest_marker_opens_the_conversation_it_was_written_in(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await press(pilot, "f6")
        topics = app.screen
        assert isinstance(topics, TopicsScreen)
        marker = topics.markers[0]
        await press(pilot, "enter")
        view = app.screen
        assert isinstance(view, MarkerSessionScreen)
        await settle(pilot)
        turn_id, session = latest_text_turn_before(demo, marker.ts)
        assert view.turn_id == turn_id and all(t.session == session for t in view.turns)
        hit = view.query_one(".-hit", Static)
        assert str(hit.render()).startswith("▶ at the marker ")
        turns = view.query_one("#session-turns")
        assert turns.scroll_y > 0 or hit.region.y < turns.region.bottom  # the marked turn is in view
        assert "Topics" in text_of(view, "#section-bar-sections") or view.SECTION == "topics"
        await press(pilot, "escape")
        assert app.screen is topics


async def test_the_session_shows_its_project_and_first_prompt(demo: DemoHome, tmp_path: Path) -> None:
    ingest(demo.paths, [transcript(tmp_path)])  # a Claude Code session on 1 Aug, before the demo's chats
    add_marker(demo.paths, "lighthouse logbook found, scan requested", now=datetime(2026, 8, 1, 10, 30, tzinfo=UTC))
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "f6", "slash")
        await pilot.press(*"lighthouse")
        await press(pilot, "enter")  # from the filter to the list: one marker left
        table = app.screen.query_one("#topics-table", DataTable)
        assert table.row_count == 1 and app.screen.focused is table
        await press(pilot, "enter")
        view = app.screen
        assert isinstance(view, MarkerSessionScreen)
        await settle(pilot)
        assert {t.session for t in view.turns} == {SESSION}
        hit = next(t for t in view.turns if t.id == view.turn_id)
        assert hit.text == "The logbook is in the county archive; I can request a scan."
        head = text_of(view, "#session-about")
        assert head.splitlines()[0] == "Marker “lighthouse logbook found, scan requested” · Sat 1 Aug 10:30"
        project = next(line for line in head.splitlines() if line.startswith("Claude Code session"))
        assert project == "Claude Code session in lighthouse (/home/me/projects/lighthouse), branch ma…"  # 80 cells
        assert "first prompt “Find the keeper's logbook from 1893”" in head


async def test_a_marker_with_no_conversation_in_the_index_says_so(demo: DemoHome) -> None:
    for day in list_day_files(demo.paths):
        day.path.unlink()  # no conversation at all: the log emptied and its index purged
    purge(demo.paths)
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "f6", "enter")
        assert isinstance(app.screen, TopicsScreen)
        notes = [n.message for n in app._notifications]
        assert any("No conversation is in the index yet" in note for note in notes)
