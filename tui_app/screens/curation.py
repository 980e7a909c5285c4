"""Curation: the candidates of every scope, grouped by tier, each with the signals and guards that
fired, its age, the rubric version and the start of its text.

Opening the screen scans the scopes (a scan reads and judges; it never moves anything, and records a
run: that is the weekly review). Composed ahead of its first showing, the screen judges the scopes
read only (no run recorded) so that it opens with the candidates, labelled as read ahead until the
scan made on opening replaces them with what it found. Keys act on
the highlighted candidate (approve, reject, Enter for its full text) or on the whole (``m`` moves:
a dry run first, then a confirmation listing exactly what will move, then the moves in a worker
with progress; Esc stops before the next scope). Calibration (``c``) shows the measured
distribution the thresholds came from.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.timer import Timer
from textual.widgets import DataTable, Label, ProgressBar, Static
from textual.worker import Worker

from core.workbench.types import TIERS, Candidate
from tui_app import messages
from tui_app.screens.curation_candidate import CandidateScreen
from tui_app.screens.curation_decide import DecidingScreen, decided_note
from tui_app.screens.curation_dialogs import MovePlanDialog
from tui_app.screens.curation_format import (
    TIER_STYLE,
    ContentPart,
    candidate_detail,
    days,
    decision_mark,
    guard_list,
    signal_list,
    tier_heading,
    tilde,
)
from tui_app.screens.session import Session
from tui_app.views import curation_data as data
from tui_app.widgets.dialogs import ErrorDialog
from tui_app.widgets.format import one_line, plural, preview
from tui_app.widgets.humane import ago
from tui_app.widgets.list_filter import filter_tabs
from tui_app.widgets.tables import RecordTable, cursor_key

if TYPE_CHECKING:
    from core.curate.engine import ApplyReport, PlannedMove

SHOW = Binding.Group("Show")
FILTERS = (*TIERS, "all")
HEADER_PREFIX = "tier:"
NO_SCOPES = "No curation scopes yet. Add one with: reverie curate scope add NAME --kind claude-code --path FOLDER"
PROGRESS_SECONDS = 0.2


class CurationScreen(DecidingScreen):
    SECTION = "curation"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "show('high')", "High", id="curation.show_high", tooltip="Show the high tier", group=SHOW),
        Binding("2", "show('medium')", "Medium", id="curation.show_medium", tooltip="Show the medium tier", group=SHOW),
        Binding("3", "show('low')", "Low", id="curation.show_low", tooltip="Show the low tier", group=SHOW),
        Binding("0", "show('all')", "All", id="curation.show_all", tooltip="Show every tier", group=SHOW),
        Binding("m", "move", "Move…", id="curation.move", tooltip="Dry run, then confirm exactly what moves"),
        Binding("s", "scan", "Scan", id="curation.scan", tooltip="Scan the scopes again (moves nothing)"),
        Binding("c", "calibration", "Calibration", id="curation.calibration", tooltip="The measured thresholds"),
        Binding("escape", "stop_moving", "Stop", id="curation.stop", tooltip="Stop moving after the current record"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.filter = "all"
        self.shown: data.CandidateList | None = None
        self.moving: list[PlannedMove] = []
        self.stop_requested = threading.Event()
        self.records_done = 0  # records the move under way has handled (moved or not)
        self.progress_timer: Timer | None = None
        self.recorded_scopes: list[str] = []  # the scopes of the report-only run being recorded
        self.drawn: object = None  # the columns and cells the table holds (``fill``)

    def compose_body(self) -> ComposeResult:
        with Vertical(id="curation"):
            yield Static(id="curation-scopes")
            yield Static(id="curation-filter")
            yield RecordTable(id="curation-table", cursor_type="row")
            with VerticalScroll(id="curation-detail"):
                yield Static(id="curation-detail-text")
            with Horizontal(id="curation-progress"):
                yield Label(id="curation-progress-label", markup=False)
                yield ProgressBar(id="curation-progress-bar", show_eta=False)

    # --- loading -------------------------------------------------------------------------------------

    def prepare(self) -> None:
        """Composed ahead (``ReverieApp.compose_sections``): judge the scopes read only, so that the
        first showing paints the candidates at once. Not a scan: a scan records a run, which would
        end the weekly review's reminder for a review the person never saw; opening the screen scans."""
        self.composed_ahead = True
        self.judge_ahead()

    # Its own group: opening the screen meanwhile starts the scan at once (a "load" worker running
    # would hold it back), and what the read finds after the scan is dropped (``on_candidates_loaded``).
    @work(thread=True, exclusive=True, exit_on_error=False, group="ahead", description="read the curation scopes")
    def judge_ahead(self) -> None:
        found = data.judge_ahead(self.session)
        if found is not None and not self.cancelled():
            self.post_message(messages.CandidatesLoaded(found))

    def failed_unseen(self, worker: Worker[object]) -> bool:
        """A read ahead that failed says nothing: the scan made on opening reads the same and says why."""
        return worker.group == "ahead" or super().failed_unseen(worker)

    def reload(self) -> None:
        if self.shown is None:
            self.set_busy(True, self.query_one(DataTable))
        self.load_candidates(force=False)

    def action_scan(self) -> None:
        self.set_busy(True, self.query_one(DataTable))
        self.load_candidates(force=True)

    @work(thread=True, exclusive=True, exit_on_error=False, group="load", description="scan the curation scopes")
    def load_candidates(self, force: bool) -> None:
        shown = self.shown
        stamp = data.Stamp.read(self.session.paths)
        if shown is None or force or not shown.recorded or stamp.others != shown.stamp.others:
            result = data.scan(self.session)
        elif stamp.decisions != shown.stamp.decisions:
            result = data.with_current_decisions(self.session, shown)
        else:
            result = None  # nothing changed since it was shown
        if result is not None and not self.cancelled():
            self.post_message(messages.CandidatesLoaded(result))
        elif result is None:
            self.post_message(messages.CandidatesUnchanged())

    def on_candidates_loaded(self, message: messages.CandidatesLoaded) -> None:
        self.set_busy(False)
        if not message.candidates.recorded and self.shown is not None and self.shown.recorded:
            return  # read ahead, but a scan got here first: the scan is newer
        self.shown = message.candidates
        self.fill()

    def on_candidates_unchanged(self, message: messages.CandidatesUnchanged) -> None:
        self.set_busy(False)

    # --- showing -------------------------------------------------------------------------------------

    def on_resize(self) -> None:
        if self.shown is not None:
            self.fill()

    def candidates(self) -> list[Candidate]:
        return self.shown.candidates if self.shown else []

    def visible(self) -> list[Candidate]:
        return [c for c in self.candidates() if self.filter in ("all", c.tier)]

    def fill(self) -> None:
        """Show ``self.shown``. The table is built again only when a cell differs from what it shows
        (the scan made on opening mostly confirms what was read ahead), and each line only when its
        text or style changed: every rebuild or update is another layout and paint of the screen."""
        fixed = (("", 1), ("Age", 5), ("Signals", 24), ("Guards", 14))
        record = max(self.size.width - sum(size for _, size in fixed) - 2 * (len(fixed) + 1) - 4, 16)
        columns = (fixed[0], fixed[1], ("Record", record), *fixed[2:])
        rows = self.table_rows(record)
        drawn = (columns, [(key, tuple(map(same_as, cells))) for key, cells in rows])
        if drawn != self.drawn:
            table = self.query_one(DataTable)
            keep = self.highlighted_key()
            table.clear(columns=True)
            for label, size in columns:
                table.add_column(label, width=size)
            for key, cells in rows:
                table.add_row(*cells, key=key)
            # Filled before it was laid out (read ahead): built again at its size, where the cursor
            # can be scrolled into view (scrolling a table with no height yet leaves it scrolled).
            self.drawn = drawn if table.size.height else None
            self.place_cursor(keep)
        update_static(self.query_one("#curation-scopes", Static), self.scopes_line())
        update_static(self.query_one("#curation-filter", Static), self.filter_line())
        self.show_detail()

    def table_rows(self, record: int) -> list[tuple[str, tuple[str | Content, ...]]]:
        """(key, cells) of each row the table shows, tier headings included when every tier shows."""
        rows: list[tuple[str, tuple[str | Content, ...]]] = []
        grouped = self.filter == "all"
        for tier in TIERS:
            members = [c for c in self.visible() if c.tier == tier]
            if grouped and members:
                name, meaning = tier_heading(tier, len(members), self.high_rules()[1])
                rows.append((HEADER_PREFIX + tier, ("", "", name, meaning, "")))
            for c in members:
                cells = (decision_mark(c), days(c.age_days), record_cell(c, record), Content(signal_list(c.signals)))
                rows.append((c.id, (*cells, guard_cell(c))))
        return rows

    def place_cursor(self, keep: str | None) -> None:
        table = self.query_one(DataTable)
        keys = [row.key.value for row in table.ordered_rows]
        target = keep if keep in keys else next((k for k in keys if not str(k).startswith(HEADER_PREFIX)), None)
        if target is not None:
            table.move_cursor(row=keys.index(target))

    def high_rules(self) -> tuple[int, int]:
        """(the cap on automatic moves per run, the most report-only runs left in a scope that has high
        candidates)."""
        if self.shown is None:
            return 0, 0
        scopes = {c.scope for c in self.candidates() if c.tier == "high"}
        left = max((self.shown.report_only_left.get(scope, 0) for scope in scopes), default=0)
        return self.shown.auto_move_cap, left

    def report_only_note(self, message: messages.MovesDone) -> str:
        """What the recorded run changed, per scope: how many report-only runs are left now."""
        left = self.shown.report_only_left if self.shown is not None else {}
        parts = []
        for scope in self.recorded_scopes:
            remaining = left.get(scope, 0)
            after = f"{plural(remaining, 'report-only run')} left" if remaining else "high-tier records now move"
            parts.append(f"{scope}: nothing moved; {after}")
        return "; ".join(parts) or "Nothing moved."

    def report_only_left(self, candidate: Candidate) -> int:
        """The report-only apply runs left in ``candidate``'s scope (none once it has had them)."""
        return self.shown.report_only_left.get(candidate.scope, 0) if self.shown is not None else 0

    def scopes_line(self) -> Content:
        if self.shown is None:
            return Content("")
        report = self.shown.report
        if not report.scopes:
            return Content.styled(NO_SCOPES, "$text-warning")
        parts: list[ContentPart] = []
        for item in report.scopes:
            parts += [(item.scope.name, "bold"), " "]
            if item.problem:
                parts += [(f"✗ {item.problem}", "$text-error"), "\n"]
                continue
            parts.append(f"{item.scope.kind.name} · {plural(item.records, 'record')}")
            t = item.thresholds
            if t is not None:
                measured = "" if t.measured else " (defaults: too few to measure)"
                parts.append(f" · unused ≥ {days(t.unused_days)}, clearly old ≥ {days(t.clearly_old_days)}{measured}")
            parts.append("\n")
        when = ago(report.scanned_at, self.session.now())
        scanned = f"scanned {when}" if self.shown.recorded else f"not scanned yet (read {when}) · scanning…"
        parts.append((f"rubric v{report.rubric_version} · {scanned}", "dim"))
        if report.pending_operations:
            pending = plural(report.pending_operations, "interrupted operation")
            parts.append((f" · {pending}: the next move finishes it", "bold $text-warning"))
        return Content.assemble(*parts)

    def filter_line(self) -> Content:
        found = self.candidates()
        counts = {tier: sum(1 for c in found if c.tier == tier) for tier in TIERS}
        counts["all"] = len(found)
        parts = filter_tabs("Candidates", zip(("1", "2", "3", "0"), FILTERS, strict=True), counts, self.filter)
        approved = sum(1 for c in found if c.decision == "approved")
        if approved:
            parts.append((f"  · {approved} approved, moves with m", "$text-success"))
        return Content.assemble(*parts)

    def highlighted_key(self) -> str | None:
        return cursor_key(self.query_one(DataTable))

    def highlighted(self) -> Candidate | None:
        key = self.highlighted_key()
        return next((c for c in self.candidates() if c.id == key), None)

    def decision_target(self) -> Candidate | None:
        return None if self.moving else self.highlighted()

    @on(DataTable.RowHighlighted)
    def show_detail(self) -> None:
        text = self.query_one("#curation-detail-text", Static)
        candidate = self.highlighted()
        key = self.highlighted_key() or ""
        if candidate is not None:
            update_static(text, candidate_detail(candidate, self.size.width - 4, self.report_only_left(candidate)))
        elif key.startswith(HEADER_PREFIX):
            update_static(text, self.tier_help(key.removeprefix(HEADER_PREFIX)))
        elif self.shown is not None and self.shown.report.scopes:
            empty = "Nothing to curate here." if self.filter == "all" else f"No {self.filter} candidates."
            update_static(text, Content.assemble(empty, (" A record with no signal is not a candidate.", "dim")))
        else:
            update_static(text, "")
        self.refresh_bindings()

    def tier_help(self, tier: str) -> Content:
        cap, left = self.high_rules()
        explain = {
            "high": f"Several signals, no guard, clearly old. Moves by itself, at most {cap} a run, once a "
            "scope's first apply runs have only reported it"
            + (f" ({plural(left, 'report-only run')} left)." if left else "."),
            "medium": "Some signal, no guard. Waits for your approval (a); approved records move with m.",
            "low": "Guarded, unsure, or too weak. Stays; you can still approve one by hand.",
        }
        return Content.assemble((tier.upper(), TIER_STYLE[tier]), " ", explain[tier])

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("approve", "reject"):
            return True if self.decision_target() is not None else None
        if action == "stop_moving":
            return bool(self.moving)
        if action == "move":
            return True if not self.moving and self.shown is not None else None
        if action == "scan":  # with nothing shown too: after a scan that failed, this is the retry
            return True if not self.moving else None
        return True

    # --- actions ---------------------------------------------------------------------------------------

    def action_show(self, name: str) -> None:
        self.filter = name
        self.fill()

    @on(DataTable.RowSelected)
    def action_open_candidate(self) -> None:
        candidate = self.highlighted()
        if candidate is not None:
            self.app.push_screen(CandidateScreen(self.session, candidate, self.report_only_left(candidate)))

    def action_calibration(self) -> None:
        from tui_app.screens.calibration import CalibrationScreen  # lazy: a screen shown later (~10 ms)

        candidate = self.highlighted()
        self.app.push_screen(CalibrationScreen(self.session, candidate.scope if candidate else None))

    def on_candidate_decided(self, message: messages.CandidateDecided) -> None:
        self.notify(decided_note(message), markup=False)
        self.load_candidates(force=False)

    # --- moving: dry run, confirmation, moves with progress ------------------------------------------------

    def action_move(self) -> None:
        if self.moving or self.shown is None:
            return
        self.set_busy(True, self.query_one(DataTable))
        self.plan_moves()

    @work(thread=True, exclusive=True, exit_on_error=False, group="move", description="dry-run the move")
    def plan_moves(self) -> None:
        report, scanned = data.dry_run(self.session)
        self.post_message(messages.MovesPlanned(report, scanned))

    def on_moves_planned(self, message: messages.MovesPlanned) -> None:
        self.set_busy(False)
        report = message.report
        if message.candidates is not None:
            self.shown = message.candidates
            self.fill()
        confirmed = [p for p in report.would_move if p.will_move]
        left = self.shown.report_only_left if self.shown is not None else {}
        dialog = MovePlanDialog(report, left, self.shown.counted_today if self.shown is not None else frozenset())
        held = sorted({p.candidate.scope for p in dialog.held_by_report_only} - dialog.counted_today)
        self.app.push_screen(dialog, lambda yes: self.plan_confirmed(bool(yes), confirmed, held))

    def plan_confirmed(self, yes: bool, confirmed: list[PlannedMove], report_only_scopes: list[str]) -> None:
        if not yes:
            return
        if confirmed:
            self.start_moving(confirmed)
        elif report_only_scopes:
            self.recorded_scopes = report_only_scopes
            self.set_busy(True, self.query_one(DataTable))
            self.record_report_only_runs(report_only_scopes)

    @work(thread=True, exclusive=True, exit_on_error=False, group="move", description="record a report-only run")
    def record_report_only_runs(self, scopes: list[str]) -> None:
        """One apply run per scope that moves nothing (no record is confirmed): the report-only count."""
        reports = [data.move_scope(self.session, scope, set()) for scope in scopes]
        shown = data.after_moves(self.session, self.shown, reports) if self.shown is not None else None
        self.post_message(messages.MovesDone(reports, shown, 0, False))

    def start_moving(self, confirmed: list[PlannedMove]) -> None:
        self.moving = confirmed
        self.records_done = 0
        self.stop_requested.clear()
        self.query_one("#curation-progress").display = True
        self.query_one(ProgressBar).update(total=len(confirmed), progress=0)
        self.update_progress()
        self.progress_timer = self.set_interval(PROGRESS_SECONDS, self.update_progress)
        self.refresh_bindings()
        self.move_confirmed(confirmed)

    def update_progress(self) -> None:
        done = self.records_done
        self.query_one(ProgressBar).update(progress=done)
        stopping = " · stopping after this record" if self.stop_requested.is_set() else " · Esc to stop"
        label = f"Moving {done} of {len(self.moving)} to cold storage{stopping}"
        self.query_one("#curation-progress-label", Label).update(label)

    def action_stop_moving(self) -> None:
        if self.moving:
            self.stop_requested.set()
            self.update_progress()

    @work(thread=True, exclusive=True, exit_on_error=False, group="move", description="move the records")
    def move_confirmed(self, confirmed: list[PlannedMove]) -> None:
        reports: list[ApplyReport] = []
        before = 0  # records of the scopes already done
        for scope, ids in data.confirmed_by_scope(confirmed).items():
            if self.stop_requested.is_set():
                break

            def progress(done: int, _total: int, before: int = before) -> None:
                self.records_done = before + done  # read by the progress timer on the UI thread

            reports.append(data.move_scope(self.session, scope, ids, progress=progress,
                                           should_stop=self.stop_requested.is_set))
            before += len(ids)
        shown = data.after_moves(self.session, self.shown, reports) if self.shown is not None else None
        self.post_message(messages.MovesDone(reports, shown, len(confirmed), self.stop_requested.is_set()))

    def work_failed(self, worker: Worker[object]) -> None:
        if worker.group == "move":  # the dry run or the moves: whatever moved is in cold storage, verified
            self.end_moving()
        elif worker.group == "load" and self.shown is None:  # the screen says it too, once the dialog is closed
            reason = one_line(worker.error)
            update_static(self.query_one("#curation-scopes", Static),
                          Content.assemble(("Not scanned: ", "bold $text-error"), reason, (" · s scans again", "dim")))

    def end_moving(self) -> None:
        if self.progress_timer is not None:
            self.progress_timer.stop()
            self.progress_timer = None
        self.moving = []
        self.query_one("#curation-progress").display = False
        self.refresh_bindings()

    def on_moves_done(self, message: messages.MovesDone) -> None:
        self.end_moving()
        if message.confirmed == 0:  # a report-only run was recorded: nothing moved, by design
            self.set_busy(False)
            if message.candidates is not None:
                self.shown = message.candidates
                self.fill()
            self.notify(self.report_only_note(message), title="Report-only run recorded", markup=False, timeout=8)
            return
        moved = [m for report in message.reports for m in report.moved]
        errors = [e for report in message.reports for e in report.errors]
        if message.candidates is not None:
            self.shown = message.candidates
            self.fill()
        note = f"Moved {moved_text(len(moved), message.confirmed)} to cold storage, each verified and tombstoned."
        if message.stopped and len(moved) < message.confirmed:
            note += " Stopped before the rest: they stay where they are."
        self.notify(note + " Restore any from Cold storage (F8).", title="Moved", markup=False, timeout=8)
        if errors:
            body = "\n".join(tilde(error) for error in errors)
            self.app.push_screen(ErrorDialog(f"{plural(len(errors), 'record')} not moved", body))


