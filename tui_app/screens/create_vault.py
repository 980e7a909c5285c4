"""Create a vault: choose a passphrase, type it twice. Nothing is written until both match."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Vertical
from textual.widgets import Input, Label, Static

from core.paths import HomePaths
from core.workbench.access import Access
from tui_app.screens.base import WorkerScreen
from tui_app.widgets.footer import SteadyFooter
from tui_app.widgets.format import short_path

if TYPE_CHECKING:
    from core.vault.crypto import KdfParams



class NewPassphraseInput(Input):
    """A new-passphrase field: masked, and its Enter listed in the footer as what it does."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "submit", "Next / create", id="create.submit", tooltip="Next field, then create the vault"),
    ]


class CreateVaultScreen(WorkerScreen):
    def __init__(self, paths: HomePaths, kdf: KdfParams | None = None, *, blink: bool = False) -> None:
        super().__init__(classes="gate")
        self.paths = paths
        self.kdf = kdf
        self.blink = blink

    def compose(self) -> ComposeResult:
        with Center(), Vertical(classes="gate-box"):
            yield Label("Create a vault", classes="gate-title")
            yield Static(f"Home: {short_path(self.paths.root)}", classes="gate-path", markup=False)
            for name, hint in (("passphrase", "passphrase"), ("confirm", "the same passphrase again")):
                field = NewPassphraseInput(password=True, placeholder=hint, id=name)
                field.cursor_blink = self.blink
                yield field
            yield Static("", id="gate-message", markup=False)
            yield Static(
                "Argon2id turns the passphrase into the keys. It is never stored: without it the vault cannot be "
                "opened, by you or anyone.",
                classes="gate-hint",
            )
        yield SteadyFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one("#passphrase", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def action_submit(self) -> None:
        first, second = self.query_one("#passphrase", Input), self.query_one("#confirm", Input)
        if self.focused is first or not second.value:
            problem = Access.passphrase_problem(first.value)
            if problem is not None:
                self.say(f"The passphrase {problem}.", error=True)
                first.focus()
                return
            second.focus()
            self.say("Type it again to confirm.")
            return
        passphrase, again = first.value, second.value
        first.value = second.value = ""
        if passphrase != again:
            self.say("The two passphrases differ. Nothing was written; type them again.", error=True)
            first.focus()
            return
        self.say("Creating the vault… (deriving the keys with Argon2id)")
        first.disabled = second.disabled = True
        self.create_vault(passphrase)

    def say(self, text: str, error: bool = False) -> None:
        message = self.query_one("#gate-message", Static)
        message.update(text)
        message.set_class(error, "-error")

    @work(thread=True, exclusive=True, exit_on_error=False, group="unlock", description="create the vault")
    def create_vault(self, passphrase: str) -> None:
        from tui_app import messages  # lazy: ~10 ms, off the first frame

        workbench = self.app.workbench  # type: ignore[attr-defined]
        workbench.access.create_vault(passphrase)  # the workbench keeps the keys and opens its vault
        self.post_message(messages.Unlocked(workbench.vault, created=True))

    def work_failed(self, worker: object) -> None:
        for field in self.query(Input):
            field.disabled = False
        self.query_one("#passphrase", Input).focus()
        self.say("")
