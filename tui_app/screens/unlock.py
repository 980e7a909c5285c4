"""Unlock: the passphrase opens the vault. It is never echoed, never logged, and a wrong one writes
nothing. Argon2id runs in a worker, so the screen stays responsive while the keys are derived."""

from __future__ import annotations

from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Vertical
from textual.widgets import Footer, Input, Label, Static

from core.errors import HomeError, WrongPassphrase
from core.paths import HomePaths
from core.vault.store import MemoryVault
from tui_app import messages
from tui_app.screens.base import WorkerScreen
from tui_app.widgets.format import short_path


class PassphraseInput(Input):
    """The passphrase field: masked, and its Enter listed in the footer as what it does."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "submit", "Unlock", id="unlock.submit", tooltip="Unlock the vault with this passphrase"),
    ]


class UnlockScreen(WorkerScreen):
    def __init__(self, paths: HomePaths, *, blink: bool = False, reason: str = "") -> None:
        super().__init__(classes="gate")
        self.paths = paths
        self.blink = blink
        self.reason = reason

    def compose(self) -> ComposeResult:
        with Center(), Vertical(classes="gate-box"):
            yield Label("Reverie is locked", classes="gate-title")
            yield Static(f"Vault: {short_path(self.paths.root)}", classes="gate-path", markup=False)
            passphrase = PassphraseInput(password=True, placeholder="passphrase", id="passphrase")
            passphrase.cursor_blink = self.blink
            yield passphrase
            yield Static(self.reason, id="gate-message", markup=False)
            yield Static("Enter unlocks · ctrl+q quits · the passphrase is never shown or stored", classes="gate-hint")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def action_submit(self) -> None:
        field = self.query_one(Input)
        passphrase, field.value = field.value, ""
        if not passphrase:
            self.say("Type the passphrase, then Enter.")
            return
        self.say("Unlocking… (deriving the keys with Argon2id)")
        field.disabled = True
        self.unlock_vault(passphrase)

    def say(self, text: str, error: bool = False) -> None:
        message = self.query_one("#gate-message", Static)
        message.update(text)
        message.set_class(error, "-error")

    @work(thread=True, exclusive=True, exit_on_error=False, group="unlock", description="unlock the vault")
    def unlock_vault(self, passphrase: str) -> None:
        try:
            keys = self.app.workbench.unlock(passphrase)  # type: ignore[attr-defined]
        except WrongPassphrase:
            self.post_message(messages.UnlockFailed("Wrong passphrase. Nothing was changed; try again."))
            return
        except HomeError as exc:
            self.post_message(messages.UnlockFailed(str(exc)))
            return
        self.post_message(messages.Unlocked(MemoryVault.open(self.paths, keys)))

    def on_unlock_failed(self, message: messages.UnlockFailed) -> None:
        field = self.query_one(Input)
        field.disabled = False
        field.focus()
        self.say(message.reason, error=True)

    def work_failed(self, worker: object) -> None:
        field = self.query_one(Input)
        field.disabled = False
        field.focus()
        self.say("")
