"""Calibration: the distribution a scope's thresholds were measured from, as a picture with the
thresholds on it, how each was placed, and the data itself (every record's age, size and references
at the time of the measurement, as ``curation/calibration.json`` keeps them).

``m`` measures the scope again now (reading it; nothing moves) and says whether it had shifted;
``n`` steps to the next scope.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import DataTable, Static

from tui_app import messages
from tui_app.screens.base import ReverieScreen
from tui_app.screens.curation_format import ContentPart, days
from tui_app.screens.session import Session
from tui_app.views import curation_data as data
from tui_app.widgets.format import plural, preview
from tui_app.widgets.histogram import AxisMark, Bin, Histogram

BINS = 48
TALL_SCREEN = 30  # from this many rows the chart gets taller
UNUSED = ("│", "$text-warning")
CLEARLY_OLD = ("┃", "$text-error")


def markers(thresholds: dict[str, Any]) -> list[AxisMark]:
    unused, old = float(thresholds["unused_days"]), float(thresholds["clearly_old_days"])
    return [
        AxisMark(unused, f"unused ≥ {days(unused)}", *UNUSED),
        AxisMark(old, f"clearly old ≥ {days(old)}", *CLEARLY_OLD),
    ]


def age_class(age: float, thresholds: dict[str, Any]) -> Content:
    if age >= float(thresholds["clearly_old_days"]):
        return Content.styled("clearly old", CLEARLY_OLD[1])
    if age >= float(thresholds["unused_days"]):
        return Content.styled("unused", UNUSED[1])
    return Content.styled("recent", "dim")


def how_text(view: data.CalibrationView) -> Content:
    picture = view.picture
    t, how, figures = picture.thresholds, picture.how, picture.figures
    parts: list[ContentPart] = [
        (f"{UNUSED[0]} unused ≥ {t['unused_days']:.1f} d", f"bold {UNUSED[1]}"),
        f": {how.get('method', 'defaults')}",
    ]
    if "gvf_2_classes" in how:
        parts.append(f", goodness of fit {how['gvf_2_classes']:.2f}")
    if "largest_gap_days" in how:
        low, high = how["largest_gap_days"]
        parts.append((f"; largest gap {low:g}–{high:g} d", "dim"))
    parts += ["\n", (f"{CLEARLY_OLD[0]} clearly old ≥ {t['clearly_old_days']:.1f} d", f"bold {CLEARLY_OLD[1]}")]
    parts.append(f": {how.get('clearly_old', how.get('note', 'defaults'))}")
    notes = [how[key] for key in ("note", "floor") if key in how and (key == "floor" or "clearly_old" in how)]
    for note in notes:
        parts += ["\n", (note, "$text-warning")]
    sizes, refs = figures.get("size_bytes", {}), figures.get("references", {})
    if sizes.get("n"):
        parts += ["\n", (f"sizes: median {sizes['median']:.0f} B, max {sizes['max']:.0f} B", "dim")]
        if refs.get("n"):
            parts.append((f" · {refs.get('unreferenced', 0)} of {refs['n']} records unreferenced", "dim"))
    return Content.assemble(*parts)


def reason_text(reason: str) -> str:
    """Why the thresholds were (re-)measured, as the calibration file records it ("first scan",
    "requested", "requested; shifted: …", or the shift a scan found), said after "measured … from N
    records"."""
    if reason == "first scan":
        return "at the first scan"
    if reason == "requested":
        return "when you asked (m)"
    shift = reason.removeprefix("requested; shifted: ")
    if shift != reason:
        return f"when you asked (m), after a change: {shift}"
    return f"again by a scan, after a change: {reason}"


