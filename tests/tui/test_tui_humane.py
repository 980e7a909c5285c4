"""Ages and sizes through humanize, in the person's language where humanize has it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from tui_app.widgets.humane import age, ago, language, size_text, use_language

NOW = datetime(2026, 11, 10, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    use_language("en")  # humanize's locale is per process


@pytest.mark.parametrize(
    ("lang", "days_ago", "in_four_days", "now"),
    [
        ("en", "2 days ago", "4 days from now", "now"),
        ("ko", "2일 전", "4일 후", "방금"),
        ("ja", "2日前", "4日後", "たった今"),
    ],
)
def test_ages_in_the_persons_language(lang: str, days_ago: str, in_four_days: str, now: str) -> None:
    assert use_language(lang) == lang and language() == lang
    assert ago("2026-11-08T12:00:00Z", NOW) == days_ago
    assert ago("2026-11-14T12:00:00Z", NOW) == in_four_days
    assert ago("2026-11-10T11:59:30Z", NOW) == now
    assert ago(None, NOW) == "—"


def test_a_language_humanize_lacks_falls_back_to_english() -> None:
    assert use_language("xx") == "en"
    assert age("2026-11-10T09:00:00Z", NOW) == "3 hours"


def test_sizes_in_binary_units() -> None:
    assert size_text(123_456_789) == "117.7 MiB" and size_text(0) == "0 Bytes"
