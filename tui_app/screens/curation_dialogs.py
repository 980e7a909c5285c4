"""The move confirmation: the dry run's answer, shown exactly, before anything moves.

It lists what will move (each with its tier or approval, signals and checksum), what the tier rules
hold back and why, and any error the dry run met. ``y`` moves exactly the listed records; ``n`` or
Esc moves nothing. When only the scope's report-only runs hold records back, ``y`` records one such
run (moving nothing), as ``reverie curate apply`` does; with nothing else to do it only reports.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from tui_app.screens.curation_format import ContentPart, short_sha, signal_list, tilde
from tui_app.widgets.format import plural

if TYPE_CHECKING:
    from core.curate.engine import ApplyReport, PlannedMove

ROOM_FOR_THE_REST = 14  # rows for the box's border and padding, the title, the warning and the buttons
MOVE_WARNING = (
    "Nothing is deleted: each record is copied to cold storage, its checksum verified, a tombstone "
    "written where it was, and only then removed. Restore any one from Cold storage (F8)."
)


RUN_NOTE = (
    "y records this as one of the scope's report-only runs, as `reverie curate apply` would (each day "
    "counts once): nothing moves now; once the report-only runs are done, high-tier records move by "
    "themselves (within the cap)."
)


def plan_lines(report: ApplyReport) -> Content:
    will = [p for p in report.would_move if p.will_move]
    held = [p for p in report.would_move if not p.will_move]
    parts: list[ContentPart] = []
    if will:
        parts.append((f"Will move {plural(len(will), 'record')}:", "bold"))
        for item in will:
            parts += ["\n", *_moving(item)]
    by_reason: dict[str, list[PlannedMove]] = {}
    for item in held:
        by_reason.setdefault(item.reason, []).append(item)
    for reason, items in by_reason.items():
        if parts:
            parts.append("\n\n")
        parts += [(f"Not moved ({len(items)}): ", "bold"), (reason, "dim")]
        for item in items:
            parts += ["\n", f"  {item.candidate.scope}:{item.candidate.rel}"]
    for note in report.notes:  # the report-only explanation, once for the run
        parts += ["\n\n" if parts else "", (note, "dim")]
    if report.errors:
        parts += ["\n\n", ("Problems:", "bold $text-error")]
        parts += [part for error in report.errors for part in ("\n", (f"  {tilde(error)}", "$text-error"))]
    if not parts:
        parts.append("No candidate is in a tier that moves, and none is approved.")
    return Content.assemble(*parts)


def _moving(item: PlannedMove) -> list[ContentPart]:
    c = item.candidate
    why = "approved by you" if item.approved else f"{c.tier} tier"
    return [
        ("  → ", "bold $text-warning"),
        (f"{c.scope}:{c.rel}", "bold"),
        "\n",
        (f"    {why} · {signal_list(c.signals)} · sha256 {short_sha(c.sha256)}", "dim"),
    ]


class MovePlanDialog(ModalScreen[bool]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Move", id="dialog.move", tooltip="Move exactly the listed records"),
        Binding("n,escape", "answer(False)", "Cancel", id="dialog.no_move", tooltip="Move nothing"),
        Binding("up", "scroll_plan(-1)", "Up", id="dialog.plan_up", tooltip="Scroll the list up", show=False),
        Binding("down", "scroll_plan(1)", "Down", id="dialog.plan_down", tooltip="Scroll the list down", show=False),
    ]

    def __init__(self, report: ApplyReport, report_only_left: Mapping[str, int] | None = None,
                 counted_today: Collection[str] = ()) -> None:
        """``report_only_left``: scope → apply runs that still only report (high-tier records held
        by them are why a dry run may move nothing, and the title says so); ``counted_today``: scopes
        whose report-only run of today is recorded (another one today would not count)."""
        super().__init__(classes="dialog")
        self.counted_today = frozenset(counted_today)
        self.report = report
        self.count = sum(1 for p in report.would_move if p.will_move)
        left = report_only_left or {}
        self.held_by_report_only = [
            p for p in report.would_move
            if not p.will_move and p.candidate.tier == "high" and not p.approved and left.get(p.candidate.scope, 0)
        ]

    @property
    def can_record_run(self) -> bool:
        """Nothing would move only because of report-only runs, and a scope holding records back has not
        had today's: y records one (moving nothing)."""
        return not self.count and any(p.candidate.scope not in self.counted_today for p in self.held_by_report_only)

    def title_text(self) -> str:
        if self.count:
            return f"Move {plural(self.count, 'record')} to cold storage?"
        if self.held_by_report_only:
            held = plural(len(self.held_by_report_only), "high-tier record")
            today = "" if self.can_record_run else " (today's report-only run is recorded; runs count once a day)"
            return f"Nothing moves yet: {held} held by report-only runs{today}"
        return "Dry run: nothing would move"

    def compose(self) -> ComposeResult:
        title = self.title_text()
        with Vertical(classes="dialog-box move-plan-box"):
            yield Label(title, classes="dialog-title", markup=False)
            with VerticalScroll(id="move-plan", classes="dialog-body"):
                yield Static(plan_lines(self.report), id="move-plan-lines")
            if self.count:
                yield Static(MOVE_WARNING, classes="dialog-warning", markup=False)
            elif self.can_record_run:
                yield Static(RUN_NOTE, classes="dialog-warning", markup=False)
            with Horizontal(classes="dialog-buttons"):
                if self.count:
                    yield Button(f"Move {self.count} (y)", id="yes", variant="warning")
                elif self.can_record_run:
                    yield Button("Record the run (y)", id="yes", variant="primary")
                yield Button("Cancel (n)" if self.count or self.can_record_run else "Close (n)", id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()  # a stray Enter moves nothing

    def on_resize(self) -> None:
        """The list scrolls; the title, the warning and the buttons always stay in view."""
        fixed = ROOM_FOR_THE_REST if self.count or self.can_record_run else ROOM_FOR_THE_REST - 4
        self.query_one("#move-plan").styles.max_height = max(3, int(self.size.height * 0.9) - fixed)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "answer" and parameters == (True,):
            return self.count > 0 or self.can_record_run
        return True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")

    def action_scroll_plan(self, lines: int) -> None:
        self.query_one("#move-plan", VerticalScroll).scroll_relative(y=lines, animate=False)

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer and (self.count > 0 or self.can_record_run))
