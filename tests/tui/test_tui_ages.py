"""Ages in the tables through humanize, in the person's language (issue 14): the review queue's Age
column, the When column of topics and search, the session view's turns. The compact hand-written
formatter (``3h``, ``2d``) is gone."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from textual.widgets import DataTable

import tui_app.widgets.format as format_module
from core.demo.build import DemoHome
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    make_app,
    press,
    tui_config,
)
from tui_app.screens.queue import ReviewQueueScreen
from tui_app.screens.topics import TopicsScreen
from tui_app.widgets.humane import use_language

# The demo's newest draft was captured 3 hours before the frozen clock; its second newest marker
# was written 5 days before it (21:00 Seoul).
QUEUE_AGE = {"en": "3 hours", "ko": "3시간", "ja": "3時間"}


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    """humanize's language is per process: put English back for the tests that follow."""
    yield
    use_language("en")


def config_in(language: str):  # type: ignore[no-untyped-def]
    config = tui_config()
    config.general.languages = [language, *(code for code in ("en", "ko", "ja") if code != language)]
    return config


def test_the_hand_written_age_formatter_is_gone() -> None:
    assert not hasattr(format_module, "age") and not hasattr(format_module, "ago")


@pytest.mark.parametrize("language", ["en", "ko", "ja"])
async def test_the_queue_says_ages_in_the_persons_language(demo: DemoHome, language: str) -> None:
    app = make_app(demo, config=config_in(language))
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "f3")
        screen = app.screen
        assert isinstance(screen, ReviewQueueScreen)
        table = screen.query_one("#queue-table", DataTable)
        row = table.get_row_index("draft_demo_idea")
        assert str(table.get_row_at(row)[1]) == QUEUE_AGE[language]
        ages = [str(table.get_row_at(i)[1]) for i in range(table.row_count)]
        column = table.ordered_columns[1]
        assert column.width >= max(len(a) for a in ages)  # the column fits the longest age, nothing cut


@pytest.mark.parametrize(("language", "said"), [("en", "5 days"), ("ko", "5일"), ("ja", "5日")])
async def test_topics_say_how_long_ago_after_the_exact_time(demo: DemoHome, language: str, said: str) -> None:
    app = make_app(demo, config=config_in(language))
    async with app.run_test(size=(100, 30)) as pilot:
        await press(pilot, "f6")
        screen = app.screen
        assert isinstance(screen, TopicsScreen)
        table = screen.query_one("#topics-table", DataTable)
        marker = next(m for m in screen.markers if m.text.startswith("締め切り"))
        when = str(table.get_row_at(table.get_row_index(marker.id))[0])
        assert when.endswith(f" {said}") and when.startswith("Thu 5 Nov 12:00")
