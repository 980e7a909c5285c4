"""Capture and suggestion edits read as a person means them: Tab typed in a burst moves to the tags
field, a time edit takes plain language (read with the time grammar, the reading shown before it is
accepted), and an edit that looks meant for another field says so before it is stored."""

from __future__ import annotations

import time

import pytest
from textual import events
from textual.widgets import Input, Static, TextArea

from core.demo.build import DemoHome
from core.vault.store import MemoryStore
from core.workbench.review import Review
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    make_app,
    open_draft,
    press,
    settle,
)
from tui_app.screens.capture import CaptureScreen
from tui_app.screens.draft import DraftReviewScreen
from tui_app.widgets.dialogs import ConfirmDialog, EditDialog


def burst(app: object, text: str) -> None:
    """Keys as a fast typist or a paste without bracketing sends them: all queued before any is handled."""
    for char in text:
        key = "tab" if char == "\t" else ("space" if char == " " else char)
        app.post_message(events.Key(key, char))  # type: ignore[attr-defined]


def highlight(app: object, suggestion_id: str) -> None:
    table = app.screen.query_one("#suggestions")  # type: ignore[attr-defined]
    table.move_cursor(row=table.get_row_index(suggestion_id))


def decision(demo: DemoHome, draft_id: str, suggestion_id: str):  # type: ignore[no-untyped-def]
    return MemoryStore.open(demo.paths, demo.keys).get_draft(draft_id).decision_for(suggestion_id)


async def test_tab_typed_in_a_burst_moves_to_the_tags(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await press(pilot, "f3", "n")
        assert isinstance(app.screen, CaptureScreen)
        burst(app, "We will visit Jeju in April.\tfamily, travel")
        await settle(pilot)
        assert app.screen.query_one(TextArea).text == "We will visit Jeju in April."
        assert app.screen.query_one(Input).value == "family, travel"


async def test_a_time_edit_reads_plain_language_and_shows_the_reading(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_draft(pilot, "draft_demo_fts5")
        assert isinstance(app.screen, DraftReviewScreen)
        highlight(app, "sug_fts5_when")
        await press(pilot, "e")
        assert isinstance(app.screen, EditDialog)
        assert "a time" in str(app.screen.query_one(".dialog-title").render())  # the field's kind is named
        app.screen.query_one(Input).value = ""
        await pilot.press(*"tuesday 23:10")
        await settle(pilot)
        reading = str(app.screen.query_one("#edit-reading", Static).render())
        assert "Tue 10 Nov 2026 23:10" in reading  # the frozen now is Tue 10 Nov 2026 12:00 UTC
        await press(pilot, "enter")
        assert not isinstance(app.screen, EditDialog)
    accepted = decision(demo, "draft_demo_fts5", "sug_fts5_when")
    assert accepted is not None and accepted.edited and accepted.value == "2026-11-10T23:10:00+00:00"


async def test_a_time_edit_that_is_no_time_is_refused_in_the_dialog(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_draft(pilot, "draft_demo_fts5")
        highlight(app, "sug_fts5_when")
        await press(pilot, "e")
        app.screen.query_one(Input).value = ""
        await pilot.press(*"whenever", "enter")
        await settle(pilot)
        assert isinstance(app.screen, EditDialog)  # still open, saying why
        assert "no time found in 'whenever'" in str(app.screen.query_one("#edit-reading", Static).render())
    assert decision(demo, "draft_demo_fts5", "sug_fts5_when") is None


async def test_a_time_typed_into_people_is_questioned_before_it_is_stored(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_draft(pilot, "draft_demo_fts5")
        highlight(app, "sug_fts5_people")  # one row off the time suggestion
        await press(pilot, "e")
        assert "Edit people (names" in str(app.screen.query_one(".dialog-title").render())
        app.screen.query_one(Input).value = ""
        await pilot.press(*"tuesday 23:10", "enter")
        await settle(pilot)
        assert isinstance(app.screen, EditDialog)
        warning = str(app.screen.query_one("#edit-reading", Static).render())
        assert "reads as a time" in warning and "people holds names" in warning
        assert decision(demo, "draft_demo_fts5", "sug_fts5_people") is None
        await press(pilot, "enter")  # Enter again: the person means it
        assert not isinstance(app.screen, EditDialog)
    kept = decision(demo, "draft_demo_fts5", "sug_fts5_people")
    assert kept is not None and kept.value == ("tuesday 23:10",)


def slow_decisions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Storing a decision takes a moment, as on a busy machine: keys typed meanwhile arrive first."""
    accept = Review.accept

    def slow_accept(self: Review, *args: object, **kwargs: object) -> object:
        time.sleep(0.3)
        return accept(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Review, "accept", slow_accept)


async def test_a_key_pressed_right_after_a_confirmation_acts_on_the_stored_decision(
    demo: DemoHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    slow_decisions(monkeypatch)
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_draft(pilot, "draft_demo_fts5")
        highlight(app, "sug_fts5_when")
        await press(pilot, "a")
        burst(app, "yr")  # confirm, and at once reject the next one
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        assert app.screen.title_text == "Reject this suggestion?"
        assert app.screen.body.startswith("people = ")  # the next pending one, not the one just accepted
        await press(pilot, "y")
    draft = MemoryStore.open(demo.paths, demo.keys).get_draft("draft_demo_fts5")
    assert draft.decision_for("sug_fts5_when").action == "accepted"  # type: ignore[union-attr]
    assert draft.decision_for("sug_fts5_people").action == "rejected"  # type: ignore[union-attr]


async def test_a_cursor_move_right_after_a_confirmation_is_kept(
    demo: DemoHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    slow_decisions(monkeypatch)
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_draft(pilot, "draft_demo_fts5")
        highlight(app, "sug_fts5_people")
        await press(pilot, "a")
        burst(app, "y")
        for _ in range(2):  # up to the title, before the decision is stored
            app.post_message(events.Key("up", None))
        await settle(pilot)
        table = app.screen.query_one("#suggestions")
        assert table.cursor_row == table.get_row_index("sug_fts5_title")


async def test_ctrl_u_then_a_new_value_typed_in_a_burst_keeps_the_new_value(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_draft(pilot, "draft_demo_fts5")
        highlight(app, "sug_fts5_when")
        await press(pilot, "e")
        app.post_message(events.Key("ctrl+u", "\x15"))
        burst(app, "tuesday 23:10")
        await settle(pilot)
        assert app.screen.query_one(Input).value == "tuesday 23:10"
