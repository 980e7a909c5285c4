"""Benchmark the temporal backbone against a naive dateparser baseline on the case table.

    .venv/bin/python tests/bench/bench_timeparse.py [--repeat 20] [--json]
    .venv/bin/python tests/bench/bench_timeparse.py --dump-locomo after.jsonl [--code WORKTREE]

The case tables are ``tests/helpers/timeparse_cases.py`` (330 cases: en, ko, ja with a fixed
Sunday 15:00 in Seoul, a New York DST week, a UTC table) and the broad table of
``tests/timeparse/cases/*.txt`` (one row per file: Seoul, New York and Berlin across both DST changes,
Tokyo, UTC). For each case both parsers are timed (warm, per call, ``--repeat`` calls per case) and
scored: a case is right when the range's start and end are exactly the expected instants (a "no
range" case is right when no range comes back). For ours, a stricter score also checks the grain, the
expression and the rest (older table) or the grain and the notes (broad table) where the table gives
them.

Naive baseline = what MEASUREMENTS.md calls naive use of dateparser: ``search_dates(query,
languages=["en", "ko", "ja"], settings={RELATIVE_BASE, PREFER_DATES_FROM: past})``, take the first hit,
ask ``DateDataParser.get_date_data`` for its period and turn the point into that period's range
(day → that day, week → its Monday-to-Sunday week, month, year; a time → that hour).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

TESTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TESTS.parent), str(TESTS)]

LANGUAGES = ["en", "ko", "ja"]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def naive_range(query: str, now: datetime, zone: ZoneInfo) -> tuple[datetime, datetime] | None:
    from dateparser.date import DateDataParser
    from dateparser.search import search_dates

    settings = {"RELATIVE_BASE": now.astimezone(zone).replace(tzinfo=None), "PREFER_DATES_FROM": "past"}
    try:
        hits = search_dates(query, languages=LANGUAGES, settings=settings)
    except Exception:  # the baseline is measured as it is, failures included
        return None
    if not hits:
        return None
    substring, point = hits[0]
    data = DateDataParser(languages=LANGUAGES, settings=settings).get_date_data(substring)
    period = data.period or "day"
    try:
        return _naive_period(point, period, zone)
    except (ValueError, OverflowError):  # dateparser read a year the range arithmetic cannot hold
        return None


def _naive_period(point: datetime, period: str, zone: ZoneInfo) -> tuple[datetime, datetime]:
    from core.timeparse import ranges

    day = point.date()
    if period == "time":
        start = ranges.at(day, point.time(), zone)
        return start, ranges.elapsed(start, timedelta(hours=1))
    if period == "week":
        rng = ranges.week_range(ranges.monday_of(day), zone)
    elif period == "month":
        rng = ranges.month_range(day.year, day.month, zone)
    elif period == "year":
        rng = ranges.year_range(day.year, zone)
    else:
        rng = ranges.day_range(day, zone)
    return rng.start, rng.end


def timed(call: Any, repeat: int, cpu: list[float] | None = None) -> tuple[Any, list[float]]:
    """The call's result and the wall-clock milliseconds of each of ``repeat`` calls (their CPU
    milliseconds go to ``cpu`` when given)."""
    times = []
    result = None
    for _ in range(repeat):
        started, started_cpu = time.perf_counter(), time.thread_time()
        result = call()
        times.append((time.perf_counter() - started) * 1000)
        if cpu is not None:
            cpu.append((time.thread_time() - started_cpu) * 1000)
    return result, times


def run(repeat: int) -> dict[str, Any]:
    started = time.perf_counter()
    import core.timeparse  # noqa: F401 - timing the import

    import_ms = (time.perf_counter() - started) * 1000
    from core.timeparse import parse_time
    from core.timeparse.model import instant
    from tests.helpers.timeparse_cases import TABLES, check, expected_time
    from tests.helpers.timeparse_table import expected_range, load, problems

    CASES = load()

    started = time.perf_counter()
    import dateparser.search  # noqa: F401 - timing the import

    dateparser_import_ms = (time.perf_counter() - started) * 1000
    first_now, first_zone, _ = TABLES["en"]
    started = time.perf_counter()
    naive_range("last week", first_now, first_zone)
    dateparser_first_ms = (time.perf_counter() - started) * 1000

    # (table, query, now, zone, wanted instants or None, strict check) for both tables
    rows: list[tuple[str, str, datetime, ZoneInfo, tuple[datetime, datetime] | None, Any]] = []
    for name, (now, zone, cases) in TABLES.items():
        for case in cases:
            want = None
            if case.start is not None and case.end is not None:
                want = (expected_time(case.start, zone, now), expected_time(case.end, zone, now))
            rows.append((name, case.query, now, zone, want, lambda c=case, n=now, z=zone: not check(c, n, z)))
    for item in CASES:
        expected = expected_range(item)
        want = (expected[0], expected[1]) if expected is not None else None
        rows.append((f"broad:{item.file[:-4]}", item.query, item.now, item.zone, want, lambda c=item: not problems(c)))

    def same(got: tuple[datetime, datetime] | None, want: tuple[datetime, datetime] | None) -> bool:
        if got is None or want is None:
            return got is want
        return tuple(map(instant, got)) == tuple(map(instant, want)) and [g.utcoffset() for g in got] == [
            w.utcoffset() for w in want
        ]

    ours_times: list[float] = []
    cpu_times: list[float] = []
    naive_times: list[float] = []
    by_group: dict[str, list[float]] = {"ours, 330-case table": [], "ours, broad table": []}
    per_table: dict[str, dict[str, int]] = {}
    misses: dict[str, list[str]] = {"ours": [], "naive": []}
    for name, query, now, zone, want, strict in rows:
        score = per_table.setdefault(
            name, {"cases": 0, "positives": 0, "ours": 0, "ours_strict": 0, "naive": 0, "naive_positives": 0}
        )
        score["cases"] += 1
        score["positives"] += want is not None
        tp, times = timed(lambda q=query, n=now, z=zone: parse_time(q, n, z), repeat, cpu_times)
        ours_times.extend(times)
        by_group["ours, broad table" if name.startswith("broad:") else "ours, 330-case table"].extend(times)
        got = (tp.range.start, tp.range.end) if tp.range is not None else None
        if same(got, want):
            score["ours"] += 1
        else:
            misses["ours"].append(f"{name}: {query}")
        score["ours_strict"] += bool(strict())
        naive, times = timed(lambda q=query, n=now, z=zone: naive_range(q, n, z), repeat)
        naive_times.extend(times)
        if same(naive, want):
            score["naive"] += 1
            score["naive_positives"] += want is not None
        else:
            misses["naive"].append(f"{name}: {query}")
    total = {key: sum(table[key] for table in per_table.values()) for key in per_table["en"]}
    return {
        "repeat": repeat,
        "import_ms": {
            "core.timeparse": round(import_ms, 1),
            "dateparser.search": round(dateparser_import_ms, 1),
            "dateparser_first_call": round(dateparser_first_ms, 1),
        },
        "per_query_ms": {
            "ours": {"p50": round(statistics.median(ours_times), 3), "p95": round(percentile(ours_times, 0.95), 3)},
            "ours, CPU time": {
                "p50": round(statistics.median(cpu_times), 3),
                "p95": round(percentile(cpu_times, 0.95), 3),
            },
            "naive": {"p50": round(statistics.median(naive_times), 3), "p95": round(percentile(naive_times, 0.95), 3)},
        }
        | {
            group: {"p50": round(statistics.median(values), 3), "p95": round(percentile(values, 0.95), 3)}
            for group, values in by_group.items()
        },
        "accuracy": {name: table for name, table in per_table.items()} | {"all": total},
        "misses": misses,
    }


def render(result: dict[str, Any]) -> str:
    lines = [f"Temporal backbone vs naive dateparser ({result['repeat']} warm calls per case)", ""]
    head = ("table", "cases", "ours", "ours strict", "naive", "naive, ranges only")
    lines.append(f"{head[0]:<24}{head[1]:>6}{head[2]:>15}{head[3]:>15}{head[4]:>15}{head[5]:>20}")
    for name, row in result["accuracy"].items():
        cases, positives = row["cases"], row["positives"]
        cells = [f"{row[key]}/{cases} {100 * row[key] / cases:3.0f}%" for key in ("ours", "ours_strict", "naive")]
        cells.append(f"{row['naive_positives']}/{positives} {100 * row['naive_positives'] / positives:3.0f}%")
        lines.append(f"{name:<24}{cases:>6}{cells[0]:>15}{cells[1]:>15}{cells[2]:>15}{cells[3]:>20}")
    lines.append("(naive, ranges only: the cases that expect a range; the others are words that only look like time)")
    lines += ["", f"{'per query (ms, wall)':<24}{'p50':>9}{'p95':>9}"]
    for who, row in result["per_query_ms"].items():
        lines.append(f"{who:<24}{row['p50']:>9.3f}{row['p95']:>9.3f}")
    lines.append("(CPU time is the thread's own: on a loaded machine wall-clock p95 mostly measures preemption)")
    costs = result["import_ms"]
    lines += [
        "",
        f"import core.timeparse {costs['core.timeparse']} ms (dateparser not imported); "
        f"import dateparser.search {costs['dateparser.search']} ms; "
        f"dateparser first call {costs['dateparser_first_call']} ms",
    ]
    if result["misses"]["ours"]:
        lines += ["", "ours missed: " + "; ".join(result["misses"]["ours"])]
    return "\n".join(lines)


LOCOMO = TESTS.parent.parent / "shared" / "data" / "locomo10.json"
LOCOMO_PREFIXES = ("", "yesterday, ", "3 days ago, ", "어제 ", "3일 전에 ", "昨日、", "3日前に")


def dump_locomo(path: Path, locomo: Path = LOCOMO) -> int:
    """How every distinct LoCoMo question reads, as written and after each of the development
    benchmark's prefixes (first letter lowered), one JSON line each (now: Sun 20 Aug 2023 23:00 UTC).
    Two dumps (one with ``--code`` naming a worktree of an earlier commit) compared with ``diff`` show
    what a change to the grammar changes on real questions."""
    from core.timeparse import parse_time

    questions = sorted({qa["question"] for conv in json.loads(locomo.read_text(encoding="utf-8")) for qa in conv["qa"]})
    zone = ZoneInfo("UTC")
    now = datetime(2023, 8, 20, 23, 0, tzinfo=zone)
    with path.open("w", encoding="utf-8") as out:
        for question in questions:
            for prefix in LOCOMO_PREFIXES:
                text = prefix + (question[0].lower() + question[1:] if prefix else question)
                parsed = parse_time(text, now, zone).to_dict()
                out.write(json.dumps({"q": text, **parsed}, ensure_ascii=False) + "\n")
    return len(questions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20, help="warm calls per case and parser (default 20)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument(
        "--dump-locomo",
        metavar="PATH",
        type=Path,
        default=None,
        help="instead: write how each LoCoMo question reads (with the dev prefixes) to PATH as JSON lines",
    )
    parser.add_argument(
        "--code",
        metavar="DIR",
        type=Path,
        default=None,
        help="with --dump-locomo: the checkout whose core.timeparse reads them (a worktree of an earlier commit)",
    )
    args = parser.parse_args()
    if args.code is not None:
        sys.path.insert(0, str(args.code.resolve()))
    if args.dump_locomo is not None:
        count = dump_locomo(args.dump_locomo)
        print(f"{count} questions x {len(LOCOMO_PREFIXES)} forms -> {args.dump_locomo}")
        return
    result = run(max(1, args.repeat))
    print(json.dumps(result, ensure_ascii=False, indent=2) if args.json else render(result))


if __name__ == "__main__":
    main()
