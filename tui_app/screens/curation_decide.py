"""Approve and reject, shared by the candidate list and the full-text view.

An approval marks one record, bound to its exact content, to move at the next move run; a rejection
keeps it in place and stops proposing it while its content stays the same. Either can be changed
later by deciding again. Each is confirmed in a modal first; approving a persona, identity or voice
record, or one that a guard protects, says so and starts with the focus on Cancel.
"""

from __future__ import annotations

from typing import ClassVar

from textual import work
from textual.binding import Binding, BindingType

from core.workbench.types import Candidate
from tui_app import messages
from tui_app.screens.base import ReverieScreen
from tui_app.screens.curation_format import guard_list, signal_list
from tui_app.views import curation_data as data
from tui_app.widgets.dialogs import ConfirmDialog

DECISION_BINDINGS: list[BindingType] = [
    Binding("a", "approve", "Approve", id="curation.approve", tooltip="Approve moving the highlighted record"),
    Binding("r", "reject", "Reject", id="curation.reject", tooltip="Keep the highlighted record where it is"),
]


def decided_note(message: messages.CandidateDecided) -> str:
    if not message.changed:
        return f"Already {message.decision}."
    return "Approved: it moves with m." if message.decision == "approved" else "Rejected: it stays."


class DecidingScreen(ReverieScreen):
    """A screen showing candidates; subclasses say which one the keys act on."""

    BINDINGS: ClassVar[list[BindingType]] = DECISION_BINDINGS

    def decision_target(self) -> Candidate | None:
        raise NotImplementedError

    def action_approve(self) -> None:
        c = self.decision_target()
        if c is None:
            return
        body = (
            f"{c.scope}:{c.rel}\n{c.title}\n"
            f"signals: {signal_list(c.signals)} · guards: {guard_list(c.guards)} · rubric v{c.rubric_version}"
        )
        warning = "It moves at the next move run (m), after a dry run shows it again; nothing moves now."
        if c.person_only:
            warning = (
                "This is persona, identity or voice memory: moving it changes how the assistant sounds, and "
                "nothing would report it. " + warning
            )
        elif c.guards:
            warning = f"A guard holds it in place ({guard_list(c.guards)}); your approval overrides it. " + warning
        dialog = ConfirmDialog(
            "Approve moving this record?",
            body,
            yes_label="Approve",
            warning=warning,
            default_yes=not (c.person_only or c.guards),
        )
        self.app.push_screen(dialog, lambda yes: self.store_decision(c, "approved") if yes else None)

    def action_reject(self) -> None:
        c = self.decision_target()
        if c is None:
            return
        dialog = ConfirmDialog(
            "Keep this record where it is?",
            f"{c.scope}:{c.rel}\n{c.title}\nsignals: {signal_list(c.signals)}",
            yes_label="Reject",
            warning="It stays, and is not proposed again while its content is unchanged. You can approve it later.",
        )
        self.app.push_screen(dialog, lambda yes: self.store_decision(c, "rejected") if yes else None)

    @work(thread=True, exclusive=True, exit_on_error=False, group="decide", description="record the decision")
    def store_decision(self, candidate: Candidate, decision: str) -> None:
        result = data.decide(self.session, candidate, decision)
        self.post_message(messages.CandidateDecided(candidate.id, decision, result.changed))
