"""Each footer is composed once for the keys it shows: the unlock screen's before its first frame,
and Home's while the keys are derived (with the section keys as they will be once unlocked), not
again after the keys; a footer whose keys change is composed again (the passphrase field focused
shows its Enter). ``SteadyFooter`` relies on Textual's private ``Footer._bindings_ready``: the first
test fails loudly when Textual changes it."""

from __future__ import annotations

import inspect
from collections import Counter

import pytest
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets import _footer as textual_footer

from core.demo.build import DEMO_PASSPHRASE, DemoHome
from tests.helpers.tui import FakeEditor, demo_fixture, frozen_clock_fixture, settle, tui_config, until  # noqa: F401
from tui_app.app import ReverieApp
from tui_app.screens.home import HomeScreen
from tui_app.screens.unlock import UnlockScreen
from tui_app.widgets.footer import SteadyFooter, WrappingFooter


def test_textual_footer_still_waits_for_its_bindings_behind_the_flag_steady_footer_sets() -> None:
    assert Footer()._bindings_ready is False  # the flag exists and starts unset
    assert "self._bindings_ready" in inspect.getsource(Footer.compose)  # compose still reads it
    assert SteadyFooter()._bindings_ready is True


@pytest.fixture
def composes(monkeypatch: pytest.MonkeyPatch) -> Counter[int]:
    """How many times each footer (by id) was composed with its keys."""
    counted: Counter[int] = Counter()
    real = textual_footer.Footer.compose

    def compose(self: Footer):  # type: ignore[no-untyped-def]
        counted[id(self)] += 1
        return real(self)

    monkeypatch.setattr(textual_footer.Footer, "compose", compose)
    return counted


async def test_with_the_passphrase_at_hand_each_footer_composes_once(demo: DemoHome, composes: Counter[int]) -> None:
    app = ReverieApp(demo.paths, tui_config(), None, editor=FakeEditor(), label="demo", passphrase=DEMO_PASSPHRASE)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, UnlockScreen), "the unlock screen")
        gate_footer = app.screen.query_one(SteadyFooter)
        await until(pilot, lambda: isinstance(app.screen, HomeScreen), "Home shown")
        await settle(pilot)
        home_footer = app.screen.query_one(WrappingFooter)
        assert composes[id(gate_footer)] == 1
        assert composes[id(home_footer)] == 1
        assert home_footer.keys_on_show() == home_footer.composed_keys  # composed as unlocked
        keys: dict[str, Widget] = {key.key: key for key in home_footer.query("FooterKey")}  # type: ignore[attr-defined]
        assert "r" in keys and not keys["r"].has_class("-disabled")  # a section key, live


async def test_a_footer_whose_keys_change_is_composed_again(demo: DemoHome, composes: Counter[int]) -> None:
    app = ReverieApp(demo.paths, tui_config(), None, editor=FakeEditor(), label="demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, UnlockScreen), "the unlock screen")
        await settle(pilot)
        footer = app.screen.query_one(SteadyFooter)
        shown = [key.description for key in footer.query("FooterKey")]
        assert "Unlock" in shown  # the focused field's Enter
        assert composes[id(footer)] <= 2  # before the field had the focus, then with it
