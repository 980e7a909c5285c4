"""The day-log store: the read API, crash tails and their repair, concurrent writers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.conversation import DayFileChanged, ingest, list_day_files, read_day
from core.conversation import store as store_module
from core.conversation.items import checked_turn, normal_ts
from core.conversation.store import parse_line, turn_line
from core.paths import HomePaths
from core.turns import Turn, format_ts, parse_ts

ROOT = Path(__file__).resolve().parents[2]


def write_generic(path: Path, count: int, *, day: str = "2026-01-02", start: int = 0, prefix: str = "turn") -> Path:
    with path.open("w") as out:
        for n in range(start, start + count):
            seconds = n % 86400
            ts = f"{day}T{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}Z"
            out.write(json.dumps({"ts": ts, "role": "user", "text": f"{prefix} {n}", "id": f"{prefix}-{n}"}) + "\n")
    return path


def day_path(paths: HomePaths, day: str = "2026-01-02") -> Path:
    return paths.logs / day[:4] / day[5:7] / f"{day}.jsonl"


def test_list_day_files_reports_size_and_mtime_and_ignores_strays(paths: HomePaths, tmp_path: Path) -> None:
    ingest(paths, [write_generic(tmp_path / "a.jsonl", 3)])
    ingest(paths, [write_generic(tmp_path / "b.jsonl", 2, day="2025-12-31", prefix="old")])
    (paths.logs / "2026" / "01" / "notes.txt").write_text("x")
    (paths.logs / "2026" / "02").mkdir()
    (paths.logs / "2026" / "02" / "2026-01-05.jsonl").write_text("misplaced\n")
    (paths.logs / ".pending-reseal.json").write_text("{}")
    files = list_day_files(paths)
    assert [f.day for f in files] == ["2025-12-31", "2026-01-02"]
    assert files[1].path == day_path(paths) and files[1].size == day_path(paths).stat().st_size
    assert files[1].mtime == day_path(paths).stat().st_mtime
    assert files[1].mtime_ns == day_path(paths).stat().st_mtime_ns
    assert day_path(paths).parent.stat().st_mode & 0o777 == 0o700


def test_read_from_an_offset_returns_only_the_new_tail(paths: HomePaths, tmp_path: Path) -> None:
    ingest(paths, [write_generic(tmp_path / "a.jsonl", 3)])
    first = read_day(day_path(paths))
    assert [t.id for t in first.turns] == ["turn-0", "turn-1", "turn-2"]
    assert first.offset == day_path(paths).stat().st_size and not first.bad_lines
    ingest(paths, [write_generic(tmp_path / "b.jsonl", 2, start=3)])
    tail = read_day(day_path(paths), first.offset)
    assert [t.id for t in tail.turns] == ["turn-3", "turn-4"]
    assert read_day(day_path(paths), tail.offset).turns == []


def test_bad_lines_are_reported_with_their_numbers_never_raised(paths: HomePaths, tmp_path: Path) -> None:
    ingest(paths, [write_generic(tmp_path / "a.jsonl", 2)])
    with day_path(paths).open("ab") as out:
        out.write(b'{"not": "a turn"}\n\xff\xfe\n')
    ingest(paths, [write_generic(tmp_path / "b.jsonl", 1, start=2)])
    reading = read_day(day_path(paths))
    assert [t.id for t in reading.turns] == ["turn-0", "turn-1", "turn-2"]
    assert [str(b) for b in reading.bad_lines] == [
        f"{day_path(paths)}:3: id: missing or not a string",
        f"{day_path(paths)}:4: not UTF-8 at byte 0",
    ]
    third_line = len(b"".join(day_path(paths).read_bytes().split(b"\n", 2)[:2])) + 2
    later = read_day(day_path(paths), third_line)  # line numbers stay right when reading from an offset
    assert [b.line for b in later.bad_lines] == [3, 4] and [t.id for t in later.turns] == ["turn-2"]


def test_an_unterminated_tail_is_reported_and_not_consumed(paths: HomePaths, tmp_path: Path) -> None:
    ingest(paths, [write_generic(tmp_path / "a.jsonl", 2)])
    whole = day_path(paths).stat().st_size
    with day_path(paths).open("ab") as out:
        out.write(b'{"id": "turn-2", "ts": "2026-01-0')
    reading = read_day(day_path(paths))
    assert reading.incomplete_tail and reading.offset == whole
    assert [(b.line, b.reason) for b in reading.bad_lines] == [
        (3, "unterminated last line (an interrupted or ongoing write)")
    ]
    assert len(reading.turns) == 2


def test_offsets_that_no_longer_fit_raise_day_file_changed(paths: HomePaths, tmp_path: Path) -> None:
    ingest(paths, [write_generic(tmp_path / "a.jsonl", 2)])
    size = day_path(paths).stat().st_size
    with pytest.raises(DayFileChanged, match="past the end"):
        read_day(day_path(paths), size + 10)
    with pytest.raises(DayFileChanged, match="not at a line start"):
        read_day(day_path(paths), 5)
    assert read_day(paths.logs / "2030" / "01" / "2030-01-01.jsonl").turns == []


class Crash(BaseException):
    """Stands in for the process dying in the middle of a write."""


def test_crash_mid_append_leaves_one_partial_line_that_the_next_ingest_repairs(
    paths: HomePaths, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ingest(paths, [write_generic(tmp_path / "a.jsonl", 3)])
    before = day_path(paths).read_bytes()
    source = write_generic(tmp_path / "b.jsonl", 4, start=3)
    real_write = os.write

    def half_write(fd: int, data: bytes) -> int:
        real_write(fd, bytes(data[: len(data) // 2 + 7]))
        raise Crash

    monkeypatch.setattr(store_module.os, "write", half_write)
    with pytest.raises(Crash):
        ingest(paths, [source])
    monkeypatch.undo()
    damaged = day_path(paths).read_bytes()
    assert damaged.startswith(before) and not damaged.endswith(b"\n")
    reading = read_day(day_path(paths))
    assert reading.incomplete_tail and [t.id for t in reading.turns][:3] == ["turn-0", "turn-1", "turn-2"]

    report = ingest(paths, [source])
    # the whole append cut short goes (quarantine first), so the file is again one Reverie wrote
    fragment_line = damaged.count(b"\n") + 1
    assert report.repaired == [f"{day_path(paths)}:{fragment_line}: unterminated last line quarantined",
                               f"{day_path(paths)}:4: an append cut short by a crash, quarantined and cut off"]
    reading = read_day(day_path(paths))
    assert not reading.bad_lines
    assert [t.id for t in reading.turns] == [f"turn-{n}" for n in range(7)]  # each exactly once
    kept = [json.loads(line) for line in next(paths.quarantine.glob("*.jsonl")).read_text().splitlines()]
    assert {k["source"] for k in kept} == {str(day_path(paths))}
    assert kept[1]["raw"] + kept[0]["raw"] == damaged[len(before):].decode()  # all of it, nothing lost


def test_a_whole_last_line_missing_only_its_newline_is_terminated(paths: HomePaths, tmp_path: Path) -> None:
    ingest(paths, [write_generic(tmp_path / "a.jsonl", 2)])
    data = day_path(paths).read_bytes()
    day_path(paths).write_bytes(data[:-1])
    report = ingest(paths, [write_generic(tmp_path / "b.jsonl", 1, start=2)])
    assert report.repaired == [f"{day_path(paths)}:2: unterminated last line terminated"]
    assert [t.id for t in read_day(day_path(paths)).turns] == ["turn-0", "turn-1", "turn-2"]
    assert not paths.quarantine.exists() or not list(paths.quarantine.iterdir())


_INGEST_SCRIPT = """
import sys
from pathlib import Path
from core.conversation import ingest
from core.paths import HomePaths
report = ingest(HomePaths.at(sys.argv[1]), [Path(p) for p in sys.argv[2:]])
print(report.added, report.duplicates)
"""


def test_two_processes_ingesting_at_once_store_each_turn_once(paths: HomePaths, tmp_path: Path) -> None:
    sources = [write_generic(tmp_path / f"s{n}.jsonl", 1500, day=f"2026-01-0{n + 1}") for n in range(3)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    runs = [
        subprocess.Popen([sys.executable, "-c", _INGEST_SCRIPT, str(paths.root), *map(str, order)],
                         env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for order in (sources, sources[::-1])
    ]
    offsets: dict[Path, int] = {}
    seen: dict[Path, list[str]] = {}
    while any(run.poll() is None for run in runs):  # a reader following the growing files meanwhile
        for day in list_day_files(paths):
            reading = read_day(day.path, offsets.get(day.path, 0))
            assert all(b.reason.startswith("unterminated") for b in reading.bad_lines)
            offsets[day.path] = reading.offset
            seen.setdefault(day.path, []).extend(t.id for t in reading.turns)
        time.sleep(0.005)
    outputs = [run.communicate() for run in runs]
    assert all(run.returncode == 0 for run in runs), outputs
    counts = sorted(tuple(map(int, out.split())) for out, _ in outputs)
    assert sum(added for added, _ in counts) == 4500 and sum(dup for _, dup in counts) == 4500
    for day in list_day_files(paths):
        reading = read_day(day.path, offsets.get(day.path, 0))
        seen.setdefault(day.path, []).extend(t.id for t in reading.turns)
        full = read_day(day.path)
        assert not full.bad_lines and len(full.turns) == 1500
        assert len({t.id for t in full.turns}) == 1500
        assert seen[day.path] == [t.id for t in full.turns]


_text = st.text(max_size=40)


@settings(max_examples=200, deadline=None)
@given(fields=st.fixed_dictionaries({
    "id": _text.filter(bool), "actor": _text, "role": st.sampled_from(["user", "assistant", "system"]),
    "type": st.sampled_from(["text", "action", "meta"]), "text": _text, "model": st.none() | _text,
    "session": _text, "source": _text,
    "ts": st.datetimes(min_value=datetime(1000, 1, 2), max_value=datetime(9999, 12, 30),
                       timezones=st.sampled_from([UTC, timezone(timedelta(hours=9)), timezone(timedelta(hours=-5))])),
}))
def test_the_writer_serialises_exactly_like_to_json(fields: dict) -> None:
    iso = fields["ts"].isoformat()
    turn = Turn(**{**fields, "ts": format_ts(parse_ts(iso))})
    assert turn_line(turn) == turn.to_json()
    assert normal_ts(iso) == format_ts(parse_ts(iso))


_field = st.one_of(st.none(), st.integers(), _text, st.sampled_from(
    ["user", "assistant", "system", "text", "meta", "action", "2026-01-02T03:04:05.000000Z",
     "2026-02-30T03:04:05.000000Z", "2026-01-02T03:04:05Z", "0999-01-02T03:04:05.000000Z"]))


_VALID = {"id": "a", "ts": "2026-01-02T03:04:05.000000Z", "actor": "me", "role": "user", "type": "text",
          "text": "hi", "model": None, "session": "s", "source": "x"}
_near_valid = st.builds(
    lambda key, value, drop: {k: v for k, v in {**_VALID, key: value}.items() if k != drop},
    st.sampled_from([*_VALID, "other"]), _field, st.sampled_from([None, *_VALID]),
)


@settings(max_examples=400, deadline=None)
@given(obj=_near_valid | st.dictionaries(st.sampled_from([*_VALID, "other"]), _field, min_size=7))
def test_the_fast_check_agrees_with_turn_from_dict(obj: dict) -> None:
    def outcome(check: object) -> object:
        try:
            return check(dict(obj))  # type: ignore[operator]
        except Exception as exc:  # both must fail the same way
            return type(exc)

    assert outcome(checked_turn) == outcome(Turn.from_dict)


def _slow_parse(line: bytes) -> Turn:
    """What ``parse_line`` did before its msgspec path: ``json.loads``, then the checks in Python."""
    text = line.decode("utf-8")
    try:
        obj = json.loads(text)
    except ValueError:
        return Turn.from_json(text)
    return checked_turn(obj)


_ts_text = st.sampled_from([
    "2026-01-02T03:04:05.000000Z", "2026-02-29T03:04:05.000000Z", "2024-02-29T23:59:59.999999Z",
    "2026-13-02T03:04:05.000000Z", "2026-01-02T24:00:00.000000Z", "0999-01-02T03:04:05.000000Z",
    "1000-01-01T00:00:00.000000Z", "2026-01-02T03:04:05Z", "2026-01-02T03:04:05.000000+00:00",
    "2026-04-31T00:00:00.000000Z", "9999-12-31T23:59:59.999999Z", "2026-01-02 03:04:05.000000Z",
])


@settings(max_examples=500, deadline=None)
@given(obj=_near_valid | st.fixed_dictionaries({**{k: st.just(v) for k, v in _VALID.items()}, "ts": _ts_text}),
       ascii_only=st.booleans(), raw_text=st.sampled_from([None, '"\\ud800"', '"a\\u0000b"', '"\\"quoted\\""']))
def test_the_msgspec_line_path_agrees_with_the_general_one(obj: dict, ascii_only: bool, raw_text: str | None) -> None:
    line = json.dumps(obj, ensure_ascii=ascii_only)
    if raw_text is not None and "text" in obj:
        line = line.replace(json.dumps(obj["text"], ensure_ascii=ascii_only), raw_text, 1)
    data = line.encode("utf-8", "surrogatepass")

    def outcome(parse: object) -> object:
        try:
            return parse(data)  # type: ignore[operator]
        except Exception as exc:
            return type(exc), str(exc)

    assert outcome(parse_line) == outcome(_slow_parse)


def test_duplicate_keys_and_odd_lines_read_as_before() -> None:
    base = json.loads(Turn(id="a", ts="2026-01-02T03:04:05.000000Z", actor="me", role="user", type="text",
                           text="hi", model=None, session="s", source="x").to_json())
    lines = [
        json.dumps(base)[:-1] + ', "text": "second"}',  # a repeated key: the last one wins, as in json.loads
        json.dumps({**base, "extra": 1}),
        json.dumps({k: v for k, v in base.items() if k != "model"}),
        json.dumps({**base, "ts": "2026-02-30T03:04:05.000000Z"}),
        json.dumps(base).replace('"hi"', '"\\ud83d\\ude00"'),  # an escaped surrogate pair
        "[1, 2]", "not json", "",
    ]
    for line in lines:
        data = line.encode()
        results = []
        for parse in (parse_line, _slow_parse):
            try:
                results.append(parse(data))
            except Exception as exc:
                results.append((type(exc), str(exc)))
        assert results[0] == results[1], line
