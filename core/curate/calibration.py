"""Calibration: thresholds measured from a scope's real distribution, never guessed.

``reverie curate calibrate SCOPE`` measures every record's age, size and reference count and places
``unused_days`` at the natural break of the ages on a log scale (Jenks natural breaks, exact by dynamic
programming; the largest gap recorded beside it); ``clearly_old_days`` is the far edge of that gap
when the break is clear, else a clear break inside the old class, else its median age.
``curation/calibration.json`` keeps per scope the figures, the thresholds, how they were placed, the
data they came from and earlier measurements. A scan re-measures when the distribution has shifted
(record count, or a two-sample Kolmogorov–Smirnov test on the ages), saying why; with fewer than
``MIN_RECORDS`` records defaults apply and the output says so.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core.curate.model import DAY, Record, Thresholds
from core.curate.results import CalibrationPicture, HistogramBin
from core.errors import RecordError
from core.fsutil import atomic_write_text
from core.paths import HomePaths

# numpy (~0.1 s to import) is imported by the functions that measure, not with the module: the
# curation scan and the TUI's curation screens load this module for its types and stored thresholds.

# numpy is imported inside the functions that compute: it costs about 0.1 s, and most curation
# commands (restore, status, cold, approve) never measure anything.
CALIBRATION_FILE = "calibration.json"
FORMAT = "reverie.calibration"
MIN_RECORDS = 8
DEFAULT_UNUSED_DAYS = 90.0
DEFAULT_CLEARLY_OLD_DAYS = 180.0
FLOOR_UNUSED_DAYS = 7.0  # a safety floor: a week-old record is never "unused for long"
CLEAR_BREAK_GVF = 0.8  # two classes of a uniform spread already reach 0.75
CLEAR_INNER_GVF = 0.9
SHIFT_COUNT_RATIO = 0.25
KS_C_ALPHA = 1.628  # two-sample KS critical coefficient at α = 0.01


def calibration_path(paths: HomePaths) -> Path:
    return paths.curation / CALIBRATION_FILE


# ---------------------------------------------------------------------------------------- breaks


@dataclass(frozen=True)
class Breaks:
    breaks: list[float]  # k-1 values between the classes (midpoints of the gaps)
    gvf: float  # goodness of variance fit, 0..1 (1: perfectly separated classes)
    classes: list[tuple[float, float, int]]  # (min, max, count) of each class


def jenks(values: Sequence[float], k: int, decimals: int = 2) -> Breaks:
    """Jenks natural breaks of ``values`` into ``k`` classes (exact; distinct values rounded to
    ``decimals`` and weighted by their counts, so 10,000 records cost as much as a few hundred)."""
    import numpy as np  # heavy: numpy, ~80 ms; only measuring needs it
    x = np.round(np.asarray(values, dtype=float), decimals)
    uniq, counts = np.unique(x, return_counts=True)
    m = len(uniq)
    if m == 0:
        return Breaks([], 0.0, [])
    k = max(1, min(k, m))
    w = counts.astype(float)
    cw = np.concatenate([[0.0], np.cumsum(w)])
    cs = np.concatenate([[0.0], np.cumsum(w * uniq)])
    cq = np.concatenate([[0.0], np.cumsum(w * uniq * uniq)])

    def ssd(i: np.ndarray | int, j: int) -> np.ndarray:
        n = cw[j] - cw[i]
        s = cs[j] - cs[i]
        return np.maximum((cq[j] - cq[i]) - s * s / n, 0.0)

    cost = np.full((k + 1, m + 1), np.inf)
    arg = np.zeros((k + 1, m + 1), dtype=int)
    cost[0, 0] = 0.0
    for c in range(1, k + 1):
        for j in range(c, m + 1):
            starts = np.arange(c - 1, j)
            totals = cost[c - 1, starts] + ssd(starts, j)
            best = int(np.argmin(totals))
            cost[c, j], arg[c, j] = totals[best], starts[best]
    bounds, j = [], m
    for c in range(k, 0, -1):
        bounds.append(int(arg[c, j]))
        j = arg[c, j]
    starts_idx = sorted(bounds)
    edges = [*starts_idx, m]
    classes = [(float(uniq[a]), float(uniq[b - 1]), int(cw[b] - cw[a])) for a, b in itertools.pairwise(edges)]
    breaks = [float((uniq[s - 1] + uniq[s]) / 2) for s in starts_idx[1:]]
    total = float(ssd(0, m))
    gvf = 1.0 - float(cost[k, m]) / total if total > 0 else 0.0
    return Breaks(breaks, gvf, classes)


def largest_gap(values: Sequence[float]) -> dict[str, float] | None:
    """The widest gap between consecutive sorted values: its ends and its midpoint."""
    import numpy as np  # heavy: numpy, ~80 ms; only measuring needs it
    x = np.sort(np.asarray(values, dtype=float))
    if len(x) < 2:
        return None
    gaps = np.diff(x)
    i = int(np.argmax(gaps))
    return {"low": float(x[i]), "high": float(x[i + 1]), "at": float((x[i] + x[i + 1]) / 2)}


def describe(values: Sequence[float]) -> dict[str, float]:
    import numpy as np  # heavy: numpy, ~80 ms; only measuring needs it
    if not len(values):
        return {"n": 0}
    x = np.asarray(values, dtype=float)
    q = np.percentile(x, [10, 25, 50, 75, 90])
    return {
        "n": len(x), "min": float(x.min()), "p10": float(q[0]), "p25": float(q[1]), "median": float(q[2]),
        "p75": float(q[3]), "p90": float(q[4]), "max": float(x.max()), "mean": float(x.mean()),
    }


def histogram(values: Sequence[float], bins: int = 24, log: bool = True) -> list[dict[str, float]]:
    """Counts per bin, evenly spaced on ``log1p`` (default) or linear scale: the picture's bars."""
    import numpy as np  # heavy: numpy, ~80 ms; only measuring needs it
    x = np.asarray(values, dtype=float)
    if not len(x):
        return []
    top = float(x.max()) or 1.0
    edges = np.expm1(np.linspace(0.0, math.log1p(top), bins + 1)) if log else np.linspace(0.0, top, bins + 1)
    counts, _ = np.histogram(np.clip(x, 0, None), bins=edges)
    return [{"lo": float(edges[i]), "hi": float(edges[i + 1]), "count": int(counts[i])} for i in range(bins)]


