"""The first frame parses only the gate's rules (``gate.tcss``); every other screen's (``app.tcss``)
are read before any other screen is made or shown: beside the key derivation when the passphrase is
at hand, when the keymap page or the palette opens over the gate, when a session starts. Every
screen is styled as it is with the whole stylesheet read at start."""

from __future__ import annotations

from pathlib import Path

from textual.screen import Screen

from core.demo.build import DEMO_PASSPHRASE, DemoHome
from tests.helpers.tui import FakeEditor, demo_fixture, frozen_clock_fixture, make_app, press, settle, tui_config, until  # noqa: F401
from tui_app import app as app_module
from tui_app.app import ReverieApp
from tui_app.screens.home import HomeScreen
from tui_app.screens.registry import SECTIONS


class WholeStylesheetApp(ReverieApp):
    """The reference: every rule read before the first frame."""

    CSS_PATH = [Path(app_module.__file__).with_name(name) for name in ("gate.tcss", "app.tcss")]  # noqa: RUF012


def read_files(app: ReverieApp) -> set[str]:
    """The names of the CSS files the app's stylesheet has read so far."""
    return {Path(path).name for path, class_var in app.stylesheet.source if not class_var}


def styles_of(screen: Screen[object]) -> dict[tuple[int, str, str | None], str]:
    """Each node of ``screen`` (in DOM order, with its type and id) and the CSS its rules gave it."""
    return {(index, type(node).__name__, node.id): node.styles.css
            for index, node in enumerate(screen.walk_children(with_self=True))}


def differences(mine: dict[tuple[int, str, str | None], str],
                reference: dict[tuple[int, str, str | None], str]) -> list[str]:
    if mine.keys() != reference.keys():
        return [f"other nodes: {sorted(set(mine) ^ set(reference))[:5]}"]
    return [f"{key}: {mine[key]!r} != {reference[key]!r}" for key in mine if mine[key] != reference[key]]


async def test_the_unlock_screen_is_drawn_with_the_gate_rules_only(demo: DemoHome) -> None:
    app = make_app(demo, locked=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert read_files(app) == {"gate.tcss"}  # the sections' rules are not parsed for the first frame
        mine = styles_of(app.screen)
    reference = WholeStylesheetApp(demo.paths, tui_config(), None, editor=FakeEditor(), label="demo")
    async with reference.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert read_files(reference) == {"gate.tcss", "app.tcss"}
        assert not differences(mine, styles_of(reference.screen))


async def test_the_keymap_page_over_the_gate_has_every_rule(demo: DemoHome) -> None:
    shown: dict[str, dict[tuple[int, str, str | None], str]] = {}
    for name, app in (("lazy", make_app(demo, locked=True)),
                      ("whole", WholeStylesheetApp(demo.paths, tui_config(), None, editor=FakeEditor()))):
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await press(pilot, "f1")
            assert type(app.screen).__name__ == "KeymapScreen"
            assert "app.tcss" in read_files(app)
            shown[name] = styles_of(app.screen)
    assert not differences(shown["lazy"], shown["whole"])


async def test_the_passphrase_at_hand_reads_every_rule_while_the_keys_are_derived(demo: DemoHome) -> None:
    app = ReverieApp(demo.paths, tui_config(), None, editor=FakeEditor(), label="demo", passphrase=DEMO_PASSPHRASE)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.summary is not None, "Home")
        await settle(pilot)
        assert "app.tcss" in read_files(app)
        mine = styles_of(app.screen)
    reference = WholeStylesheetApp(demo.paths, tui_config(), None, editor=FakeEditor(), label="demo",
                                   passphrase=DEMO_PASSPHRASE)
    async with reference.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(reference.screen, HomeScreen) and reference.screen.summary is not None,
                    "Home")
        await settle(pilot)
        assert not differences(mine, styles_of(reference.screen))


async def test_every_section_is_styled_as_with_the_whole_stylesheet(demo: DemoHome) -> None:
    shown: dict[str, dict[str, dict[tuple[int, str, str | None], str]]] = {}
    for name, app in (("lazy", make_app(demo)),
                      ("whole", WholeStylesheetApp(demo.paths, tui_config(), demo.keys, editor=FakeEditor(),
                                                   label="demo"))):
        shown[name] = {}
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            for section in SECTIONS:
                await press(pilot, section.key)
                shown[name][section.name] = styles_of(app.screen)
    for section in SECTIONS:
        assert not differences(shown["lazy"][section.name], shown["whole"][section.name]), section.name
