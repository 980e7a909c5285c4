"""Modal dialogs: confirm an action that cannot be undone, show an error, edit a value before accepting.

Each is a ``ModalScreen`` that returns its answer through ``dismiss``; callers use
``push_screen(dialog, callback)``. Text from records is shown as plain text, never as markup.
"""

from __future__ import annotations

from typing import ClassVar, TypeVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

ResultT = TypeVar("ResultT")


class DialogText(VerticalScroll, can_focus=False):
    """A dialog's text between its title and its buttons. On a short terminal it shrinks and scrolls,
    so the title and the buttons stay on screen however long the text is."""

    def __init__(self) -> None:
        super().__init__(classes="dialog-text")


class TextDialog(ModalScreen[ResultT]):
    """A dialog with a :class:`DialogText`: ↑ and ↓ scroll it while a button has the focus. Below 30
    rows the dialog is ``-short``: less padding and flat buttons leave the text room."""

    VERTICAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [(0, "-short"), (30, "-tall")]

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "up", "scroll_text('up')", "Scroll up", id="dialog.scroll_up", tooltip="Scroll the text up", show=False
        ),
        Binding(
            "down",
            "scroll_text('down')",
            "Scroll down",
            id="dialog.scroll_down",
            tooltip="Scroll the text down",
            show=False,
        ),
    ]

    def action_scroll_text(self, how: str) -> None:
        text = self.query_one(DialogText)
        (text.scroll_up if how == "up" else text.scroll_down)(animate=False)


class ConfirmDialog(TextDialog[bool]):
    """Yes or no. ``y`` confirms, ``n`` or Esc cancels, Enter presses the focused button; with
    ``default_yes=False`` the focus starts on Cancel, so a stray Enter does nothing permanent."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes", id="dialog.yes", tooltip="Confirm this action"),
        Binding("n,escape", "answer(False)", "No", id="dialog.no", tooltip="Cancel: nothing is changed"),
    ]

    def __init__(
        self,
        title: str,
        body: str,
        *,
        yes_label: str = "Yes",
        warning: str = "",
        default_yes: bool = True,
    ) -> None:
        super().__init__(classes="dialog")
        self.title_text = title
        self.body = body
        self.yes_label = yes_label
        self.warning = warning
        self.default_yes = default_yes

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label(self.title_text, classes="dialog-title -top", markup=False)
            with Horizontal(classes="dialog-buttons -bottom"):
                yield Button(f"{self.yes_label} (y)", id="yes", variant="warning" if self.warning else "primary")
                yield Button("Cancel (n)", id="no")
            with DialogText():
                yield Static(self.body, classes="dialog-body", markup=False)
                if self.warning:
                    yield Static(self.warning, classes="dialog-warning", markup=False)

    def on_mount(self) -> None:
        self.query_one("#yes" if self.default_yes else "#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


class ErrorDialog(TextDialog[None]):
    """One clear line about what failed; Enter or Esc closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter", "close", "Close", id="dialog.close", tooltip="Close this message"),
    ]

    def __init__(self, title: str, message: str) -> None:
        super().__init__(classes="dialog error-dialog")
        self.title_text = title
        self.message = message

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label(self.title_text, classes="dialog-title -top", markup=False)
            with Horizontal(classes="dialog-buttons -bottom"):
                yield Button("Close (Esc)", id="close", variant="error")
            with DialogText():
                yield Static(self.message, classes="dialog-body", markup=False)

    def on_mount(self) -> None:
        self.query_one("#close", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


class EditDialog(ModalScreen[str | None]):
    """Edit a suggested value, then accept it: Enter accepts the edited value, Esc cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="dialog.cancel_edit", tooltip="Leave the suggestion pending"),
        Binding(
            "enter", "submit", "Accept edited value", id="dialog.accept_edit", tooltip="Accept the value as edited"
        ),
    ]

    def __init__(self, field_name: str, suggested: str, hint: str = "", *, blink: bool = False) -> None:
        super().__init__(classes="dialog")
        self.field_name = field_name
        self.suggested = suggested
        self.hint = hint
        self.blink = blink

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label(f"Edit {self.field_name}, then accept", classes="dialog-title", markup=False)
            yield Static(f"Suggested: {self.suggested}", classes="dialog-body", markup=False)
            field = Input(self.suggested, id="edit-value", select_on_focus=False)
            field.cursor_blink = self.blink
            yield field
            if self.hint:
                yield Static(self.hint, classes="dialog-hint", markup=False)
            yield Static(
                "The edit becomes the confirmed value; the original suggestion is kept as provenance.",
                classes="dialog-hint",
            )

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def action_submit(self) -> None:
        self.dismiss(self.query_one(Input).value)

    def action_cancel(self) -> None:
        self.dismiss(None)
