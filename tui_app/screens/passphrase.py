"""The passphrase: change it, or make a recovery key (``p`` on the home screen, or the palette).

Both go through the workbench's access service (``change_passphrase``, ``create_recovery_key``), as
``reverie passphrase change`` and ``reverie passphrase recovery-key`` do. The vault's data key is wrapped under
a key derived from the passphrase, so a change rewrites one small header atomically, whatever the
vault's size: it is done entirely or not at all, and the old passphrase stops working at once.

Argon2id runs in a worker while the dialog says so. Secrets are never echoed, logged or put in a
notification; a new recovery key is shown once, in its dialog, and dropped when the dialog closes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import tzinfo
from typing import ClassVar

from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static
from textual.worker import Worker, WorkerState

from core.errors import HomeError, VaultLocked, WrongPassphrase
from core.workbench import Workbench
from core.workbench.access import Access
from tui_app import messages
from tui_app.screens.base import ReverieScreen
from tui_app.widgets.dialogs import ConfirmDialog
from tui_app.widgets.format import local_time, one_line, short_path

RECOVERY_PREFIX = "RVK1-"  # how a recovery key starts (core.vault.crypto.format_recovery_key)
NO_WAY_BACK = (
    "A lost passphrase and a lost recovery key mean the vault cannot be opened: nobody can recover it."
)


def looks_like_recovery_key(text: str) -> bool:
    """Typed into the "current" field, a recovery key proves the right to set a new passphrase."""
    return "".join(text.split()).upper().startswith(RECOVERY_PREFIX)


def key_lines(key: str, per_line: int = 7) -> str:
    """The recovery key in lines of ``per_line`` groups, broken after a dash (never inside a group), so
    it can be copied by hand at 80 columns; typed back, the line breaks do not matter."""
    groups = key.split("-")
    lines = ["-".join(groups[i:i + per_line]) for i in range(0, len(groups), per_line)]
    return "-\n".join(lines)


def refusal_line(exc: Exception, field_name: str) -> str:
    """One line for a refused change, naming the field, without the header's path (the screen shows it)."""
    text = one_line(exc)
    head, sep, rest = text.partition(": ")
    if sep and ("/" in head or "\\" in head):
        text = rest
    return f"{field_name}: {text}"


def recovery_status(made_at: str | None, zone: tzinfo) -> Content:
    """One line on the vault's recovery key (``made_at`` as ``Workbench.access.recovery_key_made_at``)."""
    if made_at is None:
        return Content.assemble(
            ("No recovery key yet.", "bold $text-warning"),
            " k makes one: without it, a forgotten passphrase means the vault is lost.",
        )
    when = f", made {local_time(made_at, zone)}" if made_at else ""
    return Content.assemble(
        ("✓ A recovery key exists", "bold $text-success"),
        f"{when}. k makes a new one (the old one then stops working).",
    )


class SecretInput(Input):
    """A masked field that hands over what was typed the moment Enter is pressed, and is empty again at
    once: keys typed right after Enter (a fast typist, a burst over SSH) belong to the next answer, never
    to this one. Its Enter is listed in the footer as what it does."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "submit", "Next", id="passphrase.next", tooltip="Give this answer and go on"),
    ]

    @dataclass
    class Entered(Message):
        """What was typed before Enter (the field is already empty)."""

        secret_input: SecretInput
        value: str = field(repr=False)

    def on_key(self, event: events.Key) -> None:
        """Enter is taken here, in the field's own queue, in order with the keys typed around it (as
        a binding it would run only after bubbling to the app, behind the next answer's first keys)."""
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            self.hand_over()

    async def action_submit(self) -> None:
        self.hand_over()

    def hand_over(self) -> None:
        value, self.value = self.value, ""
        self.post_message(self.Entered(self, value))


STEPS: tuple[tuple[str, str], ...] = (
    ("current", "Current passphrase (or the recovery key)"),
    ("new", "New passphrase"),
    ("again", "New passphrase again"),
)


