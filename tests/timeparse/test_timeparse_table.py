"""The broad case table (``tests/timeparse/cases/*.txt``, read by ``tests/helpers/timeparse_table.py``):
every case passes, the table is broad, every kind is covered in every language, and so are DST zones."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.timeparse_table import KINDS, LANGS, TableCase, load, problems

CASES = load()


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_table_case(case: TableCase) -> None:
    assert problems(case) == []


def test_the_table_is_broad() -> None:
    """At least 1,200 cases with the older table; both positives and negatives in every language."""
    from tests.helpers.timeparse_cases import TABLES

    older = sum(len(cases) for _, _, cases in TABLES.values())
    assert len(CASES) + older >= 1200
    for lang in LANGS:
        mine = [case for case in CASES if case.lang == lang]
        assert sum(case.expected == "-" for case in mine) >= 30
        assert sum(case.expected != "-" for case in mine) >= 150


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_in_every_language(kind: str, lang: str) -> None:
    """Each kind of expression has its own cases in each language (and they pass: see above)."""
    assert sum(case.kind == kind and case.lang == lang for case in CASES) >= 3


def test_dst_zones_are_covered() -> None:
    zones = {case.zone.key for case in CASES}
    assert {"America/New_York", "Europe/Berlin", "Asia/Seoul", "Asia/Tokyo", "UTC"} <= zones


def test_a_malformed_line_names_its_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "bad.txt").write_text("@ 2026-11-29T15:00 UTC\nen basic | yesterday\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.txt:2"):
        load(tmp_path)
