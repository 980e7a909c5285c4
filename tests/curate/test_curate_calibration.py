"""Thresholds are measured: natural breaks on a skewed distribution, recorded with their data, and
re-measured (saying why) when the distribution shifts."""

from __future__ import annotations

import json
import math
import os
import random
from dataclasses import asdict
from datetime import timedelta
from pathlib import Path

import pytest

from core.curate import calibration as cal
from core.curate import engine
from core.paths import HomePaths
from tests.helpers.curate import NOW, configure, put


def skewed_scope(base: Path, recent: int = 200, old: int = 30, seed: int = 7) -> Path:
    """Most notes are days old (a long head); a few are a year or more old (a thin tail)."""
    rng = random.Random(seed)
    root = base / "skewed"
    for i in range(recent):
        put(root, f"n/recent-{i}.md", f"note {i} " + "x" * rng.randint(10, 2000), rng.expovariate(1 / 6))
    for i in range(old):
        put(root, f"n/old-{i}.md", f"old note {i}", rng.uniform(300, 900))
    return root


def test_jenks_finds_obvious_classes() -> None:
    values = [1, 2, 2, 3, 10, 11, 12, 30, 31, 33, 35]
    found = cal.jenks(values, 3)
    assert found.breaks == [6.5, 21.0]
    assert [c[2] for c in found.classes] == [4, 3, 4]
    assert found.gvf > 0.95
    assert cal.largest_gap(values) == {"low": 12.0, "high": 30.0, "at": 21.0}


def test_jenks_is_exact_against_brute_force() -> None:
    rng = random.Random(3)
    values = sorted(round(rng.lognormvariate(2, 1), 2) for _ in range(40))

    def ssd(xs: list[float]) -> float:
        mean = sum(xs) / len(xs)
        return sum((x - mean) ** 2 for x in xs)

    best = min((ssd(values[:i]) + ssd(values[i:j]) + ssd(values[j:]), i, j)
               for i in range(1, 39) for j in range(i + 1, 40))
    found = cal.jenks(values, 3, decimals=2)
    total = ssd(values)
    assert math.isclose(found.gvf, 1 - best[0] / total, rel_tol=1e-9)


def test_calibrate_a_skewed_scope_places_thresholds_at_the_natural_break(paths: HomePaths, tmp_path: Path) -> None:
    root = skewed_scope(tmp_path)
    config = configure(paths, ("skewed", "markdown", root))
    data = asdict(engine.calibrate_scope(paths, config, "skewed", now=NOW))  # the form `curate calibrate --json` prints
    ages = [(NOW.timestamp() - p.stat().st_mtime) / 86400 for p in root.rglob("*.md")]
    young, old = sorted(a for a in ages if a < 200), sorted(a for a in ages if a >= 200)
    unused, clearly_old = data["thresholds"]["unused_days"], data["thresholds"]["clearly_old_days"]
    assert young[-1] < unused < old[0], "the threshold sits in the gap between the head and the tail"
    assert unused <= clearly_old <= old[-1]
    assert data["measured"] and data["n"] == 230 and data["shifted"] is None and data["previous"] is None
    assert data["how"]["method"].startswith("jenks") and data["how"]["gvf_2_classes"] > 0.7
    low, high = data["how"]["largest_gap_days"]
    assert low == pytest.approx(young[-1], abs=0.02) and high == pytest.approx(old[0], abs=0.02)
    # calibration.json keeps the figures and the data they came from
    stored = json.loads(cal.calibration_path(paths).read_text())["scopes"]["skewed"]
    assert stored["figures"]["age_days"]["n"] == 230 and stored["figures"]["references"]["unreferenced"] == 230
    assert stored["figures"]["size_bytes"]["natural_break"] is not None
    columns = stored["data"]
    assert len(columns["path"]) == len(columns["age_days"]) == len(columns["size_bytes"]) == 230
    assert len(columns["references"]) == len(columns["last_used"]) == 230
    i = columns["path"].index("n/old-0.md")
    assert columns["size_bytes"][i] == (root / "n/old-0.md").stat().st_size
    assert stored["source"].startswith("measured ")


