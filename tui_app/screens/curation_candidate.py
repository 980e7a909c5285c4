"""One candidate in full: what the rubric said about it, and its whole text as stored (a vault
memory's decrypted content). Approve and reject work here as on the list; Esc goes back."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from core.workbench.types import Candidate
from tui_app import messages
from tui_app.screens.curation_decide import DecidingScreen, decided_note
from tui_app.screens.curation_format import candidate_detail
from tui_app.screens.session import Session
from tui_app.views import curation_data as data


class CandidateScreen(DecidingScreen):
    SECTION = "curation"
    RELOAD_ON_RESUME = False  # reads the record once
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", id="back", tooltip="Back to the candidates"),
    ]

    def __init__(self, session: Session, candidate: Candidate, report_only_left: int = 0) -> None:
        """``report_only_left``: the apply runs its scope still only reports in (the detail says so)."""
        super().__init__(session)
        self.candidate = candidate
        self.report_only_left = report_only_left

    def compose_body(self) -> ComposeResult:
        with Vertical(id="candidate"):
            yield Static(id="candidate-meta")
            with VerticalScroll(id="candidate-text-box") as box:
                box.border_title = f"{self.candidate.rel} · as stored"
                yield Static(id="candidate-text", markup=False)

    def on_mount(self) -> None:
        self.show_meta()
        self.set_busy(True, self.query_one("#candidate-text-box"))
        self.load_text()
        self.query_one("#candidate-text-box").focus()

    def show_meta(self) -> None:
        self.query_one("#candidate-meta", Static).update(candidate_detail(self.candidate, self.size.width - 4,
                                                                         self.report_only_left))

    @work(thread=True, exclusive=True, exit_on_error=False, group="load", description="read the record")
    def load_text(self) -> None:
        self.post_message(messages.CandidateTextLoaded(data.record_text(self.session, self.candidate)))

    def on_candidate_text_loaded(self, message: messages.CandidateTextLoaded) -> None:
        self.set_busy(False)
        self.query_one("#candidate-text", Static).update(message.text.text)
        if message.text.note:
            self.query_one("#candidate-text-box").border_subtitle = message.text.note
            self.notify(message.text.note, severity="warning", markup=False)

    def decision_target(self) -> Candidate | None:
        return self.candidate

    def on_candidate_decided(self, message: messages.CandidateDecided) -> None:
        self.candidate = dataclasses.replace(self.candidate, decision=message.decision)
        self.show_meta()
        self.notify(decided_note(message), markup=False)

    def action_back(self) -> None:
        self.dismiss()