def ks_statistic(a: Sequence[float], b: Sequence[float]) -> float:
    """Two-sample Kolmogorov–Smirnov statistic: the largest gap between the two empirical CDFs."""
    import numpy as np  # heavy: numpy, ~80 ms; only measuring needs it
    x, y = np.sort(np.asarray(a, dtype=float)), np.sort(np.asarray(b, dtype=float))
    if not len(x) or not len(y):
        return 1.0 if len(x) != len(y) else 0.0
    grid = np.concatenate([x, y])
    fx = np.searchsorted(x, grid, side="right") / len(x)
    fy = np.searchsorted(y, grid, side="right") / len(y)
    return float(np.max(np.abs(fx - fy)))


# ----------------------------------------------------------------------------------- measurement


@dataclass(frozen=True)
class Measurement:
    paths: list[str]
    last_used: list[float]
    ages: list[float]
    sizes: list[int]
    refs: list[int]

    @property
    def n(self) -> int:
        return len(self.paths)


def measure(records: Sequence[Record], ref_counts: dict[str, int], now: float) -> Measurement:
    chosen = sorted((r for r in records if not r.is_index), key=lambda r: r.rel)
    return Measurement(
        paths=[r.rel for r in chosen],
        last_used=[round(r.last_used, 3) for r in chosen],
        ages=[round(r.age_days(now), 3) for r in chosen],
        sizes=[r.size for r in chosen],
        refs=[ref_counts.get(r.rel, 0) for r in chosen],
    )


