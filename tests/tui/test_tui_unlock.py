"""The unlock screen: unlocking returns to the section the app locked in; a passphrase at hand is
tried in the screen's worker after the first frame ("Unlocking…" shown meanwhile); the screen says
what a lost passphrase and recovery key mean."""

from __future__ import annotations

import threading

import pytest
from textual.widgets import DataTable, Input, Static

from core.demo.build import DEMO_PASSPHRASE, DemoHome
from tests.helpers.tui import (  # noqa: F401
    SIZES,
    FakeEditor,
    demo_fixture,
    frozen_clock_fixture,
    make_app,
    on_screen,
    press,
    settle,
    tui_config,
    vault_files,
)
from tui_app.app import ReverieApp
from tui_app.screens.home import HomeScreen
from tui_app.screens.memories import MemoriesScreen
from tui_app.screens.unlock import UnlockScreen


def text_of(app: ReverieApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def app_with_passphrase_at_hand(demo: DemoHome, passphrase: str) -> ReverieApp:
    return ReverieApp(demo.paths, tui_config(), None, editor=FakeEditor(), label="demo", passphrase=passphrase)


async def test_unlocking_returns_to_the_section_the_app_locked_in(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await press(pilot, "f4")
        assert isinstance(app.screen, MemoriesScreen)
        await press(pilot, "ctrl+l")
        assert isinstance(app.screen, UnlockScreen)
        await pilot.press(*DEMO_PASSPHRASE, "enter")
        await settle(pilot)
        assert isinstance(app.screen, MemoriesScreen) and app.current_mode == "memories"
        assert app.screen.query_one("#memories-table", DataTable).row_count == 8  # loaded again, new keys
        await press(pilot, "f2", "ctrl+l")
        await pilot.press(*DEMO_PASSPHRASE, "enter")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)  # locked on Home: back on Home


async def test_a_passphrase_at_hand_unlocks_after_the_first_frame(
    demo: DemoHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = app_with_passphrase_at_hand(demo, DEMO_PASSPHRASE)
    release = threading.Event()
    real_unlock = app.workbench.unlock

    def slow_unlock(passphrase: str | None = None) -> object:
        assert release.wait(30), "the test never released the key derivation"
        return real_unlock(passphrase)

    monkeypatch.setattr(app.workbench, "unlock", slow_unlock)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, UnlockScreen)  # drawn while Argon2id still runs
        assert text_of(app, "#gate-message").startswith("Unlocking…")
        assert app.screen.query_one(Input).disabled
        release.set()
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen) and not app.locked


async def test_a_wrong_passphrase_at_hand_says_where_it_came_from_and_asks(demo: DemoHome) -> None:
    before = vault_files(demo.paths.root)
    app = app_with_passphrase_at_hand(demo, "not the passphrase")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, UnlockScreen) and app.locked
        message = text_of(app, "#gate-message")
        assert "REVERIE_PASSPHRASE or the keyring is wrong" in message and "Nothing was changed" in message
        field = app.screen.query_one(Input)
        assert not field.disabled and app.screen.focused is field
        assert vault_files(demo.paths.root) == before
        await pilot.press(*DEMO_PASSPHRASE, "enter")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)


@pytest.mark.parametrize("size", SIZES)
async def test_the_unlock_screen_says_a_lost_passphrase_and_recovery_key_lose_the_vault(
    demo: DemoHome, size: tuple[int, int]
) -> None:
    app = make_app(demo, locked=True)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        lost = app.screen.query_one("#gate-lost", Static)
        text = " ".join(str(lost.render()).split())
        assert "reverie passphrase change --recovery-key" in text
        assert "neither the passphrase nor a recovery key, the vault cannot be opened" in text
        assert on_screen(app, lost, app.screen.query_one(Input))
