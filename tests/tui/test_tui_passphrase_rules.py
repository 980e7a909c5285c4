"""The TUI's create-vault screen and passphrase change refuse a new passphrase of fewer than 8
characters or only whitespace, as `reverie init` and `reverie passphrase change` do, writing nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.demo.build import DEMO_PASSPHRASE, DemoHome
from core.paths import HomePaths
from core.vault.crypto import KdfParams, unlock
from tests.helpers.tui import FakeEditor, demo_fixture, frozen_clock_fixture, make_app, settle, tui_config  # noqa: F401
from tests.tui.test_tui_passphrase import open_change_dialog, stored, text_of, type_into
from tui_app.app import ReverieApp
from tui_app.screens.create_vault import CreateVaultScreen

pytestmark = pytest.mark.usefixtures("frozen_clock")


async def test_create_vault_refuses_only_spaces(tmp_path: Path) -> None:
    paths = HomePaths.at(tmp_path / "fresh")
    app = ReverieApp(paths, tui_config(), None, kdf=KdfParams.for_tests(), editor=FakeEditor())
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, CreateVaultScreen)
        await pilot.press(*" " * 10, "enter")
        assert "must not be empty or only spaces" in text_of(app, "#gate-message")
        await settle(pilot)
        assert not paths.vault_header.exists()


@pytest.mark.parametrize(("weak", "said"), [(" " * 9, "only spaces"), ("seven77", "at least 8 characters")])
async def test_change_refuses_a_weak_new_passphrase(demo: DemoHome, weak: str, said: str) -> None:
    app = make_app(demo)
    before = stored(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_change_dialog(pilot, app)
        await type_into(pilot, app, "current", DEMO_PASSPHRASE)
        await type_into(pilot, app, "new", weak)
        await type_into(pilot, app, "again", weak)
        assert said in text_of(app, "#passphrase-message")
    assert stored(demo) == before
    unlock(demo.paths.vault_header, DEMO_PASSPHRASE)
