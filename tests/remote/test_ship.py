"""The laptop's side: a capture goes to the spool and on to the home; while the home cannot be reached
the turns wait (``remote status`` shows them, with the last error in one line) and the next push ships
them in order, once; a home without reverie, with one too old, or speaking another protocol version is
named in one line."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from core.paths import HomePaths
from core.remote.ship import CommandTransport, RemoteUnreachable
from core.remote.spool import SpoolFull
from core.workbench import Workbench
from tests.remote.helpers import MACHINE, counts, laptop, receiver_transport, stored_turns, write_transcript


def _sh(script: str) -> CommandTransport:
    return CommandTransport(["sh", "-c", script], "ssh me@home")


def test_a_laptop_capture_lands_on_the_home_once_with_its_machine(tmp_path: Path) -> None:
    root, home = tmp_path / "laptop", tmp_path / "home"
    transcript = tmp_path / "s1.jsonl"
    write_transcript(transcript, "s1", ["plan the ferry", "the 9:40 ferry", "and back?", "the 17:10"])
    bench = laptop(root, home)
    assert bench.remote.is_laptop
    outcome = bench.remote.capture(bench.log.plan_ingest([transcript]), transport=receiver_transport(home))
    assert outcome.push_error is None and outcome.push is not None and outcome.push.added == outcome.capture.spooled
    again = bench.remote.capture(bench.log.plan_ingest([transcript]), transport=receiver_transport(home))
    assert again.push is not None and (again.push.added, again.push.duplicates) == (0, outcome.capture.spooled)
    turns = stored_turns(home)
    assert {t.text for t in turns} >= {"plan the ferry", "the 17:10"} and set(counts(home).values()) == {1}
    assert {t.machine for t in turns} == {MACHINE}
    assert sorted(p.name for p in root.iterdir()) == ["config.toml", "remotes.json", "spool"]  # nothing else kept


def test_turns_wait_in_the_spool_while_the_home_is_away_then_go_in_order_once(tmp_path: Path) -> None:
    root, home = tmp_path / "laptop", tmp_path / "home"
    transcript = tmp_path / "s1.jsonl"
    write_transcript(transcript, "s1", ["first words", "first answer"])
    bench = laptop(root, home)
    bench.remote.capture(bench.log.plan_ingest([transcript]), transport=receiver_transport(home))
    away = _sh("echo 'ssh: connect to host home port 22: Connection refused' >&2; exit 255")
    write_transcript(transcript, "s1", ["second words", "second answer"], first=2)
    outcome = bench.remote.capture(bench.log.plan_ingest([transcript]), transport=away)
    assert outcome.push is None and "cannot reach the home" in (outcome.push_error or "")
    write_transcript(transcript, "s1", ["third words"], first=4)
    bench.remote.capture(bench.log.plan_ingest([transcript]), transport=away)
    status = bench.remote.status()
    assert status.batches == 2 and status.turns == 5 + 6 and status.bytes > 0  # each capture: header + turns so far
    assert status.oldest_turn == "2026-03-02T09:00:00.000000Z" and "Connection refused" in (status.last_error or "")
    assert "\n" not in (status.last_error or "")
    report = bench.remote.push(transport=receiver_transport(home))
    assert (report.batches, report.waiting) == (2, 0)
    assert set(counts(home).values()) == {1} and len(counts(home)) == 6  # the session header and five turns
    assert bench.remote.status().turns == 0


@pytest.mark.parametrize(("script", "said"), [
    ("echo 'sh: 1: /opt/reverie: not found' >&2; exit 127", "the home has no reverie at this command"),
    ("echo \"Error: No such command 'remote'.\" >&2; exit 2", "the home's reverie is too old"),
    ("echo 'REVERIE-REMOTE 7'; cat >/dev/null", "the home speaks protocol 7, this reverie speaks 1"),
])
def test_a_home_that_cannot_take_batches_is_named_in_one_line(tmp_path: Path, script: str, said: str) -> None:
    root, home = tmp_path / "laptop", tmp_path / "home"
    transcript = tmp_path / "s1.jsonl"
    write_transcript(transcript, "s1", ["words"])
    bench = laptop(root, home)
    outcome = bench.remote.capture(bench.log.plan_ingest([transcript]), transport=_sh(script))
    assert outcome.push_error is not None and said in outcome.push_error and "\n" not in outcome.push_error
    assert bench.remote.status().turns == 2
    with pytest.raises(RemoteUnreachable, match=said):
        bench.remote.push(transport=_sh(script))


def test_a_full_spool_refuses_the_capture_and_loses_nothing(tmp_path: Path) -> None:
    root, home = tmp_path / "laptop", tmp_path / "home"
    laptop(root, home)
    (root / "config.toml").write_text('[remote]\nmachine = "laptop"\nspool_max_bytes = 4096\n', encoding="utf-8")
    bench = Workbench(HomePaths.at(root))
    away = _sh("exit 255")
    small, big = tmp_path / "small.jsonl", tmp_path / "big.jsonl"
    write_transcript(small, "s1", ["a few words"])
    write_transcript(big, "s2", ["x" * 3000, "y" * 3000])
    bench.remote.capture(bench.log.plan_ingest([small]), transport=away)
    with pytest.raises(SpoolFull, match=r"4,096 bytes \(\[remote\] spool_max_bytes in config.toml\)"):
        bench.remote.capture(bench.log.plan_ingest([big]), transport=away)
    assert bench.remote.status().turns == 2  # the first capture is whole, nothing of the refused one
    bench.remote.push(transport=receiver_transport(home))
    assert {t.text for t in stored_turns(home)} >= {"a few words"}


def test_the_ssh_command_is_batch_mode_to_the_home_s_receiver(tmp_path: Path) -> None:
    bench = laptop(tmp_path / "laptop", tmp_path / "home")
    bench.remote.add("desk", "me@desk.lan", port=2222, identity="/k/id", command="/opt/reverie/bin/reverie",
                     ssh_options=["UserKnownHostsFile=/k/known"])
    argv = list(bench.remote.transport("desk").argv)
    assert argv[:5] == ["ssh", "-T", "-o", "BatchMode=yes", "-o"] and sys.executable not in argv
    assert argv[-3:] == ["--", "me@desk.lan", "/opt/reverie/bin/reverie remote receive --machine laptop"]
    assert argv[argv.index("-p"):argv.index("-p") + 2] == ["-p", "2222"] and "UserKnownHostsFile=/k/known" in argv


def test_a_malformed_line_is_named_on_the_laptop_and_quarantined_on_the_home_only(tmp_path: Path) -> None:
    root, home = tmp_path / "laptop", tmp_path / "home"
    transcript = tmp_path / "s1.jsonl"
    write_transcript(transcript, "s1", ["good words"])
    with transcript.open("a", encoding="utf-8") as out:
        out.write('{"type": "user", "uuid": "broken", "message": \n')
    bench = laptop(root, home)
    outcome = bench.remote.capture(bench.log.plan_ingest([transcript]), transport=receiver_transport(home))
    assert [(e.file, e.line) for e in outcome.capture.rejected] == [(str(transcript), 2)]
    assert outcome.push is not None and outcome.push.quarantined == 1
    kept = "".join(p.read_text() for p in HomePaths.at(home).quarantine.glob("*.jsonl"))
    assert '\\"uuid\\": \\"broken\\"' in kept and f"{MACHINE}:{transcript}" in kept
    assert not (root / "quarantine").exists()


def test_watch_follow_on_a_laptop_spools_each_pass_and_ships_it(tmp_path: Path) -> None:
    root, home = tmp_path / "laptop", tmp_path / "home"
    projects = tmp_path / "projects"
    projects.mkdir()
    write_transcript(projects / "s1.jsonl", "s1", ["first words", "first answer"])
    bench = laptop(root, home)
    shipped: list[tuple[int, str | None]] = []
    follower = bench.remote.follower([projects], lambda r, e: shipped.append((r.added if r else -1, e)),
                                     transport=receiver_transport(home))
    assert follower.run_once().added == 3
    write_transcript(projects / "s1.jsonl", "s1", ["second words"], first=2)
    assert follower.run_once().added == 4  # the grown transcript, read again; the home adds only what is new
    assert shipped == [(3, None), (1, None)]
    assert len(counts(home)) == 4 and set(counts(home).values()) == {1}
