"""Capture a new draft: write (or paste) the content, add tags, save it as an open draft for review.

Saving goes through the workbench's capture (the same flow as ``reverie draft new --suggest``): the
near-duplicate check first — a near-identical finalized memory opens :class:`NearDuplicateDialog`
(replace, keep both, or cancel) — then the local suggesters attach their suggestions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Label, Static, TextArea

from tui_app.widgets.dialogs import DialogText, TextDialog
from tui_app.widgets.editor import ExternalEditor
from tui_app.widgets.format import one_line

if TYPE_CHECKING:
    from core.duplicates import DuplicateMatch


@dataclass(frozen=True)
class Capture:
    content: str
    tags: list[str]


def parse_tags(text: str) -> list[str]:
    return [tag.strip() for tag in text.split(",") if tag.strip()]


class CaptureScreen(ModalScreen[Capture | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save draft", id="capture.save", tooltip="Save as an open draft"),
        Binding(
            "ctrl+o",
            "external_editor",
            "$EDITOR",
            id="capture.edit_external",
            tooltip="Write the content in your $EDITOR",
        ),
        Binding("escape", "cancel", "Cancel", id="capture.cancel", tooltip="Close without saving anything"),
        # Priority: the focus moves when Tab arrives, so keys typed (or pasted) right after it in one
        # burst go to the tags field, not to the content that had the focus when they were queued.
        Binding("tab", "app.focus_next", "Next field", id="capture.next_field", show=False, priority=True,
                tooltip="Move to the next field (content, then tags)"),
        Binding("shift+tab", "app.focus_previous", "Previous field", id="capture.previous_field", show=False,
                priority=True, tooltip="Move to the previous field"),
    ]

    def __init__(self, editor: ExternalEditor, *, blink: bool = False) -> None:
        super().__init__(classes="dialog")
        self.editor = editor
        self.blink = blink

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box capture-box"):
            yield Label("Capture a new draft", classes="dialog-title")
            yield Static(
                "It stays a draft until you review and approve it; AI suggestions attach to it later.",
                classes="dialog-hint",
            )
            content = TextArea(id="capture-content", soft_wrap=True, show_line_numbers=False)
            content.cursor_blink = self.blink
            yield content
            tags = Input(placeholder="tags, separated by commas", id="capture-tags")
            tags.cursor_blink = self.blink
            yield tags
            yield Static("", id="capture-error", classes="dialog-warning", markup=False)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one(TextArea).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_save()

    def action_save(self) -> None:
        content = self.query_one(TextArea).text.strip()
        if not content:
            self.query_one("#capture-error", Static).update("Write something first: a draft needs content.")
            self.query_one(TextArea).focus()
            return
        self.dismiss(Capture(content=content, tags=parse_tags(self.query_one(Input).value)))

    def action_external_editor(self) -> None:
        area = self.query_one(TextArea)
        try:
            edited = self.editor(self.app, area.text, ".md")
        except Exception as exc:  # the editor is the person's program: any failure is reported, not raised
            self.query_one("#capture-error", Static).update(one_line(exc))
            return
        if edited is not None:
            area.text = edited.rstrip("\n")

    def action_cancel(self) -> None:
        self.dismiss(None)


class NearDuplicateDialog(TextDialog[str | None]):
    """A finalized memory is nearly the same as the capture: replace it (the new memory supersedes it;
    curation then offers the old one for cold storage — nothing is deleted), keep both, or cancel
    (nothing is written). Dismisses with ``replace``, ``keep_both`` or None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "choose('replace')", "Replace", id="duplicate.replace",
                tooltip="Save the new draft; its memory will supersede the old one"),
        Binding("k", "choose('keep_both')", "Keep both", id="duplicate.keep_both",
                tooltip="Save the new draft and keep the old memory as it is"),
        Binding("c,escape", "choose('')", "Cancel", id="duplicate.cancel", tooltip="Write nothing"),
    ]

    def __init__(self, duplicate: DuplicateMatch) -> None:
        super().__init__(classes="dialog")
        self.duplicate = duplicate

    def compose(self) -> ComposeResult:
        best = self.duplicate
        reviewed = "reviewed" if best.reviewed else "unreviewed"
        with Vertical(classes="dialog-box"):
            yield Label("A memory like this one exists", classes="dialog-title -top")
            with Horizontal(classes="dialog-buttons -bottom"):
                yield Button("Replace (r)", id="replace", variant="warning")
                yield Button("Keep both (k)", id="keep_both", variant="primary")
                yield Button("Cancel (c)", id="cancel")
            with DialogText():
                yield Static(f"{best.memory_id} ({reviewed}, similarity {best.similarity:.2f}):",
                             classes="dialog-body", markup=False)
                yield Static(one_line(best.text), classes="dialog-body", markup=False)

    def on_mount(self) -> None:
        self.query_one("#cancel", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_choose("" if event.button.id == "cancel" else str(event.button.id))

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice or None)
