"""The broad case table (``tests/timeparse/cases/*.txt``), its reader and its check, shared by
``tests/timeparse/test_timeparse_table.py`` and ``tests/bench/bench_timeparse.py``: every kind of time
expression of issue 13 in English, Korean and Japanese, positives and negatives, in DST zones across the
change and in zones without DST. Written by hand from the documented conventions (``reverie when --help``), not copied.

File format, one case a line (``#`` starts a comment)::

    @ 2026-11-29T15:00 Asia/Seoul              a section: the now (local time) and the zone
    en clock | at 4:23 | hour 2026-11-28T16:23
    ko guard | 모래 위에 | -

``<lang> <kind> | <query> | <expected> [| note: <text the notes must hold>]``. Expected is ``-`` (no
range), or a grain and its bounds:

- ``day D``, ``week D`` (a Monday), ``month YYYY-MM``, ``year YYYY``: that whole unit; ``D`` may be
  a relative count instead (``day -1`` yesterday, ``week 0`` this week, ``month -1``, ``year +1``);
- ``hour T``: one elapsed hour from ``T``;
- ``part T1 T2`` (part of day) and ``span T1 T2``: ``[T1, T2)``; ``T2`` may be ``NOW``;
- ``exact <grain> T1 T2``: any grain with both bounds written out, offsets included (the DST cases,
  so the expectation does not come from the range arithmetic under test).

Times are local ISO times in the section's zone unless they carry an offset. ``note:`` checks that one
of the parse's notes contains the text; ``note: -`` that there are none.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from core.timeparse import TimeParse, parse_time, ranges
from core.timeparse.model import instant

CASES_DIR = Path(__file__).resolve().parents[1] / "timeparse" / "cases"
LANGS = ("en", "ko", "ja")
# Kinds that each language must cover with at least a few cases.
KINDS = (
    "clock",
    "words",
    "interval",
    "unit",
    "now",
    "relday",
    "ordinal",
    "holiday",
    "edge",
    "year",
    "typo",
    "guard",
    "basic",
)


@dataclass(frozen=True)
class TableCase:
    file: str
    line: int
    lang: str
    kind: str
    query: str
    expected: str
    note: str | None
    now: datetime
    zone: ZoneInfo

    @property
    def id(self) -> str:
        return f"{self.file}:{self.line}:{self.lang}:{self.kind}:{self.query}"


def load(directory: Path = CASES_DIR) -> list[TableCase]:
    """Every case of every table file; a malformed line is an error naming the file and line."""
    cases: list[TableCase] = []
    for path in sorted(directory.glob("*.txt")):
        now: datetime | None = None
        zone: ZoneInfo | None = None
        for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("@"):
                moment, zone_name = line[1:].split()
                zone = ZoneInfo(zone_name)
                now = datetime.fromisoformat(moment).replace(tzinfo=zone)
                continue
            fields = [field.strip() for field in line.split("|")]
            if len(fields) not in (3, 4) or now is None or zone is None:
                raise ValueError(f"{path.name}:{number}: expected '<lang> <kind> | query | expected [| note: ...]'")
            lang, kind = fields[0].split()
            if lang not in LANGS or kind not in (*KINDS, "dst", "unread", "ahead"):
                raise ValueError(f"{path.name}:{number}: unknown language or kind {fields[0]!r}")
            note = None
            if len(fields) == 4:
                if not fields[3].startswith("note:"):
                    raise ValueError(f"{path.name}:{number}: the fourth field must start with 'note:'")
                note = fields[3][len("note:") :].strip()
            cases.append(TableCase(path.name, number, lang, kind, fields[1], fields[2], note, now, zone))
    return cases


def _moment(text: str, case: TableCase) -> datetime:
    if text == "NOW":
        return case.now
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=case.zone)


def _relative(text: str) -> bool:
    """``-1``, ``0``, ``+2``: a count from the current unit rather than a date."""
    return text == "0" or (text[0] in "+-" and text[1:].isdigit())


def expected_range(case: TableCase) -> tuple[datetime, datetime, str] | None:
    """The range a case expects: (start, end, grain), or None for no range."""
    words = case.expected.split()
    if words == ["-"]:
        return None
    grain, args = words[0], words[1:]
    zone, today = case.zone, case.now.date()
    if grain == "day":
        day = today + timedelta(days=int(args[0])) if _relative(args[0]) else date.fromisoformat(args[0])
        rng = ranges.day_range(day, zone)
    elif grain == "week":
        if _relative(args[0]):
            monday = ranges.monday_of(today) + timedelta(days=7 * int(args[0]))
        else:
            monday = date.fromisoformat(args[0])
            assert monday.weekday() == 0, f"{case.id}: a week starts on a Monday"
        rng = ranges.week_range(monday, zone)
    elif grain == "month":
        if _relative(args[0]):
            year, month = ranges.add_months(today.year, today.month, int(args[0]))
        else:
            year, month = (int(part) for part in args[0].split("-"))
        rng = ranges.month_range(year, month, zone)
    elif grain == "year":
        year = today.year + int(args[0]) if _relative(args[0]) else int(args[0])
        rng = ranges.year_range(year, zone)
    elif grain == "hour":
        start = _moment(args[0], case)
        return start, ranges.elapsed(start, timedelta(hours=1)), "hour"
    elif grain in ("part", "span"):
        return _moment(args[0], case), _moment(args[1], case), "part_of_day" if grain == "part" else "span"
    elif grain == "exact":  # a range written out with its offsets: the DST cases
        return _moment(args[1], case), _moment(args[2], case), args[0]
    else:
        raise ValueError(f"{case.id}: unknown expected form {case.expected!r}")
    return rng.start, rng.end, rng.grain


def problems(case: TableCase) -> list[str]:
    """What is wrong with how ``case`` is parsed (empty: right)."""
    tp: TimeParse = parse_time(case.query, case.now, case.zone)
    found: list[str] = []
    want = expected_range(case)
    if want is None:
        if tp.range is not None:
            found.append(f"expected no range, got {tp.range.to_dict()} from {tp.expression!r}")
    elif tp.range is None:
        found.append(f"no range (rest {tp.rest!r}, notes {tp.notes})")
    else:
        start, end, grain = want
        got = tp.range
        # Instants in UTC: Python never calls a time in a repeated hour equal to one in another zone.
        if (instant(got.start), got.start.utcoffset()) != (instant(start), start.utcoffset()):
            found.append(f"start {got.start.isoformat()} != {start.isoformat()}")
        if (instant(got.end), got.end.utcoffset()) != (instant(end), end.utcoffset()):
            found.append(f"end {got.end.isoformat()} != {end.isoformat()}")
        if got.grain != grain:
            found.append(f"grain {got.grain} != {grain}")
    if case.note == "-":
        if tp.notes:
            found.append(f"expected no notes, got {tp.notes}")
    elif case.note is not None and not any(case.note in note for note in tp.notes):
        found.append(f"no note holds {case.note!r} (notes {tp.notes})")
    return found