class ChangePassphraseDialog(ModalScreen[list[str] | None]):
    """Current passphrase (or the recovery key), the new one, the new one again, asked one after the
    other in one masked field: Enter gives each answer, and after the last one changes the passphrase.
    Esc cancels (not while the new header is being written)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="passphrase.cancel", tooltip="Change nothing"),
    ]

    def __init__(self, workbench: Workbench, *, blink: bool = False) -> None:
        super().__init__(classes="dialog passphrase-dialog")
        self.workbench = workbench
        self.blink = blink
        self.changing = False
        self.answers: dict[str, str] = {}
        self.step = STEPS[0][0]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label("Change the passphrase", classes="dialog-title")
            yield Static(id="passphrase-step", markup=False)
            secret = SecretInput(password=True, id="secret", compact=True)
            secret.cursor_blink = self.blink
            yield secret
            yield Static(id="passphrase-message", markup=False)
            yield Static(
                "Enter gives each answer, and changes the passphrase after the last · Esc cancels\n"
                "The old passphrase stops working at once; a recovery key keeps working. " + NO_WAY_BACK,
                classes="dialog-hint",
            )

    def on_mount(self) -> None:
        self.ask("current")
        self.query_one(SecretInput).focus()

    def ask(self, step: str) -> None:
        """Ask for ``step``'s answer next (what the field holds now is typed for it)."""
        self.step = step
        number = [name for name, _ in STEPS].index(step) + 1
        label = dict(STEPS)[step]
        self.query_one("#passphrase-step", Static).update(f"{number} of {len(STEPS)} · {label}")
        self.query_one(SecretInput).placeholder = label.lower()

    def say(self, text: str, *, error: bool = False) -> None:
        message = self.query_one("#passphrase-message", Static)
        message.update(text)
        message.set_class(error, "-error")

    def on_secret_input_entered(self, event: SecretInput.Entered) -> None:
        event.stop()
        if self.changing:
            return
        if not event.value:
            self.say(f"{dict(STEPS)[self.step]}: type it first, then Enter.", error=True)
            return
        self.answers[self.step] = event.value
        names = [name for name, _ in STEPS]
        following = names.index(self.step) + 1
        if following < len(names):
            self.say("")
            self.ask(names[following])
            return
        self.submit()

    def submit(self) -> None:
        current, new, again = (self.answers.get(name, "") for name, _ in STEPS)
        problem, retry = "", ""
        if not current:
            problem, retry = "Current passphrase: type it (or the recovery key) first.", "current"
        elif Access.passphrase_problem(new):
            problem, retry = f"New passphrase: it {Access.passphrase_problem(new)}.", "new"
        elif new != again:
            problem, retry = "New passphrase: the two differ; type it twice again.", "new"
        elif new == current:
            problem, retry = "New passphrase: it is the current one; choose another.", "new"
        if problem:
            self.refused(problem, retry)
            return
        self.query_one(SecretInput).disabled = True
        self.changing = True
        self.say("Changing… deriving the new key with Argon2id; until it is written the old passphrase works.")
        self.change(current, new)

    @work(thread=True, exclusive=True, exit_on_error=False, group="passphrase", description="change the passphrase")
    def change(self, current: str, new: str) -> None:
        by_recovery = looks_like_recovery_key(current)
        try:
            if by_recovery:
                notes = self.workbench.access.change_passphrase(new, recovery_key=current).notes
            else:
                notes = self.workbench.access.change_passphrase(new, current=current).notes
        except WrongPassphrase as exc:
            if by_recovery:
                self.post_message(messages.PassphraseRefused(refusal_line(exc, "Recovery key"), "current"))
            else:
                self.post_message(messages.PassphraseRefused(
                    "Current passphrase: wrong for this vault; nothing was changed.", "current"))
            return
        except (HomeError, VaultLocked) as exc:
            self.post_message(messages.PassphraseRefused(refusal_line(exc, "Vault"), "current"))
            return
        self.post_message(messages.PassphraseWritten(notes))

    def on_passphrase_refused(self, message: messages.PassphraseRefused) -> None:
        self.refused(message.reason, message.input_id)

    def refused(self, reason: str, retry: str) -> None:
        """Nothing was written: say why in one line, forget the answers from ``retry`` on, ask again."""
        self.changing = False
        names = [name for name, _ in STEPS]
        for name in names[names.index(retry):]:
            self.answers.pop(name, None)
        secret = self.query_one(SecretInput)
        secret.disabled = False
        secret.focus()
        self.ask(retry)
        self.say(reason, error=True)

    def on_passphrase_written(self, message: messages.PassphraseWritten) -> None:
        self.changing = False
        self.dismiss(message.notes)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.state is WorkerState.ERROR:  # anything unforeseen: one line, nothing written
            self.refused(f"Could not change the passphrase: {one_line(event.worker.error)}", "current")

    def action_cancel(self) -> None:
        if self.changing:
            self.say("Writing the new header… a moment (it is written whole or not at all).")
            return
        self.dismiss(None)