def same_as(cell: str | Content) -> object:
    """What tells two cells apart on screen: the text and its styles (``Content ==`` sees the text only)."""
    return (cell.plain, tuple(cell.spans)) if isinstance(cell, Content) else cell


def update_static(widget: Static, content: str | Content) -> None:
    """``widget.update(content)``, unless it shows exactly that already (each update lays the screen out)."""
    if type(widget.content) is not type(content) or same_as(widget.content) != same_as(content):  # type: ignore[arg-type]
        widget.update(content)


def guard_cell(c: Candidate) -> Content:
    """The guards that keep it, or ``unsure`` when the reader could not parse something in it."""
    if c.guards:
        return Content.styled(guard_list(c.guards), "$text-success")
    if "uncertain" in c.details:
        return Content.styled("? unsure", "$text-warning")
    return Content.styled("—", "dim")


def record_cell(c: Candidate, width: int) -> Content:
    """The record's path, then its title dimmed when there is room."""
    text = preview(f"{c.rel}  {c.title}" if c.title and c.title != c.rel else c.rel, width)
    return Content.assemble(text[: len(c.rel)], (text[len(c.rel) :], "dim"))


def moved_text(moved: int, confirmed: int) -> str:
    return plural(moved, "record") if moved == confirmed else f"{moved} of {plural(confirmed, 'record')}"
