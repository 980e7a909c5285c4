"""The app shell: gate screens, sections and their keys, locking, the keymap, the palette, errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from core.demo.build import DEMO_PASSPHRASE, DemoHome
from core.paths import HomePaths
from core.vault.crypto import KdfParams
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    SIZES,
    FakeEditor,
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    make_app,
    on_screen,
    open_draft,
    press,
    settle,
    tui_config,
    vault_files,
)
from tui_app.app import ReverieApp
from tui_app.commands import ScreenCommands
from tui_app.screens.create_vault import CreateVaultScreen
from tui_app.screens.draft import DraftReviewScreen
from tui_app.screens.home import HomeScreen
from tui_app.screens.memories import MemoriesScreen
from tui_app.screens.memory_detail import MemoryDetailScreen
from tui_app.screens.queue import ReviewQueueScreen
from tui_app.screens.registry import SECTIONS
from tui_app.screens.unlock import UnlockScreen
from tui_app.widgets.dialogs import ErrorDialog

ROOT = Path(__file__).resolve().parents[2]


def text_of(app: ReverieApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


async def test_opens_on_home_with_counts_and_verification(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        review = text_of(app, "#home-review")
        assert "4 open drafts · 9 to decide" in review
        assert "1 approved draft · to finalize" in review
        assert "6 finalized" in review
        vault = text_of(app, "#home-vault")
        assert "8 memories · 6 reviewed · 2 not" in vault
        from core.vault.ledger import Ledger

        entries = len(Ledger(demo.paths, demo.keys).read().entries)  # finalizations, adds, seals, curation moves
        assert entries > 8
        assert f"✓ verified: 8 records, ledger of {entries}" in vault
        assert "1 approved draft waiting to be finalized" in text_of(app, "#home-notices")


async def test_f_keys_and_home_letters_switch_sections(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await press(pilot, "f3")
        assert isinstance(app.screen, ReviewQueueScreen) and app.current_mode == "queue"
        await press(pilot, "f4")
        assert isinstance(app.screen, MemoriesScreen)
        await press(pilot, "f2")
        assert isinstance(app.screen, HomeScreen)
        await press(pilot, "r")
        assert isinstance(app.screen, ReviewQueueScreen)
        await press(pilot, "f2", "m")
        assert isinstance(app.screen, MemoriesScreen)


async def test_each_section_keeps_its_stack_and_its_key_returns_to_its_start(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_draft(pilot, "draft_demo_fts5")
        assert isinstance(app.screen, DraftReviewScreen)
        await press(pilot, "f4")
        assert isinstance(app.screen, MemoriesScreen)
        await press(pilot, "f3")
        assert isinstance(app.screen, DraftReviewScreen)  # the queue section kept its stack
        await press(pilot, "f3")
        assert isinstance(app.screen, ReviewQueueScreen)  # pressed again: back to the section's start


async def test_wrong_passphrase_says_so_and_writes_nothing_then_the_right_one_unlocks(demo: DemoHome) -> None:
    app = make_app(demo, locked=True)
    before = vault_files(demo.paths.root)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, UnlockScreen) and app.locked
        passphrase = app.screen.query_one(Input)
        assert passphrase.password  # never echoed
        await pilot.press(*"not the passphrase", "enter")
        await settle(pilot)
        assert "Wrong passphrase. Nothing was changed" in text_of(app, "#gate-message")
        assert passphrase.value == ""  # the typed text does not linger in the widget
        assert vault_files(demo.paths.root) == before
        assert isinstance(app.screen, UnlockScreen)
        await pilot.press(*DEMO_PASSPHRASE, "enter")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen) and not app.locked


async def test_create_vault_needs_the_passphrase_twice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tui_app.screens.importer import ImportScreen

    monkeypatch.setenv("HOME", str(tmp_path / "me"))  # the import offer looks for ~/.claude/projects here
    paths = HomePaths.at(tmp_path / "fresh")
    app = ReverieApp(paths, tui_config(), None, kdf=KdfParams.for_tests(), editor=FakeEditor())
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, CreateVaultScreen)
        await pilot.press(*"short", "enter")
        assert "at least 8" in text_of(app, "#gate-message")
        await pilot.press("ctrl+u", *"correct horse", "enter", *"correct hearse", "enter")
        await settle(pilot)
        assert "differ" in text_of(app, "#gate-message")
        assert not paths.vault_header.exists()
        await pilot.press(*"correct horse", "enter", *"correct horse", "enter")
        await settle(pilot)
        assert paths.vault_header.exists()
        assert isinstance(app.screen, ImportScreen) and app.screen.first_run  # the import is offered once
        assert "New vault" in text_of(app, "#import-intro") and "Nothing found" in text_of(app, "#import-report")
        await press(pilot, "escape")
        assert isinstance(app.screen, HomeScreen)
        assert "0 open drafts · 0 to decide" in text_of(app, "#home-review")


async def test_lock_forgets_the_session_and_every_section(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_draft(pilot, "draft_demo_fts5")
        await press(pilot, "ctrl+l")
        assert app.locked and isinstance(app.screen, UnlockScreen)
        assert app.open_sections == []
        assert not [s for s in app.screen_stack if isinstance(s, DraftReviewScreen)]
        await press(pilot, "f3")  # the section keys do nothing while locked
        assert isinstance(app.screen, UnlockScreen)
        await pilot.press(*DEMO_PASSPHRASE, "enter")
        await settle(pilot)
        assert isinstance(app.screen, ReviewQueueScreen)  # back in the section it locked in, at its start


async def test_idle_lock_after_the_configured_minutes(demo: DemoHome) -> None:
    config = tui_config()
    config.security.idle_lock_minutes = 5
    app = make_app(demo, config=config)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.last_input -= 4 * 60
        app.check_idle_lock()
        assert not app.locked
        await pilot.press("f3")  # input resets the clock
        app.check_idle_lock()
        assert not app.locked
        app.last_input -= 5 * 60
        app.check_idle_lock()
        await settle(pilot)
        assert app.locked and isinstance(app.screen, UnlockScreen)
        assert "5 minutes" in text_of(app, "#gate-message")


async def test_keymap_from_config_rebinds_keys(demo: DemoHome) -> None:
    app = make_app(demo, config=tui_config(keymap={"section.queue": "f6", "draft.accept": "y"}))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await press(pilot, "f3")
        assert isinstance(app.screen, HomeScreen)
        await press(pilot, "f6")
        assert isinstance(app.screen, ReviewQueueScreen)
        assert "F6 Review" in str(app.screen.query_one("#section-bar-sections", Static).render())


async def test_f1_shows_and_hides_every_key_of_the_screen(demo: DemoHome) -> None:
    from tui_app.screens.keymap import KeymapScreen

    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_draft(pilot, "draft_demo_fts5")
        draft = app.screen
        await press(pilot, "f1")
        assert isinstance(app.screen, KeymapScreen) and app.screen.groups[0].title == "This screen: Draft review"
        assert not app.screen.query("HelpPanel")  # the page, not Textual's narrow side panel
        await press(pilot, "f1")
        assert app.screen is draft


async def test_palette_lists_the_current_screens_actions(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_draft(pilot, "draft_demo_fts5")
        names = {c.name: c for c in ScreenCommands(app.screen, None).commands()}
        for expected in ("Accept", "Edit", "Reject", "History", "Go to Memories", "Lock"):
            assert expected in names, sorted(names)
        assert "Finalize" not in names  # disabled on an open draft: not offered
        assert "(a)" in names["Accept"].help
        await press(pilot, "f2")
        home_names = {c.name: c for c in ScreenCommands(app.screen, None).commands()}
        assert "(r or F3)" in home_names["Go to Review"].help
        await press(pilot, "ctrl+p")
        await pilot.press(*"go to memories")
        for _ in range(50):  # the palette searches in the background
            await pilot.pause(0.05)
            if app.screen.query("CommandList") and app.screen.query_one("CommandList").option_count:
                break
        await press(pilot, "down", "enter")
        assert isinstance(app.screen, MemoriesScreen)


async def test_a_failed_worker_becomes_one_clear_modal(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_draft(pilot, "draft_demo_fts5")
        (demo.paths.drafts / "draft_demo_fts5.json").unlink()  # gone behind the app's back
        await press(pilot, "a", "y")
        assert isinstance(app.screen, ErrorDialog)
        assert "no draft 'draft_demo_fts5'" in app.screen.message
        assert app.screen.title_text == "Could not accept the suggestion"
        await press(pilot, "escape")
        assert isinstance(app.screen, DraftReviewScreen)


async def test_usable_at_80x24(demo: DemoHome) -> None:
    """Every footer key of the busiest screen is on screen at 80 columns, and the review works."""
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_draft(pilot, "draft_demo_dentist")
        footer = app.screen.query_one(Footer)
        palette = [k for k in footer.query("FooterKey") if k.has_class("-command-palette")]
        limit = palette[0].region.x if palette else 80
        shown = [w for w in footer.query("FooterKey, FooterLabel") if w not in palette]
        labels = " ".join(str(w.render()) for w in shown)
        for action in ("Accept", "Edit", "Reject", "Approve", "Finalize", "History", "Back"):
            assert action in labels
        assert all(0 < w.region.right <= limit for w in shown), [(str(w.render()), w.region) for w in shown]
        table = app.screen.query_one("#suggestions")
        assert table.region.height >= 5 and table.region.bottom <= 23
        await press(pilot, "a", "y", "a", "y", "A", "y", "f", "y")
        draft = demo.paths and app.session.vault.get_draft("draft_demo_dentist")  # type: ignore[union-attr]
        assert draft.state == "finalized"


def test_every_binding_has_an_id_and_a_tooltip() -> None:
    from tui_app.screens.capture import CaptureScreen
    from tui_app.screens.create_vault import NewPassphraseInput
    from tui_app.screens.unlock import PassphraseInput
    from tui_app.widgets.dialogs import ConfirmDialog, EditDialog
    from tui_app.widgets.tables import RecordTable

    classes: list[type] = [ReverieApp, DraftReviewScreen, MemoryDetailScreen, UnlockScreen, CreateVaultScreen]
    classes += [CaptureScreen, ConfirmDialog, ErrorDialog, EditDialog, *(s.load() for s in SECTIONS)]
    classes += [PassphraseInput, NewPassphraseInput, RecordTable]
    for cls in classes:
        for binding in cls.__dict__.get("BINDINGS", []):  # each class's own, not Textual's inherited ones
            assert isinstance(binding, Binding)
            if binding.system:
                continue
            assert binding.id and binding.tooltip, f"{cls.__name__}: {binding.key} lacks an id or a tooltip"


def test_every_section_is_a_screen_taking_the_session() -> None:
    for section in SECTIONS:
        screen_class = section.load()
        assert issubclass(screen_class, Screen)
        assert section.name == screen_class.SECTION


def test_the_app_imports_neither_the_cli_nor_anything_heavy() -> None:
    code = "import sys, tui_app.app\nprint('\\n'.join(sorted(sys.modules)))"
    loaded = set(
        subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.split()
    )
    assert not [m for m in loaded if m.startswith("tui_app.cli")]
    assert not [m for m in loaded if m.split(".")[0] in ("sentence_transformers", "torch", "transformers", "click")]


@pytest.mark.parametrize("size", SIZES)
async def test_every_key_of_the_home_footer_is_on_screen(demo: DemoHome, size: tuple[int, int]) -> None:
    """The home screen has ten keys: at 80 and 100 columns the footer wraps onto a second line instead
    of cutting the last ones off; at 200 columns it is one line."""
    app = make_app(demo)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, HomeScreen)
        footer = screen.query_one(Footer)
        keys = list(screen.query("FooterKey"))
        shown = [str(key.render()) for key in keys]
        for wanted in ("Review", "Memories", "Search", "Topics", "Curation", "Cold storage", "New draft", "Import",
                       "Refresh"):
            assert any(wanted in text for text in shown), (wanted, shown)
        assert on_screen(app, footer, *keys), [(text, key.region) for text, key in zip(shown, keys, strict=True)]
        assert footer.region.height == (2 if size[0] <= 100 else 1)
        assert footer.region.bottom == size[1]
        panels = screen.query_one("#home-activity")
        assert panels.region.bottom <= footer.region.y  # the home panels are not under the footer
        if size[0] < 100:
            await pilot.resize_terminal(160, 30)  # wider: back to one line
            await settle(pilot)
            footer = app.screen.query_one(Footer)
            assert footer.region.height == 1 and on_screen(app, *app.screen.query("FooterKey"))