class CalibrationScreen(ReverieScreen):
    SECTION = "curation"
    RELOAD_ON_RESUME = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("m", "measure", "Measure now", id="calibration.measure", tooltip="Measure this scope again now"),
        Binding("n", "next_scope", "Next scope", id="calibration.next", tooltip="Show the next scope"),
        Binding("escape", "back", "Back", id="back", tooltip="Back to the candidates"),
    ]

    def __init__(self, session: Session, scope: str | None = None) -> None:
        super().__init__(session)
        self.scope = scope
        self.view: data.CalibrationView | None = None

    def compose_body(self) -> ComposeResult:
        with Vertical(id="calibration"):
            yield Static(id="calibration-title")
            with Vertical(id="calibration-chart") as chart:
                chart.border_title = "Age since last change or use · log scale"
                yield Histogram(id="calibration-histogram")
            yield Static(id="calibration-how")
            table: DataTable[str | Content] = DataTable(id="calibration-data", cursor_type="row")
            table.border_title = "The data it came from"
            yield table

    def on_mount(self) -> None:
        self.on_resize()
        self.load_view(self.scope, measure=False)
        self.query_one(DataTable).focus()

    def on_resize(self) -> None:
        self.query_one(Histogram).styles.height = 13 if self.size.height >= TALL_SCREEN else 9
        if self.view is not None:
            self.fill_data(self.view)

    @work(thread=True, exclusive=True, exit_on_error=False, group="load", description="read the calibration")
    def load_view(self, scope: str | None, measure: bool) -> None:
        self.post_message(messages.CalibrationLoaded(data.calibration_view(self.session, scope, BINS, measure)))

    def on_calibration_loaded(self, message: messages.CalibrationLoaded) -> None:
        self.set_busy(False)
        view = self.view = message.view
        self.scope = view.scope
        picture = view.picture
        bins = [Bin(b.lo, b.hi, b.count) for b in picture.bins]
        empty = "No scope configured." if not view.scope else "Not measured yet: press m to measure it."
        self.query_one(Histogram).show(bins, markers(picture.thresholds) if bins else [], empty)
        self.query_one("#calibration-title", Static).update(self.title_text(view))
        self.query_one("#calibration-how", Static).update(how_text(view) if bins else "")
        self.fill_data(view)
        if view.note:
            self.notify(f"Measured {view.scope} again: {view.note}.", markup=False)
        self.refresh_bindings()

    def title_text(self, view: data.CalibrationView) -> Content:
        picture = view.picture
        if not view.scope:
            return Content.styled("No curation scopes yet: reverie curate scope add NAME --kind … --path …", "dim")
        parts: list[ContentPart] = [(view.scope, "bold")]
        if picture.measured_at:
            parts.append(f" · measured {str(picture.measured_at)[:10]} from {plural(picture.n, 'record')}")
        if not picture.measured:
            parts.append((" · too few records to measure: defaults apply", "$text-warning"))
        if view.reason:
            parts.append((f" · {reason_text(view.reason)}", "dim"))
        if len(view.scopes) > 1:
            parts.append((f" · scope {view.scopes.index(view.scope) + 1} of {len(view.scopes)} (n: next)", "dim"))
        return Content.assemble(*parts)

    def fill_data(self, view: data.CalibrationView) -> None:
        table = self.query_one(DataTable)
        table.clear(columns=True)
        fixed = (("Age", 6), ("Size", 7), ("Refs", 4), ("Last used", 10), ("Class", 11))
        path_width = max(self.size.width - sum(size for _, size in fixed) - 2 * (len(fixed) + 1) - 6, 16)
        for label, size in (("Record", path_width), *fixed):
            table.add_column(label, width=size)
        thresholds = view.picture.thresholds
        for row in sorted(view.rows, key=lambda r: -r.age_days):
            used = datetime.fromtimestamp(row.last_used, UTC).astimezone(self.session.zone).strftime("%Y-%m-%d")
            table.add_row(
                Content(preview(row.path, path_width)),
                days(row.age_days),
                f"{row.size} B",
                str(row.references),
                used,
                age_class(row.age_days, thresholds),
            )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "next_scope":
            return self.view is not None and len(self.view.scopes) > 1
        if action == "measure":
            return True if self.view is not None and self.view.scope else None
        return True

    def action_measure(self) -> None:
        self.set_busy(True, self.query_one("#calibration-chart"))
        self.load_view(self.scope, measure=True)

    def action_next_scope(self) -> None:
        if self.view is None or len(self.view.scopes) < 2:
            return
        scopes = self.view.scopes
        self.load_view(scopes[(scopes.index(self.view.scope) + 1) % len(scopes)], measure=False)

    def action_back(self) -> None:
        self.dismiss()