class RecoveryKeyDialog(ModalScreen[bool]):
    """Ask the passphrase, make a recovery key, show it once. Closing asks first: it cannot be shown again."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="recovery.close", tooltip="Close (the key cannot be shown again)"),
        Binding("c", "copy", "Copy", id="recovery.copy", tooltip="Copy the key to the clipboard (OSC 52)"),
    ]

    def __init__(self, workbench: Workbench, *, blink: bool = False) -> None:
        super().__init__(classes="dialog passphrase-dialog")
        self.workbench = workbench
        self.blink = blink
        self.key: str | None = None
        self.making = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label("Make a recovery key", classes="dialog-title")
            yield Static(
                "A recovery key can set a new passphrase when this one is forgotten. A new key replaces any "
                "earlier one, which stops working.",
                id="recovery-intro",
                classes="dialog-body",
            )
            secret = SecretInput(password=True, placeholder="current passphrase", id="recovery-passphrase",
                                 compact=True)
            secret.cursor_blink = self.blink
            yield secret
            yield Static(id="recovery-key", markup=False)
            yield Static(id="passphrase-message", markup=False)
            yield Static("Enter makes the key · Esc cancels", id="recovery-hint", classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one("#recovery-key").display = False
        self.query_one(Input).focus()

    def say(self, text: str, *, error: bool = False) -> None:
        message = self.query_one("#passphrase-message", Static)
        message.update(text)
        message.set_class(error, "-error")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "copy":
            return self.key is not None
        return True

    def on_secret_input_entered(self, event: SecretInput.Entered) -> None:
        event.stop()
        passphrase = event.value
        if self.making or self.key is not None:
            return
        if not passphrase:
            self.say("Current passphrase: type it first.", error=True)
            return
        event.secret_input.disabled = True
        self.making = True
        self.say("Making the recovery key… deriving the keys with Argon2id.")
        self.make(passphrase)

    @work(thread=True, exclusive=True, exit_on_error=False, group="passphrase", description="make a recovery key")
    def make(self, passphrase: str) -> None:
        try:
            key = self.workbench.access.create_recovery_key(passphrase)
        except WrongPassphrase:
            self.post_message(messages.PassphraseRefused(
                "Current passphrase: wrong for this vault; nothing was changed.", "recovery-passphrase"))
            return
        except (HomeError, VaultLocked) as exc:
            self.post_message(messages.PassphraseRefused(refusal_line(exc, "Vault"), "recovery-passphrase"))
            return
        self.post_message(messages.RecoveryKeyMade(key))

    def on_passphrase_refused(self, message: messages.PassphraseRefused) -> None:
        self.making = False
        field = self.query_one(Input)
        field.disabled = False
        field.focus()
        self.say(message.reason, error=True)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.state is WorkerState.ERROR:
            self.on_passphrase_refused(messages.PassphraseRefused(
                f"Could not make a recovery key: {one_line(event.worker.error)}", "recovery-passphrase"))

    def on_recovery_key_made(self, message: messages.RecoveryKeyMade) -> None:
        self.making = False
        self.key = message.key
        self.query_one(Input).display = False
        self.query_one("#recovery-intro", Static).update(
            Content.assemble(
                ("Shown once. ", "bold $text-warning"),
                "Reverie keeps only a wrapped copy of the vault's key and cannot show this again. Write it "
                "down and keep it apart from this machine: anyone with it can open the vault.",
            )
        )
        shown = self.query_one("#recovery-key", Static)
        shown.update(key_lines(message.key))
        shown.display = True
        self.say("")
        self.query_one("#recovery-hint", Static).update(
            "c copies it (if the terminal allows) · Esc closes · to use it: Change passphrase, and type the "
            "key as the current one (or `reverie passphrase change --recovery-key`)"
        )
        self.set_focus(None)
        self.refresh_bindings()

    def action_copy(self) -> None:
        if self.key is not None:
            self.app.copy_to_clipboard(self.key)
            self.notify("Copied to the clipboard, if your terminal allows it (OSC 52).", title="Recovery key")

    def action_close(self) -> None:
        if self.making:
            self.say("Writing the new header… a moment (it is written whole or not at all).")
            return
        if self.key is None:
            self.dismiss(False)
            return
        dialog = ConfirmDialog(
            "Close the recovery key?",
            "It cannot be shown again. If it is not written down, make a new one (the new one replaces it).",
            yes_label="Close",
            default_yes=False,
        )
        self.app.push_screen(dialog, lambda yes: self.closed() if yes else None)

    def closed(self) -> None:
        self.key = None  # the only reference: gone with the dialog
        self.dismiss(True)


class PassphraseScreen(ReverieScreen):
    """What protects the vault and the two things to do about it."""

    SECTION = "home"
    RELOAD_ON_RESUME = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "change", "Change passphrase", id="passphrase.change",
                tooltip="Set a new passphrase (the old one stops working at once)"),
        Binding("k", "recovery_key", "Recovery key", id="passphrase.recovery_key",
                tooltip="Make a recovery key, shown once; it can set a new passphrase"),
        Binding("escape", "back", "Back", id="back", tooltip="Back to the home screen"),
    ]

    def compose_body(self) -> ComposeResult:
        with Vertical(id="passphrase-screen"):
            yield Static(
                Content.assemble(
                    ("Passphrase", "bold"),
                    f" · vault {short_path(self.session.paths.root)}\n",
                    "The passphrase unlocks the vault's data key; changing it rewrites one small header "
                    "atomically, whatever the vault holds. A recovery key, if you make one, can set a new "
                    "passphrase.\n",
                    (NO_WAY_BACK, "bold $text-warning"),
                ),
                id="passphrase-intro",
            )
            yield Static(
                Content.assemble(
                    ("c", "bold"), " change the passphrase   ", ("k", "bold"), " make a recovery key (shown once)"
                ),
                id="passphrase-keys",
            )
            yield Static(id="passphrase-recovery")
            yield Static(id="passphrase-result")

    def on_mount(self) -> None:
        self.reload()

    def reload(self) -> None:
        self.load_recovery_status()

    @work(thread=True, exclusive=True, exit_on_error=False, group="load", description="read the vault header")
    def load_recovery_status(self) -> None:
        made_at = self.session.workbench.access.recovery_key_made_at()
        if not self.cancelled():
            self.post_message(messages.RecoveryStatusLoaded(made_at))

    def on_recovery_status_loaded(self, message: messages.RecoveryStatusLoaded) -> None:
        self.query_one("#passphrase-recovery", Static).update(recovery_status(message.made_at, self.session.zone))

    def action_change(self) -> None:
        self.app.push_screen(ChangePassphraseDialog(self.session.workbench, blink=self.blink), self.changed)

    def changed(self, notes: list[str] | None) -> None:
        if notes is None:
            return
        result = Content.assemble(
            ("✓ Passphrase changed", "bold $text-success"),
            ": the old one no longer opens this vault.",
            *(f"\n{note}" for note in notes),
        )
        self.query_one("#passphrase-result", Static).update(result)
        self.notify("The old passphrase no longer opens this vault.", title="Passphrase changed")
        self.reload()

    def action_recovery_key(self) -> None:
        self.app.push_screen(RecoveryKeyDialog(self.session.workbench, blink=self.blink), self.key_made)

    def key_made(self, made: bool | None) -> None:
        if made:
            self.query_one("#passphrase-result", Static).update(
                Content.assemble(
                    ("✓ Recovery key made", "bold $text-success"),
                    ": it replaces any earlier one. It was shown once and is not kept here.",
                )
            )
        self.reload()

    def action_back(self) -> None:
        self.dismiss()
