"""The passphrase screen (p on Home, or the palette): change the passphrase through the TUI, then the
vault opens with the new one and refuses the old one; a wrong current passphrase or two new ones that
differ is one clear line and writes nothing; a recovery key is shown once, and sets a new passphrase."""

from __future__ import annotations

import re
from datetime import UTC

import pytest
from textual.widgets import Input, Static

from core.demo.build import DEMO_PASSPHRASE, DemoHome
from core.errors import WrongPassphrase
from core.vault.crypto import has_recovery_key, unlock
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    make_app,
    press,
    settle,
    vault_files,
)
from tui_app.app import ReverieApp
from tui_app.commands import ScreenCommands
from tui_app.screens.home import HomeScreen
from tui_app.screens.keymap import KeymapScreen
from tui_app.screens.passphrase import (
    ChangePassphraseDialog,
    PassphraseScreen,
    RecoveryKeyDialog,
    looks_like_recovery_key,
    recovery_status,
    refusal_line,
)
from tui_app.screens.unlock import UnlockScreen
from tui_app.widgets.dialogs import ConfirmDialog

NEW = "a longer passphrase, new"


def stored(demo: DemoHome) -> dict[str, tuple[int, int]]:
    """Every file of the home but its lock files (taking a lock is not writing anything)."""
    return {name: stat for name, stat in vault_files(demo.paths.root).items() if not name.startswith(".locks/")}


