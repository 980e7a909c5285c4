"""``read_day`` decodes a day file's whole lines in one call when it can; what it returns is always
what reading line by line returns (turns, bad lines with their numbers, offset, unterminated tail)."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from core.conversation import read_day
from core.conversation.logline import LOG_LINE, stamps_ok
from core.conversation.store import BadLine, DayReading, parse_line, turn_line
from core.turns import Turn, TurnError


def _line_by_line(path: Path, data: bytes) -> DayReading:
    """The reference: every line through ``parse_line``, as ``read_day`` did before the whole-file path."""
    reading = DayReading()
    position, number = 0, 0
    while position < len(data):
        newline = data.find(b"\n", position)
        number += 1
        if newline < 0:
            reading.incomplete_tail = True
            reading.bad_lines.append(BadLine(path, number, "unterminated last line (an interrupted or ongoing write)"))
            break
        line, position = data[position:newline], newline + 1
        reading.offset = position
        try:
            reading.turns.append(parse_line(line))
        except UnicodeDecodeError as exc:
            reading.bad_lines.append(BadLine(path, number, f"not UTF-8 at byte {exc.start}"))
        except TurnError as exc:
            reading.bad_lines.append(BadLine(path, number, str(exc)))
    return reading


def _turn(n: int, text: str = "hello") -> str:
    return turn_line(Turn(id=f"t{n}", ts=f"2026-01-02T03:04:{n % 60:02d}.000000Z", actor="me", role="user",
                          type="text", text=text, model=None, session="s", source="x"))


_odd = st.sampled_from([
    "", " ", "\r", "{}", "[]", "1", "null", "not json",
    _turn(90) + "," + _turn(91),  # two values on one line
    _turn(92) + ",",
    _turn(93) + " " + _turn(94),
    _turn(95).replace('"user"', '"robot"', 1),
    _turn(96).replace("2026-01-02", "2026-02-30"),
    _turn(97).replace('"hello"', '"\\ud800"'),
    _turn(98).replace('.000000Z"', '.000000Z\\n"'),  # a ts ending in a newline: not the log's form
    json.dumps({"ts": "2026-01-02T03:04:05Z", "role": "user", "text": "generic", "id": "g1"}),
])
_lines = st.lists(
    st.one_of(st.builds(_turn, st.integers(0, 59), st.sampled_from(["hello", "서울숲에서 산책", "a\nb", "é"])), _odd),
    max_size=12,
)


@settings(max_examples=300, deadline=None)
@given(lines=_lines, tail=st.sampled_from(["", _turn(70), '{"ts": "20']))
def test_the_whole_file_path_agrees_with_reading_line_by_line(tmp_path_factory, lines: list[str], tail: str) -> None:
    path = tmp_path_factory.mktemp("day") / "2026-01-02.jsonl"
    data = "".join(line + "\n" for line in lines).encode() + tail.encode()
    path.write_bytes(data)
    got, want = read_day(path), _line_by_line(path, data)
    assert (got.turns, got.bad_lines, got.offset, got.incomplete_tail) == (
        want.turns, want.bad_lines, want.offset, want.incomplete_tail)


def test_a_read_from_an_offset_numbers_lines_from_the_start_of_the_file(tmp_path: Path) -> None:
    path = tmp_path / "2026-01-02.jsonl"
    path.write_text(_turn(1) + "\n" + _turn(2) + "\n")
    first = read_day(path)
    assert [t.id for t in first.turns] == ["t1", "t2"] and first.offset == path.stat().st_size
    with path.open("a") as handle:
        handle.write(_turn(3) + "\nnot json\n" + _turn(4) + "\n")
    later = read_day(path, first.offset)
    assert [t.id for t in later.turns] == ["t3", "t4"]
    assert [(b.line, b.reason[:8]) for b in later.bad_lines] == [(4, "not JSON")]
    assert later.offset == path.stat().st_size
    with path.open("a") as handle:
        handle.write(_turn(5) + "\n" + _turn(6) + "\n")
    whole = read_day(path, later.offset)
    assert [t.id for t in whole.turns] == ["t5", "t6"] and not whole.bad_lines


def test_a_ts_ending_in_a_newline_reads_the_same_on_both_paths(tmp_path: Path) -> None:
    """The fast path takes only the log's own form (its stamp check counts one stamp per value: a
    pattern ending in $ let a ts ending in a newline slip through); such a line goes the general way,
    as it does line by line."""
    path = tmp_path / "2026-01-02.jsonl"
    odd = _turn(1).replace('.000000Z"', '.000000Z\\n"')
    data = (_turn(0) + "\n" + odd + "\n").encode()
    path.write_bytes(data)
    whole, reference = read_day(path), _line_by_line(path, data)
    assert whole.turns == reference.turns and whole.bad_lines == reference.bad_lines
    assert whole.offset == reference.offset == len(data)
    assert not stamps_ok((LOG_LINE.decode(odd.encode()).ts,))  # the fast path declined it
