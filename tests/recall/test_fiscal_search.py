"""``timeparse.fiscal_year_start`` reaches search, not only ``reverie when``: "FY2023" in a query
bounds it to the fiscal year the setting names."""

from __future__ import annotations

from datetime import UTC, datetime

from core.config import Config
from core.paths import HomePaths
from core.recall import Recaller, analyze

NOW = datetime(2026, 12, 1, 12, tzinfo=UTC)


def test_analyze_reads_fiscal_years_by_the_setting() -> None:
    calendar = analyze("the FY2023 budget", NOW, UTC)
    april = analyze("the FY2023 budget", NOW, UTC, fiscal_year_start=4)
    assert calendar.range is not None and april.range is not None
    assert (calendar.range.start.date().isoformat(), calendar.range.end.date().isoformat()) == (
        "2023-01-01",
        "2024-01-01",
    )
    assert (april.range.start.date().isoformat(), april.range.end.date().isoformat()) == ("2022-04-01", "2023-04-01")


def test_search_uses_the_configured_fiscal_year(paths: HomePaths) -> None:
    config = Config()
    config.general.timezone = "UTC"
    config.timeparse.fiscal_year_start = 4
    with Recaller.open(paths, config) as recaller:
        answer = recaller.search("the FY2023 budget", now=NOW, zone=UTC, mode="exact")
    assert answer.range is not None and answer.range.start.date().isoformat() == "2022-04-01"
