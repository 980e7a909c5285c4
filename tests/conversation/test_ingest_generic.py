"""Generic JSONL: ids kept or derived, every bad line quarantined with its line, bounded lines, fuzzing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.conversation import generic, ingest, lines, list_day_files, read_day
from core.conversation.items import Rejected, Skipped
from core.paths import HomePaths
from core.turns import Turn, TurnError

CHAT = Path(__file__).parents[1] / "fixtures" / "conversation" / "generic" / "chat.jsonl"


def all_turns(paths: HomePaths) -> list[Turn]:
    return [t for d in list_day_files(paths) for t in read_day(d.path).turns]


def test_fixture_turns_fields_and_days(paths: HomePaths) -> None:
    report = ingest(paths, [CHAT])
    turns = {t.text: t for t in all_turns(paths)}
    assert report.added == 5 == len(turns)
    kate = turns["어제 서울숲에서 산책했어"]
    assert (kate.id, kate.actor, kate.session, kate.ts) == ("kate-1", "kate", "s1", "2026-03-01T00:00:00.000000Z")
    reply = turns["좋았겠다! 会議の後で?"]
    assert (reply.actor, reply.model, reply.type) == ("assistant", "gpt-x", "text")
    assert reply.id.startswith("g-") and len(reply.id) == 34
    epoch = turns["a time in Unix seconds"]
    assert (epoch.id, epoch.ts, epoch.session) == ("42", "2026-03-01T00:00:00.000000Z", "chat")
    assert turns["a note"].type == "meta" and turns["a note"].role == "system"
    assert turns["late evening west of Greenwich"].day == "2026-03-03"
    assert {d.day for d in list_day_files(paths)} == {"2026-03-01", "2026-03-03"}
    assert all(t.source == f"generic:{CHAT}" for t in turns.values())


def test_fixture_bad_lines_are_quarantined_with_file_and_line(paths: HomePaths) -> None:
    report = ingest(paths, [CHAT])
    assert [str(q) for q in report.quarantined] == [
        f"{CHAT}:4: ts: not an ISO-8601 time: 'yesterday'",
        f"{CHAT}:5: role: must be one of user, assistant, system, got 'robot'",
        f"{CHAT}:7: not JSON: Expecting ',' delimiter (column 68)",
        f"{CHAT}:9: ts: no timezone in '2026-03-01T10:00:00'",
    ]
    assert report.skipped == {"blank line": 1, "generic: empty text": 1, "generic: unknown field 'mood' ignored": 1}
    assert report.exit_code == 0  # quarantined beside imported turns: a warning
    (quarantine_file,) = paths.quarantine.glob("*.jsonl")
    assert quarantine_file.stat().st_mode & 0o777 == 0o600
    entries = [json.loads(line) for line in quarantine_file.read_text().splitlines()]
    raw_lines = CHAT.read_text().splitlines()
    assert [(e["source"], e["line"], e["raw"]) for e in entries] == [
        (str(CHAT), n, raw_lines[n - 1]) for n in (4, 5, 7, 9)
    ]


def test_given_id_is_kept_and_derived_id_is_stable(paths: HomePaths, tmp_path: Path) -> None:
    a = tmp_path / "a.jsonl"
    a.write_text('{"ts": "2026-01-02T03:04:05Z", "role": "user", "text": "hello"}\n'
                 '{"ts": "2026-01-02T03:04:06Z", "role": "user", "text": "hello", "id": "mine"}\n')
    b = tmp_path / "b.jsonl"  # the same first turn, time written differently, from another file
    b.write_text('{"ts": "2026-01-02T04:04:05+01:00", "role": "user", "text": "hello", "session": "a"}\n')
    first = ingest(paths, [a])
    assert first.added == 2
    second = ingest(paths, [b])
    assert (second.added, second.duplicates) == (0, 1)
    assert sorted(t.id for t in all_turns(paths))[1] == "mine"


def test_oversized_line_is_copied_to_quarantine_and_the_rest_imported(
    paths: HomePaths, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lines, "MAX_LINE_BYTES", 1024)
    big = '{"ts": "2026-01-02T03:04:05Z", "role": "user", "text": "' + "x" * 5000 + '"}'
    source = tmp_path / "big.jsonl"
    source.write_text('{"ts": "2026-01-02T03:04:05Z", "role": "user", "text": "before"}\n' + big + "\n"
                      '{"ts": "2026-01-02T03:04:06Z", "role": "user", "text": "after"}\n')
    report = ingest(paths, [source])
    assert [t.text for t in all_turns(paths)] == ["before", "after"]
    (entry,) = report.quarantined
    assert (entry.line, entry.reason) == (2, "line of 5059 bytes is over the 1024-byte limit; copied, not parsed")
    kept = json.loads(next(paths.quarantine.glob("*.jsonl")).read_text())
    assert (paths.quarantine / kept["raw_file"]).read_text() == big + "\n"
    assert "raw" not in kept and kept["bytes"] == len(big) + 1
    raw_file = paths.quarantine / kept["raw_file"]
    first_copy = raw_file.stat()
    again = ingest(paths, [source])  # a re-ingest reports the line as known and copies nothing again
    assert again.quarantined == [] and [q.line for q in again.already_quarantined] == [2]
    assert len(list(paths.quarantine.glob("*.raw"))) == 1
    assert (raw_file.stat().st_ino, raw_file.stat().st_mtime_ns) == (first_copy.st_ino, first_copy.st_mtime_ns)
    raw_file.unlink()  # a copy that went missing is made again
    ingest(paths, [source])
    assert raw_file.read_text() == big + "\n"


def test_the_real_limit_is_16_mib(paths: HomePaths, tmp_path: Path) -> None:
    source = tmp_path / "huge.jsonl"
    with source.open("w") as out:
        out.write('{"ts": "2026-01-02T03:04:05Z", "role": "user", "text": "')
        out.write("y" * (16 * 1024 * 1024))
        out.write('"}\n{"ts": "2026-01-02T03:04:06Z", "role": "user", "text": "small"}\n')
    raws = list(lines.iter_lines(source))
    assert raws[0].data is None and raws[0].length == 16 * 1024 * 1024 + 59
    assert raws[1].data is not None and raws[1].start == raws[0].length
    report = ingest(paths, [source])
    assert report.added == 1 and report.quarantined[0].line == 1


def test_unterminated_last_line_waits_for_the_next_ingest(paths: HomePaths, tmp_path: Path) -> None:
    source = tmp_path / "live.jsonl"
    source.write_text('{"ts": "2026-01-02T03:04:05Z", "role": "user", "text": "one"}\n{"ts": "2026-01-0')
    report = ingest(paths, [source])
    assert report.added == 1 and not report.quarantined
    assert report.skipped == {"unterminated last line (still being written?); read on the next ingest": 1}
    with source.open("a") as out:
        out.write('2T03:04:06Z", "role": "user", "text": "two"}\n')
    assert ingest(paths, [source]).added == 1


def test_crlf_and_bom_are_tolerated(paths: HomePaths, tmp_path: Path) -> None:
    source = tmp_path / "windows.jsonl"
    source.write_bytes(b'\xef\xbb\xbf{"ts": "2026-01-02T03:04:05Z", "role": "user", "text": "one"}\r\n'
                       b'{"ts": "2026-01-02T03:04:06Z", "role": "user", "text": "two"}\r\n')
    assert ingest(paths, [source], fmt="generic").added == 2


@pytest.mark.parametrize(("record", "reason"), [
    ({"role": "user", "text": "x"}, "ts: missing"),
    ({"ts": "0001-01-01T00:00:00+01:00", "role": "user", "text": "x"}, "ts: out of range: '0001-01-01T00:00:00+01:00'"),
    ({"ts": "0999-01-01T00:00:00Z", "role": "user", "text": "x"}, "ts: year out of range: '0999-01-01T00:00:00Z'"),
    ({"ts": 1e300, "role": "user", "text": "x"}, "ts: 1e+300 is not a time in range"),
    ({"ts": True, "role": "user", "text": "x"}, "ts: must be an ISO-8601 string or Unix seconds, got bool"),
    ({"ts": "2026-01-01T00:00:00Z", "role": "user"}, "text: missing"),
    ({"ts": "2026-01-01T00:00:00Z", "role": "user", "text": "x", "type": "note"},
     "type: must be one of text, action, meta, got 'note'"),
    ({"ts": "2026-01-01T00:00:00Z", "role": "user", "text": "x", "id": ""},
     "id: must be a non-empty string or an integer, got ''"),
    ({"ts": "2026-01-01T00:00:00Z", "role": "user", "text": "x", "session": 3}, "session: must be a string, got int"),
    ({"ts": "2026-01-01T00:00:00Z", "role": "user", "text": "\ud800"},
     "text: holds an unpaired UTF-16 surrogate at character 0"),
])
def test_each_bad_field_is_named(record: dict, reason: str) -> None:
    with pytest.raises(TurnError) as caught:
        generic.turn_from_generic(record, source="generic:x", default_session="x")
    assert str(caught.value) == reason


# --- fuzzing: any input gives a result or a one-line reason, never a traceback --------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
field_values = st.one_of(
    json_values,
    st.sampled_from(["user", "assistant", "system", "text", "meta", "action", "2026-01-01T00:00:00Z",
                     "2026-01-01T00:00:00", "1969-12-31T23:59:59-23:59", "9999-12-31T23:59:59-01:00",
                     "\ud83d half an emoji", 1e308, -62135596800, 253402300800]),
)
records = st.dictionaries(st.sampled_from([*generic.FIELDS, "extra"]), field_values, max_size=9)


@settings(max_examples=300, deadline=None)
@given(record=records)
def test_fuzz_records(record: dict) -> None:
    try:
        turn = generic.turn_from_generic(record, source="generic:f", default_session="f")
    except TurnError as exc:
        assert "\n" not in str(exc) and str(exc)
        return
    assert Turn.from_json(turn.to_json()) == turn  # whatever is accepted reads back exactly


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.lists(st.one_of(st.binary(max_size=60), records.map(lambda r: json.dumps(r).encode())), max_size=6))
def test_fuzz_files(tmp_path: Path, data: list[bytes]) -> None:
    source = tmp_path / "fuzz.jsonl"
    source.write_bytes(b"\n".join(data))
    for item in generic.read(source):
        if isinstance(item, Rejected):
            assert item.reason and "\n" not in item.reason and item.line >= 1
        elif isinstance(item, Skipped):
            assert item.reason
        else:
            assert Turn.from_json(item.to_json()) == item
