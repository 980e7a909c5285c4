"""What makes the app safe and light over a remote link: no app without a terminal, the keys gone from
memory when it locks, and a loading state that is drawn once instead of 16 times a second.

The end-to-end proofs over a real sshd and tmux are in ``tests/e2e/test_ssh.py``."""

from __future__ import annotations

import asyncio
import gc
import io
import weakref
from pathlib import Path

import pytest
from textual.screen import Screen
from textual.widgets import LoadingIndicator

from core.config import load_config
from core.crypto import unlock
from core.demo import DEMO_PASSPHRASE, DemoHome, build_demo_home
from core.errors import VaultLocked
from tui_app import app as app_module
from tui_app.app import ForgottenKeys, NoTerminal, ReverieApp, StillLoadingIndicator, require_terminal


@pytest.fixture
def demo(tmp_path: Path) -> DemoHome:
    return build_demo_home(tmp_path / "demo")


def no_tty(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TEXTUAL_DRIVER", raising=False)
    monkeypatch.setattr(app_module.sys, "__stdin__", io.StringIO())
    monkeypatch.setattr(app_module.sys, "__stdout__", io.StringIO())


def test_without_a_terminal_the_app_does_not_start(demo: DemoHome, monkeypatch: pytest.MonkeyPatch) -> None:
    no_tty(monkeypatch)
    with pytest.raises(NoTerminal, match="ssh -t HOST reverie"):
        require_terminal()
    app = ReverieApp(demo.paths, load_config(demo.paths.config))
    with pytest.raises(NoTerminal):
        app.run()
    assert app.return_code is None  # it never ran
    monkeypatch.setenv("TEXTUAL_DRIVER", "textual.drivers.web_driver:WebDriver")  # a browser tab
    require_terminal()


async def test_locking_takes_the_keys_out_of_memory(demo: DemoHome) -> None:
    app = ReverieApp(demo.paths, load_config(demo.paths.config), unlock(demo.paths.vault_header, DEMO_PASSPHRASE))
    async with app.run_test(size=(100, 30)) as pilot:
        for key in ("f3", "f4", "f8", "f2"):  # screens and workers that held the session
            await pilot.press(key)
            await app.workers.wait_for_complete()
            await pilot.pause()
        assert app.session is not None
        vault = app.session.vault
        keys = weakref.ref(vault.keys)
        draft_path = next(demo.paths.drafts.iterdir())
        await pilot.press("ctrl+l")
        await app.workers.wait_for_complete()
        await pilot.pause()
        gc.collect()
        assert app.locked and "Reverie is locked" in str(app.screen.query_one(".gate-title").render())
        assert keys() is None, "the vault's keys are still in memory after locking"
        assert isinstance(vault.keys, ForgottenKeys) and isinstance(vault.ledger.keys, ForgottenKeys)
        with pytest.raises(VaultLocked, match="locked"):
            vault.get_draft(draft_path.stem)  # whatever still holds the old vault cannot decrypt


async def drawings_in_a_second(app: ReverieApp) -> tuple[LoadingIndicator, int]:
    """Show the app's loading widget (what ``widget.loading = True`` covers a widget with) on a screen
    of its own and count how often it is drawn in a second."""
    indicator = app.get_loading_widget()
    assert isinstance(indicator, LoadingIndicator)
    drawn: list[float] = []
    draw = indicator.render

    def counting() -> object:
        drawn.append(0)
        return draw()

    indicator.render = counting  # type: ignore[method-assign]
    screen: Screen[None] = Screen()
    await app.push_screen(screen)
    await screen.mount(indicator)
    await asyncio.sleep(1.0)
    return indicator, len(drawn)


async def test_a_loading_state_is_drawn_once_with_animations_off(demo: DemoHome) -> None:
    app = ReverieApp(demo.paths, load_config(demo.paths.config), demo.keys)
    assert app.animation_level == "none"  # the default: tui.animations = false
    async with app.run_test(size=(100, 30)):
        indicator, drawn = await drawings_in_a_second(app)
        assert isinstance(indicator, StillLoadingIndicator)
        assert drawn <= 2, f"drawn {drawn} times in a second"
        assert "Loading" in str(indicator.render())


async def test_with_animations_on_the_loading_dots_move(demo: DemoHome) -> None:
    config = load_config(demo.paths.config)
    config.tui.animations = True
    app = ReverieApp(demo.paths, config, demo.keys)
    async with app.run_test(size=(100, 30)):
        indicator, drawn = await drawings_in_a_second(app)
        assert not isinstance(indicator, StillLoadingIndicator)
        assert drawn >= 5, f"drawn {drawn} times in a second"  # Textual's moving dots: 16 a second
