"""``/`` filters the lists (issue 14): the review queue, memories, topics and cold storage share one
ListFilter. It narrows the list as you type by the text the rows show, ignoring case and width,
Korean and Japanese included; letters typed into it never fire the screen's keys; Esc clears it,
then closes it; Enter goes to the list with the filter kept."""

from __future__ import annotations

from typing import Any

import pytest
from textual.binding import Binding
from textual.widgets import DataTable, Input

from core.demo.build import DemoHome
from core.vault.store import MemoryStore
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    make_app,
    press,
    settle,
)
from tui_app.screens.capture import CaptureScreen
from tui_app.screens.cold import ColdStorageScreen
from tui_app.screens.keymap import KeymapScreen
from tui_app.screens.memories import MemoriesScreen
from tui_app.screens.queue import ReviewQueueScreen
from tui_app.screens.topics import TopicsScreen
from tui_app.widgets.list_filter import ListFilter, matches


def rows(screen: Any, selector: str) -> list[str]:
    """Each row of the table as one line of its cells' text."""
    table = screen.query_one(selector, DataTable)
    return [" ".join(str(cell) for cell in table.get_row_at(i)) for i in range(table.row_count)]


async def type_text(pilot: Any, text: str) -> None:
    await pilot.press(*text)
    await settle(pilot)


# --- the matching ----------------------------------------------------------------------------------------


def test_every_word_must_appear_in_some_column_case_and_width_folded() -> None:
    assert matches("", ["anything"])
    assert matches("DENTIST", ["open", "Dentist moved my appointment"])
    assert matches("ｄｅｎｔｉｓｔ　１８", ["Dentist moved to the 18th"])  # full-width letters, digits and space
    assert matches("health dentist", ["health", "Dentist moved"])  # words from different columns
    assert not matches("health ski", ["health", "Dentist moved"])


def test_korean_and_japanese_are_found_inside_longer_words() -> None:
    assert matches("협재", ["지난주 토요일 제주 협재 해변에서"])
    assert matches("締め切り", ["締め切りは3月末。佐藤さんに確認済み"])
    assert matches("ｻﾄｳ", ["サトウさん"])  # half-width katakana folds to full width
    decomposed = "\u1112\u1167\u11b8\u110c\u1162"  # 협재 as jamo, the way some input methods send it
    assert matches(decomposed, ["제주 협재 해변"])


# --- the review queue ------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_the_queue_filters_as_you_type_and_letters_stay_letters(demo: DemoHome, size: tuple[int, int]) -> None:
    app = make_app(demo)
    async with app.run_test(size=size) as pilot:
        await press(pilot, "f3", "0")  # every draft
        screen = app.screen
        assert isinstance(screen, ReviewQueueScreen)
        everything = [d.draft_id for d in screen.visible()]
        assert len(everything) == len(rows(screen, "#queue-table")) == 11
        await press(pilot, "slash")
        found = screen.query_one(ListFilter)
        assert found.is_open and found.region.height == 1 and isinstance(app.focused, Input)
        await type_text(pilot, "n1")  # n would capture a draft, 1 show open drafts: both are typed
        assert not isinstance(app.screen, CaptureScreen) and screen.state == "all"
        assert found.field.value == "n1"
        found.field.value = ""
        await type_text(pilot, "DENTIST")
        assert [d.draft_id for d in screen.visible()] == ["draft_demo_dentist"]
        assert len(rows(screen, "#queue-table")) == 1 and "Dentist moved" in rows(screen, "#queue-table")[0]
        assert "1 of 11" in str(found.query_one(".list-filter-count").render())
        await press(pilot, "enter")  # to the list, the filter kept
        table = screen.query_one("#queue-table", DataTable)
        assert app.focused is table and found.is_open and table.row_count == 1
        await press(pilot, "slash", "escape")  # back in the filter; Esc clears it
        assert found.is_open and found.field.value == "" and table.row_count == 11
        await press(pilot, "escape")  # and closes it
        assert not found.is_open and app.focused is table
        await press(pilot, "n")  # the screen's keys work again on the list
        assert isinstance(app.screen, CaptureScreen)


