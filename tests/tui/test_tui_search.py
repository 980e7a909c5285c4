"""The search screen: time-scoped queries in English, Korean and Japanese with a fixed clock, the
range as understood, the mode used, results in time order, opening a result, filters, the mode
switch (vectors built on first semantic use, with a model-free embedder), debounce, and new turns
picked up on refresh. Each test asserts on the screen and on what the core answers for the same
query."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from rich.cells import cell_len
from textual.content import Content
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Static

from core.conversation import ingest
from core.demo.build import DemoHome
from core.embed.hashing import HashingEmbedder
from core.index import SearchIndex
from core.recall import Filters, recall
from core.turns import parse_ts
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    EMBEDDERS,
    SIZES,
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    make_app,
    on_screen,
    press,
    settle,
    tui_config,
)
from tui_app.app import ReverieApp
from tui_app.screens.search import SearchMemoryScreen, SearchScreen
from tui_app.screens.search_filters import FilterDialog
from tui_app.screens.search_view import exact_time
from tui_app.screens.session_view import SessionViewScreen

UTC = ZoneInfo("UTC")
DECISION_EN = "what did we decide last Tuesday night"
DECISION_KO = "지난주 화요일 밤에 뭐 결정했지"
DECISION_JA = "先週の火曜日の夜に何を決めた"
NIGHT = "Tue 3 Nov 18:00 – Wed 4 Nov 04:00"  # "last Tuesday night" as of Tue 10 Nov 12:00 UTC


def line(app: ReverieApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


async def search(pilot: Pilot[object], query: str, *, typed: bool = False) -> SearchScreen:
    """From anywhere: the search section, ``query`` entered (typed key by key when ``typed``, else
    pasted), then Enter (search now) and Down (to the results, where letters are keys)."""
    await press(pilot, "f5")
    screen = pilot.app.screen
    assert isinstance(screen, SearchScreen)
    field = screen.query_one("#search-query", Input)
    field.focus()
    field.value = "" if typed else query
    if typed:
        await pilot.press(*query)
    await press(pilot, "enter", "down")
    return screen


def core_answer(demo: DemoHome, now: datetime, query: str, **filters: tuple[str, ...]) -> list[str]:
    answer = recall(demo.paths, query, config=tui_config(), now=now, zone=UTC, limit=20, filters=Filters(**filters))
    return [item.id for item in answer.results]


def texts(screen: SearchScreen) -> list[str]:
    return [item.text for item in screen.results]


@pytest.fixture(name="no_model")
def no_model_fixture(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Records every attempt to make the embedding model; tests of exact search expect none."""
    made: list[str] = []

    def refuse() -> HashingEmbedder:
        made.append("embedder")
        raise AssertionError("exact search must not make the embedding model")

    monkeypatch.setitem(EMBEDDERS, "default", refuse)
    return made


async def test_english_time_scoped_query_shows_the_night_and_its_turns_in_order(
    demo: DemoHome, frozen_clock: datetime, no_model: list[str]
) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await search(pilot, DECISION_EN, typed=True)
        assert f"last Tuesday night → {NIGHT} (part of day)" in line(app, "#search-understood")
        assert "ranked by “what did we decide”" in line(app, "#search-understood")
        assert line(app, "#search-mode").startswith("auto → exact · ")
        assert "in time order" in line(app, "#search-mode")
        assert screen.answer is not None and screen.answer.result is not None
        night = screen.answer.result.range
        assert night is not None
        stamps = [parse_ts(item.ts) for item in screen.results]
        assert stamps and stamps == sorted(stamps) and all(moment in night for moment in stamps)
        assert any(text.startswith("OK. Decided: FTS5") for text in texts(screen))
        assert [item.id for item in screen.results] == core_answer(demo, frozen_clock, DECISION_EN)
        assert screen.query_one("#search-results", DataTable).row_count == len(screen.results)
        assert screen.query_one("#search-results", DataTable).has_focus
    assert no_model == []  # exact search never made the model


@pytest.mark.parametrize(
    ("query", "expression", "said"),
    [
        (
            DECISION_KO,
            "지난주 화요일 밤",
            "좋다. 그럼 결정했어: 매주 일요일 저녁, 장거리 달리기 끝나고 큐레이션 리뷰 하기.",
        ),
        (DECISION_JA, "先週の火曜日の夜", "いいね。中間レビューは2月20日にしておいて。"),
    ],
)
async def test_korean_and_japanese_queries_bound_the_same_night(
    demo: DemoHome, frozen_clock: datetime, no_model: list[str], query: str, expression: str, said: str
) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await search(pilot, query, typed=True)
        assert f"{expression} → {NIGHT}" in line(app, "#search-understood")
        assert said in texts(screen)
        stamps = [parse_ts(item.ts) for item in screen.results]
        assert stamps == sorted(stamps)
        assert [item.id for item in screen.results] == core_answer(demo, frozen_clock, query)


