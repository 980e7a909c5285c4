"""Speaker names in a narrow column (issue 14): whole when the column allows, else abbreviated so that
different names in the same table stay different (``claude-op`` / ``claude-co`` looked alike).

The pilot tests import a small Claude Code transcript written here record by record (no real
transcript is copied): the assistant's turns have actor ``claude-opus-4-5-20251101``, tool output
has actor ``claude-code``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable

from core.conversation import ingest
from core.demo.build import DemoHome
from tests.helpers.claude_code import OPUS, transcript
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    make_app,
    press,
    settle,
)
from tui_app.screens.search import SearchScreen
from tui_app.widgets.format import speaker_forms, speaker_labels, speaker_width


@pytest.fixture(name="lighthouse")
def lighthouse_fixture(demo: DemoHome, tmp_path: Path) -> DemoHome:
    ingest(demo.paths, [transcript(tmp_path)])
    return demo


# --- the function ---------------------------------------------------------------------------------------


def test_names_that_fit_are_shown_whole() -> None:
    names = ["me", "claude", "gpt-4o", "claude-code"]
    assert speaker_labels(names, 11) == {name: name for name in names}


def test_the_names_the_person_could_not_tell_apart_stay_apart_at_nine_cells() -> None:
    labels = speaker_labels([OPUS, "claude-code"], 9)
    assert labels == {OPUS: "c-opus-4…", "claude-code": "c-code"}
    assert all(len(label) <= 9 for label in labels.values())


def test_a_wider_column_drops_the_date_before_anything_else() -> None:
    assert speaker_labels([OPUS, "claude-code"], 16) == {OPUS: "claude-opus-4-5", "claude-code": "claude-code"}


def test_names_alike_in_every_short_form_keep_their_distinguishing_ends() -> None:
    names = ["assistant-model-a1", "assistant-model-a2", "assistant-model-b1"]
    for width in (4, 6, 9, 12):
        labels = speaker_labels(names, width)
        assert len(set(labels.values())) == len(names), (width, labels)
        assert all(len(label) <= width for label in labels.values())
    assert speaker_labels(names, 6) == {"assistant-model-a1": "a-m-a1", "assistant-model-a2": "a-m-a2",
                                        "assistant-model-b1": "a-m-b1"}
    assert speaker_labels(names, 4) == {"assistant-model-a1": "a…a1", "assistant-model-a2": "a…a2",
                                        "assistant-model-b1": "a…b1"}


def test_two_names_with_the_same_short_form_both_move_to_a_longer_one() -> None:
    labels = speaker_labels(["claude-code", "cursor-code"], 9)
    assert labels == {"claude-code": "claude-c…", "cursor-code": "cursor-c…"}


def test_wide_characters_count_two_cells() -> None:
    labels = speaker_labels(["김철수 어시스턴트", "김철수 사용자"], 9)
    assert len(set(labels.values())) == 2
    assert all(sum(2 if ord(ch) > 0x1100 else 1 for ch in label) <= 9 for label in labels.values())


def test_every_form_fits_and_control_characters_are_shown_escaped() -> None:
    assert all(len(form) <= 7 for form in speaker_forms(OPUS, 7))
    assert "\x1b" not in "".join(speaker_labels(["evil\x1b[2Jname"], 8).values())


def test_the_column_is_as_wide_as_the_longest_name_within_bounds() -> None:
    assert speaker_width(["me", "claude"], 7, 16) == 7
    assert speaker_width(["me", "claude-code"], 7, 16) == 11
    assert speaker_width([OPUS], 7, 16) == 16


# --- the search results -----------------------------------------------------------------------------------


def speakers(screen: SearchScreen) -> dict[str, str]:
    """actor → what the Speaker column shows for it."""
    table = screen.query_one("#search-results", DataTable)
    return {item.actor or "": str(table.get_row_at(i)[1]) for i, item in enumerate(screen.results)}


@pytest.mark.parametrize(("size", "shown"), [((80, 24), {OPUS: "c-opus-4…", "claude-code": "c-code"}),
                                             ((100, 30), {OPUS: "claude-opus-4-5", "claude-code": "claude-code"})])
async def test_search_results_tell_the_model_from_the_tool(
    lighthouse: DemoHome, size: tuple[int, int], shown: dict[str, str]
) -> None:
    app = make_app(lighthouse)
    async with app.run_test(size=size) as pilot:
        await press(pilot, "f5")
        await pilot.press(*"keeper logbook archive")
        await press(pilot, "enter")
        screen = app.screen
        assert isinstance(screen, SearchScreen)
        await settle(pilot)
        found = speakers(screen)
        assert {OPUS, "claude-code"} <= set(found), found
        assert {actor: found[actor] for actor in shown} == shown
        column = screen.query_one("#search-results", DataTable).ordered_columns[1]
        assert column.width == (9 if size[0] < 96 else 16)
