"""The index's fast reader of day files (``core.index.logsource.read_records``, lean records, no Turn
per line) reads every file exactly as the store's ``read_day`` does: the same turns, the same offset,
and for a faulty line the same "PATH:LINE: reason" (so a quarantine reason never depends on which
reader saw the line first)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.conversation import read_day
from core.conversation.logline import LogLine
from core.index import HomeDayLogs
from core.index.logsource import read_records
from core.paths import HomePaths
from core.turns import Turn

FIELDS = ("id", "ts", "actor", "role", "type", "text", "model", "session", "source")


def good(n: int, **changes: object) -> dict[str, object]:
    line: dict[str, object] = {"actor": "me", "id": f"t{n}", "model": None, "role": "user", "session": "s",
                               "source": "test", "text": f"line {n} 서울숲에서", "type": "text",
                               "ts": f"2026-03-01T09:00:{n % 60:02d}.000000Z"}
    line.update(changes)
    return line


def encoded(obj: object) -> bytes:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True).encode()


# Lines the fast reader must hand to read_day, each with what makes it so.
FAULTY: list[bytes] = [
    b"not json at all",
    b"",  # a blank line
    b"[1, 2]",
    encoded(good(1, role="robot")),
    encoded(good(1, type="thought")),
    encoded(good(1, id="")),
    encoded(good(1, id=7)),
    encoded(good(1, model=3)),
    encoded({k: v for k, v in good(1).items() if k != "model"}),  # model missing: read_day accepts it
    encoded({k: v for k, v in good(1).items() if k != "session"}),
    encoded(good(1, extra="field")),
    encoded(good(1, ts="2026-02-30T09:00:00.000000Z")),  # no such day
    encoded(good(1, ts="2026-03-01T09:00:00Z")),  # another ts form: read_day normalises it
    encoded(good(1, ts="2026-03-01T09:00:00.000000+09:00")),
    encoded(good(1, ts="2026-03-01T09:00:00.000000Z\n")),  # a newline inside the value
    encoded(good(1, ts="yesterday")),
    encoded(good(1, ts="２０２６-03-01T09:00:00.000000Z")),  # full-width digits
    encoded(good(1)) + b" " + encoded(good(2)),  # two values on one line
    b"\xff\xfe" + encoded(good(1)),  # not UTF-8
    encoded(good(1, text="a lone SURROGATE")).replace(b"SURROGATE", b"\\ud800"),  # escaped in the JSON
]


def write(path: Path, lines: list[bytes], *, newline_at_end: bool = True) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\n".join(lines) + (b"\n" if newline_at_end else b""))
    return path


def as_tuples(turns: object) -> list[tuple[object, ...]]:
    return [tuple(getattr(t, name) for name in FIELDS) for t in turns]  # type: ignore[attr-defined]


def same_as_read_day(paths: HomePaths, path: Path) -> list[object]:
    chunk = HomeDayLogs(paths).read(path, 0)
    reading = read_day(path, 0)
    expected_bad = [str(b) for b in reading.bad_lines if not (reading.incomplete_tail and b is reading.bad_lines[-1])]
    assert as_tuples(chunk.turns) == as_tuples(reading.turns)
    assert chunk.offset == reading.offset
    assert chunk.bad_lines == expected_bad
    return list(chunk.turns)


def test_a_clean_file_is_read_as_lean_records(paths: HomePaths) -> None:
    path = write(paths.logs / "2026" / "03" / "2026-03-01.jsonl", [encoded(good(n)) for n in range(50)])
    turns = same_as_read_day(paths, path)
    assert len(turns) == 50 and all(isinstance(t, LogLine) for t in turns)
    assert read_records(path) is not None


@pytest.mark.parametrize("faulty", FAULTY, ids=range(len(FAULTY)))
def test_a_file_with_any_faulty_line_reads_as_read_day_reads_it(paths: HomePaths, faulty: bytes) -> None:
    path = write(paths.logs / "2026" / "03" / "2026-03-01.jsonl", [encoded(good(1)), faulty, encoded(good(3))])
    assert read_records(path) is None
    turns = same_as_read_day(paths, path)
    assert all(isinstance(t, Turn) for t in turns)


def test_an_unterminated_last_line_and_a_missing_file_read_as_read_day_reads_them(paths: HomePaths) -> None:
    day = paths.logs / "2026" / "03"
    path = write(day / "2026-03-01.jsonl", [encoded(good(1)), encoded(good(2))[:-5]], newline_at_end=False)
    assert read_records(path) is None
    assert len(same_as_read_day(paths, path)) == 1
    assert read_records(day / "2026-03-09.jsonl") is None
    assert same_as_read_day(paths, day / "2026-03-09.jsonl") == []
    empty = write(day / "2026-03-02.jsonl", [], newline_at_end=False)
    assert same_as_read_day(paths, empty) == []


def test_a_tail_is_read_by_read_day(paths: HomePaths) -> None:
    path = write(paths.logs / "2026" / "03" / "2026-03-01.jsonl", [encoded(good(n)) for n in range(3)])
    first = read_day(path, 0)
    with path.open("ab") as handle:
        handle.write(encoded(good(9)) + b"\n")
    chunk = HomeDayLogs(paths).read(path, first.offset)
    assert as_tuples(chunk.turns) == as_tuples(read_day(path, first.offset).turns) and chunk.data is None


_text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30)
_line = st.fixed_dictionaries(
    {"actor": _text, "id": st.one_of(_text, st.integers()), "model": st.one_of(st.none(), _text),
     "role": st.sampled_from(["user", "assistant", "system", "robot"]),
     "session": _text, "source": _text, "text": _text,
     "ts": st.one_of(st.just("2026-03-01T09:00:00.000000Z"), st.just("2026-03-01T23:59:59.999999Z"),
                     st.just("2026-02-29T09:00:00.000000Z"), st.just("2026-03-01 09:00:00Z"), _text),
     "type": st.sampled_from(["text", "action", "meta", "other"])},
    optional={"extra": _text},
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(_line, min_size=1, max_size=6))
def test_any_file_reads_the_same_through_either_reader(paths: HomePaths, lines: list[dict[str, object]]) -> None:
    path = write(paths.logs / "2026" / "03" / "2026-03-01.jsonl", [encoded(line) for line in lines])
    same_as_read_day(paths, path)
