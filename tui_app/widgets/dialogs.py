"""Modal dialogs: confirm an action that cannot be undone, show an error, edit a value before accepting.

Each is a ``ModalScreen`` that returns its answer through ``dismiss``; callers use
``push_screen(dialog, callback)``. Text from records is shown as plain text, never as markup.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, TypeVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

if TYPE_CHECKING:
    from tui_app.widgets.field_edit import FieldReading

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
    """Edit a suggested value, then accept it: Enter accepts the edited value, Esc cancels.

    The title names the field and what it holds. With a ``reader`` the line under the field says how
    the text is read as it is typed (a time word's date and hour); Enter is refused while the text
    cannot be stored in the field, and a value that looks meant for another field (a time in
    ``people``) needs Enter twice."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="dialog.cancel_edit", tooltip="Leave the suggestion pending"),
        Binding(
            "enter", "submit", "Accept edited value", id="dialog.accept_edit", tooltip="Accept the value as edited"
        ),
        # Priority: cleared when ctrl+u arrives, so what is typed right after it in one burst stays (the
        # field's own binding ran only once the key had bubbled up, after the letters behind it).
        Binding("ctrl+u", "clear", "Clear", id="dialog.clear_edit", tooltip="Clear the field to type a new value",
                show=False, priority=True),
    ]

    def __init__(
        self,
        field_name: str,
        suggested: str,
        hint: str = "",
        *,
        blink: bool = False,
        kind: str = "",
        reader: Callable[[str], FieldReading] | None = None,
    ) -> None:
        super().__init__(classes="dialog")
        self.field_name = field_name
        self.suggested = suggested
        self.hint = hint
        self.blink = blink
        self.kind = kind
        self.reader = reader
        self.warned_for: str | None = None  # the text whose warning was shown once: Enter again keeps it

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            kind = f" ({self.kind})" if self.kind else ""
            yield Label(f"Edit {self.field_name}{kind}, then accept", classes="dialog-title", markup=False)
            yield Static(f"Suggested {self.field_name}: {self.suggested}", classes="dialog-body", markup=False)
            field = Input(self.suggested, id="edit-value", select_on_focus=False)
            field.cursor_blink = self.blink
            yield field
            yield Static("", id="edit-reading", classes="dialog-hint", markup=False)
            if self.hint:
                yield Static(self.hint, classes="dialog-hint", markup=False)
            yield Static(
                "The edit becomes the confirmed value; the original suggestion is kept as provenance.",
                classes="dialog-hint",
            )

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        self.show_reading(self.query_one(Input).value)

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.warned_for = None
        self.show_reading(event.value)

    def show_reading(self, text: str) -> FieldReading | None:
        if self.reader is None:
            return None
        reading = self.reader(text)
        line = self.query_one("#edit-reading", Static)
        line.update(f"✗ {reading.error}" if reading.error else f"→ {reading.reading}")
        line.set_class(bool(reading.error), "dialog-warning")
        return reading

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def action_submit(self) -> None:
        text = self.query_one(Input).value
        reading = self.show_reading(text)
        if reading is not None and reading.error:
            self.app.bell()
            return
        if reading is not None and reading.warning and self.warned_for != text:
            self.warned_for = text
            line = self.query_one("#edit-reading", Static)
            line.update(f"! {reading.warning}")
            line.set_class(True, "dialog-warning")
            return
        self.dismiss(text)

    def action_clear(self) -> None:
        self.query_one(Input).value = ""

    def action_cancel(self) -> None:
        self.dismiss(None)
