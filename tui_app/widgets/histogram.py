"""A measured distribution drawn in characters, with its thresholds marked on it.

Bars are the eighth blocks ``▁▂▃▄▅▆▇█``; the horizontal axis is logarithmic (``log1p``, as the
calibration measures ages), with ticks at whole days, weeks, months and years; each threshold is a
vertical line of its own character through the empty part of the chart and a ``▲`` with its label
under the axis. Colour only repeats what the characters already say, so the picture survives 256
colours, 16, or none, and a terminal of any width (columns merge or repeat the bins they cover).

:func:`draw` is the pure part (bins and markers in, lines of styled runs out), so it is testable
without an app; :class:`Histogram` is the widget that draws it at its current size.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from textual.content import Content
from textual.widget import Widget

BLOCKS = " ▁▂▃▄▅▆▇█"
TICKS = ((1, "1d"), (7, "1w"), (30, "1mo"), (91, "3mo"), (182, "6mo"), (365, "1y"), (730, "2y"), (1826, "5y"))
ZONE_STYLES = ("$primary", "$warning", "$error")  # before the first marker, between, after the last
AXIS_STYLE = "$text-muted"
Run = tuple[str, str]  # (text, style)


@dataclass(frozen=True)
class Bin:
    lo: float
    hi: float
    count: int


@dataclass(frozen=True)
class AxisMark:
    value: float
    label: str  # under the axis: "unused ≥ 77d"
    char: str  # its line through the chart: "│", "┃"
    style: str


def _merge(cells: Sequence[Run]) -> list[Run]:
    runs: list[Run] = []
    for text, style in cells:
        if runs and runs[-1][1] == style:
            runs[-1] = (runs[-1][0] + text, style)
        else:
            runs.append((text, style))
    return runs


def column_counts(bins: Sequence[Bin], width: int, scale: float) -> list[int]:
    """The count under each of ``width`` columns spanning ``log1p`` 0..``scale``. A bin at least a
    column wide fills every column whose middle it covers (so it shows as a wide bar); narrower bins
    add up in the column holding their middle. No count is ever lost."""
    counts = [0] * width
    for b in bins:
        lo = math.log1p(max(b.lo, 0.0)) / scale * width
        hi = math.log1p(max(b.hi, 0.0)) / scale * width
        if hi - lo >= 1:
            for col in range(max(0, math.floor(lo - 0.5)), min(width, math.ceil(hi))):
                if lo <= col + 0.5 < hi:
                    counts[col] = b.count
        else:
            counts[min(width - 1, int((lo + hi) / 2))] += b.count
    return counts


def _marker_columns(markers: Sequence[AxisMark], width: int, scale: float) -> list[tuple[int, AxisMark]]:
    placed = [(min(width - 1, round(math.log1p(max(m.value, 0.0)) / scale * (width - 1))), m) for m in markers]
    return sorted(placed, key=lambda pair: pair[0])


def _zone(col: int, marks: Sequence[tuple[int, AxisMark]]) -> str:
    passed = sum(1 for at, _ in marks if col >= at)
    return ZONE_STYLES[min(passed, len(ZONE_STYLES) - 1)]


Label = tuple[int, str, str, str]  # (column, text starting there, text ending there, style)


def _label_row(width: int, items: Sequence[Label], fixed: Sequence[tuple[int, Run]] = ()) -> list[Run]:
    """Labels placed at columns (starting at their column, else ending at it, else left out), after
    the ``fixed`` single characters (a threshold's line continuing down to its own label row)."""
    cells: list[Run] = [(" ", "")] * width
    taken = [False] * width
    for col, run in fixed:
        cells[col] = run
        taken[col] = True
    for col, right, left, style in items:
        for start, text in ((col, right), (col - len(left) + 1, left)):
            end = start + len(text)
            if start < 0 or end > width or any(taken[max(0, start - 1) : min(width, end + 1)]):
                continue
            for i, char in enumerate(text):
                cells[start + i] = (char, style)
                taken[start + i] = True
            break
    return _merge(cells)


def draw(bins: Sequence[Bin], markers: Sequence[AxisMark], width: int, height: int) -> list[list[Run]]:
    """The chart as lines of runs: rows of bars (at least 2), the axis, the tick labels, and one row
    per threshold holding its ``▲`` and label (the thresholds after it continue through that row)."""
    top = max([b.hi for b in bins] + [m.value * 1.15 for m in markers] + [1.0])
    scale = math.log1p(top)
    vmax = max([b.count for b in bins] + [1])
    gutter = len(str(vmax)) + 1
    cols = max(8, width - gutter)
    rows = max(2, height - 2 - len(markers))
    counts = column_counts(bins, cols, scale)
    marks = _marker_columns(markers, cols, scale)
    at = {col: m for col, m in marks}
    lines: list[list[Run]] = []
    for row in range(rows):
        side = (str(vmax) if row == 0 else "0" if row == rows - 1 else "").rjust(gutter - 1)
        cells: list[Run] = [(side + ("┤" if row in (0, rows - 1) else "│"), AXIS_STYLE)]
        for col, count in enumerate(counts):
            eighths = max(1, round(count / vmax * rows * 8)) if count else 0
            level = min(8, max(0, eighths - (rows - 1 - row) * 8))
            if level:
                cells.append((BLOCKS[level], _zone(col, marks)))
            elif col in at:
                cells.append((at[col].char, at[col].style))
            else:
                cells.append((" ", ""))
        lines.append(_merge(cells))
    ticks = [(0, "0")] + [(round(math.log1p(v) / scale * (cols - 1)), label) for v, label in TICKS if v <= top]
    axis = ["─"] * cols
    for col, _ in ticks:
        axis[col] = "┬"
    for col, m in marks:
        axis[col] = "╂" if m.char == "┃" else "┼"
    lines.append([(" " * (gutter - 1) + "└" + "".join(axis), AXIS_STYLE)])
    pad: list[Run] = [(" " * gutter, "")]
    tick_labels = [(col, label, label, AXIS_STYLE) for col, label in ticks if col not in at]
    lines.append(pad + _label_row(cols, tick_labels, [(col, (m.char, m.style)) for col, m in marks]))
    for i, (col, m) in enumerate(marks):
        later = [(c, (later_m.char, later_m.style)) for c, later_m in marks[i + 1 :]]
        lines.append(pad + _label_row(cols, [(col, f"▲ {m.label}", f"{m.label} ▲", m.style)], later))
    return lines


class Histogram(Widget):
    """The widget: call :meth:`show` with the bins and markers; it draws at whatever size it has."""

    DEFAULT_CSS = """
    Histogram {
        height: 11;
        width: 1fr;
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.bins: tuple[Bin, ...] = ()
        self.markers: tuple[AxisMark, ...] = ()
        self.empty_text = "Not measured yet."

    def show(self, bins: Sequence[Bin], markers: Sequence[AxisMark], empty_text: str = "Not measured yet.") -> None:
        self.bins = tuple(bins)
        self.markers = tuple(markers)
        self.empty_text = empty_text
        self.refresh()

    def render(self) -> Content:
        if not self.bins:
            return Content.styled(self.empty_text, "dim")
        lines = draw(self.bins, self.markers, self.size.width, self.size.height)
        parts: list[Content | tuple[str, str] | str] = []
        for i, line in enumerate(lines):
            if i:
                parts.append("\n")
            parts += [(text, style) if style else text for text, style in line]
        return Content.assemble(*parts)
