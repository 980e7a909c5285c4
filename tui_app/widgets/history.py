"""A draft's revision history as text: derived by the core from the timestamps already in the draft."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import tzinfo

from textual.content import Content

from core.textsafe import field_line
from core.workbench.types import Revision
from tui_app.widgets.format import local_time

ACTION_WORDS = {
    "draft_created": ("captured", ""),
    "suggestion_added": ("suggested", "$text-accent"),
    "suggestion_accepted": ("accepted", "$text-success"),
    "suggestion_rejected": ("rejected", "$text-error"),
    "draft_approved": ("approved", "bold $text-success"),
    "draft_finalized": ("finalized", "bold $text-primary"),
}


def history_text(revisions: Iterable[Revision], zone: tzinfo) -> Content:
    lines: list[Content | tuple[str, str] | str] = []
    for revision in revisions:
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
            (f"{field_line(revision.actor)} " if revision.detail else field_line(revision.actor), "bold"),
        ]
        if revision.detail:
            lines.append(field_line(revision.detail))  # names an assistant gave are one line of data
    return Content.assemble(*lines) if lines else Content("No history yet.")