async def test_the_queue_filter_finds_korean_and_says_when_nothing_matches(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "f3", "0", "slash")
        screen = app.screen
        await type_text(pilot, "협재")
        assert len(rows(screen, "#queue-table")) == 1 and "협재" in screen.visible()[0].content
        await type_text(pilot, " 없는말")
        assert rows(screen, "#queue-table") == []
        assert "No drafts match “협재 없는말”" in str(screen.query_one("#queue-detail").render())
        await press(pilot, "1")  # typed, not the "open drafts" key
        assert screen.state == "all"


async def test_a_filter_survives_a_reload(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await press(pilot, "f3", "0", "slash")
        screen = app.screen
        await type_text(pilot, "habit")
        before = [d.draft_id for d in screen.visible()]
        assert before and all("habit" in (d.content + " ".join(d.tags)).lower() for d in screen.visible())
        vault = MemoryStore.open(demo.paths, demo.keys)
        new = vault.create_draft("A second habit: stretch after the run.", tags=["habit"], created_by="me")
        await press(pilot, "enter", "ctrl+r")
        assert [d.draft_id for d in screen.visible()] == [new.draft_id, *before]
        assert len(rows(screen, "#queue-table")) == len(before) + 1


# --- memories, topics, cold storage: the same widget -------------------------------------------------------


async def test_memories_filter_by_tag_and_badge(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await press(pilot, "f4")
        screen = app.screen
        assert isinstance(screen, MemoriesScreen)
        total = len(rows(screen, "#memories-table"))
        await press(pilot, "slash")
        await type_text(pilot, "unreviewed")  # the badge's text is part of the row
        kept = screen.visible()
        assert kept and all(not r.memory.reviewed for r in kept) and len(kept) < total
        await press(pilot, "3")  # typed: the unreviewed tab key does not fire
        assert screen.filter == "all"


async def test_topics_filter_japanese_markers(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "f6", "slash")
        screen = app.screen
        assert isinstance(screen, TopicsScreen)
        await type_text(pilot, "佐藤")
        assert rows(screen, "#topics-table")[0].endswith("締め切りは3月末。佐藤さんに確認済み")
        assert len(rows(screen, "#topics-table")) == 1
        await type_text(pilot, "m?")  # m adds a marker on the list, ? opens the keymap page: here both are typed
        assert isinstance(app.screen, TopicsScreen) and screen.query_one(ListFilter).field.value == "佐藤m?"


async def test_cold_storage_filters_by_path(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await press(pilot, "f8")
        screen = app.screen
        assert isinstance(screen, ColdStorageScreen)
        assert screen.items
        path = screen.items[0].stone.path
        await press(pilot, "slash")
        await type_text(pilot, path.upper())
        assert [i.stone.path for i in screen.visible()] == [path]
        await type_text(pilot, "v r")  # v (verify) and r (restore) are typed, not run
        assert screen.visible() == [] and "none match" in str(screen.query_one("#cold-summary").render())
        await press(pilot, "escape", "escape")
        assert len(screen.visible()) == len(screen.items)


def test_one_widget_serves_every_list() -> None:
    for screen in (ReviewQueueScreen, MemoriesScreen, TopicsScreen, ColdStorageScreen):
        keys = [(b.id, b.key) for b in screen.BINDINGS if isinstance(b, Binding)]
        assert ("list.filter", "slash") in keys, screen
        assert screen.action_filter is not None and screen.on_list_filter_changed is not None


async def test_the_keymap_page_lists_the_filter_and_its_keys(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "f3", "question_mark")
        assert isinstance(app.screen, KeymapScreen)
        groups = {group.title: group.rows for group in app.screen.groups}
        this = next(rows for title, rows in groups.items() if title.startswith("This screen"))
        assert any(row.keys == "/" and row.name == "Filter" for row in this)
        keys = groups["List filter (/ on Review, Memories, Topics, Cold storage)"]
        assert [(row.keys, row.name) for row in keys][:1] == [("esc", "Clear")]
