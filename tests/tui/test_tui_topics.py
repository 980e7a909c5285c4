"""The topics screen: markers newest first, adding one in the person's words (stored by the core
exactly as written, timestamped by the frozen clock), and refusing an empty one without writing."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from textual.widgets import DataTable, Input, Static

from core.demo.build import DemoHome
from core.topics import newest_first, read_markers
from core.turns import format_ts
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    make_app,
    press,
    settle,
)
from tui_app.app import ReverieApp
from tui_app.screens.home import HomeScreen
from tui_app.screens.topics import MarkerDialog, TopicsScreen
from tui_app.widgets.activity import turns_per_day


def line(app: ReverieApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def rows(screen: TopicsScreen) -> list[str]:
    table = screen.query_one("#topics-table", DataTable)
    return [str(table.get_row_at(i)[1]) for i in range(table.row_count)]


async def test_markers_are_listed_newest_first(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await press(pilot, "t")  # the home screen's letter
        screen = app.screen
        assert isinstance(screen, TopicsScreen)
        stored = newest_first(read_markers(demo.paths).markers)
        assert [m.id for m in screen.markers] == [m.id for m in stored] and len(stored) == 6
        assert rows(screen)[0] == "Search screen in progress; curation screens next"
        assert "締め切りは3月末。佐藤さんに確認済み" in rows(screen)
        assert "6 markers, newest first" in line(app, "#topics-head")
        assert line(app, "#topics-detail") == stored[0].text


async def test_mark_adds_the_persons_words_timestamped_now(demo: DemoHome, frozen_clock: datetime) -> None:
    app = make_app(demo)
    words = "검색 화면 끝, 다음은 큐레이션 (search screen done)"
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "f6", "m")
        assert isinstance(app.screen, MarkerDialog)
        await pilot.press(*words)
        await press(pilot, "enter")
        screen = app.screen
        assert isinstance(screen, TopicsScreen)
        latest = read_markers(demo.paths).markers[-1]
        assert latest.text == words and latest.ts == format_ts(frozen_clock)
        assert rows(screen)[0] == words and screen.markers[0].id == latest.id
        table = screen.query_one("#topics-table", DataTable)
        assert table.cursor_row == 0 and len(screen.markers) == 7


async def test_an_empty_marker_is_refused_and_esc_writes_nothing(demo: DemoHome) -> None:
    before = demo.paths.topics.read_bytes()
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await press(pilot, "f6", "m", "space", "enter")
        assert isinstance(app.screen, MarkerDialog)
        assert "Write a few words first" in line(app, "#marker-error")
        app.screen.query_one(Input).value = "never mind"
        await press(pilot, "escape")
        assert isinstance(app.screen, TopicsScreen)
    assert demo.paths.topics.read_bytes() == before


async def test_the_home_shows_turns_per_day_once_turns_are_indexed(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        chart = app.screen.query_one("#activity-turns")
        assert chart.display and not app.screen.query_one("#activity-spark").display
        assert app.screen.query_one("#home-activity").border_title == "Activity · turns per day"
        days = turns_per_day(app.workbench, ZoneInfo("UTC"), date(2026, 11, 10))
        busiest, count = max(days, key=lambda item: (item[1], item[0]))
        drawn = str(chart.render())
        assert f"{sum(c for _, c in days)} turns since" in drawn
        assert f"busiest {busiest:%a} {busiest.day} {busiest:%b} ({count})" in drawn
        assert busiest == date(2026, 11, 3)  # the night of three chats at once
