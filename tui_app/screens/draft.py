"""Draft review: the content, the AI suggestions with their provenance, and the person's decisions.

Keys act on the highlighted suggestion (accept, edit then accept, edit in $EDITOR then accept,
reject) or on the draft (approve, finalize). Every decision is permanent, so each one is confirmed
in a modal first; finalizing starts with the focus on Cancel. The revision history panel is derived
by the core from the draft's own timestamps.
"""

from __future__ import annotations

from datetime import datetime, tzinfo
from typing import Any, ClassVar

from rich.cells import cell_len
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import DataTable, Static
from textual.worker import Worker

from core.errors import ReverieError
from core.textsafe import field_line, visible
from core.textsafe import one_line as one_line_text
from core.workbench.types import StoredDraft, Suggestion
from tui_app import messages
from tui_app.screens.base import ReverieScreen
from tui_app.screens.memory_detail import MemoryDetailScreen
from tui_app.screens.session import Session
from tui_app.widgets.dialogs import ConfirmDialog, EditDialog, ErrorDialog
from tui_app.widgets.field_edit import FieldReader, example_hint, kind_hint
from tui_app.widgets.format import (
    confidence_text,
    editor_text,
    field_value_text,
    local_time,
    one_line,
    plural,
    preview,
    value_text,
)
from tui_app.widgets.history import history_text
from tui_app.widgets.humane import age, ago
from tui_app.widgets.longtext import LongText
from tui_app.widgets.tables import cursor_key

SUGGESTION_ACTIONS = ("accept", "edit", "edit_external", "reject")
EDIT = Binding.Group("Edit")  # e and ctrl+o share one footer entry: "e ^o Edit"
AGE_WIDTH = 12  # humanize's ages ("6 days", "2 months"); longer ones end in …
WIDE_SCREEN = 96  # from this many columns the suggestions show source and model apart
SHORT_SCREEN = 28  # below this many rows the history panel starts hidden (h shows it)
DECISION_WARNING = "Decisions are recorded in the draft's history and cannot be undone."


def decision_label(draft: StoredDraft, suggestion: Suggestion) -> tuple[str, str]:
    decision = draft.decision_for(suggestion.suggestion_id)
    if decision is None:
        return "pending", "$text-warning"
    if decision.action == "rejected":
        return "rejected", "$text-error"
    return ("edited", "$text-success") if decision.edited else ("accepted", "$text-success")


def next_to_decide(draft: StoredDraft, current: str | None) -> str | None:
    """Where the cursor goes after a change: ``current`` while it is pending, else the next pending
    suggestion after it (wrapping around), else ``current`` again."""
    ids = [s.suggestion_id for s in draft.suggestions]
    pending = {s.suggestion_id for s in draft.pending_suggestions()}
    start = ids.index(current) if current in ids else 0
    for offset in range(len(ids)):
        candidate = ids[(start + offset) % len(ids)]
        if candidate in pending:
            return candidate
    return current if current in ids else (ids[0] if ids else None)


def provenance(suggestion: Suggestion) -> str:
    parts = [suggestion.source]
    if suggestion.model:
        parts.append(suggestion.model)
    if suggestion.process_version:
        parts.append(suggestion.process_version)
    return " · ".join(field_line(part) for part in parts)  # an assistant's names are data, never lines


def state_text(draft: StoredDraft, now: datetime, zone: tzinfo) -> Content:
    """What is true of a draft with no suggestion to show: what the next step is, or that it is
    sealed and read-only."""
    sealed_at = local_time(draft.finalized_at, zone) if draft.finalized_at else "earlier"
    if draft.state == "finalized":
        return Content.assemble(
            ("Sealed", "bold $text-success"),
            f" as memory {draft.finalized_memory_id or '?'} on {sealed_at}.",
            (" Read-only: a finalized draft never changes. o opens the memory.", "dim"),
        )
    approval = draft.approval
    if draft.state == "approved":
        by = f" by {approval.reviewer}, {ago(approval.approved_at, now)}" if approval is not None else ""
        return Content.assemble(
            ("Approved", "bold"), f"{by}.", (" f finalizes it as a memory (once, sealed and signed).", "dim")
        )
    return Content.assemble(("No suggestions.", ""), (" Approve with A when the draft is right.", "dim"))


