"""`reverie watch --follow`: assistant transcript folders ingested pass after pass, incrementally."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from core.config import parse_config
from core.conversation import follow as follow_module
from core.conversation import list_day_files, pipeline, read_day
from core.conversation.follow import Follower, FollowError
from core.index import HomeDayLogs, Reindexer, SearchIndex, Watcher
from core.paths import HomePaths
from core.turns import Turn
from tui_app.cli.main import cli

SESSION = "019a2d7a-41c4-78b1-b7cc-a45d62a89cd5"
CLAUDE_SESSION = "22222222-2222-4222-8222-222222222222"


def codex_line(second: int, kind: str, payload: dict) -> str:
    return json.dumps({"timestamp": f"2026-03-02T09:00:{second:02d}.000Z", "type": kind, "payload": payload}) + "\n"


def codex_message(second: int, role: str, text: str) -> str:
    block = "output_text" if role == "assistant" else "input_text"
    return codex_line(second, "response_item",
                      {"type": "message", "role": role, "content": [{"type": block, "text": text}]})


def codex_start(session: str = SESSION) -> str:
    return codex_line(0, "session_meta", {"id": session, "timestamp": "2026-03-02T09:00:00.000Z", "cwd": "/p",
                                          "originator": "codex_cli_rs", "cli_version": "0.46.0"})


def claude_record(n: int, kind: str, text: str) -> str:
    message = {"role": kind, "content": text} if kind == "user" else {
        "role": "assistant", "model": "claude-opus-4", "content": [{"type": "text", "text": text}]}
    return json.dumps({"type": kind, "uuid": f"00000000-0000-4000-8000-{n:012d}", "sessionId": CLAUDE_SESSION,
                       "timestamp": f"2026-03-02T10:00:{n:02d}.000Z", "message": message}) + "\n"


def rollout(root: Path, session: str = SESSION) -> Path:
    path = root / "2026" / "03" / "02" / f"rollout-2026-03-02T09-00-00-{session}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def append(path: Path, text: str) -> None:
    with path.open("a", encoding="utf-8") as handle:
        handle.write(text)


def stored(paths: HomePaths) -> list[Turn]:
    """The stored turns, without the session headers the Claude Code importer adds."""
    return [turn for day in list_day_files(paths) for turn in read_day(day.path).turns
            if not turn.id.endswith(":session")]


@pytest.fixture
def codex_root(tmp_path: Path) -> Path:
    return tmp_path / "codex" / "sessions"


@pytest.fixture
def claude_root(tmp_path: Path) -> Path:
    root = tmp_path / "claude" / "projects" / "-home-me-demo"
    root.mkdir(parents=True)
    return root.parent


def test_growing_transcript_yields_exactly_the_new_turns_once(paths: HomePaths, codex_root: Path) -> None:
    path = rollout(codex_root)
    path.write_text(codex_start() + codex_message(1, "user", "first question")
                    + '{"timestamp": "2026-03-02T09:00:02.000Z", "type": "response_item", "pay')  # still being written
    follower = Follower(paths, [codex_root])
    first = follower.run_once()
    assert (first.files, first.read, first.added, first.errors, first.quarantined) == (1, 1, 1, [], [])
    idle = follower.run_once()
    assert (idle.read, idle.added) == (0, 0)
    append(path, 'load": ' + json.dumps({"type": "message", "role": "assistant",
                                         "content": [{"type": "output_text", "text": "first answer"}]}) + "}\n")
    append(path, codex_message(3, "user", "second question"))
    grown = follower.run_once()
    assert (grown.read, grown.added, grown.duplicates) == (1, 2, 1)
    assert (follower.run_once().read, follower.run_once().added) == (0, 0)
    assert [t.text for t in stored(paths)] == ["first question", "first answer", "second question"]
    # A new follower (a new `reverie watch`) starts from the state file: nothing to read.
    again = Follower(paths, [codex_root]).run_once()
    assert (again.read, again.added) == (0, 0)
    assert (paths.cache / "follow.json").exists()


def test_a_file_added_to_the_folder_is_picked_up(paths: HomePaths, codex_root: Path) -> None:
    rollout(codex_root).write_text(codex_start() + codex_message(1, "user", "one"))
    follower = Follower(paths, [codex_root])
    assert follower.run_once().added == 1
    other = "019a2d7a-0000-7000-8000-000000000002"
    later = codex_root / "2026" / "03" / "03" / f"rollout-2026-03-03T08-00-00-{other}.jsonl"
    later.parent.mkdir(parents=True)
    later.write_text(codex_start(other) + codex_message(5, "user", "two"))
    report = follower.run_once()
    assert (report.files, report.read, report.added) == (2, 1, 1)
    assert {t.session for t in stored(paths)} == {SESSION, other}


def test_codex_and_claude_code_folders_together(paths: HomePaths, codex_root: Path, claude_root: Path) -> None:
    rollout(codex_root).write_text(codex_start() + codex_message(1, "user", "asked codex"))
    session = claude_root / "-home-me-demo" / f"{CLAUDE_SESSION}.jsonl"
    session.write_text(claude_record(1, "user", "asked claude"))
    (claude_root / "-home-me-demo" / "notes.txt").write_text("not a transcript")
    follower = Follower(paths, [codex_root, claude_root])
    assert follower.run_once().added == 3  # and the Claude Code session's header
    append(session, claude_record(2, "assistant", "claude answered"))
    report = follower.run_once()
    assert (report.read, report.added) == (1, 1)
    assert sorted((t.source.split(":")[0], t.text) for t in stored(paths)) == [
        ("claude-code", "asked claude"), ("claude-code", "claude answered"), ("codex", "asked codex")]


def test_an_unreadable_file_is_reported_once_and_the_others_go_on(
    paths: HomePaths, codex_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = rollout(codex_root)
    good.write_text(codex_start() + codex_message(1, "user", "readable"))
    bad = rollout(codex_root, "019a2d7a-0000-7000-8000-00000000000b")
    bad.write_text(codex_start("019a2d7a-0000-7000-8000-00000000000b") + codex_message(2, "user", "locked away"))
    real_detect = follow_module.detect_format

    def detect(path: Path) -> str | None:
        if path == bad.resolve():
            raise PermissionError(13, "Permission denied")
        return real_detect(path)

    monkeypatch.setattr(follow_module, "detect_format", detect)
    follower = Follower(paths, [codex_root])
    first = follower.run_once()
    assert first.added == 1
    assert [str(e) for e in first.errors] == [f"{bad.resolve()}: cannot be read: Permission denied"]
    assert follower.run_once().errors == []  # reported once, tried again quietly
    monkeypatch.setattr(follow_module, "detect_format", real_detect)
    fixed = follower.run_once()
    assert (fixed.read, fixed.added, fixed.errors) == (1, 1, [])
    assert sorted(t.text for t in stored(paths)) == ["locked away", "readable"]


def test_a_file_failing_while_read_does_not_hold_back_the_others(
    paths: HomePaths, codex_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = ["019a2d7a-0000-7000-8000-00000000000a", "019a2d7a-0000-7000-8000-00000000000b",
             "019a2d7a-0000-7000-8000-00000000000c"]
    files = []
    for n, name in enumerate(names):
        files.append(rollout(codex_root, name))
        files[-1].write_text(codex_start(name) + codex_message(n, "user", f"turn {n}"))
    real_read = pipeline.READERS["codex"]

    def read(path: Path, progress: object = None, *, latest: str | None = None) -> Iterator[object]:
        if path == files[1].resolve():
            raise OSError(5, "Input/output error")
        yield from real_read(path, progress, latest=latest)

    monkeypatch.setitem(pipeline.READERS, "codex", read)
    follower = Follower(paths, [codex_root])
    report = follower.run_once()
    assert sorted(t.text for t in stored(paths)) == ["turn 0", "turn 2"]
    assert len(report.errors) == 1 and str(files[1].resolve()) in str(report.errors[0])
    assert "Input/output error" in str(report.errors[0])
    monkeypatch.setitem(pipeline.READERS, "codex", real_read)
    assert follower.run_once().added == 1  # tried again, since it was never read
    assert sorted(t.text for t in stored(paths)) == ["turn 0", "turn 1", "turn 2"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_a_file_without_read_permission(paths: HomePaths, codex_root: Path) -> None:
    path = rollout(codex_root)
    path.write_text(codex_start() + codex_message(1, "user", "x"))
    path.chmod(0)
    try:
        report = Follower(paths, [codex_root]).run_once()
    finally:
        path.chmod(0o600)
    assert "Permission denied" in str(report.errors[0])


def test_malformed_lines_are_reported_once(paths: HomePaths, codex_root: Path) -> None:
    path = rollout(codex_root)
    path.write_text(codex_start() + "{broken\n" + codex_message(2, "user", "fine"))
    follower = Follower(paths, [codex_root])
    first = follower.run_once()
    assert [(e.line, e.file) for e in first.quarantined] == [(2, str(path.resolve()))]
    append(path, codex_message(3, "user", "more"))
    grown = follower.run_once()
    assert grown.added == 1 and grown.quarantined == []


def test_a_missing_folder_is_reported_and_watched_for(paths: HomePaths, tmp_path: Path) -> None:
    missing = tmp_path / "not-yet"
    follower = Follower(paths, [missing])
    report = follower.run_once()
    assert [str(e) for e in report.errors] == [f"{missing.resolve()}: no such file or folder (yet); watching for it"]
    assert follower.run_once().errors == []
    rollout(missing).write_text(codex_start() + codex_message(1, "user", "it exists now"))
    assert follower.run_once().added == 1


def test_watcher_follows_then_indexes_and_survives_errors(
    paths: HomePaths, codex_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rollout(codex_root).write_text(codex_start() + codex_message(1, "user", "the zeppelin plan"))
    broken = rollout(codex_root, "019a2d7a-0000-7000-8000-00000000000e")
    broken.write_text(codex_start("019a2d7a-0000-7000-8000-00000000000e") + codex_message(2, "user", "x"))
    real_detect = follow_module.detect_format
    monkeypatch.setattr(follow_module, "detect_format",
                        lambda p: (_ for _ in ()).throw(PermissionError(13, "Permission denied"))
                        if p == broken.resolve() else real_detect(p))
    errors: list[Exception] = []
    index = SearchIndex.open(paths)
    reindexer = Reindexer(index, HomeDayLogs(paths))
    watcher = Watcher(reindexer, interval=0.01, embed=False, on_error=errors.append,
                      follower=Follower(paths, [codex_root]))
    with index, reindexer:
        assert watcher.run(max_passes=2) == 1
        assert len(index.exact_search("zeppelin")) == 1
    assert len(errors) == 1 and isinstance(errors[0], FollowError)


def test_cli_watch_once_with_follow_and_config(paths: HomePaths, codex_root: Path, claude_root: Path) -> None:
    rollout(codex_root).write_text(codex_start() + codex_message(1, "user", "from the flag"))
    (claude_root / "-home-me-demo" / f"{CLAUDE_SESSION}.jsonl").write_text(claude_record(1, "user", "from config"))
    paths.config.write_text(f'[watch]\nfollow = ["{claude_root}"]\n')
    assert parse_config(paths.config.read_text()).watch.follow == [str(claude_root)]
    result = CliRunner().invoke(cli, ["watch", "--once", "--no-embed", "--follow", str(codex_root)],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "followed: +3 turns from 2 transcript(s)" in result.stdout  # 2 and a session header
    with SearchIndex.open(paths) as index:
        assert len(index.exact_search("flag")) == 1 and len(index.exact_search("config")) == 1
    result = CliRunner().invoke(cli, ["watch", "--once", "--no-embed", "--follow", str(codex_root / "nope")])
    assert result.exit_code == 2  # a --follow path that does not exist is a usage error


def test_nothing_is_followed_unless_asked() -> None:
    assert parse_config("").watch.follow == []
