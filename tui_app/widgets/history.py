"""A draft's revision history as text: derived by the core from the timestamps already in the draft."""

from __future__ import annotations

from datetime import tzinfo

from textual.content import Content

from core.textsafe import field_line
from core.workbench.types import StoredDraft
from tui_app.widgets.format import local_time

ACTION_WORDS = {
    "draft_created": ("captured", ""),
    "suggestion_added": ("suggested", "$text-accent"),
    "suggestion_accepted": ("accepted", "$text-success"),
    "suggestion_rejected": ("rejected", "$text-error"),
    "draft_approved": ("approved", "bold $text-success"),
    "draft_finalized": ("finalized", "bold $text-primary"),
}


def history_text(draft: StoredDraft, zone: tzinfo) -> Content:
    """The draft's revision history, newest first, one step a line: time, what, who, and the detail."""
    lines: list[Content | tuple[str, str] | str] = []
    for revision in reversed(draft.revision_history()):
        detail = draft.revision_detail(revision)
        word, style = ACTION_WORDS.get(revision.action, (revision.action, ""))
        if lines:
            lines.append("\n")
        lines += [
            (local_time(revision.occurred_at, zone), "dim"),
            " ",
            (f"{word:<9}", style),
            " ",
            # The space after the actor stays inside the actor's span: a span that starts with a space
            # loses it in SVG renderers (librsvg), which showed "memood" for "me mood".
            (f"{field_line(revision.actor)} " if detail else field_line(revision.actor), "bold"),
        ]
        if detail:
            lines.append(field_line(detail))  # names an assistant gave are one line of data
    return Content.assemble(*lines) if lines else Content("No history yet.")