def place_thresholds(ages: Sequence[float]) -> tuple[float, float, dict[str, Any]]:
    """(unused_days, clearly_old_days, how) from the ages, at natural breaks on a log scale."""
    import numpy as np  # heavy: numpy, ~80 ms; only measuring needs it
    logs = np.log1p(np.asarray(ages, dtype=float))
    two = jenks(logs, 2)
    how: dict[str, Any] = {"method": "jenks natural breaks on log1p(age in days)", "gvf_2_classes": round(two.gvf, 4)}
    gap = largest_gap(logs)
    if gap:
        how["largest_gap_days"] = [round(math.expm1(gap["low"]), 2), round(math.expm1(gap["high"]), 2)]
    if not two.breaks:
        return DEFAULT_UNUSED_DAYS, DEFAULT_CLEARLY_OLD_DAYS, {**how, "note": "every record has the same age: defaults"}
    cut = two.breaks[0]
    unused = math.expm1(cut)
    if two.gvf < 0.5:
        how["note"] = f"weak break (goodness of fit {two.gvf:.2f}): the ages have no clear natural break"
    old = logs[logs > cut]
    inner = jenks(old, 2) if len(old) >= 6 else None
    if two.gvf >= CLEAR_BREAK_GVF:
        clearly_old = math.expm1(float(old.min()))
        how["clearly_old"] = f"the far edge of a clear break (goodness of fit {two.gvf:.2f}): the whole old class"
    elif inner and inner.breaks and inner.gvf >= CLEAR_INNER_GVF:
        clearly_old = math.expm1(inner.breaks[0])
        how["clearly_old"] = f"natural break inside the old class (goodness of fit {inner.gvf:.2f})"
    else:
        clearly_old = math.expm1(float(np.median(old))) if len(old) else unused * 2
        how["clearly_old"] = "median age of the old class (no clear break inside it)"
    if unused < FLOOR_UNUSED_DAYS:
        how["floor"] = f"measured break {unused:.1f} days raised to the safety floor of {FLOOR_UNUSED_DAYS:g}"
        unused = FLOOR_UNUSED_DAYS
    return unused, max(clearly_old, unused), how


def _size_break(sizes: Sequence[int]) -> float | None:
    import numpy as np  # heavy: numpy, ~80 ms; only measuring needs it
    if len(sizes) < MIN_RECORDS:
        return None
    found = jenks(np.log1p(np.asarray(sizes, dtype=float)), 2)
    return round(math.expm1(found.breaks[0]), 1) if found.breaks else None


# ------------------------------------------------------------------------------------ the record


