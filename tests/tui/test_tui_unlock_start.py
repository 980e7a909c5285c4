"""The unlock screen reaches the terminal before the work done beside the key derivation starts. After
the keys: Home, composed ahead while they were derived, loads behind the gate and is shown
whole (counts, verification, activity, its footer composed for the unlocked app), or after
``HOME_WAIT`` with its loading indicator when its load is slow; keys that come while Home is still
being composed wait for that Home instead of making another."""

from __future__ import annotations

import asyncio
import threading

import pytest
from textual.widgets import Static

from core.demo.build import DEMO_PASSPHRASE, DemoHome
from tests.helpers.tui import FakeEditor, demo_fixture, frozen_clock_fixture, settle, tui_config, until  # noqa: F401
from tui_app import app as app_module
from tui_app import offscreen
from tui_app.app import ReverieApp
from tui_app.screens.home import HomeScreen
from tui_app.screens.unlock import UnlockScreen
from tui_app.widgets.dialogs import ErrorDialog
from tui_app.widgets.footer import WrappingFooter

WAIT = 30.0  # seconds a held step waits for the test at most


def at_hand(demo: DemoHome) -> ReverieApp:
    return ReverieApp(demo.paths, tui_config(), None, editor=FakeEditor(), label="demo", passphrase=DEMO_PASSPHRASE)


def vault_text(app: ReverieApp) -> str:
    return str(app.screen.query_one("#home-vault", Static).render())


async def test_home_is_shown_whole_after_the_keys_with_its_footer_for_the_unlocked_app(
    demo: DemoHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tui_app.app.HOME_WAIT", WAIT, raising=False)  # Home's load decides here, not the deadline
    app = at_hand(demo)
    at_first_showing: list[dict[str, object]] = []

    def on_screen_resume(self: HomeScreen) -> None:
        footer = self.query_one(WrappingFooter)
        summary = self.summary
        at_first_showing.append({
            "counted": summary is not None,
            "verified": summary is not None and summary.verification is not None,
            "activity": getattr(self, "activity_loaded", False),
            "footer as unlocked": footer.keys_on_show() == footer.composed_keys,
            "loading indicator": bool(self.query(".-busy")),
        })

    monkeypatch.setattr(HomeScreen, "on_screen_resume", on_screen_resume)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, HomeScreen), "Home shown")
        await settle(pilot)
        assert at_first_showing[0] == {"counted": True, "verified": True, "activity": True,
                                       "footer as unlocked": True, "loading indicator": False}
        assert "8 memories" in vault_text(app) and "✓ verified" in vault_text(app)


