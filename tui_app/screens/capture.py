"""Capture a new draft: write (or paste) the content, add tags, save it as an open draft for review."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Label, Static, TextArea

from tui_app.widgets.editor import ExternalEditor
from tui_app.widgets.format import one_line


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