def load_calibration(paths: HomePaths) -> dict[str, Any]:
    """``calibration.json`` as a JSON document: each scope's entry (figures, how the thresholds were
    placed, the measured data and its history) is read and rewritten whole, so an entry keeps the
    fields an older version wrote; :func:`thresholds_of` and :func:`picture` read typed values from it."""
    path = calibration_path(paths)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {"format": FORMAT, "version": 1, "scopes": {}}
    except (OSError, ValueError) as exc:
        raise RecordError(f"{path}: unreadable: {exc}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("scopes"), dict):
        raise RecordError(f"{path}: field 'scopes' missing or not an object")
    return data


def _save(paths: HomePaths, data: dict[str, Any]) -> None:
    atomic_write_text(calibration_path(paths), json.dumps(data, ensure_ascii=False, indent=1) + "\n")


def thresholds_of(entry: dict[str, Any] | None) -> Thresholds:
    if not entry:
        return Thresholds(DEFAULT_UNUSED_DAYS, DEFAULT_CLEARLY_OLD_DAYS, False, "not measured yet: defaults")
    t = entry["thresholds"]
    return Thresholds(float(t["unused_days"]), float(t["clearly_old_days"]), bool(entry.get("measured")),
                      str(entry.get("source", "")))


def calibrate(paths: HomePaths, scope: str, measurement: Measurement, now: float, reason: str) -> dict[str, Any]:
    """Measure ``scope`` from ``measurement``, record it in calibration.json (keeping the earlier
    figures as history) and return the new entry as stored (see :func:`load_calibration`). The caller
    holds the curation lock."""
    data = load_calibration(paths)
    previous = data["scopes"].get(scope)
    when = datetime.fromtimestamp(now, UTC).isoformat(timespec="seconds")
    if measurement.n >= MIN_RECORDS:
        unused, clearly_old, how = place_thresholds(measurement.ages)
        measured = True
        source = f"measured {when[:10]} from {measurement.n} records ({how['method']})"
    else:
        note = f"only {measurement.n} records (at least {MIN_RECORDS} are needed to measure)"
        unused, clearly_old, how = DEFAULT_UNUSED_DAYS, DEFAULT_CLEARLY_OLD_DAYS, {"method": "defaults", "note": note}
        measured = False
        source = f"defaults: only {measurement.n} records, too few to measure"
    entry = {
        "measured_at": when,
        "measured_at_ts": now,
        "reason": reason,
        "measured": measured,
        "source": source,
        "n": measurement.n,
        "thresholds": {"unused_days": round(unused, 2), "clearly_old_days": round(clearly_old, 2)},
        "how": how,
        "figures": {
            "age_days": describe(measurement.ages),
            "size_bytes": {**describe(measurement.sizes), "natural_break": _size_break(measurement.sizes)},
            "references": {**describe(measurement.refs),
                           "unreferenced": sum(1 for r in measurement.refs if r == 0)},
        },
        "data": {
            "path": measurement.paths,
            "last_used": measurement.last_used,
            "age_days": measurement.ages,
            "size_bytes": measurement.sizes,
            "references": measurement.refs,
        },
        "history": [],
    }
    if previous:
        history = list(previous.get("history", []))
        history.append({k: previous.get(k) for k in ("measured_at", "reason", "n", "thresholds", "source")})
        entry["history"] = history[-20:]
    data["scopes"][scope] = entry
    _save(paths, data)
    return entry


def shift_reason(entry: dict[str, Any], current: Measurement) -> str | None:
    """Why ``current`` no longer looks like the data ``entry`` was measured from, or ``None``."""
    n0 = int(entry.get("n", 0))
    if n0 == 0:
        return "first records in this scope" if current.n else None
    if abs(current.n - n0) / n0 > SHIFT_COUNT_RATIO:
        return f"record count changed from {n0} to {current.n}"
    then = float(entry.get("measured_at_ts", 0.0))
    recorded = entry.get("data", {}).get("age_days", [])
    ages_then = [max(0.0, (then - used) / DAY) for used in current.last_used]
    if not recorded or not ages_then:
        return None
    d = ks_statistic(recorded, ages_then)
    critical = KS_C_ALPHA * math.sqrt((len(recorded) + len(ages_then)) / (len(recorded) * len(ages_then)))
    if d > critical and d > 0.1:
        return f"age distribution shifted (Kolmogorov–Smirnov D = {d:.2f} > {critical:.2f})"
    return None


def picture(scope: str, entry: dict[str, Any] | None, bins: int = 24) -> CalibrationPicture:
    """What a calibration view draws for ``scope``: a log-scale histogram of ages with the thresholds on it,
    from its entry in calibration.json (None: not measured yet, the default thresholds)."""
    if not entry:
        return CalibrationPicture(scope=scope, measured=False, bins=[], thresholds=thresholds_of(None).to_dict(),
                                  figures={})
    ages = entry.get("data", {}).get("age_days", [])
    return CalibrationPicture(
        scope=scope,
        measured=bool(entry.get("measured")),
        measured_at=entry.get("measured_at"),
        n=entry.get("n", 0),
        bins=[HistogramBin(b["lo"], b["hi"], b["count"]) for b in histogram(ages, bins=bins, log=True)],
        thresholds=thresholds_of(entry).to_dict(),
        figures=entry.get("figures", {}),
        how=entry.get("how", {}),
        history=entry.get("history", []),
    )