async def test_a_slow_home_load_shows_home_after_the_wait_with_its_loading_indicator(
    demo: DemoHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tui_app.app.HOME_WAIT", 2.0, raising=False)
    release = threading.Event()
    from tui_app.views import data

    real_load = data.load_home_summary

    def held_load(*args: object, **kwargs: object) -> object:
        assert release.wait(WAIT), "the test never released Home's load"
        return real_load(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(data, "load_home_summary", held_load)
    app = at_hand(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.session is not None, "unlocked")
        assert isinstance(app.screen, UnlockScreen)  # the gate stays while Home loads behind it
        await pilot.press("f4")  # a section key meanwhile changes nothing
        await until(pilot, lambda: isinstance(app.screen, HomeScreen), "Home shown after the wait")
        home = app.screen
        assert home.summary is None and home.query_one("#home-panels").has_class("-busy")
        release.set()
        await settle(pilot)
        assert app.screen is home and not home.query(".-busy")
        assert "8 memories" in vault_text(app) and "✓ verified" in vault_text(app)


async def test_keys_that_come_while_home_is_composed_ahead_show_that_home(
    demo: DemoHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    composing = asyncio.Event()
    homes: list[HomeScreen] = []
    real_compose = offscreen.compose_offscreen

    async def held_compose(app: ReverieApp, screen: object) -> bool:
        if isinstance(screen, HomeScreen):
            homes.append(screen)
            await composing.wait()
        return await real_compose(app, screen)  # type: ignore[arg-type]

    monkeypatch.setattr(app_module, "compose_offscreen", held_compose)
    app = at_hand(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.workbench.unlocked and homes, "the keys, Home being composed")
        await pilot.pause(0.2)
        assert isinstance(app.screen, UnlockScreen) and app.locked  # the keys wait for Home
        composing.set()
        await settle(pilot)
        assert len(homes) == 1 and app.screen is homes[0]  # that Home, not one made again
        assert "8 memories" in vault_text(app) and "✓ verified" in vault_text(app)


async def test_a_home_load_that_fails_behind_the_gate_is_said_once_home_shows(
    demo: DemoHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tui_app.views import data

    def failing_load(*args: object, **kwargs: object) -> object:
        raise OSError("database is locked")

    monkeypatch.setattr(data, "load_home_summary", failing_load)
    app = at_hand(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ErrorDialog), "the failure said")
        dialog = app.screen
        assert dialog.title_text == "Could not load the home summary" and "database is locked" in dialog.message
        assert isinstance(app.screen_stack[-2], HomeScreen) and not app.locked


def frames_handed(app: ReverieApp) -> list[str]:
    """A list that records "frame <Screen>" each time a frame is handed to the terminal (a frame held
    by a batch, when ``App._display`` returns at once, is not one); tests add their own events."""
    events: list[str] = []
    display = app._display

    def handed(screen: object, renderable: object) -> None:
        if renderable is not None and not app._batch_count:
            events.append(f"frame {type(screen).__name__}")
        display(screen, renderable)  # type: ignore[arg-type]

    app._display = handed  # type: ignore[method-assign]
    return events


async def test_the_unlock_screen_reaches_the_terminal_before_home_is_prepared(
    demo: DemoHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the passphrase at hand the derivation starts at once, and the work done beside it (every
    screen's rules, Home composed ahead) waits until the unlock screen's frame has been handed to the
    terminal: a frame held by a batch (``App._display`` returns at once then) is not one."""
    app = at_hand(demo)
    events = frames_handed(app)
    real_rules, real_compose = ReverieApp.style_every_screen, ReverieApp.compose_home

    def rules(self: ReverieApp) -> None:
        events.append("rules")
        real_rules(self)

    async def compose_home(self: ReverieApp, session: object) -> None:
        events.append("compose Home")
        await real_compose(self, session)  # type: ignore[arg-type]

    monkeypatch.setattr(ReverieApp, "style_every_screen", rules)
    monkeypatch.setattr(ReverieApp, "compose_home", compose_home)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, HomeScreen), "Home shown")
        await settle(pilot)
    first = events.index("frame UnlockScreen")
    assert first < events.index("rules") and first < events.index("compose Home"), events[:6]


async def test_locked_the_gate_is_the_first_screen_and_the_derivation_starts_after_its_frame(
    demo: DemoHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Starting locked, the unlock screen is the app's first mode: no blank default screen is made,
    styled and switched away from before it (Textual's ``get_default_screen``), and the key derivation
    starts once the unlock screen's first frame is on the terminal, not inside the start's batch."""
    app = at_hand(demo)
    events = frames_handed(app)
    real_unlock = app.workbench.unlock

    def unlock(*args: object, **kwargs: object) -> object:
        events.append("derive")
        return real_unlock(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(app.workbench, "unlock", unlock)
    made_default: list[object] = []
    real_default = ReverieApp.get_default_screen
    monkeypatch.setattr(ReverieApp, "get_default_screen", lambda self: made_default.append(1) or real_default(self))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, HomeScreen), "Home shown")
        await settle(pilot)
    assert made_default == []
    assert events.index("frame UnlockScreen") < events.index("derive"), events[:6]
