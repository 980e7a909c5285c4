"""Capture in the TUI runs the workbench's capture, as `reverie draft new --suggest` does: the
near-duplicate check (a dialog: replace, keep both, cancel) and the local suggesters."""

from __future__ import annotations

from textual.widgets import Input, TextArea

from core.demo.build import DemoHome
from core.vault.store import MemoryStore
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    make_app,
    press,
)
from tui_app.screens.capture import CaptureScreen, NearDuplicateDialog


def drafts_with(demo: DemoHome, text: str) -> list:
    return [d for d in MemoryStore.open(demo.paths, demo.keys).list_drafts() if d.content == text]


async def capture(pilot, text: str, tags: str = "") -> None:  # type: ignore[no-untyped-def]
    await press(pilot, "f3", "n")
    assert isinstance(pilot.app.screen, CaptureScreen)
    pilot.app.screen.query_one(TextArea).text = text
    pilot.app.screen.query_one(Input).value = tags
    await press(pilot, "ctrl+s")


async def test_a_near_duplicate_asks_and_each_choice_does_what_it_says(demo: DemoHome) -> None:
    existing = MemoryStore.open(demo.paths, demo.keys).list_memories()[0]
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await capture(pilot, existing.content)
        assert isinstance(app.screen, NearDuplicateDialog)
        assert app.screen.duplicate.memory_id == existing.memory_id
        await press(pilot, "c")  # cancel: nothing is written
        assert not isinstance(app.screen, NearDuplicateDialog) and drafts_with(demo, existing.content) == []
        await capture(pilot, existing.content)
        await press(pilot, "k")  # keep both
        kept = drafts_with(demo, existing.content)
        assert len(kept) == 1 and kept[0].supersedes == ()
        await capture(pilot, existing.content)
        await press(pilot, "r")  # replace: the new memory will supersede the old one
        replacing = [d for d in drafts_with(demo, existing.content) if d.supersedes]
        assert len(replacing) == 1 and replacing[0].supersedes == (existing.memory_id,)


async def test_capture_runs_the_local_suggesters(demo: DemoHome) -> None:
    text = "Dinner with Mina at the noodle bar in Mangwon last Friday at 7pm."
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await capture(pilot, text, "friends")
        assert not isinstance(app.screen, NearDuplicateDialog)
    (draft,) = drafts_with(demo, text)
    dates = [s for s in draft.suggestions if s.field_name == "occurred_at"]
    assert [(s.source, s.model) for s in dates] == [("local:dates", "reverie-timeparse")]  # "last Friday at 7pm"
    assert draft.tags == ("friends",)