def test_too_few_records_means_defaults_and_says_so(paths: HomePaths, tmp_path: Path) -> None:
    root = tmp_path / "tiny"
    for i in range(3):
        put(root, f"{i}.md", "x", 100 * i)
    config = configure(paths, ("tiny", "markdown", root))
    data = asdict(engine.calibrate_scope(paths, config, "tiny", now=NOW))  # the form `curate calibrate --json` prints
    assert not data["measured"] and "only 3 records" in data["source"]
    defaults = {"unused_days": cal.DEFAULT_UNUSED_DAYS, "clearly_old_days": cal.DEFAULT_CLEARLY_OLD_DAYS}
    assert data["thresholds"] == defaults


def test_uniform_ages_have_a_weak_break_and_it_is_said(paths: HomePaths, tmp_path: Path) -> None:
    root = tmp_path / "flat"
    for i in range(60):
        put(root, f"{i}.md", "x", math.expm1(i / 10))
    config = configure(paths, ("flat", "markdown", root))
    data = asdict(engine.calibrate_scope(paths, config, "flat", now=NOW))  # the form `curate calibrate --json` prints
    assert data["measured"] and data["how"]["gvf_2_classes"] < 0.8
    assert "median" in data["how"]["clearly_old"]


def test_scan_measures_first_then_remeasures_only_on_a_shift(paths: HomePaths, tmp_path: Path) -> None:
    root = skewed_scope(tmp_path)
    config = configure(paths, ("skewed", "markdown", root))
    first = engine.scan(paths, config, now=NOW).scopes[0]
    assert first.calibration == "measured for the first time" and first.thresholds and first.thresholds.measured
    # time passing is not a shift: ages are compared as of the measurement
    later = engine.scan(paths, config, now=NOW + timedelta(days=30)).scopes[0]
    assert later.calibration is None
    # a flood of new notes is
    for i in range(120):
        put(root, f"n/new-{i}.md", "new", 0.5)
    shifted = engine.scan(paths, config, now=NOW).scopes[0]
    assert shifted.calibration == "re-measured: record count changed from 230 to 350"
    stored = cal.load_calibration(paths)["scopes"]["skewed"]
    assert stored["reason"] == "record count changed from 230 to 350"
    assert stored["history"][-1]["n"] == 230 and stored["history"][-1]["reason"] == "first scan"


def test_a_changed_age_distribution_with_the_same_count_is_a_shift(paths: HomePaths, tmp_path: Path) -> None:
    root = skewed_scope(tmp_path)
    config = configure(paths, ("skewed", "markdown", root))
    engine.scan(paths, config, now=NOW)
    stamp = NOW.timestamp()
    for path in sorted(root.rglob("recent-*.md"))[:120]:  # the same notes, now looking a year older
        os.utime(path, (stamp - 400 * 86400, stamp - 400 * 86400))
    report = engine.scan(paths, config, now=NOW).scopes[0]
    assert report.calibration is not None and "Kolmogorov" in report.calibration


def test_picture_has_bins_and_thresholds(paths: HomePaths, tmp_path: Path) -> None:
    root = skewed_scope(tmp_path)
    config = configure(paths, ("skewed", "markdown", root))
    assert engine.calibration_picture(paths, "skewed").measured is False
    engine.calibrate_scope(paths, config, "skewed", now=NOW)
    picture = engine.calibration_picture(paths, "skewed", bins=12)
    assert len(picture.bins) == 12 and sum(b.count for b in picture.bins) == 230
    assert all(a.hi == pytest.approx(b.lo) for a, b in zip(picture.bins, picture.bins[1:], strict=False))
    assert picture.thresholds["measured"] and picture.figures["age_days"]["n"] == 230
