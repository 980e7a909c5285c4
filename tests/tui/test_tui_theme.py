"""A theme picked from the command palette is the theme of the next start (``ui.json`` in the home)."""

from __future__ import annotations

import json
from pathlib import Path

from textual.pilot import Pilot

from core.demo.build import DemoHome
from tests.helpers.tui import demo_fixture, frozen_clock_fixture, make_app, press, settle  # noqa: F401
from tui_app.ui_state import UI_STATE_FILE, UiState, load_ui_state


async def pick_theme_from_palette(pilot: Pilot[None], name: str) -> None:
    await press(pilot, "ctrl+p")
    await pilot.press(*"theme")
    await press(pilot, "enter")  # "Theme": the palette lists the themes
    await pilot.press(*name)
    await press(pilot, "enter")


async def test_a_theme_picked_in_the_palette_survives_a_restart(demo: DemoHome) -> None:
    state_file = demo.paths.root / UI_STATE_FILE
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert app.theme == "textual-dark" and not state_file.exists()  # nothing written until one is picked
        await pick_theme_from_palette(pilot, "nord")
        await settle(pilot)
        assert app.theme == "nord"
    assert json.loads(state_file.read_text(encoding="utf-8")) == {"theme": "nord"}
    assert state_file.stat().st_mode & 0o777 == 0o600

    again = make_app(demo)
    async with again.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert again.theme == "nord"
        nord = again.current_theme
        assert again.screen.styles.background.hex.lower() == nord.background.lower()  # drawn in it, not just named


async def test_the_locked_app_starts_in_the_remembered_theme_too(demo: DemoHome) -> None:
    (demo.paths.root / UI_STATE_FILE).write_text('{"theme": "gruvbox"}', encoding="utf-8")
    app = make_app(demo, locked=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert app.theme == "gruvbox"


async def test_an_unusable_state_file_is_one_line_and_the_defaults(demo: DemoHome) -> None:
    state_file = demo.paths.root / UI_STATE_FILE
    state_file.write_text('{"theme": "no-such-theme"}', encoding="utf-8")
    app = make_app(demo)
    said: list[str] = []
    app.notify = lambda message, **_: said.append(message)  # type: ignore[method-assign]
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert app.theme == "textual-dark"
        (notice,) = [line for line in said if "no-such-theme" in line]
        assert notice.startswith(f"{state_file}: field 'theme'") and "\n" not in notice


def test_state_file_errors_name_the_file_and_the_line(tmp_path: Path) -> None:
    folder = tmp_path
    broken = folder / UI_STATE_FILE
    broken.write_text('{\n  "theme": nord\n}', encoding="utf-8")
    state, problem = load_ui_state(broken)
    assert state == UiState() and problem.startswith(f"{broken}: line 2: not JSON")
    broken.write_text('{"theme": 3}', encoding="utf-8")
    assert "field 'theme' must be a string" in load_ui_state(broken)[1]
    broken.write_text("[]", encoding="utf-8")
    assert "expected a JSON object" in load_ui_state(broken)[1]
    assert load_ui_state(folder / "absent.json") == (UiState(), "")
