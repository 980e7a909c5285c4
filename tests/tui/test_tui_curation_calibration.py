"""The calibration view (the measured distribution as a picture with its thresholds, how they were
placed, and the data) and the histogram drawing itself, at any width, in characters alone."""

from __future__ import annotations

import json
import math

import pytest
from textual.widgets import DataTable

from core.curate.calibration import histogram
from core.demo.build import DemoHome
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    make_app,
    press,
)
from tests.helpers.tui_curation import SCOPE, row_keys, text_of
from tui_app.screens.calibration import CalibrationScreen, reason_text
from tui_app.screens.curation import CurationScreen
from tui_app.widgets.histogram import BLOCKS, AxisMark, Bin, Histogram, column_counts, draw

AGES = [1, 1, 2, 3, 4, 5, 6, 8, 10, 12, 17, 22, 32, 182, 202, 232, 252, 272, 292, 312, 322, 392]
MARKERS = [AxisMark(76.87, "unused ≥ 77d", "│", "$warning"), AxisMark(182.0, "clearly old ≥ 182d", "┃", "$error")]


def bins(ages: list[float], count: int = 24) -> list[Bin]:
    return [Bin(b["lo"], b["hi"], b["count"]) for b in histogram(ages, bins=count)]


def plain(lines: list[list[tuple[str, str]]]) -> list[str]:
    return ["".join(text for text, _ in line) for line in lines]


async def test_calibration_view_shows_the_picture_the_thresholds_and_the_data(demo: DemoHome) -> None:
    calibration = json.loads((demo.paths.curation / "calibration.json").read_text(encoding="utf-8"))["scopes"][SCOPE]
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await press(pilot, "f7", "c")
        assert isinstance(app.screen, CalibrationScreen)
        assert "reverie-memory · measured 2026-11-02 from 22 records" in text_of(app, "#calibration-title")
        chart = app.screen.query_one(Histogram)
        assert sum(b.count for b in chart.bins) == calibration["n"] == 22
        assert [m.value for m in chart.markers] == [76.87, 182.0]
        picture = str(chart.render())
        assert "▲ unused ≥ 77d" in picture or "unused ≥ 77d ▲" in picture
        assert "clearly old ≥ 182d" in picture and "│" in picture and "┃" in picture
        how = text_of(app, "#calibration-how")
        assert "unused ≥ 76.9 d: jenks natural breaks" in how and "clearly old ≥ 182.0 d" in how
        table = app.screen.query_one("#calibration-data", DataTable)
        assert table.row_count == 22
        oldest = [str(cell) for cell in table.get_row_at(0)]
        assert oldest[:2] == ["reference_old_laptop.md", "392d"] and oldest[-1] == "clearly old"
        assert len(row_keys(app, "calibration-data")) == 22
        assert text_of(app, "#calibration-title").endswith(" · when you asked (m)")  # why, in words
        await press(pilot, "m")  # measure again now: the same files, eight days older, no shift
        assert "measured 2026-11-10" in text_of(app, "#calibration-title")
        assert "requested" not in text_of(app, "#calibration-title")
        await press(pilot, "escape")
        assert isinstance(app.screen, CurationScreen)


def test_the_reason_for_a_measurement_reads_as_a_reason() -> None:
    assert reason_text("first scan") == "at the first scan"
    assert reason_text("requested") == "when you asked (m)"
    assert reason_text("requested; shifted: record count changed from 3 to 9") == (
        "when you asked (m), after a change: record count changed from 3 to 9"
    )
    assert reason_text("record count changed from 3 to 9") == (
        "again by a scan, after a change: record count changed from 3 to 9"
    )


def test_every_count_lands_in_some_column_at_any_width() -> None:
    for count in (8, 24, 48, 96):
        for width in (8, 30, 60, 77, 160):
            made = bins(AGES, count)
            scale = math.log1p(made[-1].hi)
            columns = column_counts(made, width, scale)
            if count <= width:  # wide bins repeat: each bin's count shows at least once, none grows
                assert {c for c in columns if c} <= {b.count for b in made if b.count}
                assert all(b.count in columns for b in made if b.count)
            else:  # narrow bins add up: nothing lost
                assert sum(columns) == sum(b.count for b in made)


@pytest.mark.parametrize("width", [40, 76, 98, 180])
def test_the_picture_marks_both_thresholds_in_characters(width: int) -> None:
    lines = plain(draw(bins(AGES, 48), MARKERS, width, 12))
    assert len(lines) == 12 and all(len(line) == width for line in lines)
    bars, axis, ticks, first, second = lines[:8], lines[8], lines[9], lines[10], lines[11]
    assert axis.count("┼") == 1 and axis.count("╂") == 1
    unused_at, old_at = axis.index("┼"), axis.index("╂")
    assert unused_at < old_at
    assert first[unused_at] == "▲" and "unused ≥ 77d" in first and first[old_at] == "┃"
    assert second[old_at] == "▲" and "clearly old ≥ 182d" in second
    assert "1w" in ticks and "1mo" in ticks
    assert any(ch in BLOCKS[1:] for line in bars for ch in line)
    assert all(line[unused_at] in "│" + BLOCKS[1:] for line in bars)  # the threshold's line runs up the chart


def test_an_empty_measurement_draws_nothing_but_says_so() -> None:
    chart = Histogram()
    chart.show([], [], "Not measured yet: press m to measure it.")
    assert "Not measured yet" in str(chart.render())