async def test_a_query_without_time_words_says_so_and_ranks_by_relevance(demo: DemoHome, no_model: list[str]) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await search(pilot, "Kate skiing")
        assert line(app, "#search-understood").startswith("no time expression · ranked by “Kate skiing”")
        assert "by relevance" in line(app, "#search-mode")
        top = screen.results[0]
        assert "skiing" in top.text.lower()
        kinds = {item.kind for item in screen.results}
        assert kinds == {"turn", "memory"}  # memories are searched beside turns
        memory = next(item for item in screen.results if item.kind == "memory")
        row = screen.query_one("#search-results", DataTable).get_row_at(screen.results.index(memory))
        assert str(row[2]) == ("✓ memory" if memory.reviewed else "· memory")


async def test_search_waits_for_a_pause_in_typing(demo: DemoHome, no_model: list[str]) -> None:
    app = make_app(demo, config=tui_config(search_debounce_ms=1500))
    async with app.run_test(size=(100, 30)) as pilot:
        await press(pilot, "f5")
        screen = app.screen
        assert isinstance(screen, SearchScreen)
        await pilot.press(*"Hakuba")  # typed faster than the pause
        assert screen.last_request is None and screen.seq == 0
        await pilot.pause(1.8)
        await settle(pilot)
        assert screen.seq == 1 and screen.last_request is not None
        assert screen.last_request.query == "Hakuba"  # one search, for the whole word
        assert any("Hakuba" in text for text in texts(screen))


async def test_enter_on_a_turn_opens_its_session_in_order_with_the_hit_marked(
    demo: DemoHome, no_model: list[str]
) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await search(pilot, DECISION_EN)
        hit = next(item for item in screen.results if item.text.startswith("OK. Decided"))
        table = screen.query_one("#search-results", DataTable)
        table.move_cursor(row=screen.results.index(hit))
        await press(pilot, "enter")
        view = app.screen
        assert isinstance(view, SessionViewScreen) and view.turn_id == hit.id
        turns = view.turns
        assert [t.ts for t in turns] == sorted(t.ts for t in turns)
        assert {t.session for t in turns} == {hit.session}
        with SearchIndex.open(demo.paths) as index:
            assert [t.id for t in turns] == [t.id for t in index.session_context(hit.id, before=8, after=8)]
        marked = view.query(".-hit")
        assert len(marked) == 1 and "▶ found" in str(marked.first().render())
        assert "the whole session" in line(app, "#session-head")
        await press(pilot, "escape")
        assert app.screen is screen


async def test_enter_on_a_memory_opens_its_provenance_in_the_search_section(
    demo: DemoHome, no_model: list[str]
) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await search(pilot, "Hakuba onsen")
        memory = next(item for item in screen.results if item.kind == "memory")
        screen.query_one("#search-results", DataTable).move_cursor(row=screen.results.index(memory))
        await press(pilot, "enter")
        assert isinstance(app.screen, SearchMemoryScreen) and app.screen.memory_id == memory.id
        assert app.current_mode == "search"
        assert "✓ Reviewed" in line(app, "#memory-review")


async def test_role_session_and_tag_filters(demo: DemoHome, frozen_clock: datetime, no_model: list[str]) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await search(pilot, "Kate")
        await press(pilot, "r")
        assert isinstance(app.screen, FilterDialog)
        await pilot.press(*"user")
        await press(pilot, "enter")
        assert screen.filters.role == "user"
        assert screen.results and {item.role for item in screen.results} == {"user"}
        assert "role user" in line(app, "#search-filters")
        assert [i.id for i in screen.results] == core_answer(demo, frozen_clock, "Kate", roles=("user",))

        session = screen.results[0].session
        assert session is not None
        await press(pilot, "s")  # prefilled with the highlighted result's session
        assert app.screen.query_one("#filter-session", Input).value == session
        await press(pilot, "enter")
        assert screen.filters.session == session
        assert {item.session for item in screen.results} == {session}

        await press(pilot, "x")
        assert not screen.filters.active and "role any" in line(app, "#search-filters")

        await press(pilot, "t", *"travel", "enter")
        assert screen.filters.tags == ("travel",)
        assert screen.results and {item.kind for item in screen.results} == {"memory"}
        assert all("travel" in item.tags for item in screen.results)