class DraftReviewScreen(ReverieScreen):
    SECTION = "queue"
    RELOAD_ON_RESUME = False  # loads once, then each stored change comes back in its own message
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "accept", "Accept", id="draft.accept", tooltip="Accept the highlighted suggestion as it is"),
        Binding(
            "e", "edit", "Edit", id="draft.edit", tooltip="Edit the highlighted suggestion, then accept it", group=EDIT
        ),
        Binding(
            "ctrl+o",
            "edit_external",
            "Edit in $EDITOR",
            id="draft.edit_external",
            group=EDIT,
            tooltip="Edit the highlighted suggestion in $EDITOR, then accept it",
        ),
        Binding("r", "reject", "Reject", id="draft.reject", tooltip="Reject the highlighted suggestion"),
        Binding(
            "A", "approve", "Approve", id="draft.approve", tooltip="Approve the draft once every suggestion is decided"
        ),
        Binding("f", "finalize", "Finalize", id="draft.finalize", tooltip="Seal the approved draft as a memory, once"),
        Binding("o", "open_memory", "Memory", id="draft.open_memory", tooltip="Open the memory this draft became"),
        Binding("h", "toggle_history", "History", id="draft.history", tooltip="Show or hide the revision history"),
        Binding(
            "c",
            "read_content",
            "Content",
            id="draft.content",
            tooltip="Read the whole content on the full screen (Esc comes back)",
        ),
        Binding(
            "escape", "minimize", "Back to the draft", id="draft.minimize", tooltip="Back to the draft", show=True
        ),
        Binding("ctrl+r", "reload", "Refresh", id="refresh", tooltip="Load the draft again", show=False),
        Binding("escape", "back", "Back", id="back", tooltip="Back to the list"),
    ]

    def __init__(self, session: Session, draft_id: str) -> None:
        super().__init__(session)
        self.draft_id = draft_id
        self.draft: StoredDraft | None = None
        self.history_chosen = False  # once the person toggles the panel, the terminal size stops deciding
        # A decision being stored: keys pressed meanwhile act on the draft as it will be, not as it was
        # (a decision key waits for it; a cursor move made meanwhile is kept where the person put it).
        self.deciding = False
        self.moved_while_deciding = False
        self.waiting_actions: list[str] = []

    def compose_body(self) -> ComposeResult:
        with Vertical(id="draft"):
            yield Static(id="draft-meta")
            yield LongText(id="draft-content-box", title="Content", hint="c reads all", body_id="draft-content")
            table: DataTable[str | Content] = DataTable(id="suggestions", cursor_type="row", zebra_stripes=True)
            table.border_title = "Suggestions"
            yield table
            yield Static(id="suggestion-detail")
            with VerticalScroll(id="draft-history") as history:
                history.border_title = "Revision history · newest first"
                yield Static(id="draft-history-text")

    def on_mount(self) -> None:
        self.reload()
        self.query_one(DataTable).focus()

    def on_resize(self) -> None:
        if not self.history_chosen:
            self.query_one("#draft-history").display = self.size.height >= SHORT_SCREEN

    # --- loading and showing --------------------------------------------------------------------------

    def reload(self) -> None:
        self.set_busy(True, self.query_one("#draft"))
        self.load_draft()

    @work(thread=True, exclusive=True, exit_on_error=False, group="draft", description="load the draft")
    def load_draft(self) -> None:
        draft = self.session.workbench.review.draft(self.draft_id)
        if not self.cancelled():
            self.post_message(messages.DraftLoaded(draft))

    def on_draft_loaded(self, message: messages.DraftLoaded) -> None:
        self.set_busy(False)
        self.show_draft(message.draft)

    def on_draft_decided(self, message: messages.DraftDecided) -> None:
        self.set_busy(False)
        self.show_draft(message.draft)
        self.notify(message.note, markup=False)
        self.decided()

    def start_deciding(self) -> None:
        self.deciding, self.moved_while_deciding = True, False

    def decided(self) -> None:
        """The stored decision is on screen: run the decision keys pressed while it was being stored."""
        self.deciding = self.moved_while_deciding = False
        waiting, self.waiting_actions = self.waiting_actions, []
        for action in waiting:
            getattr(self, f"action_{action}")()

    def wait_for_decision(self, action: str) -> bool:
        """True (and ``action`` kept for later) while a decision is being stored."""
        if self.deciding:
            self.waiting_actions.append(action)
        return self.deciding

    def on_draft_finalized(self, message: messages.DraftFinalized) -> None:
        self.set_busy(False)
        self.show_draft(message.draft)
        self.notify(f"Sealed as {message.memory.memory_id}. Press o to open it.", title="Finalized", markup=False)

    def work_failed(self, worker: Worker[object]) -> None:
        """A decision was refused (another instance decided first, the draft changed meanwhile): show
        what is stored now, not the state it was refused from."""
        if worker.group == "draft" and worker.name != "load_draft":
            self.deciding = self.moved_while_deciding = False
            self.waiting_actions.clear()  # they were meant for the draft as it would have been
            self.reload_quietly()

    @work(thread=True, exclusive=True, exit_on_error=False, group="draft-refresh", description="load the draft")
    def reload_quietly(self) -> None:
        """The draft as stored, after a refusal. If it cannot be read either (it is gone), the error
        already on screen says why: no second dialog, and the screen keeps what it showed."""
        try:
            draft = self.session.workbench.review.draft(self.draft_id)
        except ReverieError:
            return
        if not self.cancelled():
            self.post_message(messages.DraftLoaded(draft))

    def show_draft(self, draft: StoredDraft) -> None:
        self.draft = draft
        now = self.session.now()
        pending = len(draft.pending_suggestions())
        meta: list[Content | tuple[str, str] | str] = [(draft.state.capitalize(), "bold")]
        if draft.state == "finalized":
            meta.append(f" · sealed as memory {draft.finalized_memory_id} · read-only")
        elif draft.state == "approved":
            by = f" by {draft.approval.reviewer}" if draft.approval else ""
            meta.append(f"{by} · ready to finalize")
        else:
            meta.append(f" · {pending} of {len(draft.suggestions)} pending")
        meta.append(f" · captured {ago(draft.created_at, now)} by {draft.created_by}")
        if draft.tags:
            meta.append((f" · {', '.join(draft.tags)}", "dim"))
        self.query_one("#draft-meta", Static).update(Content.assemble(*meta))
        self.query_one("#draft-content-box", LongText).update(visible(draft.content))  # controls shown, not obeyed
        self.query_one("#draft").set_class(not draft.suggestions, "-no-suggestions")
        if not draft.suggestions:
            self.query_one("#draft-content-box").focus()  # nothing to decide: the arrows read the content
        self.fill_suggestions(draft)
        self.query_one("#draft-history-text", Static).update(
            history_text(draft, self.session.zone)
        )
        self.refresh_bindings()

    def fill_suggestions(self, draft: StoredDraft) -> None:
        table = self.query_one(DataTable)
        keep = self.highlighted_id()
        table.clear(columns=True)
        wide = self.size.width >= WIDE_SCREEN  # narrower: one "By" column (the model, else the source)
        who = (("Source", 11), ("Model", 17)) if wide else (("By", 14),)
        now = self.session.now()
        ages = {s.suggestion_id: age(s.created_at, now) for s in draft.suggestions}
        age_width = min(max((cell_len(a) for a in ages.values()), default=3), AGE_WIDTH)
        fixed = 11 + sum(size for _, size in who) + 4 + age_width + 8 + 2 * (4 + len(who)) + 6
        columns = (("Field", 11), ("Value", max(self.size.width - fixed, 12)), *who)
        for label, size in (*columns, ("Conf", 4), ("Age", max(age_width, 3)), ("Decision", 8)):
            table.add_column(label, width=size)
        for suggestion in draft.suggestions:
            decision = draft.decision_for(suggestion.suggestion_id)
            shown = decision.value if decision is not None and decision.edited else suggestion.value
            by = (
                [Content(one_line_text(suggestion.source)), Content(one_line_text(suggestion.model or "—"))]
                if wide
                else [Content(one_line_text(suggestion.model or suggestion.source))]
            )
            table.add_row(
                Content(suggestion.field_name),
                Content(field_value_text(suggestion.field_name, shown, self.session.zone)),
                *by,
                confidence_text(suggestion.confidence),
                Content(preview(ages[suggestion.suggestion_id], age_width)),
                Content.styled(*decision_label(draft, suggestion)),
                key=suggestion.suggestion_id,
            )
        ids = [s.suggestion_id for s in draft.suggestions]
        target = keep if self.moved_while_deciding and keep in {s.suggestion_id for s in draft.suggestions} \
            else next_to_decide(draft, keep)
        if target is not None:
            table.move_cursor(row=ids.index(target))
        self.show_suggestion_detail()

    def highlighted_id(self) -> str | None:
        return cursor_key(self.query_one(DataTable))

    def highlighted(self) -> Suggestion | None:
        suggestion_id = self.highlighted_id()
        if self.draft is None or suggestion_id is None:
            return None
        return next((s for s in self.draft.suggestions if s.suggestion_id == suggestion_id), None)

    @on(DataTable.RowHighlighted)
    def moved(self) -> None:
        if self.deciding:
            self.moved_while_deciding = True

    @on(DataTable.RowHighlighted)
    def show_suggestion_detail(self) -> None:
        detail = self.query_one("#suggestion-detail", Static)
        suggestion = self.highlighted()
        if self.draft is None:
            return
        if suggestion is None:
            detail.update(state_text(self.draft, self.session.now(), self.session.zone))
            self.refresh_bindings()
            return
        now = self.session.now()
        shown = field_value_text(suggestion.field_name, suggestion.value, self.session.zone)
        exact = value_text(suggestion.value)
        line: list[Content | tuple[str, str] | str] = [
            (suggestion.field_name, "bold"),
            f" = {shown}",
            (f"  ({exact})", "dim") if exact != shown else "",
            "\n",
            (
                f"{provenance(suggestion)} · confidence {confidence_text(suggestion.confidence)} · "
                f"{ago(suggestion.created_at, now)} · {suggestion.suggestion_id}",
                "dim",
            ),
        ]
        decision = self.draft.decision_for(suggestion.suggestion_id)
        if decision is not None:
            word = "rejected" if decision.action == "rejected" else "accepted"
            if decision.edited:
                word = f"edited to {value_text(decision.value)!r} and accepted"
            line += ["\n", (f"{word} by {decision.reviewer}, {ago(decision.decided_at, now)}", "dim")]
        detail.update(Content.assemble(*line))
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide what this draft's state rules out (False); dim what waits for something (None)."""
        draft = self.draft
        state = draft.state if draft is not None else None
        if action == "minimize":
            return self.maximized is not None
        if action == "back":
            return self.maximized is None
        if action in SUGGESTION_ACTIONS:
            if state != "open" or not draft.suggestions:  # type: ignore[union-attr]
                return False
            suggestion = self.highlighted()
            return True if suggestion is not None and draft.decision_for(suggestion.suggestion_id) is None else None  # type: ignore[union-attr]
        if action == "approve":
            return (True if not draft.pending_suggestions() else None) if state == "open" else False  # type: ignore[union-attr]
        if action == "finalize":
            return True if state == "approved" else (None if state == "open" else False)
        if action == "open_memory":
            return state == "finalized"
        return True

    # --- decisions ------------------------------------------------------------------------------------

    def pending_highlighted(self) -> Suggestion | None:
        suggestion = self.highlighted()
        if self.draft is None or suggestion is None or self.draft.state != "open":
            self.notify("Nothing to decide here.", severity="warning")
            return None
        if self.draft.decision_for(suggestion.suggestion_id) is not None:
            self.notify(f"{suggestion.field_name}: already decided.", severity="warning", markup=False)
            return None
        return suggestion

    def suggestion_to_decide(self, action: str) -> Suggestion | None:
        """The pending suggestion ``action`` decides; None while a decision is being stored (``action``
        then waits for it) or when nothing here can be decided (said in a notice)."""
        if self.wait_for_decision(action):
            return None
        return self.pending_highlighted()

    def action_accept(self) -> None:
        suggestion = self.suggestion_to_decide("accept")
        if suggestion is None:
            return
        dialog = ConfirmDialog(
            "Accept this suggestion?",
            f"{suggestion.field_name} = {value_text(suggestion.value)}\n"
            f"from {provenance(suggestion)}, confidence {confidence_text(suggestion.confidence)}",
            yes_label="Accept",
            warning=DECISION_WARNING,
        )
        self.app.push_screen(dialog, lambda yes: self.decide(yes, self.accept_suggestion, suggestion, None))

    def action_edit(self) -> None:
        suggestion = self.suggestion_to_decide("edit")
        if suggestion is None:
            return
        reader = self.field_reader(suggestion)
        dialog = EditDialog(suggestion.field_name, value_text(suggestion.value), example_hint(suggestion.field_name),
                            blink=self.blink, kind=kind_hint(suggestion.field_name), reader=reader)
        self.app.push_screen(dialog, lambda text: self.edited(suggestion, text, reader))

    def field_reader(self, suggestion: Suggestion) -> FieldReader:
        """Reads an edit of ``suggestion`` as its field's kind; time words relative to now, in the
        person's timezone and languages."""
        config = self.session.config
        return FieldReader(suggestion.field_name, suggestion.value, self.session.now(), self.session.zone,
                           tuple(config.general.languages) or ("en", "ko", "ja"),
                           fiscal_year_start=config.timeparse.fiscal_year_start)

    def edited(self, suggestion: Suggestion, text: str | None, reader: FieldReader) -> None:
        if text is None:
            return
        reading = reader(text)
        if reading.error:  # the dialog refuses these; a stale reading is refused here too
            self.notify(f"{reading.error}; the suggestion is still pending.", severity="warning", markup=False)
            return
        self.start_deciding()
        self.accept_suggestion(suggestion, reading.value)

    def decide(self, yes: bool | None, worker: Any, *args: Any) -> None:
        """A confirmed decision: stored by ``worker``; keys pressed until it is shown wait for it."""
        if yes:
            self.start_deciding()
            worker(*args)

    def action_edit_external(self) -> None:
        suggestion = self.suggestion_to_decide("edit_external")
        if suggestion is None:
            return
        try:
            text = self.session.editor(self.app, editor_text(suggestion.value), ".txt")
        except Exception as exc:  # the editor is the person's program: any failure is reported, not raised
            self.app.push_screen(ErrorDialog("Could not open the editor", one_line(exc)))
            return
        if text is None or not text.strip() or text.strip() == editor_text(suggestion.value).strip():
            self.notify("Unchanged: the suggestion is still pending.")
            return
        reading = self.field_reader(suggestion)(text.strip())
        if reading.error:
            self.app.push_screen(ErrorDialog("The edit cannot be accepted", reading.error))
            return
        value = reading.value
        dialog = ConfirmDialog(
            "Accept the edited value?",
            f"{reading.reading}\nsuggested: {value_text(suggestion.value)}",
            yes_label="Accept edit",
            warning=f"{reading.warning}. {DECISION_WARNING}" if reading.warning else DECISION_WARNING,
        )
        self.app.push_screen(dialog, lambda yes: self.decide(yes, self.accept_suggestion, suggestion, value))

    def action_reject(self) -> None:
        suggestion = self.suggestion_to_decide("reject")
        if suggestion is None:
            return
        dialog = ConfirmDialog(
            "Reject this suggestion?",
            f"{suggestion.field_name} = {value_text(suggestion.value)}\nfrom {provenance(suggestion)}",
            yes_label="Reject",
            warning=DECISION_WARNING + " The suggestion stays in the history as rejected.",
        )
        self.app.push_screen(dialog, lambda yes: self.decide(yes, self.reject_suggestion, suggestion))

    def action_approve(self) -> None:
        if self.wait_for_decision("approve"):
            return
        draft = self.draft
        if draft is None or draft.state != "open":
            self.notify("Only an open draft can be approved.", severity="warning")
            return
        if draft.pending_suggestions():
            count = plural(len(draft.pending_suggestions()), "suggestion")
            self.notify(f"{count} still pending: accept or reject each first.", severity="warning")
            return
        fields = draft.resolved_fields()
        body = "\n".join(f"{name} = {value_text(value)}" for name, value in fields.items()) or "No confirmed fields."
        dialog = ConfirmDialog(
            "Approve this draft?",
            body,
            yes_label="Approve",
            warning=f"Approval records {self.session.reviewer} as the reviewer; the draft cannot change after it. "
            "Finalizing is a separate step.",
        )
        self.app.push_screen(dialog, lambda yes: self.decide(yes, self.approve_draft))

    def action_finalize(self) -> None:
        if self.wait_for_decision("finalize"):
            return
        draft = self.draft
        if draft is None or draft.state != "approved":
            self.notify("Approve the draft before finalizing it.", severity="warning")
            return
        dialog = ConfirmDialog(
            "Finalize this draft as a memory?",
            f"{preview(draft.content, 160)}\n\nconfirmed: {', '.join(draft.resolved_fields()) or 'no fields'}",
            yes_label="Finalize",
            warning="Finalizing seals the memory: encrypted, signed and recorded in the ledger. It happens once "
            "and cannot be undone, replaced or deleted.",
            default_yes=False,
        )
        self.app.push_screen(dialog, lambda yes: self.finalize_draft() if yes else None)

    def action_open_memory(self) -> None:
        if self.draft is not None and self.draft.finalized_memory_id:
            self.app.push_screen(MemoryDetailScreen(self.session, self.draft.finalized_memory_id))

    def action_read_content(self) -> None:
        """The content on the full screen (c again, or Esc, comes back to the draft)."""
        self.toggle_full_screen(self.query_one("#draft-content-box", LongText))

    def minimize(self) -> None:
        """Back from the full-screen content: the suggestions have the keys again."""
        super().minimize()
        self.query_one(DataTable).focus()
        self.refresh_bindings()

    def action_toggle_history(self) -> None:
        history = self.query_one("#draft-history")
        history.display = not history.display
        self.history_chosen = True

    def action_back(self) -> None:
        self.dismiss()

    # --- workers: read the draft fresh, apply one transition, store it ----------------------------------

    @work(thread=True, exclusive=True, exit_on_error=False, group="draft", description="accept the suggestion")
    def accept_suggestion(self, suggestion: Suggestion, value: Any) -> None:
        draft = self.session.workbench.review.accept(self.draft_id, suggestion.suggestion_id,
                                              reviewer=self.session.reviewer, value=value)
        decision = draft.decision_for(suggestion.suggestion_id)
        how = "Accepted an edit of" if decision is not None and decision.edited else "Accepted"
        self.post_message(messages.DraftDecided(draft, f"{how} {suggestion.field_name}."))

    @work(thread=True, exclusive=True, exit_on_error=False, group="draft", description="reject the suggestion")
    def reject_suggestion(self, suggestion: Suggestion) -> None:
        draft = self.session.workbench.review.reject(self.draft_id, suggestion.suggestion_id,
                                              reviewer=self.session.reviewer)
        self.post_message(messages.DraftDecided(draft, f"Rejected {suggestion.field_name}."))

    @work(thread=True, exclusive=True, exit_on_error=False, group="draft", description="approve the draft")
    def approve_draft(self) -> None:
        draft = self.session.workbench.review.approve(self.draft_id, reviewer=self.session.reviewer)
        self.post_message(messages.DraftDecided(draft, "Approved. Press f to finalize it as a memory."))

    @work(thread=True, exclusive=True, exit_on_error=False, group="draft", description="finalize the draft")
    def finalize_draft(self) -> None:
        memory = self.session.workbench.review.finalize(self.draft_id)  # the draft is unsealed once, under the lock
        self.post_message(messages.DraftFinalized(self.session.workbench.review.draft(self.draft_id), memory))
