"""A value that ends in a newline is not the value: Python's ``$`` also matches before a final "\n",
so validators anchored with ``$`` took "2026-01-01T10:00:00.000000Z\n" for a ts in the log's form
(the turn was stored with the newline in its ts) and "2026-01-01.jsonl\n" for a day file's name.
They anchor with ``\\Z``; a bad ts is the usual one-line error naming the file, line and field."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from core.conversation import codex, items, list_day_files, read_day, seals
from core.conversation.store import parse_line
from core.index import HomeDayLogs
from core.index.logsource import read_records, scan_days
from core.paths import HomePaths
from core.turns import DAY_FILE_NAME, TurnError, day_file

GOOD_TS = "2026-01-01T10:00:00.000000Z"
NEWLINE_TS = [GOOD_TS + "\n", "2026-01-01T10:00:00+00:00\n", GOOD_TS + "\n" + GOOD_TS]


def _line(ts: str, turn_id: str = "t1") -> str:
    return json.dumps({"actor": "me", "id": turn_id, "model": None, "role": "user", "session": "s", "source": "test",
                       "text": "at the pier", "ts": ts, "type": "text"}, ensure_ascii=False, sort_keys=True)


@pytest.mark.parametrize("ts", NEWLINE_TS)
def test_parse_line_refuses_a_ts_with_a_newline_naming_the_field(ts: str) -> None:
    with pytest.raises(TurnError, match=r"^ts: "):
        parse_line(_line(ts).encode())
    with pytest.raises(TurnError, match=r"^ts: "):
        items.checked_turn(json.loads(_line(ts)))  # the general path itself, as importers reach it
    assert parse_line(_line(GOOD_TS).encode()).ts == GOOD_TS


@pytest.mark.parametrize("ts", NEWLINE_TS)
def test_a_day_file_line_with_such_a_ts_is_a_bad_line_and_the_rest_is_read(paths: HomePaths, ts: str) -> None:
    """The store and the index's own reader: the line is reported as PATH:LINE: ts: …, one line, and
    the index gets the other turns only."""
    path = day_file(paths.logs, "2026-01-01")
    path.parent.mkdir(parents=True)
    path.write_text(_line(GOOD_TS, "t1") + "\n" + _line(ts, "t2") + "\n" + _line(GOOD_TS, "t3") + "\n",
                    encoding="utf-8")
    reading = read_day(path)
    assert [t.id for t in reading.turns] == ["t1", "t3"]
    assert [str(b).split(": ts: ")[0] for b in reading.bad_lines] == [f"{path}:2"]
    assert "\n" not in str(reading.bad_lines[0])
    assert read_records(path) is None  # the index's whole-file reader declines it
    chunk = HomeDayLogs(paths).read(path, 0)
    assert [t.id for t in chunk.turns] == ["t1", "t3"] and [b.split(": ts: ")[0] for b in chunk.bad_lines] == [
        f"{path}:2"]


def test_a_file_named_like_a_day_file_but_for_a_final_newline_is_not_listed(paths: HomePaths) -> None:
    folder = paths.logs / "2026" / "01"
    folder.mkdir(parents=True)
    (folder / "2026-01-02.jsonl").write_text(_line("2026-01-02T10:00:00.000000Z") + "\n", encoding="utf-8")
    (folder / "2026-01-03.jsonl\n").write_text(_line("2026-01-03T10:00:00.000000Z") + "\n", encoding="utf-8")
    assert [d.day for d in list_day_files(paths)] == ["2026-01-02"]
    assert [Path(p).name for _, p, _, _ in scan_days(paths.logs)] == ["2026-01-02.jsonl"]


@pytest.mark.parametrize(("pattern", "value"), [
    (DAY_FILE_NAME, "2026-01-01.jsonl"),  # both the store and the index list day files by it
    (seals._RECORD_ID, "logs/2026/01/2026-01-01.jsonl"),
    (items._TS_SHAPE, GOOD_TS),
])
def test_anchored_validators_refuse_a_final_newline(pattern: re.Pattern[str], value: str) -> None:
    assert pattern.match(value) is not None
    assert pattern.match(value + "\n") is None


def test_a_codex_file_name_with_a_final_newline_names_no_session() -> None:
    name = "rollout-2026-01-01T10-00-00-0192a3b4-c5d6-7e8f-9a0b-1c2d3e4f5a6b.jsonl"
    assert codex._FILE_UUID.search(name) is not None
    assert codex._FILE_UUID.search(name + "\n") is None


def test_an_imported_leap_second_with_a_final_newline_is_refused() -> None:
    with pytest.raises(TurnError, match=r"^ts: "):
        items.normal_ts("2016-12-31T23:59:60Z\n")
    assert items.normal_ts("2016-12-31T23:59:60Z") == "2016-12-31T23:59:59.999999Z"