async def test_a_wrong_role_is_refused_in_the_dialog(demo: DemoHome, no_model: list[str]) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await search(pilot, "Kate")
        await press(pilot, "ctrl+f", "tab", *"robot", "enter")
        assert isinstance(app.screen, FilterDialog)
        assert "Role must be one of user, assistant, system" in line(app, "#filter-error")
        await press(pilot, "escape")
        assert app.screen is screen and not screen.filters.active


async def test_semantic_mode_builds_vectors_once_then_auto_says_when_it_fell_back(
    demo: DemoHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[HashingEmbedder] = []

    def hashing() -> HashingEmbedder:
        made.append(HashingEmbedder(dim=64))
        return made[-1]

    monkeypatch.setitem(EMBEDDERS, "default", hashing)
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await search(pilot, "Kate skiing")
        assert screen.answer is not None and screen.answer.result is not None
        assert screen.answer.result.mode == "exact" and not any(m.calls for m in made)
        await press(pilot, "ctrl+t")  # exact
        assert screen.mode == "exact" and "exact" in line(app, "#search-mode")
        await press(pilot, "ctrl+t")  # semantic: the index has no vectors yet, so they are built first
        assert screen.mode == "semantic"
        assert screen.index_state is not None and screen.index_state.vectors > 0
        assert screen.index_state.pending_vectors == 0 and not screen.building
        assert not screen.query_one("#search-progress").display
        assert screen.answer.result.mode == "semantic" and screen.results
        assert line(app, "#search-mode").startswith("semantic · ")
        with SearchIndex.open(demo.paths) as index:
            assert index.status().vectors == screen.index_state.vectors
        await press(pilot, "ctrl+t", "ctrl+t")  # hybrid, then auto
        assert screen.mode == "auto"
        await press(pilot, "slash")
        screen.query_one("#search-query", Input).value = ""
        await pilot.press(*"zebra quartz")  # nothing exact: auto falls back to semantic and says so
        await press(pilot, "enter")
        assert screen.answer.result.mode == "semantic"
        assert "auto → semantic" in line(app, "#search-mode")
        assert "exact matched nothing: semantic results" in line(app, "#search-mode")
    assert sum(m.calls > 0 for m in made) >= 1


async def test_semantic_mode_without_a_model_is_one_clear_error(
    demo: DemoHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    from core.embed import EmbeddingError

    def broken() -> HashingEmbedder:
        raise EmbeddingError("embedding.model 'nowhere': cannot load it offline")

    monkeypatch.setitem(EMBEDDERS, "default", broken)
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await search(pilot, "Kate")
        await press(pilot, "ctrl+t", "ctrl+t")
        from tui_app.widgets.dialogs import ErrorDialog

        assert isinstance(app.screen, ErrorDialog) and "cannot load it offline" in app.screen.message
        await press(pilot, "escape")
        assert app.screen is screen and not screen.building
        assert not screen.query_one("#search-progress").display


async def test_new_turns_are_searchable_after_refresh(demo: DemoHome, tmp_path: Path, no_model: list[str]) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await search(pilot, "persimmon")
        assert screen.results == []
        source = tmp_path / "late.jsonl"
        record = {
            "ts": "2026-11-10T11:30:00Z",
            "role": "user",
            "actor": "me",
            "session": "late-night",
            "text": "Buy persimmons for mom on the way home.",
        }
        source.write_text(json.dumps(record) + "\n", encoding="utf-8")
        ingest(demo.paths, [source], "generic")
        await press(pilot, "ctrl+r")
        assert screen.index_state is not None and screen.index_state.caught_up_turns == 1
        assert [item.text for item in screen.results] == ["Buy persimmons for mom on the way home."]


async def test_a_memory_added_meanwhile_is_searchable_after_refresh(demo: DemoHome, no_model: list[str]) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await search(pilot, "ryokan deposit")
        assert not [item for item in screen.results if item.kind == "memory"]
        assert app.session is not None
        added = app.session.vault.add_memory("Paid the Hakuba ryokan deposit: 20,000 yen.", ["travel"])
        await press(pilot, "ctrl+r")
        memories = [item for item in screen.results if item.kind == "memory"]
        assert [m.id for m in memories][:1] == [added.memory_id] and memories[0].reviewed is False
        assert str(screen.query_one("#search-results", DataTable).get_row_at(0)[2]) == "· memory"


async def test_usable_at_80x24_and_letters_type_into_the_query(demo: DemoHome, no_model: list[str]) -> None:
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "f5")
        screen = app.screen
        assert isinstance(screen, SearchScreen)
        await pilot.press(*"trx")  # t, r and x are filter keys in the results, plain letters here
        assert screen.query_one("#search-query", Input).value == "trx"
        assert not isinstance(app.screen, FilterDialog) and not screen.filters.active
        screen.query_one("#search-query", Input).value = ""
        await pilot.press(*DECISION_EN)
        await press(pilot, "enter", "down")
        table = screen.query_one("#search-results", DataTable)
        assert table.region.height >= 6 and table.region.bottom <= 23
        assert screen.query_one("#search-detail").region.bottom <= 23
        footer_keys = " ".join(str(k.render()) for k in screen.query("FooterKey, FooterLabel"))
        for label in ("Open", "Filter", "Clear", "Mode", "Query"):
            assert label in footer_keys


def test_every_binding_of_search_and_topics_has_an_id_and_a_tooltip() -> None:
    from textual.binding import Binding

    from tui_app.screens.topics import MarkerDialog, TopicsScreen

    for cls in (SearchScreen, SessionViewScreen, FilterDialog, TopicsScreen, MarkerDialog):
        for binding in cls.__dict__.get("BINDINGS", []):
            assert isinstance(binding, Binding)
            assert binding.id and binding.tooltip, f"{cls.__name__}: {binding.key} lacks an id or a tooltip"


async def test_the_palette_offers_the_search_screens_actions(demo: DemoHome, no_model: list[str]) -> None:
    from tui_app.commands import ScreenCommands

    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await search(pilot, "Kate")
        names = {c.name: c for c in ScreenCommands(screen, None).commands()}
        for expected in ("Filters", "Filter: Role", "Filter: Session", "Mode", "Go to Topics", "Go to Search"):
            assert expected in names, sorted(names)
        assert names["Mode"].help.endswith("(^t)") and names["Filter: Tags"].help.endswith("(t)")


@pytest.mark.parametrize("size", SIZES)
async def test_why_auto_did_not_fall_back_is_shown_in_full(
    demo: DemoHome, no_model: list[str], size: tuple[int, int]
) -> None:
    """Two exact hits are fewer than ``recall.min_exact_results``; with no vectors yet, auto cannot fall
    back to semantic and says why and what to run. At 80 columns that takes three lines: all of them
    are shown (wrapped), none cut, and the results keep their room."""
    app = make_app(demo)
    async with app.run_test(size=size) as pilot:
        screen = await search(pilot, f"{DECISION_EN} about sqlite")
        assert screen.answer is not None and screen.answer.result is not None
        note = screen.answer.result.note
        assert note is not None and "no semantic fallback" in note and "reverie reindex" in note
        mode = screen.query_one("#search-mode", Static)
        shown = str(mode.render())
        assert shown.startswith("auto → exact") and shown.endswith(note)
        assert (
            mode.content_size.height >= len(Content(shown).wrap(mode.content_size.width)) >= (3 if size[0] == 80 else 1)
        )
        table = screen.query_one("#search-results", DataTable)
        assert on_screen(app, mode, table, screen.query_one("#search-detail")) and table.region.height >= 6
        assert not no_model


# --- the detail pane below the results -------------------------------------------------------------

LONG_SESSION = "3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b"  # a Claude Code session id: long enough to wrap at 80
LONG_TURNS = {  # query → a turn longer than the pane's three lines even at 200 columns
    "persimmon": "The persimmon tree by the gate finally fruited this year. " * 12,
    "감나무": "대문 옆 감나무에 올해 드디어 감이 열렸다고 엄마가 전화로 알려 주셨다. " * 12,
    "柿の木": "門のそばの柿の木に今年やっと実がなったと母が電話で教えてくれた。" * 12,
}


def squash(text: str) -> str:
    """``text`` without whitespace: how wrapped lines and the original compare."""
    return "".join(text.split())


def ingest_long_turns(demo: DemoHome, folder: Path) -> None:
    source = folder / "long.jsonl"
    records = [
        {"ts": f"2026-11-10T11:{30 + n}:00Z", "role": "user", "actor": "me", "session": LONG_SESSION, "text": text}
        for n, text in enumerate(LONG_TURNS.values())
    ]
    source.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    ingest(demo.paths, [source], "generic")


def check_detail(screen: SearchScreen, detail: Static) -> list[str]:
    """The pane shows the highlighted result as promised: every line within its width and height, where
    the result comes from first (time, speaker and session, or memory id and review), then its text,
    whole or cut with …. Returns the lines."""
    item = screen.highlighted()
    assert item is not None
    lines = str(detail.render()).split("\n")
    width, height = detail.content_size
    assert len(lines) <= height and all(cell_len(text) <= width for text in lines), (width, lines)
    when = exact_time(item.ts, UTC, screen.session.now())
    if item.kind == "memory":
        assert lines[0].startswith(f"{when} memory {item.id} · {'✓ reviewed' if item.reviewed else 'not reviewed'}")
        about = 1
    else:
        head = squash(f"{when} {item.actor} ({item.role}) · session {item.session}")
        heads = [n for n in (1, 2) if squash("".join(lines[:n])) == head]  # wrapped, never cut
        assert heads, (head, lines)
        about = heads[0]
    text, shown = squash(item.text), squash("".join(lines[about:]))
    assert shown == text or (shown.endswith("…") and text.startswith(shown[:-1])), (text, shown)
    assert shown == text or len(lines) == height  # cut only when the pane is full
    return lines


@pytest.mark.parametrize("size", SIZES)
async def test_the_detail_wraps_a_long_result_and_always_says_where_it_comes_from(
    demo: DemoHome, tmp_path: Path, no_model: list[str], size: tuple[int, int]
) -> None:
    """English, Korean and Japanese turns longer than the pane, a long memory with tags, and the demo's
    own results: each wrapped at words into the pane's width (wide characters count two cells), its
    time, speaker and session (or memory id) always in view, its text whole or ending in …; Enter opens
    it whole."""
    ingest_long_turns(demo, tmp_path)
    app = make_app(demo)
    async with app.run_test(size=size) as pilot:
        assert app.session is not None
        app.session.vault.add_memory("Persimmons: " + LONG_TURNS["persimmon"], ["garden", "family", "autumn"])
        cut: set[str] = set()
        for query in (*LONG_TURNS, "persimmons", DECISION_EN, DECISION_KO, DECISION_JA, "Kate skiing"):
            screen = await search(pilot, query)
            detail = screen.query_one("#search-detail", Static)
            table = screen.query_one("#search-results", DataTable)
            assert screen.results and on_screen(app, detail)
            for row, item in enumerate(screen.results):
                table.move_cursor(row=row)
                await pilot.pause()
                lines = check_detail(screen, detail)
                if item.text in LONG_TURNS.values() or item.text.startswith("Persimmons: "):
                    assert lines[-1].endswith("…"), lines
                    cut.add(query)
        assert cut == {*LONG_TURNS, "persimmons"}  # every long turn, and the long memory, was shown cut
        screen = await search(pilot, "persimmon")
        long_turn = [item.session for item in screen.results].index(LONG_SESSION)
        screen.query_one("#search-results", DataTable).move_cursor(row=long_turn)
        assert "Open" in " ".join(str(k.render()) for k in screen.query("FooterKey, FooterLabel"))
        await press(pilot, "enter")
        assert isinstance(app.screen, SessionViewScreen) and app.screen.turn_id == screen.results[long_turn].id


async def test_the_detail_wraps_again_when_the_terminal_is_resized(
    demo: DemoHome, tmp_path: Path, no_model: list[str]
) -> None:
    ingest_long_turns(demo, tmp_path)
    app = make_app(demo)
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await search(pilot, "柿の木")
        detail = screen.query_one("#search-detail", Static)
        wide = check_detail(screen, detail)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        narrow = check_detail(screen, detail)
        assert detail.content_size.width == 78 and narrow != wide and narrow[-1].endswith("…")
        await pilot.resize_terminal(200, 60)
        await settle(pilot)
        assert check_detail(screen, detail) == wide
        screen = await search(pilot, "Kate skiing")  # twenty results: they fit at 200×60, scroll at 80×24
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert screen.query_one("#search-results", DataTable).max_scroll_x == 0


@pytest.mark.parametrize("size", SIZES)
async def test_a_scrolling_result_list_keeps_each_texts_ellipsis_in_view(
    demo: DemoHome, no_model: list[str], size: tuple[int, int]
) -> None:
    """Twenty results scroll at 80×24 and 100×30: the scrollbar takes its columns from the text column,
    not from the end of each text, so a cut text still ends in … and nothing scrolls sideways."""
    app = make_app(demo)
    async with app.run_test(size=size) as pilot:
        screen = await search(pilot, "Kate skiing")
        table = screen.query_one("#search-results", DataTable)
        columns = sum(column.get_render_width(table) for column in table.ordered_columns)
        assert len(screen.results) == 20 and table.max_scroll_x == 0
        assert columns <= table.scrollable_content_region.width, (columns, table.scrollable_content_region)
        cells = [str(table.get_row_at(row)[3]) for row in range(table.row_count)]
        for item, cell in zip(screen.results, cells, strict=True):
            text = " ".join(item.text.split())
            assert cell == text or (cell.endswith("…") and text.startswith(cell[:-1].rstrip())), (text, cell)