def text_of(app: ReverieApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


async def type_into(pilot: object, app: ReverieApp, step: str, text: str) -> None:
    """Type ``text`` as the answer the dialog asks for now (``step``), then Enter."""
    screen = app.screen
    field_id = "recovery-passphrase" if isinstance(screen, RecoveryKeyDialog) else "secret"
    field = screen.query_one(f"#{field_id}", Input)
    if isinstance(screen, ChangePassphraseDialog):
        assert screen.step == step, (screen.step, step)
    assert field.has_focus and field.password  # never echoed
    await pilot.press(*text, "enter")  # type: ignore[attr-defined]
    await settle(pilot)  # type: ignore[arg-type]


async def open_change_dialog(pilot: object, app: ReverieApp) -> None:
    await settle(pilot)  # type: ignore[arg-type]
    await press(pilot, "p")  # type: ignore[arg-type]
    assert isinstance(app.screen, PassphraseScreen)
    await press(pilot, "c")  # type: ignore[arg-type]
    assert isinstance(app.screen, ChangePassphraseDialog)


async def test_change_through_the_tui_then_the_new_one_unlocks_and_the_old_one_does_not(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_change_dialog(pilot, app)
        await type_into(pilot, app, "current", DEMO_PASSPHRASE)
        await type_into(pilot, app, "new", NEW)
        await type_into(pilot, app, "again", NEW)
        assert isinstance(app.screen, PassphraseScreen)
        assert "Passphrase changed: the old one no longer opens this vault." in text_of(app, "#passphrase-result")
        # the core agrees, and the app (which kept its keys) works on
        unlock(demo.paths.vault_header, NEW)
        with pytest.raises(WrongPassphrase):
            unlock(demo.paths.vault_header, DEMO_PASSPHRASE)
        # and so does the unlock screen
        await press(pilot, "ctrl+l")
        assert isinstance(app.screen, UnlockScreen)
        await pilot.press(*DEMO_PASSPHRASE, "enter")
        await settle(pilot)
        assert app.locked and "Wrong passphrase" in text_of(app, "#gate-message")
        await pilot.press(*NEW, "enter")
        await settle(pilot)
        assert not app.locked


async def test_a_wrong_current_passphrase_is_one_line_and_writes_nothing(demo: DemoHome) -> None:
    app = make_app(demo)
    before = stored(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_change_dialog(pilot, app)
        await type_into(pilot, app, "current", "not the passphrase")
        await type_into(pilot, app, "new", NEW)
        await type_into(pilot, app, "again", NEW)
        dialog = app.screen
        assert isinstance(dialog, ChangePassphraseDialog)
        message = text_of(app, "#passphrase-message")
        assert message == "Current passphrase: wrong for this vault; nothing was changed."
        field = dialog.query_one("#secret", Input)
        assert field.value == "" and not field.disabled and field.has_focus  # nothing lingers
        assert dialog.step == "current" and not dialog.answers
        await press(pilot, "escape")
        assert isinstance(app.screen, PassphraseScreen)
    assert stored(demo) == before
    unlock(demo.paths.vault_header, DEMO_PASSPHRASE)


async def test_two_new_passphrases_that_differ_are_refused_before_any_work(demo: DemoHome) -> None:
    app = make_app(demo)
    before = stored(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_change_dialog(pilot, app)
        await type_into(pilot, app, "current", DEMO_PASSPHRASE)
        await type_into(pilot, app, "new", NEW)
        await type_into(pilot, app, "again", NEW + "!")
        dialog = app.screen
        assert text_of(app, "#passphrase-message") == "New passphrase: the two differ; type it twice again."
        assert dialog.step == "new" and dialog.answers == {"current": DEMO_PASSPHRASE}  # only the new ones again
        assert not [w for w in app.workers if w.group == "passphrase"]  # no KDF ran
        await press(pilot, "escape")
    assert stored(demo) == before


async def test_the_dialog_says_changing_while_the_kdf_runs(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_change_dialog(pilot, app)
        dialog = app.screen
        assert isinstance(dialog, ChangePassphraseDialog)
        dialog.answers = {"current": DEMO_PASSPHRASE, "new": NEW, "again": NEW}
        dialog.submit()  # the worker starts; the line is there before it ends
        assert text_of(app, "#passphrase-message").startswith("Changing…")
        assert dialog.query_one("#secret", Input).disabled
        dialog.action_cancel()  # Esc while the header is written: it waits, it does not leave half-done
        assert app.screen is dialog or isinstance(app.screen, PassphraseScreen)
        await settle(pilot)
        assert isinstance(app.screen, PassphraseScreen)
    unlock(demo.paths.vault_header, NEW)


async def test_keys_typed_in_one_burst_land_in_their_own_answers(demo: DemoHome) -> None:
    """Over SSH keys arrive in bursts: what follows an Enter belongs to the next answer."""
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_change_dialog(pilot, app)
        await pilot.press(*DEMO_PASSPHRASE, "enter", *NEW, "enter", *NEW, "enter")  # no pause in between
        await settle(pilot)
        assert isinstance(app.screen, PassphraseScreen)
    unlock(demo.paths.vault_header, NEW)


async def test_recovery_key_is_shown_once_and_sets_a_new_passphrase(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "p")
        assert text_of(app, "#passphrase-recovery").startswith("No recovery key yet.")
        await press(pilot, "k")
        dialog = app.screen
        assert isinstance(dialog, RecoveryKeyDialog)
        await type_into(pilot, app, "recovery-passphrase", DEMO_PASSPHRASE)
        shown = text_of(app, "#recovery-key")
        assert all(len(line) <= 40 for line in shown.splitlines())  # copied by hand at 80 columns
        key = dialog.key
        assert key is not None and shown.replace("\n", "") == key
        assert re.fullmatch(r"RVK1(-[A-Z2-7]{4}){13}", key)
        assert has_recovery_key(demo.paths.vault_header)
        assert "Shown once." in text_of(app, "#recovery-intro") and "cannot show this again" in text_of(
            app, "#recovery-intro"
        )
        assert "c copies it" in text_of(app, "#recovery-hint")
        copied: list[str] = []
        app.copy_to_clipboard = copied.append  # type: ignore[method-assign]
        await press(pilot, "c")
        assert copied == [key]  # the key itself, dashes and all (no line breaks)
        await press(pilot, "escape")
        assert isinstance(app.screen, ConfirmDialog)  # closing asks: it cannot be shown again
        await press(pilot, "n")
        assert app.screen is dialog and dialog.key == key
        await press(pilot, "escape", "y")
        assert isinstance(app.screen, PassphraseScreen) and dialog.key is None
        assert "Recovery key made" in text_of(app, "#passphrase-result")
        assert text_of(app, "#passphrase-recovery").startswith("✓ A recovery key exists, made 2026-11-10 12:00.")
        # the key, typed as the current passphrase, sets a new one
        await press(pilot, "c")
        await type_into(pilot, app, "current", key.lower())
        await type_into(pilot, app, "new", NEW)
        await type_into(pilot, app, "again", NEW)
        assert isinstance(app.screen, PassphraseScreen)
    unlock(demo.paths.vault_header, NEW)
    with pytest.raises(WrongPassphrase):
        unlock(demo.paths.vault_header, DEMO_PASSPHRASE)


async def test_a_wrong_recovery_key_is_refused_in_one_line(demo: DemoHome) -> None:
    app = make_app(demo)
    before = stored(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_change_dialog(pilot, app)
        await type_into(pilot, app, "current", "RVK1-" + "-".join(["AAAA"] * 13))
        await type_into(pilot, app, "new", NEW)
        await type_into(pilot, app, "again", NEW)
        message = text_of(app, "#passphrase-message")
        assert message == "Recovery key: this vault has no recovery key; nothing was changed"
        assert str(demo.paths.root) not in message
    assert stored(demo) == before


async def test_reached_from_home_the_palette_and_the_keymap_page(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        home_keys = {b.binding.action: key for key, b in app.screen.active_bindings.items()}
        assert home_keys["app.passphrase"] == "p"
        titles = {command.title for command in app.get_system_commands(app.screen)}
        assert "Passphrase" in titles
        names = [command.name for command in ScreenCommands(app.screen).commands()]
        assert "Passphrase" not in names  # listed once, as the system command
        await press(pilot, "f1")
        assert isinstance(app.screen, KeymapScreen)
        page = [(group.title, row.keys, row.name) for group in app.screen.groups for row in group.rows]
        assert ("This screen: Home", "p", "Passphrase") in page
        assert ("Passphrase", "c", "Change passphrase") in page
        assert ("Passphrase", "k", "Recovery key") in page


def test_recovery_status_says_whether_there_is_one() -> None:
    assert str(recovery_status(None, UTC)).startswith("No recovery key yet. k makes one")
    made = str(recovery_status("2026-11-10T12:00:00Z", UTC))
    assert made.startswith("✓ A recovery key exists, made 2026-11-10 12:00.")
    assert str(recovery_status("", UTC)).startswith("✓ A recovery key exists. k makes a new one")


def test_refusal_lines_name_the_field_not_the_path() -> None:
    assert refusal_line(WrongPassphrase("/x/vault.json: wrong recovery key for this vault"), "Recovery key") == (
        "Recovery key: wrong recovery key for this vault"
    )
    assert refusal_line(WrongPassphrase("not a recovery key"), "Recovery key") == "Recovery key: not a recovery key"
    assert looks_like_recovery_key(" rvk1-abcd ") and not looks_like_recovery_key("rvk passphrase")
