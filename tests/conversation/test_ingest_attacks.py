"""Bad inputs to `reverie ingest`, performed the way a user (or an attacker) would: a real process.

- F5 (issue 11): a turn dated 9999-12-31 used to be accepted, and every later ingest and seal then
  ended in an OverflowError traceback. Such lines are quarantined with a one-line reason, and a home
  that already holds such a day (written by an older version) still ingests and seals.
- F7 (issue 11): a FIFO named ``*.jsonl`` in an ingested folder hung the ingest forever.
- Issue 12: lines already in the quarantine are reported as such by a re-ingest, which exits 0.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from core.conversation import ingest, list_day_files, read_day
from core.conversation.seals import day_closed
from core.paths import HomePaths

PASSPHRASE = "ingest attack passphrase"


def reverie(*args: str, passphrase: str | None = PASSPHRASE, timeout: float = 60) -> subprocess.CompletedProcess:
    env = {**os.environ}
    if passphrase is not None:
        env["REVERIE_PASSPHRASE"] = passphrase
    return subprocess.run([sys.executable, "-m", "tui_app.cli.main", *args], capture_output=True, text=True,
                          env=env, timeout=timeout)


def generic_line(ts: str | int, text: str) -> str:
    return json.dumps({"ts": ts, "role": "user", "text": text})


def stored_texts(paths: HomePaths) -> list[str]:
    return [t.text for day in list_day_files(paths) for t in read_day(day.path).turns]


@pytest.fixture
def home(isolated_home: HomePaths) -> HomePaths:
    result = reverie("init")
    assert result.returncode == 0, result.stderr
    return isolated_home


# --- F5: far-future and out-of-range times -----------------------------------------------------------

def test_a_turn_dated_9999_is_quarantined_and_later_ingests_and_seals_work(home: HomePaths, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(generic_line("9999-12-31T23:59:59Z", "from the end of time") + "\n"
                   + generic_line("2026-01-05T10:00:00Z", "an ordinary morning") + "\n")
    first = reverie("ingest", str(bad))
    assert first.returncode == 0, first.stderr  # one good turn imported: the bad line is a warning
    assert "Traceback" not in first.stderr
    assert (f"{bad}:1: ts: 9999-12-31T23:59:59.000000Z is more than 1 day after the import" in first.stderr)
    assert stored_texts(home) == ["an ordinary morning"]
    good = tmp_path / "good.jsonl"
    good.write_text(generic_line("2026-01-06T10:00:00Z", "the next day") + "\n")
    second = reverie("ingest", str(good))
    assert second.returncode == 0, second.stdout + second.stderr
    sealed = reverie("seal")
    assert sealed.returncode == 0, sealed.stdout + sealed.stderr
    verified = reverie("verify")
    assert verified.returncode == 0, verified.stdout + verified.stderr


def test_a_home_already_holding_day_9999_still_ingests_and_seals(home: HomePaths, tmp_path: Path) -> None:
    # What an older version stored: a valid turn line in logs/9999/12/9999-12-31.jsonl.
    day = home.logs / "9999" / "12" / "9999-12-31.jsonl"
    day.parent.mkdir(parents=True)
    day.write_text(json.dumps({"actor": "user", "id": "old-1", "model": None, "role": "user", "session": "s",
                               "source": "generic:/x.jsonl", "text": "stored long ago", "ts":
                               "9999-12-31T23:59:59.000000Z", "type": "text"}, sort_keys=True) + "\n")
    good = tmp_path / "good.jsonl"
    good.write_text(generic_line("2026-01-06T10:00:00Z", "a later good file") + "\n")
    ingested = reverie("ingest", str(good))
    assert ingested.returncode == 0, ingested.stdout + ingested.stderr
    assert "Sealed 1 day: 2026-01-06" in ingested.stdout
    sealed = reverie("seal")
    assert sealed.returncode == 0 and "Traceback" not in sealed.stderr, sealed.stderr


@pytest.mark.parametrize(("ts", "reason"), [
    ("0001-01-01T00:00:00Z", "ts: year out of range"),
    ("0001-01-01T00:30:00+01:00", "ts: out of range"),
    ("9999-12-31T23:00:00-05:00", "ts: out of range"),  # past year 9999 once in UTC
    ("9999-12-31T23:59:59Z", "is more than 1 day after the import"),
    (253402300799, "is more than 1 day after the import"),  # the same moment in Unix seconds
])
def test_times_out_of_bounds_are_quarantined_with_a_reason(paths: HomePaths, tmp_path: Path, ts: object,
                                                            reason: str) -> None:
    source = tmp_path / "times.jsonl"
    source.write_text(generic_line(ts, "x") + "\n")  # type: ignore[arg-type]
    report = ingest(paths, [source])
    (entry,) = report.quarantined
    assert entry.line == 1 and reason in entry.reason and "\n" not in entry.reason
    assert report.added == 0


def test_the_future_bound_is_a_day_after_the_import(paths: HomePaths, tmp_path: Path) -> None:
    now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    source = tmp_path / "soon.jsonl"
    source.write_text(generic_line((now + timedelta(hours=23)).isoformat(), "a clock a little ahead") + "\n"
                      + generic_line((now + timedelta(hours=25)).isoformat(), "too far ahead") + "\n")
    report = ingest(paths, [source], now=now)
    assert report.added == 1 and [q.line for q in report.quarantined] == [2]
    assert "2026-12-02 at the latest" in report.quarantined[0].reason


def test_a_leap_second_is_kept_in_its_place(paths: HomePaths, tmp_path: Path) -> None:
    source = tmp_path / "leap.jsonl"
    source.write_text("\n".join([
        generic_line("2016-12-31T23:59:59Z", "before"),
        generic_line("2016-12-31T23:59:60Z", "the leap second"),
        generic_line("2017-01-01T08:59:60.5+09:00", "the same leap second in Seoul"),
        generic_line("2017-01-01T00:00:00Z", "after"),
    ]) + "\n")
    report = ingest(paths, [source])
    assert report.added == 4 and not report.quarantined
    turns = {t.text: t.ts for day in list_day_files(paths) for t in read_day(day.path).turns}
    assert turns["the leap second"] == turns["the same leap second in Seoul"] == "2016-12-31T23:59:59.999999Z"
    assert turns["before"] < turns["the leap second"] < turns["after"]


def test_day_closed_reaches_the_end_of_the_calendar() -> None:
    now = datetime(2026, 12, 1, tzinfo=UTC)
    assert day_closed("2026-11-29", now) and not day_closed("2026-11-30", now)
    assert not day_closed("9999-12-31", now)
    assert not day_closed("2026-02-30", now)  # a file name that is no date is never sealed
    assert day_closed("0001-01-01", now)


# --- F7: a FIFO named *.jsonl ------------------------------------------------------------------------

def test_a_fifo_in_an_ingested_folder_is_skipped_with_a_reason(home: HomePaths, tmp_path: Path) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    (folder / "chat.jsonl").write_text(generic_line("2026-01-05T10:00:00Z", "a real transcript") + "\n")
    fifo = folder / "pipe.jsonl"
    os.mkfifo(fifo)
    result = reverie("ingest", str(folder), timeout=30)  # the old code waited forever on the FIFO
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"Not read: {fifo}: a FIFO named like a transcript, not a regular file: not read" in result.stdout
    assert stored_texts(home) == ["a real transcript"]
    named = reverie("ingest", "--json", str(fifo), timeout=30)
    assert named.returncode == 0, named.stderr
    assert json.loads(named.stdout)["not_read"] == [
        f"{fifo}: a FIFO named like a transcript, not a regular file: not read"]


def test_a_symlink_to_a_fifo_is_not_read_either(paths: HomePaths, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "folder" / "looks-fine.jsonl"
    link.parent.mkdir()
    link.symlink_to(fifo)
    report = ingest(paths, [link.parent])
    assert report.added == 0 and report.not_read == [
        f"{link}: a FIFO named like a transcript, not a regular file: not read"]


# --- issue 12: a re-ingest is quiet about lines already quarantined -----------------------------------

def test_reingest_reports_known_bad_lines_as_already_quarantined(home: HomePaths, tmp_path: Path) -> None:
    source = tmp_path / "hook.jsonl"
    lines = [generic_line("2026-01-05T10:00:00Z", "good one")]
    lines += [f'{{"ts": "2026-01-05T10:0{n}:00Z", "role": "nobody", "text": "bad {n}"}}' for n in range(6)]
    source.write_text("\n".join(lines) + "\n")
    first = reverie("ingest", str(source))
    assert first.returncode == 0 and "6 lines quarantined" in first.stderr
    kept = sorted(home.quarantine.glob("*.jsonl"))
    before = [path.read_bytes() for path in kept]
    again = reverie("ingest", str(source))  # what a session-end hook does, every time
    assert again.returncode == 0, again.stdout + again.stderr
    assert "0 quarantined" in again.stdout and "6 lines already quarantined" in again.stdout
    assert again.stderr == ""
    assert [path.read_bytes() for path in kept] == before  # nothing quarantined twice
    with source.open("a") as handle:
        handle.write('{"ts": "2026-01-05T11:00:00Z", "role": "user"}\n')
    third = reverie("ingest", str(source))
    assert third.returncode == 0
    assert f"{source}:8: text: missing" in third.stderr and "1 line quarantined" in third.stderr
    assert "6 lines already quarantined" in third.stdout
