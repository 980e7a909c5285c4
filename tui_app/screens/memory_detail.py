"""One memory: its content and confirmed fields, whether its record verifies against the ledger, and
its review provenance (who approved it, every AI suggestion with its source, model, process version
and confidence, and what the person decided)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import DataTable, Static

from core.frozen import thaw
from core.textsafe import visible
from tui_app import messages
from tui_app.screens.base import ReverieScreen
from tui_app.screens.session import Session
from tui_app.views.data import MemoryDetail, load_memory_detail
from tui_app.widgets.format import confidence_text, field_value_text, local_time, value_text
from tui_app.widgets.longtext import LongText

Parts = list[Content | tuple[str, str] | str]


def fields_text(detail: MemoryDetail, zone: Any) -> Content:
    meta = detail.memory.metadata
    parts: Parts = [(meta.title or "Untitled memory", "bold")]
    rows = [
        ("when", local_time(meta.occurred_at, zone) if meta.occurred_at else None),
        ("where", meta.location),
        ("people", ", ".join(meta.people) if meta.people else None),
        ("tags", ", ".join(meta.tags) if meta.tags else None),
    ]
    for name, value in rows:
        if value:
            parts += ["\n", (f"{name:<7}", "dim"), value]
    extra = {
        k: v
        for k, v in meta.confirmed_fields.items()
        if k not in {"title", "occurred_at", "location", "people", "tags"}
    }
    for name, value in extra.items():
        parts += ["\n", (f"{name:<7}", "dim"), value_text(value)]
    return Content.assemble(*parts)


def verification_text(detail: MemoryDetail, zone: Any) -> Content:
    entry = detail.entry
    parts: Parts = []
    if detail.verified and entry is not None:
        parts += [
            ("✓ sealed", "bold $text-success"),
            " signature, ciphertext and content SHA-256 verify; the file matches ",
        ]
        parts += [f"ledger entry {entry.seq} ({entry.kind}, {local_time(entry.ts, zone)})"]
    elif entry is None:
        parts += [("✗ not in the ledger", "bold $text-error"), " the record verifies but was never recorded"]
    else:
        parts += [("✗ differs from the ledger", "bold $text-error"), f" entry {entry.seq} recorded another version"]
    parts += ["\n", (f"{detail.memory.memory_id} · content sha256 {detail.memory.content_sha256[:16]}…", "dim")]
    return Content.assemble(*parts)


def review_text(review: Mapping[str, Any] | None, zone: Any) -> Content:
    if not review:
        return Content.assemble(
            ("Not reviewed", "bold $text-warning"),
            " — stored without review; every export marks it reviewed: false.",
        )
    parts: Parts = [
        ("✓ Reviewed", "bold $text-success"),
        f" approved by {review.get('approved_by')} on {local_time(review.get('approved_at'), zone)}",
        "\n",
        (
            f"from draft {review.get('draft_id')}, captured {local_time(review.get('created_at'), zone)} "
            f"by {review.get('created_by')}",
            "dim",
        ),
    ]
    return Content.assemble(*parts)


def decision_cell(decision: Mapping[str, Any] | None) -> Content:
    if decision is None:
        return Content.styled("—", "dim")
    if decision.get("action") == "rejected":
        return Content.styled(f"rejected by {decision.get('reviewer')}", "$text-error")
    if decision.get("edited"):
        return Content.styled(f"edited → {value_text(decision.get('value'))}", "$text-success")
    return Content.styled(f"accepted by {decision.get('reviewer')}", "$text-success")


class MemoryDetailScreen(ReverieScreen):
    SECTION = "memories"
    RELOAD_ON_RESUME = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("v", "reload", "Verify again", id="memory.verify", tooltip="Read and verify this record again"),
        Binding(
            "c",
            "read_content",
            "Content",
            id="memory.content",
            tooltip="Read the whole content on the full screen (Esc comes back)",
        ),
        Binding("escape", "minimize", "Back to the memory", id="memory.minimize", tooltip="Back to the memory"),
        Binding("escape", "back", "Back", id="back", tooltip="Back to the list"),
    ]

    def __init__(self, session: Session, memory_id: str) -> None:
        super().__init__(session)
        self.memory_id = memory_id
        self.detail: MemoryDetail | None = None

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="memory"):
            yield Static(id="memory-fields")
            yield LongText(id="memory-content", title="Content", hint="c reads all")
            yield Static(id="memory-verification")
            yield Static(id="memory-review")
            table: DataTable[str | Content] = DataTable(id="memory-suggestions", cursor_type="row")
            table.border_title = "Suggestions and decisions"
            yield table
            yield LongText(id="memory-original", title="Original capture", hint="Tab, then ↓")

    def on_mount(self) -> None:
        self.reload()
        self.query_one("#memory").focus()

    def reload(self) -> None:
        self.set_busy(True, self.query_one("#memory"))
        self.load_detail()

    def action_back(self) -> None:
        self.dismiss()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Esc restores the full-screen content first, then goes back (each shown as what it does)."""
        if action == "minimize":
            return self.maximized is not None
        if action == "back":
            return self.maximized is None
        return True

    def action_read_content(self) -> None:
        """The content on the full screen (c again, or Esc, comes back)."""
        self.toggle_full_screen(self.query_one("#memory-content", LongText))

    def minimize(self) -> None:
        super().minimize()
        self.query_one("#memory").focus()
        self.refresh_bindings()

    @work(thread=True, exclusive=True, exit_on_error=False, group="load", description="open the memory")
    def load_detail(self) -> None:
        detail = load_memory_detail(self.session, self.memory_id)
        if not self.cancelled():
            self.post_message(messages.MemoryLoaded(detail))

    def on_memory_loaded(self, message: messages.MemoryLoaded) -> None:
        self.set_busy(False)
        detail = self.detail = message.detail
        zone = self.session.zone
        memory = detail.memory
        self.query_one("#memory-fields", Static).update(fields_text(detail, zone))
        self.query_one("#memory-content", LongText).update(visible(memory.content))
        self.query_one("#memory-verification", Static).update(verification_text(detail, zone))
        review = thaw(memory.review) if memory.review else None
        self.query_one("#memory-review", Static).update(review_text(review, zone))
        table = self.query_one(DataTable)
        table.clear(columns=True)
        by_width = 24 if self.size.width >= 96 else 16
        decision_width = max(self.size.width - 58 - by_width, 14)
        for label, size in (
            ("Field", 11),
            ("Suggested", 20),
            ("By", by_width),
            ("Conf", 4),
            ("Decision", decision_width),
        ):
            table.add_column(label, width=size)
        table.display = bool(review and review.get("suggestions"))
        decisions = {d.get("suggestion_id"): d for d in (review or {}).get("decisions", [])}
        for suggestion in (review or {}).get("suggestions", []):
            by = " · ".join(
                str(x)
                for x in (suggestion.get("model") or suggestion.get("source"), suggestion.get("process_version"))
                if x
            )
            table.add_row(
                Content(str(suggestion.get("field_name"))),
                Content(field_value_text(str(suggestion.get("field_name")), suggestion.get("value"), zone)),
                Content(by),
                confidence_text(suggestion.get("confidence")),
                decision_cell(decisions.get(suggestion.get("suggestion_id"))),
            )
        original = self.query_one("#memory-original", LongText)
        original_content = (review or {}).get("original_content")
        original.display = bool(original_content and original_content != memory.content)
        original.update(visible(original_content or ""))
