"""Unlock: the passphrase opens the vault. It is never echoed, never logged, and a wrong one writes
nothing. Argon2id runs in a worker, so the screen stays responsive while the keys are derived; a
passphrase at hand (``REVERIE_PASSPHRASE``, the keyring) is tried the same way as soon as the
screen shows, so the first frame never waits for the key derivation.

The screen says what a forgotten passphrase means: a recovery key (``reverie passphrase
recovery-key``) can set a new one; without either, nobody can open the vault."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Vertical
from textual.widgets import Input, Label, Static

from core.errors import HomeError, WrongPassphrase
from core.paths import HomePaths
from tui_app.screens.base import WorkerScreen
from tui_app.widgets.footer import SteadyFooter
from tui_app.widgets.format import short_path

if TYPE_CHECKING:
    from tui_app import messages


class PassphraseInput(Input):
    """The passphrase field: masked, and its Enter listed in the footer as what it does."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "submit", "Unlock", id="unlock.submit", tooltip="Unlock the vault with this passphrase"),
    ]


UNLOCKING = "Unlocking… (deriving the keys with Argon2id)"
LOST_PASSPHRASE = (
    "Forgot it? `reverie passphrase change --recovery-key` sets a new one. With neither the passphrase "
    "nor a recovery key, the vault cannot be opened, by you or anyone."
)


class UnlockScreen(WorkerScreen):
    def __init__(
        self,
        paths: HomePaths,
        *,
        blink: bool = False,
        reason: str = "",
        passphrase: str | None = None,
        hint: str = "",
    ) -> None:
        """``passphrase``: one at hand without a prompt, tried as soon as the screen shows. ``hint``: a
        line shown under the title (the demo's passphrase)."""
        super().__init__(classes="gate")
        self.hint = hint
        self.paths = paths
        self.blink = blink
        self.reason = reason
        self.at_hand = passphrase

    def compose(self) -> ComposeResult:
        with Center(), Vertical(classes="gate-box"):
            yield Label("Reverie is locked", classes="gate-title")
            yield Static(f"Vault: {short_path(self.paths.root)}", classes="gate-path", markup=False)
            if self.hint:
                yield Static(self.hint, id="gate-hint", classes="gate-path", markup=False)
            # With a passphrase at hand the field starts disabled, the message saying why: set now, not
            # after mounting, which restyled the field and laid the screen out again before its first frame.
            passphrase = PassphraseInput(password=True, placeholder="passphrase", id="passphrase",
                                         disabled=bool(self.at_hand))
            passphrase.cursor_blink = self.blink
            yield passphrase
            yield Static(UNLOCKING if self.at_hand else self.reason, id="gate-message", markup=False)
            yield Static("Enter unlocks · ctrl+q quits · the passphrase is never shown or stored", classes="gate-hint")
            yield Static(LOST_PASSPHRASE, id="gate-lost", classes="gate-hint", markup=False)
        yield SteadyFooter(compact=True)

    def on_mount(self) -> None:
        field = self.query_one(Input)
        passphrase, self.at_hand = self.at_hand, None
        if passphrase:  # the screen on the terminal first, then the KDF
            self.app.call_later(self.start_unlock, passphrase, True)
        else:
            field.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def action_submit(self) -> None:
        field = self.query_one(Input)
        passphrase, field.value = field.value, ""
        if not passphrase:
            self.say("Type the passphrase, then Enter.")
            return
        self.say(UNLOCKING)
        field.disabled = True
        self.start_unlock(passphrase)

    def start_unlock(self, passphrase: str, at_hand: bool = False) -> None:
        """Derive the keys in a worker; the app prepares what follows meanwhile (``prepare_unlock``)."""
        self.unlock_vault(passphrase, at_hand)
        prepare = getattr(self.app, "prepare_unlock", None)
        if prepare is not None:
            prepare()

    def say(self, text: str, error: bool = False) -> None:
        message = self.query_one("#gate-message", Static)
        message.update(text)
        message.set_class(error, "-error")

    @work(thread=True, exclusive=True, exit_on_error=False, group="unlock", description="unlock the vault")
    def unlock_vault(self, passphrase: str, at_hand: bool = False) -> None:
        """The key derivation first: the messages load after it (the app preloads them meanwhile)."""
        failure: str | None = None
        try:
            self.app.workbench.unlock(passphrase)  # type: ignore[attr-defined]
        except WrongPassphrase:
            failure = ("The passphrase from REVERIE_PASSPHRASE or the keyring is wrong. Nothing was changed; "
                       "type it." if at_hand else "Wrong passphrase. Nothing was changed; try again.")
        except HomeError as exc:
            failure = str(exc)
        from tui_app import messages  # lazy: ~10 ms, after the first frame and the derivation's start

        if failure is not None:
            self.post_message(messages.UnlockFailed(failure))
            return
        self.post_message(messages.Unlocked(self.app.workbench.vault))  # type: ignore[attr-defined]

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
