"""Home before its slow parts: the counts show and every key answers while the home is still being
verified (its own worker), and the verification's result shows when it ends; with the passphrase at
hand, Home is composed while the keys are derived and reads nothing stored before them."""

from __future__ import annotations

import threading

import pytest
from textual.widgets import Static

from core.demo.build import DEMO_PASSPHRASE, DemoHome
from tests.helpers.tui import FakeEditor, demo_fixture, frozen_clock_fixture, make_app, settle, tui_config, until  # noqa: F401
from tui_app.app import ReverieApp
from tui_app.screens.home import HomeScreen
from tui_app.screens.memories import MemoriesScreen
from tui_app.screens.unlock import UnlockScreen
from tui_app.widgets.dialogs import ErrorDialog

WAIT = 30.0  # seconds a held worker waits for the test at most


def vault_text(app: ReverieApp) -> str:
    return str(app.screen.query_one("#home-vault", Static).render())


def verifying(app: ReverieApp) -> bool:
    return any(w.group == "verify" and w.is_running for w in app.workers)


async def test_home_answers_keys_before_its_verification_ends_and_shows_it_then(
    demo: DemoHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(demo)
    release = threading.Event()
    real_verify = app.workbench.verify

    def slow_verify(*args: object, **kwargs: object) -> object:
        assert release.wait(WAIT), "the test never released the verification"
        return real_verify(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(app.workbench, "verify", slow_verify)
    async with app.run_test(size=(100, 30)) as pilot:
        home = app.screen
        assert isinstance(home, HomeScreen)
        await until(pilot, lambda: "8 memories" in vault_text(app), "Home shows its counts", tries=500)
        vault = vault_text(app)
        assert "8 memories · 6 reviewed · 2 not" in vault and "verifying" in vault and "✓" not in vault
        assert verifying(app)
        await pilot.press("m")  # a key of Home's answers while the verification runs
        await until(pilot, lambda: isinstance(app.screen, MemoriesScreen), "m opens Memories", tries=500)
        await pilot.press("f2")
        await until(pilot, lambda: app.screen is home, "F2 comes back to Home", tries=500)
        assert verifying(app) and "verifying" in vault_text(app)
        release.set()
        await settle(pilot)
        vault = vault_text(app)
        assert "✓ verified: 8 records" in vault and "verifying" not in vault
        assert not isinstance(app.screen, ErrorDialog)


async def test_a_problem_found_after_the_counts_heads_the_banner(demo: DemoHome) -> None:
    record = next(demo.paths.vault.glob("mem_*.json"))
    data = bytearray(record.read_bytes())
    data[len(data) // 2] ^= 1
    record.write_bytes(bytes(data))
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert "✗ Verification found" in vault_text(app)
        banner = str(app.screen.query_one("#home-notices", Static).render())
        assert banner.startswith("✗ Verification found") and "(press m)" in banner


async def test_home_is_composed_while_the_keys_are_derived_and_reads_nothing_before_them(
    demo: DemoHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = ReverieApp(demo.paths, tui_config(), None, editor=FakeEditor(), label="demo", passphrase=DEMO_PASSPHRASE)
    release = threading.Event()
    real_unlock = app.workbench.unlock

    def slow_unlock(passphrase: str | None = None) -> object:
        assert release.wait(WAIT), "the test never released the key derivation"
        return real_unlock(passphrase)

    monkeypatch.setattr(app.workbench, "unlock", slow_unlock)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "home" in app.ready_screens, "Home composed while the keys are derived", tries=500)
        ahead = app.ready_screens["home"]
        await pilot.pause(0.1)  # anything Home would start on mount has had its turn
        assert isinstance(app.screen, UnlockScreen) and app.locked and not app.workbench.unlocked
        assert isinstance(ahead, HomeScreen) and ahead.summary is None
        assert not [w for w in app.workers if w.node is ahead]  # nothing read, nothing failed
        release.set()
        await settle(pilot)
        assert app.screen is ahead  # the screen composed ahead is the one shown
        assert "8 memories" in vault_text(app) and "✓ verified" in vault_text(app)
