"""The demo answers its headline question ("what did we decide last Tuesday night?") in English,
Korean and Japanese with the default search mode and no vectors, whatever the hour and the weekday,
in Seoul and in UTC: the decision's own turns (or the memory of it) fill the top three. First through
the core's one search entry point over a week of frozen clocks, then in the app at 80×24 and 100×30."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from textual.widgets import Input

from core.config import load_config
from core.demo.build import DEMO_STEPS, build_demo_home
from core.demo.conversations import DECISION_NIGHT, decision_nights
from core.recall import Recaller, RecallItem
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    make_app,
    press,
)
from tui_app.screens.search import SearchScreen

HEADLINES = {
    "en": "what did we decide last Tuesday night?",
    "ko": "지난주 화요일 밤에 뭘 정했지?",
    "ja": "先週の火曜日の夜に何を決めた?",
}
DECISION_SESSIONS = tuple(f"{item.assistant}-{item.slug}-" for item in DECISION_NIGHT)
DEADLINE_MEMORY = "締め切りを3月末に決めた"
MONDAY = datetime(2026, 11, 30, 0, 0, tzinfo=UTC)
# every 13 hours over a week: each weekday at several hours, in both zones' mornings, days and nights
CLOCKS = [MONDAY + timedelta(hours=h) for h in range(0, 24 * 7, 13)]


def is_decision(item: RecallItem) -> bool:
    if item.kind == "memory":
        return DEADLINE_MEMORY in item.text
    return item.session is not None and item.session.startswith(DECISION_SESSIONS)


@pytest.mark.parametrize("zone_name", ["Asia/Seoul", "UTC"])
def test_the_headline_finds_the_decision_at_any_hour_of_the_week(tmp_path: Path, zone_name: str) -> None:
    zone = ZoneInfo(zone_name)
    steps = [step for step in DEMO_STEPS if step[0] in ("memories", "conversations")]
    misses: list[str] = []
    for i, now in enumerate(CLOCKS):
        demo = build_demo_home(tmp_path / f"demo-{i}", now=now, steps=steps, timezone=zone_name)
        config = load_config(demo.paths.config)
        assert config.zone() == zone
        with Recaller.open(demo.paths, config) as recaller:
            for language, question in HEADLINES.items():
                answer = recaller.search(question, now=now, zone=zone, limit=10)
                top = answer.results[:3]
                if answer.mode != "exact" or len(top) < 3 or not all(is_decision(item) for item in top):
                    shown = [f"{item.kind}:{item.session}:{item.text[:20]}" for item in top]
                    misses.append(f"{now.astimezone(zone):%a %H:%M} {language} {answer.mode}: {shown}")
    assert not misses, "\n".join(misses)


def test_the_demo_dates_come_from_the_real_date_suggester(tmp_path: Path) -> None:
    now = datetime(2026, 12, 3, 1, 0, tzinfo=UTC)  # Thursday 10:00 in Seoul
    demo = build_demo_home(tmp_path / "demo", now=now, timezone="Asia/Seoul")
    from core.vault.store import MemoryStore

    vault = MemoryStore.open(demo.paths, demo.keys)
    dated = {s.suggestion_id: s for d in vault.list_drafts() for s in d.suggestions if s.field_name == "occurred_at"}
    assert dated and all(s.source == "local:dates" and s.model == "reverie-timeparse" for s in dated.values())
    seoul = ZoneInfo("Asia/Seoul")
    fts5 = datetime.fromisoformat(dated["sug_fts5_when"].value).astimezone(seoul)
    night, _ = decision_nights(now, seoul)["en"]
    assert fts5.date() == night.astimezone(seoul).date() and fts5.weekday() == 1  # "Late on Tuesday"
    jeju = datetime.fromisoformat(dated["sug_jeju_when"].value).astimezone(seoul)
    assert jeju.weekday() == 5  # "지난주 토요일": a Saturday
    deadline = datetime.fromisoformat(dated["sug_deadline_when"].value)
    assert deadline == decision_nights(now, seoul)["ja"][0]  # 火曜日の夜 = the night 先週の火曜日の夜 names


@pytest.mark.parametrize("size", [(80, 24), (100, 30)], ids=["80x24", "100x30"])
@pytest.mark.parametrize("language", list(HEADLINES))
async def test_the_app_answers_the_headline(demo: object, size: tuple[int, int], language: str) -> None:
    app = make_app(demo)  # type: ignore[arg-type]
    async with app.run_test(size=size) as pilot:
        await press(pilot, "f5")
        screen = app.screen
        assert isinstance(screen, SearchScreen)
        field = screen.query_one("#search-query", Input)
        field.focus()
        field.value = HEADLINES[language]
        await press(pilot, "enter")
        top = screen.results[:3]
        assert len(top) == 3 and all(is_decision(item) for item in top), [item.text[:30] for item in top]
        assert "exact" in str(screen.query_one("#search-mode").render())
