"""Turns per day over the last months: one column per day, newest on the right.

Each column is :data:`BAR_ROWS` rows of eighth blocks (▁▂▃▄▅▆▇█), so the height carries the count
and the picture reads the same in truecolor, in 256 colours, in 16 or in none; colour only helps
(today stands out, days without turns show a dim dot). Under the bars, the month names at the first
day of each month, then one caption line. As many days are shown as the widget is wide.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, tzinfo
from typing import TYPE_CHECKING

from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

from tui_app.widgets.format import plural

if TYPE_CHECKING:
    from core.workbench import Workbench

ACTIVITY_WEEKS = 12  # the home's weekly sparkline of drafts and memories (before turns are indexed)
ACTIVITY_DAYS = 26 * 7  # loaded; a wide terminal shows them all, 80 columns the last ~10 weeks
BAR_ROWS = 3
BLOCKS = " ▁▂▃▄▅▆▇█"
LABEL_ROOM = 8  # the first column is labelled only when the next month starts this far from it
BAR_STYLE, TODAY_STYLE, EMPTY_STYLE = "$primary", "bold $warning", "dim"
Days = Sequence[tuple[date, int]]


def turns_per_day(workbench: Workbench, zone: tzinfo, today: date,
                  days: int = ACTIVITY_DAYS) -> list[tuple[date, int]]:
    """Turns per local day for the ``days`` days up to ``today``, oldest first (``Workbench.log``;
    empty when there is no index yet). Runs in a worker thread."""
    return workbench.log.turns_per_day(zone, today, days)


def levels(counts: Sequence[int], rows: int = BAR_ROWS) -> list[int]:
    """Each count as a bar height in eighths of a row (0 … 8 × rows); any turn shows at least one."""
    top = max(counts, default=0)
    if top <= 0:
        return [0] * len(counts)
    full = rows * 8
    return [0 if count <= 0 else max(1, round(count / top * full)) for count in counts]


def bar_rows(heights: Sequence[int], rows: int = BAR_ROWS) -> list[str]:
    """The bars as ``rows`` strings, top row first."""
    lines = []
    for row in range(rows - 1, -1, -1):
        lines.append("".join(BLOCKS[min(max(height - row * 8, 0), 8)] for height in heights))
    return lines


def month_row(days: Sequence[date]) -> str:
    """Month names under the first day of each month, and under the first column when there is room
    before the next month begins."""
    cells = [" "] * len(days)
    starts = [column for column, day in enumerate(days) if day.day == 1]
    if days and (not starts or starts[0] >= LABEL_ROOM):
        starts.insert(0, 0)
    free_from = 0
    for column in starts:
        name = f"{days[column]:%b}"
        if column >= free_from and column + len(name) <= len(days):
            cells[column : column + len(name)] = name
            free_from = column + len(name) + 1
    return "".join(cells)


def caption(days: Days) -> Content:
    """``1,234 turns since 13 Jul · busiest Tue 3 Nov (96) · today at the right``."""
    total = sum(count for _, count in days)
    if not days or not total:
        return Content.styled("No conversation turns in this period.", "dim")
    busiest_day, busiest = max(days, key=lambda item: (item[1], item[0]))
    first = days[0][0]
    return Content.assemble(  # spaces end spans rather than start them: SVG renderers drop leading ones
        (f"{plural(total, 'turn')} ", "bold"),
        f"since {first.day} {first:%b} ",
        (f"· busiest {busiest_day:%a} {busiest_day.day} {busiest_day:%b} ({busiest}) · today at the right", "dim"),
    )


def chart(days: Days, width: int, rows: int = BAR_ROWS) -> Content:
    """The last ``width`` days as bars, month names and a caption."""
    shown = list(days)[-max(width, 1) :]
    heights = levels([count for _, count in shown], rows)
    lines: list[Content | tuple[str, str] | str] = []
    for row, text in enumerate(bar_rows(heights, rows)):
        bottom = row == rows - 1
        for column, char in enumerate(text):
            if bottom and heights[column] == 0:
                lines.append(("·", EMPTY_STYLE))
            else:
                lines.append((char, TODAY_STYLE if column == len(text) - 1 else BAR_STYLE))
        lines.append("\n")
    lines += [(month_row([day for day, _ in shown]), "dim"), "\n", caption(shown)]
    return Content.assemble(*lines)


class ActivityChart(Widget):
    """Turns per day as bars; set :attr:`days` (oldest first) to draw."""

    DEFAULT_CSS = """
    ActivityChart {
        height: 5;
        width: 1fr;
    }
    """

    days: reactive[tuple[tuple[date, int], ...]] = reactive((), always_update=True)

    def render(self) -> Content:
        return chart(self.days, self.size.width)
